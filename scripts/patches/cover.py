#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fill in the cover letter that git format-patch --cover-letter wrote.

usage: cover.py REPO COVER_LETTER SOURCE

The text is cover.txt beside this script, one page; its @NAME@
placeholders take figures from machine-readable records only, read
through tools/testing/zbewalgo/bench/render.py (the module that also
renders them into the docs): the user-space benchmark
(bench/results/*.csv, machine.txt), the in-kernel benchmark
(kernel-7.2.txt), the equal-work replay of real programs' swap
(realprog-replay.txt), make worst (worst.txt), make bench-dict
(dict.txt) and the fuzzing record
(fuzz/campaigns.csv).  A missing results file, or one measured on other
lib/zbewalgo code than HEAD's, stops it, the latter unless
ZBW_ALLOW_STALE=1.
"""
import os
import re
import sys

SUBJECT = 'zbewalgo: page compression for zram and zswap'
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '../../tools/testing/zbewalgo/bench'))
import render  # noqa: E402


def indent(text, n=2):
    return '\n'.join((' ' * n + l).rstrip() for l in text.splitlines())


def para(text):
    return render.wrap(text, 72)


def machine(note):
    """One line: the machine, the tree and the load of the benchmark."""
    keys = ('cpu', 'tree', 'load')
    return '; '.join('%s %s' % (k, note[k][0]) for k in keys if k in note)



def summary(runs):
    """Per results file: zstd-3 and zbewalgo over all of its inputs."""
    rows = []
    for run in runs:
        if 'zstd-3' not in run.algs or 'zbewalgo' not in run.algs:
            continue
        z, b = run.total('zstd-3'), run.total('zbewalgo')
        rows.append([run.name, str(len(run.inputs)), str(z['pages']),
                     '%.3f' % z['ratio'], '%.3f' % b['ratio'],
                     '%+.1f%%' % (100 * (b['ratio'] / z['ratio'] - 1)),
                     '%.2f' % (b['comp'] / z['comp']),
                     '%.2f' % (b['dec'] / z['dec'])])
    return indent(render.text_table(
        ['results', 'inputs', 'pages', 'zstd-3', 'zbewalgo', 'gain',
         'comp', 'dec'], rows))


def results_lines(repo, name, prefixes):
    """The lines of results file NAME that start with one of PREFIXES."""
    path = os.path.join(repo, render.RESULTS, name)
    if not os.path.exists(path):
        sys.exit('cover.py: no %s/%s' % (render.RESULTS, name))
    with open(path) as f:
        return [l.rstrip('\n') for l in f if l.startswith(prefixes)]


def kernel(repo):
    """The total and the swap line of kernel-7.2.txt's memory table."""
    lines = results_lines(repo, 'kernel-7.2.txt',
                          ('data set', 'TOTAL', 'swap zbwmem'))
    if len(lines) < 6:
        sys.exit('cover.py: kernel-7.2.txt lacks its totals; run make '
                 'bench-kernel')
    head = lines[0].split()
    cols = head[head.index('KiB') + 1:-2]
    rows = []
    for l in lines[4:6]:
        name = 'all sets' if l.startswith('TOTAL') else 'swap'
        vals = re.findall(r'\(([0-9.]+)\)', l)[:len(cols)]
        rows.append([name] + vals)
    return indent(render.text_table([''] + cols, rows))


# The replay's rows in the cover letter, the list: zstd at 1/3/8
# with and without the program's dictionary, lz4, zbewalgo's levels and
# dictionary, zbewalgo recompressing lz4's pages.
REPLAY_ROWS = ('lz4', 'zstd-1', 'zstd-3', 'zstd-8', 'zstd-1+dict',
               'zstd-3+dict', 'zstd-8+dict', 'zbewalgo', 'zbewalgo-1',
               'zbewalgo-2', 'zbewalgo-3', 'zbewalgo+dict', 'lz4>zbewalgo')


# Column heads: a program's first word, or this.
SHORT = {'postgres-pgbench': 'pgsql'}


def replay(repo):
    """realprog-replay.txt's summary: peak mem_used over zstd-3's, a row per
    configuration of REPLAY_ROWS and a column per program, zstd-3's own
    peak in MiB, and the least of each program marked."""
    lines = results_lines(repo, 'realprog-replay.txt', ('',))
    progs, mib, prog = [], {}, None
    for l in lines:
        m = re.match(r'([\w-]+): the log of ', l)
        if m:
            prog = m.group(1)
            progs.append(prog)
        m = re.match(r'  zstd-3 +([0-9.]+) ', l)
        if m and prog and prog not in mib:
            mib[prog] = float(m.group(1))
    start = next((i for i, l in enumerate(lines)
                  if l.startswith('peak mem_used against zstd-3')), None)
    if start is None or not progs:
        sys.exit('cover.py: realprog-replay.txt has no summary; run make '
                 'realprog-replay')
    ratios = {}
    for l in lines[start + 1:]:
        m = re.match(r'  (\S+) +([0-9.]+) +\(([0-9. ]+)\)$', l)
        if not m:
            break
        if len(m.group(3).split()) == len(progs):
            ratios[m.group(1)] = [float(x) for x in m.group(3).split()] + [
                float(m.group(2))]
    confs = [c for c in REPLAY_ROWS if c in ratios]
    # zbewalgo without a level is level 2 unless the sysfs table was changed:
    # one row when they measured the same.
    same2 = ratios.get('zbewalgo') == ratios.get('zbewalgo-2')
    if same2 and 'zbewalgo' in ratios:
        confs.remove('zbewalgo-2')
    least = [min(confs, key=lambda c: ratios[c][i]) for i in range(len(progs))]
    heads = [SHORT.get(p, p.split('-')[0]) for p in progs] + ['geomean']
    rows = []
    for c in confs:
        label = 'zbewalgo, -2' if c == 'zbewalgo' and same2 else c
        if c == 'zstd-3':
            rows.append(['zstd-3, MiB'] + ['%.1f ' % mib[p] if p in mib
                                           else '- ' for p in progs] + [''])
            continue
        rows.append([label] + ['%.2f%s' % (x, '*' if least[i] == c else ' ')
                               for i, x in enumerate(ratios[c][:-1])]
                    + ['%.3f' % ratios[c][-1]])
    # One space between columns: a page's width for eight programs.
    head = ['zram'] + heads
    w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    out = [' '.join(c.ljust(w[0]) if i == 0 else c.rjust(w[i])
                    for i, c in enumerate(r)).rstrip() for r in [head] + rows]
    return indent('\n'.join(out))


def worst(repo):
    return indent('\n'.join(results_lines(
        repo, 'worst.txt', ('# zstd-3', 'table', 'level', '# zswap'))))


def dictionary(repo):
    """zram's dict=: zbewalgo+dict against zstd-3 with the same dictionary."""
    found = {}
    for l in results_lines(repo, 'dict.txt', ('  own:', '  mix:', '  file:')):
        m = re.match(r'\s*(\w+): zbewalgo\+dict / zstd-3\+dict ([\d.]+) ', l)
        if m:
            found.setdefault(m.group(1), {})['ratio'] = m.group(2)
        m = re.match(r'\s*(\w+): .*compression zbewalgo\+dict / '
                     r'zstd-3\+dict ([\d.]+)x the speed', l)
        if m:
            found.setdefault(m.group(1), {})['speed'] = m.group(2)
    kinds = (('own', 'per data set'), ('mix', 'one for all sets'),
             ('file', 'per test file'))
    parts = ['%s %sx/%sx' % (what, found[k]['ratio'], found[k]['speed'])
             for k, what in kinds if len(found.get(k, {})) == 2]
    if len(parts) != len(kinds):
        sys.exit('cover.py: dict.txt lacks its summary; run make bench-dict')
    return para('dict=, ratio/speed over zstd-3 with the same dictionary: '
                '%s (a page is compressed without and with it).'
                % ', '.join(parts))


def fuzz(repo):
    rows = render.campaigns(repo)
    tot = render.fuzz_totals(rows)
    cpu = sum(t['cpu_s'] for t in tot.values())
    execs = sum(t['execs'] for t in tot.values())
    fixes = sorted({r['fixed_in'] for r in rows if r['fixed_in']})
    text = ('AFL++ under ASan and UBSan on the user-space build: %d '
            'harnesses (every decoder alone with exact-size buffers, whole '
            'pages, round trips), %.1f CPU-hours, %.0f million executions' %
            (len(tot), cpu / 3600.0, execs / 1e6))
    if fixes:
        text += '; the bugs found were fixed before this posting, each ' \
                'with a regression test'
    return para(text + '.')


def check_fresh(repo):
    notes = [('bench/results/machine.txt', render.bench_note(repo))]
    notes += [('bench/results/kernel-%s.machine.txt' % v, note)
              for v, _, note in render.kernel_runs(repo)]
    notes.append(('bench/results/worst.txt', render.read_note(
        os.path.join(repo, render.RESULTS, 'worst.txt'))))
    notes.append(('bench/results/dict.txt', render.read_note(
        os.path.join(repo, render.RESULTS, 'dict.txt'))))
    head = results_lines(repo, 'realprog-replay.txt', ('realprog on',))
    m = re.search(r', tree (\S+):', head[0]) if head else None
    notes.append(('bench/results/realprog-replay.txt',
                  {'tree': [m.group(1) if m else '']}))
    for name, note in notes:
        why = render.stale(repo, note.get('tree', [''])[0],
                           note.get('code', [None])[0])
        if not why:
            continue
        msg = 'cover.py: %s: stale results: %s' % (name, why)
        if os.environ.get(render.ALLOW_STALE) != '1':
            sys.exit(msg + '; rerun the benchmark or set %s=1'
                     % render.ALLOW_STALE)
        print(msg + ' (%s=1)' % render.ALLOW_STALE, file=sys.stderr)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    repo, cover, source = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    runs = render.bench_runs(repo)
    if not runs:
        sys.exit('cover.py: no benchmark results in ' + render.RESULTS)
    check_fresh(repo)
    blurb = open(os.path.join(here, 'cover.txt')).read().rstrip()
    values = {
        'REPLAY': replay(repo),
        'SUMMARY': summary(runs),
        'KERNEL': kernel(repo),
        'WORST': worst(repo),
        'DICT': dictionary(repo),
        'FUZZ': fuzz(repo),
        'MACHINE': para('Measured on %s.  Based on Debian\'s %s.' % (
            machine(render.bench_note(repo)), source)),
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
