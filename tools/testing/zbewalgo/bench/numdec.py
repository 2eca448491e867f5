#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Decompression of the pages zbewalgo's numeric steps wrote, against
zram's zstd-3 on the same pages (issue 44: at least 1.0x).

usage: numdec.py PAGESIZES OUT_BASE GROUP=FILE[,FILE...]...

PAGESIZES is zbewalgo_pagesizes: with -t it prints, per distinct page,
the first step of the chain zbewalgo used and the fastest of five
decodes of zbewalgo's and of zstd-3's result.  A page counts here when
zbewalgo wrote it with a num step.  Where zstd-3's result is also below
zram's threshold the two decoders are compared on it (the "both" columns:
decode time summed over the pages, zstd-3's over zbewalgo's, so above 1
means zbewalgo decodes faster); where zstd-3's is not, zram would store
the page whole with zstd-3 and read it with a copy, and the page is only
counted ("zstd whole").  Writes OUT_BASE.txt and OUT_BASE.csv.
"""
import csv
import math
import os
import subprocess
import sys

FIELDS = ['group', 'file', 'pages', 'num_pages', 'both_pages',
          'zstd_whole', 'zbw_ns', 'zstd_ns', 'speed']


def measure(prog, path):
    """Per file: num pages, those zstd-3 keeps compressed too, and the
    decode times summed over the latter."""
    r = subprocess.run([prog, '-t', path], stdout=subprocess.PIPE,
                       text=True, check=True)
    thr, pages, num, both, whole, zns, sns = None, 0, 0, 0, 0, 0, 0
    for line in r.stdout.splitlines():
        f = line.split()
        if line.startswith('#'):
            thr = int(line.split('threshold ')[1].split(',')[0])
            continue
        if f[0] == 'file' or f[1] != 'k':
            continue
        pages += 1
        zlen, slen, step = int(f[2]), int(f[4]), f[5]
        if not step.startswith('num') or not zlen or zlen >= thr:
            continue
        num += 1
        if not slen or slen >= thr:
            whole += 1
            continue
        both += 1
        zns += int(f[6])
        sns += int(f[7])
    return {'pages': pages, 'num_pages': num, 'both_pages': both,
            'zstd_whole': whole, 'zbw_ns': zns, 'zstd_ns': sns,
            'speed': sns / zns if zns else None}


def line(name, r):
    speed = '%8.3f' % r['speed'] if r['speed'] else '%8s' % '-'
    return '%-28s %6d %6d %6d %6d %s' % (name[-28:], r['pages'],
                                         r['num_pages'], r['both_pages'],
                                         r['zstd_whole'], speed)


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    prog, base = sys.argv[1], sys.argv[2]
    rows, out = [], []
    head = '%-28s %6s %6s %6s %6s %8s' % ('file', 'pages', 'num', 'both',
                                          'whole', 'speed')
    for arg in sys.argv[3:]:
        group, files = arg.split('=', 1)
        tot = dict.fromkeys(FIELDS[2:8], 0)
        speeds = []
        out += ['', '== %s ==' % group, head]
        for path in files.split(','):
            r = measure(prog, path)
            name = os.path.relpath(path, os.path.dirname(os.path.dirname(path))) \
                if group == 'testdata' else os.path.basename(path)
            rows.append(dict(r, group=group, file=name))
            for k in tot:
                tot[k] += r[k]
            if r['num_pages']:
                out.append(line(name, r))
            if r['speed']:
                speeds.append(r['speed'])
        tot['speed'] = tot['zstd_ns'] / tot['zbw_ns'] if tot['zbw_ns'] else None
        out.append(line('all (summed times)', tot))
        if speeds:
            out.append('%-28s %34.3f' % (
                'geomean over %d files' % len(speeds),
                math.exp(sum(map(math.log, speeds)) / len(speeds))))
    with open(base + '.csv', 'w', newline='') as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(dict(r, speed='%.4f' % r['speed'] if r['speed'] else ''))
    with open(base + '.txt', 'w') as f:
        f.write('# num: pages zbewalgo wrote with a num step; both: of those, the\n'
                '#   pages zstd-3 keeps compressed too, on which the decoders are\n'
                '#   timed; whole: zstd-3 stores them whole (zram copies them);\n'
                '# speed: decode time of zstd-3 over zbewalgo\'s on the "both" pages\n'
                '#   (fastest of 5 decodes a page, summed; above 1: zbewalgo faster)\n')
        f.write('\n'.join(out[1:]) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
