#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Measure what each combination of a table contributes.

usage: table-eval.py ZBEWALGO_TOOL TABLE DATA_FILE...

For every data file, prints the compressed size with the whole TABLE,
each combination's wins, and how much larger the output gets when that
combination alone is removed (its marginal value).  Sizes follow the
tool's page-wise container, so they are what zram would be handed.
"""
import re
import subprocess
import sys
import tempfile


def run(tool, table, path):
    with tempfile.NamedTemporaryFile() as out:
        p = subprocess.run([tool, '--stats', '-c', table, 'compress', path,
                            out.name], capture_output=True, text=True,
                           check=True)
    m = re.search(r'-> (\d+) bytes', p.stderr)
    wins = [int(w) for w in re.findall(r'^\s+(\d+) wins', p.stderr, re.M)]
    tried = float(re.search(r'tried per page: ([\d.]+)', p.stderr).group(1))
    return int(m.group(1)), wins, tried


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    tool, table, files = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
    names = [f.rsplit('/', 1)[-1][:14] for f in files]
    print('%-40s' % 'combination' + ''.join('%15s' % n for n in names))
    full = [run(tool, ' '.join(table), f) for f in files]
    print('%-40s' % 'whole table: bytes' +
          ''.join('%15d' % r[0] for r in full))
    print('%-40s' % 'whole table: tried/page' +
          ''.join('%15.2f' % r[2] for r in full))
    for i, comb in enumerate(table):
        rest = ' '.join(table[:i] + table[i + 1:])
        cells = []
        for f, r in zip(files, full):
            size = run(tool, rest, f)[0] if rest else 0
            cells.append('%6d %+7.2f%%' % (r[1][i],
                                           100.0 * (size - r[0]) / r[0]))
        print('%-40s' % comb + ''.join('%15s' % c for c in cells))
    print('# cells: wins with the whole table, and the growth of the output '
          'when the combination is removed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
