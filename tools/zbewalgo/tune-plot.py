#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot `zbewalgo tune --json` output: ratio against compression speed.

usage: tune-plot.py [--title TEXT] JSON OUT.png

x: compression speed relative to lz4 (log scale), y: zram ratio, both on
the tuning sample.  Small grey dots are single chains (the model: each
chain alone as a table), light blue dots the tables the greedy search
built; the named markers (recommendation, default table, presets, lz4,
zstd-3) are real measurements.  The dashed line is the speed budget.
Needs matplotlib (Debian: python3-matplotlib).
"""
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from plotlib import MIB, load, parse_args, pyplot  # noqa: E402

# name: (colour, marker, size)
NAMED = {
    'recommended': ('#c0392b', '*', 260),
    'default': ('#000000', 's', 80),
    'level=1': ('#e67e22', 'o', 70),
    'level=3': ('#7b241c', 'o', 70),
    'lz4': ('#2471a3', 'D', 70),
    'zstd-3': ('#7d3c98', 'D', 70),
}


def finite(*vals):
    return all(v is not None and math.isfinite(v) and v > 0 for v in vals)


def main():
    args = parse_args(__doc__)
    plt = pyplot('tune-plot')
    if not plt:
        return 1

    d = load(args.json)
    fig, ax = plt.subplots(figsize=(9, 6))

    for sets, colour, label in ((('screen',), '#d5d8dc', 'chain (screening)'),
                                (('sample',), '#909497', 'chain (sample)')):
        pts = [(c['compress_vs_lz4'], c['ratio']) for c in d['candidates']
               if c['set'] in sets and finite(c['compress_vs_lz4'], c['ratio'])]
        if pts:
            ax.scatter(*zip(*pts), s=10, c=colour, label=label, zorder=1)
    pts = [(t['model']['compress_vs_lz4'], t['model']['ratio'])
           for t in d['tables']
           if finite(t['model']['compress_vs_lz4'], t['model']['ratio'])]
    if pts:
        ax.scatter(*zip(*pts), s=16, c='#85c1e9', label='table tried (model)',
                   zorder=2)
    for r in d['results']:
        m = r.get('sample')
        if not m or not finite(m['compress_vs_lz4'], m['ratio']):
            continue
        colour, marker, size = NAMED.get(r['name'], ('#7f8c8d', 'x', 60))
        label = r['name'] + (' (%d chains)' % r['chains'] if 'chains' in r
                             else '')
        ax.scatter([m['compress_vs_lz4']], [m['ratio']], s=size, c=colour,
                   marker=marker, label=label + ', measured', zorder=4,
                   edgecolors='white', linewidths=0.5)
        ax.annotate(r['name'], (m['compress_vs_lz4'], m['ratio']),
                    textcoords='offset points', xytext=(6, 4), fontsize=8)

    lz4 = next((r['sample'] for r in d['results'] if r['name'] == 'lz4'),
               None)
    bud = d['budget'].get('us_per_page')
    if lz4 and finite(bud, lz4['compress_mibps']):
        lz4_us = d['page_size'] / MIB / lz4['compress_mibps'] * 1e6
        ax.axvline(lz4_us / bud, ls='--', c='#566573', lw=1,
                   label='budget: %s' % d['budget']['kind'])

    ax.set_xscale('log')
    ax.set_xlabel('compression speed relative to lz4 (log)')
    ax.set_ylabel('zram ratio (results >= %d bytes count as a page)'
                  % d['threshold'])
    title = args.title or 'zbewalgo tune: %s' % ', '.join(
        n.rsplit('/', 1)[-1] for n in d['inputs'][:4])
    if not args.title and len(d['inputs']) > 4:
        title += ', ... (%d inputs)' % len(d['inputs'])
    ax.set_title('%s\n%d sample pages' % (title, d['sample_pages']),
                 fontsize=10)
    ax.grid(True, which='both', alpha=0.3)
    ax.legend(fontsize=7, loc='best')
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    return 0


if __name__ == '__main__':
    sys.exit(main())
