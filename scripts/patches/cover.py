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
(realprog-replay.txt), make worst (worst.txt) and the fuzzing record
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
    """The totals and the swap line of both tables of kernel-7.2.txt."""
    lines = results_lines(repo, 'kernel-7.2.txt',
                          ('data set', 'TOTAL', 'swap zbwmem'))
    if len(lines) < 6:
        sys.exit('cover.py: kernel-7.2.txt lacks its totals; run make '
                 'bench-kernel')
    head = lines[0].split()
    cols = head[head.index('KiB') + 1:-2]
    rows = []
    for what, l in (('compr', lines[1]), ('compr', lines[2]),
                    ('mem', lines[4]), ('mem', lines[5])):
        name = 'all sets' if l.startswith('TOTAL') else 'swap'
        vals = re.findall(r'\(([0-9.]+)\)', l)[:len(cols)]
        rows.append(['%s, orig/%s' % (name, what)] + vals)
    return indent(render.text_table([''] + cols, rows))


def replay(repo):
    """realprog-replay.txt's summary: peak mem_used over zstd-3's."""
    lines = results_lines(repo, 'realprog-replay.txt', ('',))
    # the programs by their first word: python-heap, numpy-solver, ...
    progs = [l.split(':')[0].split('-')[0] for l in lines
             if re.match(r'[\w-]+: the log of ', l)]
    start = next((i for i, l in enumerate(lines)
                  if l.startswith('peak mem_used against zstd-3')), None)
    if start is None or not progs:
        sys.exit('cover.py: realprog-replay.txt has no summary; run make '
                 'realprog-replay')
    rows = []
    for l in lines[start + 1:]:
        m = re.match(r'  (\S+) +([0-9.]+) +\(([0-9. ]+)\)$', l)
        if not m:
            break
        rows.append([m.group(1)] + m.group(3).split() + [m.group(2)])
    return indent(render.text_table(['zram'] + progs + ['geomean'], rows))


def worst(repo):
    return indent('\n'.join(results_lines(
        repo, 'worst.txt', ('# zstd-3', 'table', 'level', '# slowest'))))


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
