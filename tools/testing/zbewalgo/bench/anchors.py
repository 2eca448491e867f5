#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The pcodec anchor (issue 44): zbewalgo, zstd-3 and pcodec page by page.

usage: anchors.py [-j JOBS] [--max-pages N] PAGESIZES OUT_BASE \\
                  GROUP=FILE[,FILE...] ...

Runs under a Python with numpy and pcodec (anchors.sh makes a venv with
pcodec from PyPI).  PAGESIZES is the zbewalgo_pagesizes program: it cuts
every FILE into 4 KiB pages as `zbewalgo bench --drop-same` does and gives
each distinct page's size under zbewalgo's default level and under zstd-3
as zram calls it, both decoded and compared.  Here each such page also
goes through pcodec's standalone API (pcodec.standalone.simple_compress
with ChunkConfig(compression_level=L), every result decoded with
simple_decompress and compared), at pcodec's default level and at level
4, read as each of DTYPES; "told" is pcodec given the file's type where
it is known (TOLD), "best" the smallest of DTYPES per page.  A page costs
what zram keeps: its result when below the huge-class threshold, else
4096.  "ideal" is per page the smaller of zbewalgo's and pcodec-best's
cost.  Writes OUT_BASE.txt (tables, ratios over zram-zstd-3 with
geometric means per group) and OUT_BASE.csv (absolute ratios per file,
read by targets.py).  --max-pages N measures at most N evenly spaced
distinct pages per file (0: all).
"""
import csv
import math
import os
import subprocess
import sys
import time
from multiprocessing import Pool

import numpy as np
import pcodec
from pcodec import ChunkConfig
from pcodec.standalone import simple_compress, simple_decompress

PAGE = 4096
# little-endian views, the 8 of the issue
DTYPES = ['u16', 'i16', 'u32', 'i32', 'f32', 'u64', 'i64', 'f64']
NP = {'u16': '<u2', 'i16': '<i2', 'u32': '<u4', 'i32': '<i4',
      'f32': '<f4', 'u64': '<u8', 'i64': '<i8', 'f64': '<f8'}
LEVELS = [pcodec.DEFAULT_COMPRESSION_LEVEL, 4]

# The types of the inputs whose type is known, by file name: the
# generator's for the sets (gen-data.py), the manifest's for the test
# data (tools/testing/zbewalgo/testdata/manifest), the program's arrays
# for the real swap.  "be" is big-endian: the page is byte-swapped to
# the little-endian type first.  A file of several arrays names their
# types; pcodec told them takes the smallest per page.
TOLD = {
    'float32-smooth': ['f32'],
    'float32-ocean': ['f32'],
    'float32-pressure': ['f32'],
    'float32-temperature': ['f32'],
    'float32-cloud': ['f32'],
    'float32-ecoham': ['f32'],
    'float64-jacobi': ['f64'],
    'csr-cg': ['i32', 'f64'],		# row pointers, columns; values, vectors
    'hpcg-heap': ['f64', 'i32', 'i64'],	# values; local, global columns
    'num/egm96_15.gtx': ['f32be'],
    'num/ntf_r93.gsb': ['f32'],
    'num/nzgd2kgrid0005.gsb': ['f32'],
    'num/BETA2007.gsb': ['f32'],
    'num/eeg.dat': ['f64'],
    'num/membrane.dat': ['f32'],
    'num/s1045.ima': ['i16be'],
    'numpy-solver.bin': ['f64'],	# scipy's CG on float64 arrays
}

# Column: (label, what)
COLS = ['zstd3', 'zbewalgo', 'pco_told', 'pco_told_l4', 'pco_best',
        'pco_best_l4', 'ideal', 'ideal_l4']
HEAD = {'zstd3': 'zstd-3', 'zbewalgo': 'zbewalgo', 'pco_told': 'pco-told',
        'pco_told_l4': 'told-L4', 'pco_best': 'pco-best',
        'pco_best_l4': 'best-L4', 'ideal': 'ideal', 'ideal_l4': 'ideal-L4'}

# As render.py's FLOAT_SOLVER: the generated sets of floats and solver
# state.
FLOAT_SOLVER = ('float32-', 'float64-', 'csr-cg', 'hpcg-heap')


def view(page, t):
    """PAGE as pcodec's input for type T (a numpy array)."""
    if t.endswith('be'):
        base = t[:-2]
        u = np.frombuffer(page, '>u%d' % (int(base[1:]) // 8))
        return u.astype(u.dtype.newbyteorder('<')).view(NP[base])
    return np.frombuffer(page, NP[t])


def pco(page, t, level):
    """Bytes of pcodec's standalone file for PAGE as T; decoded, compared."""
    a = view(page, t)
    out = simple_compress(a, ChunkConfig(compression_level=level))
    back = simple_decompress(out)
    if back.dtype != a.dtype or back.tobytes() != a.tobytes():
        raise RuntimeError('pcodec round trip failed (%s, level %d)'
                           % (t, level))
    return len(out)


def cost(n, thr):
    """What zram keeps of a page whose result has N bytes (0: none)."""
    return PAGE if not n or n >= thr else n


def pagesizes(prog, path):
    """(threshold, header, [(index, zbewalgo bytes, zstd bytes)]) of the
    distinct pages of PATH."""
    r = subprocess.run([prog, path], stdout=subprocess.PIPE, text=True,
                       check=True)
    head, pages = '', []
    for line in r.stdout.splitlines():
        f = line.split()
        if line.startswith('#'):
            head = line[2:]
            thr = int(head.split('threshold ')[1].split(',')[0])
        elif f[0] != 'file' and f[1] == 'k':
            pages.append((int(f[0]), int(f[2]), int(f[4])))
    return thr, head, pages


def sample(pages, n):
    if not n or len(pages) <= n:
        return pages
    return [pages[i * len(pages) // n] for i in range(n)]


def measure(job):
    """Per-file figures: bytes zram keeps per column, wins, times."""
    prog, group, label, path, max_pages = job
    thr, head, allp = pagesizes(prog, path)
    pages = sample(allp, max_pages)
    told = next((t for k, t in TOLD.items()
                 if path == k or path.endswith('/' + k)), [])
    with open(path, 'rb') as f:
        data = f.read()
    data += bytes(-len(data) % PAGE)
    tot = dict.fromkeys(COLS, 0)
    wins = {'zbewalgo': 0, 'pcodec': 0, 'tie': 0}
    best_dt = {}
    ptime = dict.fromkeys(LEVELS, 0.0)
    for idx, zb, zs in pages:
        page = data[idx * PAGE:(idx + 1) * PAGE]
        c = {}
        for level, suf in zip(LEVELS, ['', '_l4']):
            t0 = time.process_time()
            sz = {t: cost(pco(page, t, level), thr)
                  for t in sorted(set(DTYPES) | set(told))}
            ptime[level] += time.process_time() - t0
            best = min(DTYPES, key=lambda t: sz[t])
            c['pco_best' + suf] = sz[best]
            c['pco_told' + suf] = min(sz[t] for t in told) if told else 0
            if not suf and sz[best] < PAGE:
                best_dt[best] = best_dt.get(best, 0) + 1
        c['zstd3'] = cost(zs, thr)
        c['zbewalgo'] = cost(zb, thr)
        c['ideal'] = min(c['zbewalgo'], c['pco_best'])
        c['ideal_l4'] = min(c['zbewalgo'], c['pco_best_l4'])
        for k in COLS:
            tot[k] += c[k]
        wins['zbewalgo' if c['zbewalgo'] < c['pco_best'] else
             'pcodec' if c['pco_best'] < c['zbewalgo'] else 'tie'] += 1
    return {'group': group, 'file': label, 'path': path,
            'pages': len(pages),
            'distinct': len(allp), 'told': '+'.join(told), 'stored': tot,
            'wins': wins, 'best_dtype': best_dt, 'pco_s': ptime,
            'head': head, 'threshold': thr}


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float('nan')


def ratios(r):
    """Absolute ratios (zram's rule) per column, None where not measured."""
    orig = r['pages'] * PAGE
    return {k: (orig / r['stored'][k] if r['stored'][k] else None)
            for k in COLS}


def numeric(r):
    """The inputs of issue 44's numeric target."""
    name = os.path.basename(r['path'])
    return ((r['group'] == 'sets' and name.startswith(FLOAT_SOLVER)) or
            (r['group'] == 'testdata' and '/num/' in r['path']) or
            (r['group'] == 'realswap' and name.startswith('numpy-solver')))


def summaries(results):
    """[(name, [results])]: the groups with their geometric means."""
    sets = [r for r in results if r['group'] == 'sets']
    fs = [r for r in sets if r['file'].startswith(FLOAT_SOLVER)]
    out = [('sets: %d float and solver sets' % len(fs), fs),
           ('sets: %d others' % (len(sets) - len(fs)),
            [r for r in sets if r not in fs])]
    td = [r for r in results if r['group'] == 'testdata']
    num = [r for r in td if numeric(r)]
    out += [('test data: all %d files' % len(td), td),
            ('test data: %d num/*' % len(num), num)]
    rs = [r for r in results if r['group'] == 'realswap']
    out.append(('realswap: %d programs' % len(rs), rs))
    nm = [r for r in results if numeric(r)]
    out.append(('numeric inputs (issue 44 target): %d' % len(nm), nm))
    return [(n, rs) for n, rs in out if rs]


def fmt(v):
    return '%8.3f' % v if v is not None else '%8s' % '-'


def rel(r, k):
    """Column K of R over zram-zstd-3, None where not measured."""
    ra = ratios(r)
    return ra[k] / ra['zstd3'] if ra[k] else None


def table(results, f):
    w = 26
    for group in dict.fromkeys(r['group'] for r in results):
        rs = [r for r in results if r['group'] == group]
        print('\n== %s: ratios (zram\'s rule) ==' % group, file=f)
        print('%-*s %6s ' % (w, 'file', 'pages') +
              ''.join(' %8s' % HEAD[k] for k in COLS), file=f)
        for r in rs:
            ra = ratios(r)
            print('%-*s %6d ' % (w, r['file'][-w:], r['pages']) +
                  ''.join(' ' + fmt(ra[k]) for k in COLS), file=f)
        print('\n== %s: x zram-zstd-3; pages won, zbewalgo against '
              'pcodec-best (a tie: the same bytes in zram); pcodec-best\'s '
              'type on the pages it compresses ==' % group, file=f)
        print('%-*s %6s ' % (w, 'file', 'pages') +
              ''.join(' %8s' % HEAD[k] for k in COLS[1:]) +
              '  %5s %5s %5s  %s' % ('zbw', 'pco', 'tie', 'type:pages'),
              file=f)
        for r in rs:
            dt = ' '.join('%s:%d' % (t, n) for t, n in
                          sorted(r['best_dtype'].items(),
                                 key=lambda x: (-x[1], x[0])))
            print('%-*s %6d ' % (w, r['file'][-w:], r['pages']) +
                  ''.join(' ' + fmt(rel(r, k)) for k in COLS[1:]) +
                  '  %5d %5d %5d  %s' % (r['wins']['zbewalgo'],
                                         r['wins']['pcodec'],
                                         r['wins']['tie'], dt), file=f)
    for what, fn, cols in (
            ('ratios', lambda r, k: ratios(r)[k], COLS),
            ('x zram-zstd-3', rel, COLS[1:])):
        print('\n== geometric means over the files of each group: %s '
              '(pco-told over the files with a known type) ==' % what,
              file=f)
        print('%-44s' % 'group' + ''.join(' %8s' % HEAD[k] for k in cols),
              file=f)
        for name, rs in summaries(results):
            vals = []
            for k in cols:
                v = [fn(r, k) for r in rs if fn(r, k)]
                vals.append(' ' + fmt(geomean(v) if v else None))
            print('%-44s' % name + ''.join(vals), file=f)


def write_csv(results, path):
    with open(path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['group', 'file', 'numeric', 'pages', 'distinct_pages',
                    'told'] + ['ratio_' + k for k in COLS] +
                   ['stored_' + k for k in COLS] +
                   ['wins_zbewalgo', 'wins_pcodec', 'ties'])
        for r in results:
            ra = ratios(r)
            w.writerow([r['group'], r['file'],
                        int(numeric(r)), r['pages'],
                        r['distinct'], r['told']] +
                       ['%.4f' % ra[k] if ra[k] else '' for k in COLS] +
                       [r['stored'][k] for k in COLS] +
                       [r['wins']['zbewalgo'], r['wins']['pcodec'],
                        r['wins']['tie']])


def main(argv):
    jobs, max_pages = 1, 0
    while argv and argv[0].startswith('-'):
        if argv[0] == '-j':
            jobs = int(argv[1])
        elif argv[0] == '--max-pages':
            max_pages = int(argv[1])
        else:
            break
        argv = argv[2:]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    prog, base = argv[0], argv[1]
    work = []
    for spec in argv[2:]:
        group, files = spec.split('=', 1)
        files = [p for p in files.split(',') if p]
        top = os.path.commonpath([os.path.dirname(p) for p in files]) \
            if files else ''
        for p in files:
            work.append((prog, group, os.path.relpath(p, top), p, max_pages))
    t0 = time.time()
    with Pool(jobs) as pool:
        results = []
        for r in pool.imap(measure, work):
            print('anchors: %s/%s: %d pages' % (r['group'], r['file'],
                                                r['pages']), file=sys.stderr)
            results.append(r)
    wall = time.time() - t0
    npages = sum(r['pages'] for r in results)
    with open(base + '.txt.tmp', 'w') as f:
        print('# pages:     %s: %d pages of %d files, each on its own '
              '(same-filled pages and repeats dropped, as make bench\'s '
              '--drop-same)' % (
                  'at most %d evenly spaced distinct pages per file, %d '
                  'distinct' % (max_pages, sum(r['distinct']
                                               for r in results))
                  if max_pages else 'every distinct page',
                  npages, len(results)), file=f)
        print('# sizes:     %s' % (results[0]['head'] if results else ''),
              file=f)
        print('# zram rule: a result of %d bytes or more costs %d (stored '
              'whole); ratio = original bytes / bytes kept' % (
                  results[0]['threshold'] if results else 0, PAGE), file=f)
        print('# pcodec:    %s (PyPI), numpy %s: pcodec.standalone.'
              'simple_compress(page as DTYPE, ChunkConfig(compression_level'
              '=L)), every page decoded (simple_decompress) and compared; '
              'cost = the whole standalone file: "pco!" magic (4 bytes), '
              'standalone version, type byte, count hint, wrapped format '
              'version, chunk type byte and 24-bit count, chunk metadata '
              '(mode, delta order, bins), the page, termination byte (an '
              'empty array: %d bytes)' % (
                  pcodec.__version__, np.__version__,
                  len(simple_compress(np.zeros(0, '<f4'), ChunkConfig()))),
              file=f)
        print('# columns:   pco-told: pcodec at its default level %d told '
              'the file\'s type (TOLD in anchors.py; best of the file\'s '
              'types when it holds several); pco-best: the smallest of %s '
              '(little-endian) per page; told-L4, best-L4: the same at '
              'level 4; ideal: per page min(zbewalgo, pco-best); ideal-L4: '
              'min(zbewalgo, best-L4)' % (LEVELS[0], ','.join(DTYPES)),
              file=f)
        for level in LEVELS:
            s = sum(r['pco_s'][level] for r in results)
            print('# pcodec time: level %d: %.0f us CPU per page per type '
                  '(compress + decode, %d types tried a page), this run'
                  % (level, s / max(1, npages) / len(DTYPES) * 1e6,
                     len(DTYPES)), file=f)
        print('# wall:      %.0f s with %d job(s)' % (wall, jobs), file=f)
        table(results, f)
    os.replace(base + '.txt.tmp', base + '.txt')
    write_csv(results, base + '.csv')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
