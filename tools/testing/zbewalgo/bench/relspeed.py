#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""zbewalgo's speed relative to zstd and lz4 in one run (make bench-arm64).

usage: relspeed.py [--label TEXT] [--native NATIVE_DIR] RUN_DIR

RUN_DIR holds the `zbewalgo bench --csv` files of one run, one per table
(sets.csv, realswap.csv, ...).  For every zbewalgo level measured, and
every other compressor of OTHERS measured, prints the geometric mean over
the inputs of each table, and over the inputs of all tables together, of

    zbewalgo's MiB/s / the other's MiB/s    (input by input, same run)

for compression and for decompression: above 1, zbewalgo is faster.  Only
times of one run are put against each other, so the figures hold for a
run under an emulator too, where no time is a real CPU's.

NATIVE_DIR: the same inputs measured by another build (the host's
native tool); its figures follow as a reference, and every compressed
size of RUN_DIR is checked against it (the same code must write the same
bytes on every architecture).
"""
import argparse
import csv
import glob
import math
import os
import sys

OTHERS = ('zstd-3', 'zstd-1', 'lz4')
# Tables in this order first; any other after them, by name.
ORDER = ('sets', 'realswap')


def read_run(directory):
    """{table: {(file, algorithm): record}}, tables in ORDER first."""
    paths = glob.glob(os.path.join(directory, '*.csv'))
    key = lambda p: (ORDER.index(name(p)) if name(p) in ORDER else len(ORDER),
                     name(p))
    run = {}
    for p in sorted(paths, key=key):
        with open(p, newline='') as f:
            recs = list(csv.DictReader(f))
        if recs and 'file' in recs[0] and 'algorithm' in recs[0]:
            run[name(p)] = {(r['file'], r['algorithm']): r for r in recs}
    if not run:
        raise SystemExit('relspeed: no bench records in %s' % directory)
    return run


def name(path):
    return os.path.splitext(os.path.basename(path))[0]


def inputs(recs):
    seen = []
    for f, _ in recs:
        if f not in seen:
            seen.append(f)
    return seen


def algorithms(run):
    algs = []
    for recs in run.values():
        for _, a in recs:
            if a not in algs:
                algs.append(a)
    return algs


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def rel(pairs, alg, other, col):
    """Geometric mean over PAIRS [(recs, file)] of alg's COL over other's,
    on the inputs that have both; None when none has."""
    v = [float(recs[(f, alg)][col]) / float(recs[(f, other)][col])
         for recs, f in pairs if (f, alg) in recs and (f, other) in recs]
    return geomean(v) if v else None


def cell(x):
    return '%7s' % '-' if x is None else '%7.2f' % x


def table(run, title):
    algs = algorithms(run)
    levels = [a for a in algs if a.startswith('zbewalgo') and '+' not in a]
    others = [o for o in OTHERS if o in algs]
    groups = [('%s (%d)' % (t, len(inputs(recs))),
               [(recs, f) for f in inputs(recs)]) for t, recs in run.items()]
    if len(groups) > 1:
        every = [p for _, g in groups for p in g]
        groups.append(('all (%d)' % len(every), every))
    w = max(len(g) for g, _ in groups)
    out = ['# %s' % title,
           '# %-*s %-11s ' % (w, 'inputs', 'algorithm') +
           ''.join('%14s' % ('vs ' + o) for o in others),
           '# %-*s %-11s ' % (w, '', '') + '   comp    dec' * len(others)]
    for g, pairs in groups:
        for lv in levels:
            cells = ''.join(
                cell(rel(pairs, lv, o, 'compress_mibps')) +
                cell(rel(pairs, lv, o, 'decompress_mibps'))
                for o in others)
            out.append('  %-*s %-11s %s' % (w, g, lv, cells))
    return out


def same_bytes(run, native):
    """Lines saying whether every compressed size matches NATIVE's."""
    n = diff = 0
    first = None
    for t, recs in run.items():
        for k, r in recs.items():
            o = native.get(t, {}).get(k)
            if o is None:
                continue
            n += 1
            if (r['plain_bytes'], r['zram_bytes']) != \
                    (o['plain_bytes'], o['zram_bytes']):
                diff += 1
                first = first or '%s %s' % k
    if not n:
        return ['# sizes: no input measured by both builds']
    if diff:
        return ['# sizes: %d of %d (input, algorithm) pairs differ from the '
                'native build, first %s' % (diff, n, first)]
    return ['# sizes: all %d (input, algorithm) pairs compress to the same '
            'sizes as in the native build: the ratios are those of x86_64'
            % n]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--label', default='this run')
    ap.add_argument('--native')
    ap.add_argument('run_dir')
    args = ap.parse_args(argv[1:])
    run = read_run(args.run_dir)
    out = table(run, 'summary: geometric means over the inputs of zbewalgo\'s '
                'speed over the other\'s, %s (> 1: zbewalgo faster)'
                % args.label)
    if args.native:
        native = read_run(args.native)
        out += [''] + same_bytes(run, native)
        out += [''] + table(native, 'for reference, the same on the host, '
                            'natively: the x86_64 build, same inputs and '
                            'options, run right after')
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv)
