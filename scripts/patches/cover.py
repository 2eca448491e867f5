#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fill in the cover letter that git format-patch --cover-letter wrote.

usage: cover.py REPO COVER_LETTER SOURCE

The text is cover.txt beside this script; its @NAME@ placeholders take
tables from the user-space benchmark results, the "Default combination
table" section of the format document, the campaign log in fuzz/README,
and build/kernel-bench/*.txt when another run has produced it (otherwise
a marked placeholder stays in the letter).
"""
import glob
import os
import re
import sys

SUBJECT = 'zbewalgo: page compression for zram and zswap'
# The algorithms the letter compares (the results hold more).
ALGS = ['zbewalgo', 'zbewalgo-1', 'zbewalgo-3', 'lz4', 'lzo-rle',
        'zstd-1', 'zstd-3']


def indent(text, n=2):
    return '\n'.join((' ' * n + l).rstrip() for l in text.splitlines())


def bench_sections(path):
    """{section title: {algorithm: row fields}} and the header lines."""
    sections, cur, head = {}, None, []
    with open(path) as f:
        for line in f:
            m = re.match(r'== (.*?): (\d+) pages', line)
            if m:
                cur = sections.setdefault(
                    (os.path.basename(m.group(1)), int(m.group(2))), {})
            elif line.startswith('#'):
                head.append(line[1:].strip())
            elif cur is not None and line.strip() and \
                    not line.startswith('algorithm'):
                fields = line.split()
                cur[fields[0]] = fields
    return sections, head


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    fmt = lambda r: '  '.join(str(c).rjust(w) if i else str(c).ljust(w)
                              for i, (c, w) in enumerate(zip(r, widths)))
    return '\n'.join([fmt(header)] + [fmt(r) for r in rows])


def sets_ratio(sections):
    rows = []
    for (name, pages), algs in sections.items():
        if name.startswith('all '):
            continue
        rows.append([name, pages] + [algs[a][1] if a in algs else '-'
                                     for a in ALGS])
    return indent(table(rows, ['set', 'pages'] + ALGS))


def summary(sections):
    """ratio, MiB/s both ways, incompressible pages, of the 'all' row."""
    for (name, pages), algs in sections.items():
        if name.startswith('all '):
            rows = [[a, algs[a][1], algs[a][3], algs[a][4], algs[a][5]]
                    for a in ALGS if a in algs]
            return indent('%s, %d pages\n' % (name, pages) + table(
                rows, ['algorithm', 'ratio', 'incomp%', 'comp MiB/s',
                       'dec MiB/s']))
    return '  (no summary row)'


def machine(head):
    keep = [h for h in head if re.match(r'(date|cpu|compiler|libraries|'
                                         r'load):', h)]
    # The first of each key: the header repeats in every results file.
    seen, out = set(), []
    for h in keep:
        key = h.split(':')[0]
        if key not in seen:
            seen.add(key)
            out.append(h)
    return 'Measured on:\n' + indent('\n'.join(out))


def default_table(repo):
    text = open(os.path.join(repo, 'Documentation/staging/zbewalgo.rst')
                ).read()
    m = re.search(r'\nDefault combination table\n=+\n(.*?)\n[^\n]+\n=+\n',
                  text, re.S)
    if not m:
        return '  (no "Default combination table" section found)'
    body = m.group(1).strip()
    # The commands to rerun belong in the document, not in the letter.
    body = re.split(r'\s+To rerun::', body)[0].rstrip()
    if not body.endswith('.'):
        body += '.'
    return indent(body.replace('::\n', ':\n'))


def fuzz(repo):
    text = open(os.path.join(repo, 'fuzz/README')).read()
    log = text.split('\nCampaign log\n', 1)
    if len(log) < 2:
        return '(fuzz/README has no campaign log)'
    log = log[1]
    # The last table of the log: its counts are cumulative.
    tables = re.findall(r'(\n  harness +CPU s.*?)\n\n', log, re.S)
    if not tables:
        return '(no table in the campaign log)'
    rows = [l.split() for l in tables[-1].strip().splitlines()[1:]]
    cpu = sum(int(r[1]) for r in rows)
    wall = sum(int(r[2]) for r in rows)
    execs = sum(int(r[3]) for r in rows)
    crashes = sum(int(r[7]) for r in rows)
    intro = ('AFL++ under ASan and UBSan on the user-space build of '
             'lib/zbewalgo: %d harnesses (whole-page decompression of '
             'arbitrary bytes, round trips with input-chosen tables and '
             'parameters, too-small destinations, the table text '
             'interface, and every step decoder alone with exact-size '
             'buffers), %.1f CPU-hours, %.1f hours of fuzzer wall time, '
             '%.1f million executions in total.'
             % (len(rows), cpu / 3600.0, wall / 3600.0, execs / 1e6))
    if crashes:
        intro += ('  All %d crashes were fixed before this posting, and '
                  'every bug behind them has a regression test.' % crashes)
    para = lambda t: re.sub(r'(.{1,72})(?:\s+|$)', r'\1\n', t).strip()
    out = para(intro) + '\n\n' + indent(tables[-1].strip('\n'), 0)
    # The newest coverage paragraph, like the newest table.
    cov = re.findall(r'\n(Coverage of the saved corpora.*?)(?:\n\n|\n?\Z)',
                     log, re.S)
    if cov:
        sent = re.split(r'(?<=\.)\s', ' '.join(cov[-1].split()))
        out += '\n\n' + para(sent[0])
    return out


def kernel_bench(repo):
    files = sorted(glob.glob(os.path.join(repo, 'build/kernel-bench/*.txt')))
    if not files:
        return ('  [PLACEHOLDER: no build/kernel-bench/*.txt when this '
                'series was\n   generated; rerun make patches after the '
                'in-kernel benchmark.]')
    return '\n\n'.join(indent(open(f).read().rstrip()) for f in files)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    repo, cover, source = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    res = os.path.join(repo, 'tools/testing/zbewalgo/bench/results')
    sets, head = bench_sections(os.path.join(res, 'sets.txt'))
    corpus, _ = bench_sections(os.path.join(res, 'corpus.txt'))
    blurb = open(os.path.join(here, 'cover.txt')).read().rstrip()
    values = {
        'MACHINE': machine(head),
        'SETS_RATIO': sets_ratio(sets),
        'SETS_ALL': summary(sets),
        'CORPUS_ALL': summary(corpus),
        'KERNEL_BENCH': kernel_bench(repo),
        'DEFAULT_TABLE': default_table(repo),
        'FUZZ': fuzz(repo),
        'SOURCE': source,
    }
    for key, val in values.items():
        blurb = blurb.replace('@%s@' % key, val)
    left = re.findall(r'@[A-Z_]+@', blurb)
    if left:
        sys.exit('cover.py: unfilled placeholders %s' % ' '.join(left))
    text = open(cover).read()
    for old, new in (('*** SUBJECT HERE ***', SUBJECT),
                     ('*** BLURB HERE ***', blurb)):
        if old not in text:
            sys.exit('cover.py: %r not in %s' % (old, cover))
        text = text.replace(old, new)
    with open(cover, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
