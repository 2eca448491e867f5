#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""zram's dict= on each data set (make bench-dict).

usage: dict.py ZBEWALGO_TOOL DATA_DIR OUT_FILE [REPS] [TEST_DIR]

A dictionary trained by `zbewalgo train-dict` on the first half of a set's
pages is measured on the second half, against the same compressors
without one; then one dictionary trained on a mix of all sets (an eighth
of each) on every second half.  zstd-N+dict compresses as zram's zstd
backend does with dict= (a CDict with the level's parameters for a page
and the dictionary's size), zbewalgo+dict as zram's zbewalgo backend
does.  With TEST_DIR, each of its files of at least 16 pages too, with a
dictionary of its own first half.
Ratios are zram's (a result at or above its threshold counts as a page);
speeds (MiB/s of pages, geometric means) are of the same run.
"""
import csv
import io
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render  # noqa: E402

PAGE = 4096
ALGS = ['zbewalgo', 'zbewalgo+dict', 'zstd-3', 'zstd-8', 'zstd-3+dict',
        'zstd-8+dict']
MIN_PAGES = 16


def ratios(tool, path, dictf, reps):
    """{algorithm: (ratio, compress MiB/s)} of one run."""
    out = subprocess.run([tool, 'bench', '-r', str(reps), '--csv', '--dict', dictf,
                          '-a', ','.join(ALGS), path], check=True,
                         capture_output=True, text=True).stdout
    return {r['algorithm']: (float(r['ratio_zram']), float(r['compress_mibps']))
            for r in csv.DictReader(io.StringIO(out))}


def train(tool, out, path):
    subprocess.run([tool, 'train-dict', '-o', out, path], check=True,
                   capture_output=True)


def geo(vals):
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def split(path, tmp):
    """The first and second half of @path's whole pages, as files."""
    d = open(path, 'rb').read()
    n = len(d) // PAGE
    tr, te = os.path.join(tmp, 'train'), os.path.join(tmp, 'test')
    open(tr, 'wb').write(d[:n // 2 * PAGE])
    open(te, 'wb').write(d[n // 2 * PAGE:n * PAGE])
    return tr, te


def main():
    if len(sys.argv) not in (4, 5, 6):
        sys.exit(__doc__)
    tool, data, outf = sys.argv[1:4]
    reps = sys.argv[4] if len(sys.argv) >= 5 else '3'
    tests = sys.argv[5] if len(sys.argv) == 6 else None
    sets = sorted(f for f in os.listdir(data) if os.path.isfile(os.path.join(data, f))
                  and not f.startswith('.'))
    files = []
    if tests:
        files = sorted(os.path.relpath(os.path.join(d, f), tests)
                       for d, _, fs in os.walk(tests) for f in fs
                       if os.path.getsize(os.path.join(d, f)) >= MIN_PAGES * PAGE)
    lines = ['# zbewalgo bench --dict on %s, load %s' % (
                 time.strftime('%Y-%m-%d', time.gmtime()),
                 ' '.join(open('/proc/loadavg').read().split()[:3])),
             '# per set: a dictionary (zbewalgo train-dict) from the first half of its pages,',
             '# ratios on the second half; mix: one dictionary from an eighth of every set;',
             '# file: a test data file of at least %d pages, its own dictionary' % MIN_PAGES,
             '# tree:      %s' % render.tree_id(render.REPO, os.path.dirname(
                 os.path.abspath(outf))),
             '# code:      %s' % render.code_id(render.REPO),
             '%-30s %-5s' % ('set', 'dict') + ''.join('%14s' % a for a in ALGS)]
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        mix = os.path.join(tmp, 'mix')
        with open(mix, 'wb') as m:
            for s in sets:
                d = open(os.path.join(data, s), 'rb').read()
                m.write(d[:len(d) // PAGE // 8 * PAGE])
        train(tool, mix + '.dict', mix)
        work = [(s, os.path.join(data, s), ('own', 'mix')) for s in sets]
        work += [(f, os.path.join(tests, f), ('file',)) for f in files]
        for s, path, kinds in work:
            tr, te = split(path, tmp)
            train(tool, tr + '.dict', tr)
            for kind in kinds:
                r = ratios(tool, te, mix + '.dict' if kind == 'mix' else tr + '.dict', reps)
                rows[(s, kind)] = r
                lines.append('%-30s %-5s' % (s, kind) +
                             ''.join('%14.3f' % r[a][0] for a in ALGS))
    for kind, names in (('own', sets), ('mix', sets), ('file', files)):
        if not names:
            continue
        g = {a: geo([rows[(s, kind)][a][0] for s in names]) for a in ALGS}
        v = {a: geo([rows[(s, kind)][a][1] for s in names]) for a in ALGS}
        lines.append('%-30s %-5s' % ('geomean', kind) + ''.join('%14.3f' % g[a] for a in ALGS))
        lines.append('%-30s %-5s' % ('MiB/s', kind) + ''.join('%14.1f' % v[a] for a in ALGS))
        worst = min(names, key=lambda s: rows[(s, kind)]['zbewalgo+dict'][0] /
                    rows[(s, kind)]['zstd-3+dict'][0])
        wr = rows[(worst, kind)]
        lines.append('  %s: zbewalgo+dict / zstd-3+dict %.3f (lowest %.3f, %s), '
                     'zbewalgo+dict / zstd-8+dict %.3f, zbewalgo+dict / zbewalgo %.3f'
                     % (kind, g['zbewalgo+dict'] / g['zstd-3+dict'],
                        wr['zbewalgo+dict'][0] / wr['zstd-3+dict'][0], worst,
                        g['zbewalgo+dict'] / g['zstd-8+dict'],
                        g['zbewalgo+dict'] / g['zbewalgo']))
        lines.append('  %s: zstd-3+dict / zstd-3 %.3f, zstd-8+dict / zstd-3 %.3f; '
                     'compression zbewalgo+dict / zstd-3+dict %.2fx the speed'
                     % (kind, g['zstd-3+dict'] / g['zstd-3'], g['zstd-8+dict'] / g['zstd-3'],
                        v['zbewalgo+dict'] / v['zstd-3+dict']))
        if kind == 'mix':
            low = min(sets, key=lambda s: rows[(s, 'mix')]['zbewalgo+dict'][0] /
                      rows[(s, 'mix')]['zbewalgo'][0])
            lr = rows[(low, 'mix')]
            lines.append('  mix: lowest zbewalgo+dict / zbewalgo %.4f (%s)'
                         % (lr['zbewalgo+dict'][0] / lr['zbewalgo'][0], low))
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    with open(outf, 'w') as f:
        f.write(text)
    # the same figures for the docs (render.py), next to OUT_FILE
    with open(os.path.splitext(outf)[0] + '.csv', 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['set', 'kind', 'algorithm', 'ratio_zram', 'compress_mibps'])
        for (s, kind), r in rows.items():
            for a in ALGS:
                w.writerow([s, kind, a, '%.4f' % r[a][0], '%.1f' % r[a][1]])


if __name__ == '__main__':
    main()
