#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""zram's dict= on each data set (make bench-dict).

usage: dict.py ZBEWALGO_TOOL DATA_DIR OUT_FILE [REPS]

A dictionary trained by `zbewalgo train-dict` on the first half of a set's
pages is measured on the second half, against the same compressors
without one; then one dictionary trained on a mix of all sets (an eighth
of each) on every second half.  zstd-N+dict compresses as zram's zstd
backend does with dict= (a CDict with the level's parameters for a page).
Ratios are zram's (a result at or above its threshold counts as a page).
"""
import csv
import io
import math
import os
import subprocess
import sys
import tempfile
import time

PAGE = 4096
ALGS = ['zbewalgo', 'zstd-3', 'zstd-8', 'zstd-3+dict', 'zstd-8+dict']


def ratios(tool, path, dictf, reps):
    out = subprocess.run([tool, 'bench', '-r', str(reps), '--csv', '--dict', dictf,
                          '-a', ','.join(ALGS), path], check=True,
                         capture_output=True, text=True).stdout
    return {r['algorithm']: float(r['ratio_zram']) for r in csv.DictReader(io.StringIO(out))}


def train(tool, out, path):
    subprocess.run([tool, 'train-dict', '-o', out, path], check=True,
                   capture_output=True)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    tool, data, outf = sys.argv[1:4]
    reps = sys.argv[4] if len(sys.argv) == 5 else '3'
    sets = sorted(f for f in os.listdir(data) if os.path.isfile(os.path.join(data, f))
                  and not f.startswith('.'))
    lines = ['# zbewalgo bench --dict on %s, load %s' % (
                 time.strftime('%Y-%m-%d', time.gmtime()),
                 ' '.join(open('/proc/loadavg').read().split()[:3])),
             '# per set: a dictionary (zbewalgo train-dict) from the first half of its pages,',
             '# ratios on the second half; mix: one dictionary from an eighth of every set',
             '%-22s %-5s' % ('set', 'dict') + ''.join('%13s' % a for a in ALGS)]
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        mix = os.path.join(tmp, 'mix')
        with open(mix, 'wb') as m:
            for s in sets:
                d = open(os.path.join(data, s), 'rb').read()
                m.write(d[:len(d) // PAGE // 8 * PAGE])
        train(tool, mix + '.dict', mix)
        for s in sets:
            d = open(os.path.join(data, s), 'rb').read()
            n = len(d) // PAGE
            tr, te = os.path.join(tmp, 'train'), os.path.join(tmp, 'test')
            open(tr, 'wb').write(d[:n // 2 * PAGE])
            open(te, 'wb').write(d[n // 2 * PAGE:n * PAGE])
            train(tool, tr + '.dict', tr)
            for kind, df in (('own', tr + '.dict'), ('mix', mix + '.dict')):
                r = ratios(tool, te, df, reps)
                rows[(s, kind)] = r
                lines.append('%-22s %-5s' % (s, kind) + ''.join('%13.3f' % r[a] for a in ALGS))
    for kind in ('own', 'mix'):
        g = {a: math.exp(sum(math.log(rows[(s, kind)][a]) for s in sets) / len(sets))
             for a in ALGS}
        lines.append('%-22s %-5s' % ('geomean', kind) + ''.join('%13.3f' % g[a] for a in ALGS))
        lines.append('  %s: zbewalgo / zstd-3+dict %.3f, zstd-8+dict / zstd-3 %.3f, '
                     'zstd-3+dict / zstd-3 %.3f' % (kind, g['zbewalgo'] / g['zstd-3+dict'],
                                                     g['zstd-8+dict'] / g['zstd-3'],
                                                     g['zstd-3+dict'] / g['zstd-3']))
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    with open(outf, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
