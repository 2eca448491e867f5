#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The front of each level from pareto.sh's records.

usage: pareto.py [--plot=PNG] DIR

DIR holds VARIANT-sets.csv and VARIANT-corpus.csv (`zbewalgo bench
--csv`).  For every zbewalgo algorithm in a file, its figures over those
of its zstd counterpart in the same run (zbewalgo-1 against zstd-1, the
others against zstd-3), as targets.py computes them: geometric means over
the files of ratio (zram's), compression and decompression speed,
decompression only over the files where the zstd counterpart
compresses at least half the pages.  A variant marked "front" is not
beaten on all three figures by another variant of its level.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import targets  # noqa: E402

# algorithm -> (level, reference)
LEVEL = {
    'zbewalgo-1': (1, 'zstd-1'),
    'zbewalgo': (2, 'zstd-3'),
    'zbewalgo-custom': (2, 'zstd-3'),
    'zbewalgo-3': (3, 'zstd-3'),
}
FIGURES = ('ratio', 'compression', 'decompression')


def points(directory, kind):
    """(level, variant, reference, {figure: geomean}) for one kind of data"""
    out = []
    for path in sorted(glob.glob(os.path.join(directory, '*-%s.csv' % kind))):
        variant = os.path.basename(path)[:-len('-%s.csv' % kind)]
        by_file = targets.load(path)
        algs = {a for f in by_file.values() for a in f}
        for alg in sorted(algs & set(LEVEL)):
            level, ref = LEVEL[alg]
            fig = {}
            for what in FIGURES:
                vals = targets.figures(by_file, alg, ref, what)
                fig[what] = targets.geomean(vals.values()) if vals else None
            out.append((level, variant, ref, fig))
    return out


def dominated(p, others):
    return any(all(o[3][w] >= p[3][w] for w in FIGURES) and
               any(o[3][w] > p[3][w] for w in FIGURES)
               for o in others if o is not p and o[0] == p[0])


def table(kind, pts):
    print('# %s: figures over zstd\'s in the same run (geometric means)' % kind)
    print('%-5s %-20s %-7s %7s %12s %14s  %s' % (
        'level', 'variant', 'against', 'ratio', 'compression',
        'decompression', 'front'))
    for p in sorted(pts, key=lambda p: (p[0], p[1])):
        print('%-5d %-20s %-7s %7.3f %12.3f %14.3f  %s' % (
            p[0], p[1], p[2], p[3]['ratio'], p[3]['compression'],
            p[3]['decompression'], '' if dominated(p, pts) else 'front'))


def plot(path, kinds):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    colors = {1: 'tab:blue', 2: 'tab:red', 3: 'tab:green'}
    fig, axes = plt.subplots(len(kinds), 2, figsize=(11, 5 * len(kinds)),
                             squeeze=False)
    for row, (kind, pts) in enumerate(kinds):
        for col, what in enumerate(('compression', 'decompression')):
            ax = axes[row][col]
            for p in pts:
                ax.scatter(p[3][what], p[3]['ratio'], color=colors[p[0]],
                           marker='o' if not dominated(p, pts) else 'x')
                ax.annotate('%d %s' % (p[0], p[1]),
                            (p[3][what], p[3]['ratio']), fontsize=7,
                            xytext=(3, 3), textcoords='offset points')
            # the targets: default level (red), level 1 (blue)
            want = {'compression': (1.0, 1.5), 'decompression': (1.0, 1.0)}
            ax.axvline(want[what][0], color='tab:red', ls='--', lw=0.8)
            ax.axhline(1.10, color='tab:red', ls='--', lw=0.8)
            ax.axvline(want[what][1], color='tab:blue', ls=':', lw=0.8)
            ax.axhline(1.0, color='tab:blue', ls=':', lw=0.8)
            ax.set_xscale('log')
            ax.set_xlabel('%s speed / zstd\'s (geometric mean)' % what)
            ax.set_ylabel('ratio / zstd\'s')
            ax.set_title('%s: ratio against %s' % (kind, what))
            ax.grid(True, lw=0.3)
    fig.suptitle('zbewalgo levels 1 (blue), 2 (red), 3 (green) against '
                 'zstd-1 (level 1) and zstd-3; o on the front, x beaten; '
                 'lines: targets', fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main(argv):
    png = None
    args = []
    for a in argv:
        if a.startswith('--plot='):
            png = a[len('--plot='):]
        else:
            args.append(a)
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    kinds = [(k, points(args[0], k)) for k in ('sets', 'corpus')]
    kinds = [(k, p) for k, p in kinds if p]
    if not kinds:
        print('pareto: no records in %s' % args[0], file=sys.stderr)
        return 1
    for i, (kind, pts) in enumerate(kinds):
        if i:
            print()
        table(kind, pts)
    if png:
        plot(png, kinds)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
