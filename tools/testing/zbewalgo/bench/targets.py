#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarise a `zbewalgo bench --csv` file against the performance targets.

usage: targets.py SETS_CSV

For every algorithm, over the files of the CSV (same run, same machine):
its ratio against the better of zstd-3 and lz4hc-9 (target 1), its
compression speed against lz4 (target 2), its decompression speed against
zstd-3 (target 4), each as a geometric mean and a minimum with the file
that gives it.  Speeds are only comparable within one run.
"""
import csv
import math
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    by_file = {}
    for r in csv.DictReader(open(sys.argv[1])):
        by_file.setdefault(r['file'].rsplit('/', 1)[-1], {})[r['algorithm']] = r
    algs = list(next(iter(by_file.values())))

    def ratio(r):
        return float(r['ratio_zram'])

    def dec(r):
        return float(r['decompress_mibps'])

    # each column: (name, value of record r of an algorithm in file row a)
    cols = (
        ('ratio/best', lambda a, r: ratio(r) /
         max(ratio(a['zstd-3']), ratio(a['lz4hc-9']))),
        ('comp/lz4', lambda a, r: float(r['compress_vs_lz4'])),
        ('dec/zstd-3', lambda a, r: dec(r) / dec(a['zstd-3'])),
    )
    print(('%-16s' % 'algorithm' + ''.join(
        '%12s %8s %-20s' % (c + ' geo', 'min', 'at') for c, _ in cols)).rstrip())
    for alg in algs:
        line = '%-16s' % alg
        for _, f in cols:
            vals = {name: f(a, a[alg]) for name, a in by_file.items()}
            geo = math.exp(sum(math.log(v) for v in vals.values()) / len(vals))
            low = min(vals, key=vals.get)
            line += '%12.3f %8.3f %-20s' % (geo, vals[low], low[:20])
        print(line.rstrip())
    return 0


if __name__ == '__main__':
    sys.exit(main())
