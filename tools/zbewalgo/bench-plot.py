#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot `zbewalgo bench --json` records: ratio against compression speed.

usage: bench-plot.py [--group auto|file|dir] [--title TEXT] JSON OUT.png

One panel per input file, or, with many files (auto: more than 16), one
per directory with the files' bytes and times added up.  Each algorithm
is a filled marker at (compression MiB/s, zram ratio) and a hollow one at
its effective speed with the backing device (the seed report's ⊙ column),
joined by a dotted line; the backing device's own write speed is the
dashed vertical line.  Needs matplotlib (Debian: python3-matplotlib).
"""
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from plotlib import MIB, load, parse_args, pyplot  # noqa: E402

# Colour families: zbewalgo red, lz4 blue, lzo green, zstd purple.
STYLE = {
    'zbewalgo': ('#c0392b', 'o'),
    'zbewalgo-1': ('#e67e22', 'o'),
    'zbewalgo-2': ('#d35400', 'o'),
    'zbewalgo-3': ('#7b241c', 'o'),
    'zbewalgo-custom': ('#f1948a', 'o'),
    'lz4': ('#2471a3', 's'),
    'lz4hc-9': ('#5dade2', 's'),
    'lzo1x-1': ('#1e8449', '^'),
    'lzo-rle': ('#58d68d', '^'),
    'zstd-1': ('#7d3c98', 'D'),
    'zstd-3': ('#bb8fce', 'D'),
    'deflate': ('#8e6e53', 'v'),
    'memcpy': ('#7f8c8d', 'X'),
}


def aggregate(recs):
    """Sum bytes and times of several files' records of one algorithm."""
    b = sum(r['bytes'] for r in recs)
    z = sum(r['zram_bytes'] for r in recs)
    tc = sum(r['compress_s'] or 0 for r in recs)
    te = sum(r['bytes'] / MIB / r['eff_compress_mibps'] for r in recs
             if r.get('eff_compress_mibps'))
    return {
        'ratio': b / z if z else float('nan'),
        'speed': b / MIB / tc if tc > 0 else float('nan'),
        'eff': b / MIB / te if te > 0 else float('nan'),
    }


def main():
    args = parse_args(__doc__, lambda ap: ap.add_argument(
        '--group', choices=('auto', 'file', 'dir'), default='auto'))
    plt = pyplot('bench-plot')
    if not plt:
        return 1
    from matplotlib.lines import Line2D

    recs = load(args.json)
    if not recs:
        print('bench-plot: no records', file=sys.stderr)
        return 1
    files = list(dict.fromkeys(r['file'] for r in recs))
    group = args.group
    if group == 'auto':
        group = 'file' if len(files) <= 16 else 'dir'

    def key(r):
        if group == 'file':
            return os.path.basename(r['file']) or r['file']
        d = os.path.dirname(r['file'])
        return os.path.basename(d) or d or '.'

    panels = {}
    for r in recs:
        panels.setdefault(key(r), {}).setdefault(r['algorithm'], []).append(r)
    algos = list(dict.fromkeys(r['algorithm'] for r in recs))
    backing = recs[0].get('backing_mibps')

    n = len(panels)
    ncols = min(4, n)
    nrows = math.ceil(n / ncols)
    nhandles = len(algos) + 2
    width = max(4.3 * ncols, 6.5)
    lcols = max(1, min(math.ceil(nhandles / 2), int(width / 1.6)))
    lrows = math.ceil(nhandles / lcols)
    legend_h = 0.3 + 0.22 * lrows
    height = 3.5 * nrows + 0.6 + legend_h
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height),
                             squeeze=False)
    for ax, (name, by_algo) in zip(axes.flat, panels.items()):
        nfiles = len({r['file'] for rs in by_algo.values() for r in rs})
        pages = sum(r['pages'] for r in next(iter(by_algo.values())))
        ymax = 1.0
        for a in algos:
            if a not in by_algo:
                continue
            colour, marker = STYLE.get(a, ('black', 'o'))
            p = aggregate(by_algo[a])
            ymax = max(ymax, p['ratio'])
            if math.isfinite(p['eff']) and math.isfinite(p['speed']):
                ax.plot([p['eff'], p['speed']], [p['ratio'], p['ratio']],
                        ':', color=colour, lw=1)
                ax.scatter([p['eff']], [p['ratio']], s=36,
                           facecolors='none', edgecolors=colour,
                           marker=marker, zorder=3)
            ax.scatter([p['speed']], [p['ratio']], s=44, color=colour,
                       marker=marker, zorder=4, edgecolors='black',
                       linewidths=0.4)
        if backing:
            ax.axvline(backing, color='black', ls='--', lw=0.8, alpha=0.6)
        ax.set_xscale('log')
        ax.set_ylim(0.9, ymax * 1.12 + 0.1)
        ax.grid(True, which='major', alpha=0.3)
        title = name if nfiles == 1 else '%s (%d files)' % (name, nfiles)
        ax.set_title('%s, %d pages' % (title, pages), fontsize=10)
        ax.tick_params(labelsize=8)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    for ax in axes.flat:
        ax.set_xlabel('compression MiB/s (log)', fontsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel('ratio (zram rule)', fontsize=9)

    handles = [Line2D([], [], ls='', marker=STYLE.get(a, ('k', 'o'))[1],
                      color=STYLE.get(a, ('k', 'o'))[0],
                      markeredgecolor='black', markeredgewidth=0.4,
                      markersize=7, label=a) for a in algos]
    handles.append(Line2D([], [], ls=':', marker='o', color='gray',
                          markerfacecolor='none',
                          label='effective speed (seed ⊙)'))
    if backing:
        handles.append(Line2D([], [], ls='--', color='black',
                              label='backing device %.4g MiB/s' % backing))
    fig.legend(handles=handles, loc='lower center', ncol=lcols, fontsize=8,
               frameon=False)
    fig.suptitle(args.title or 'zbewalgo bench: ratio against compression '
                 'speed (%s)' % ('per file' if group == 'file'
                                 else 'per directory, sums'), fontsize=11)
    fig.tight_layout(rect=(0, legend_h / height, 1, 1 - 0.4 / height))
    fig.savefig(args.png, dpi=110)
    return 0


if __name__ == '__main__':
    sys.exit(main())
