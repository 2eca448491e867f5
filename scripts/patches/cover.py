#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fill in the cover letter that git format-patch --cover-letter wrote.

usage: cover.py REPO COVER_LETTER SOURCE

The text is cover.txt beside this script; its @NAME@ placeholders take
figures from machine-readable records only, read through
tools/testing/zbewalgo/bench/render.py (the module that also renders them
into the docs): the user-space benchmark (bench/results/*.csv and
machine.txt), the in-kernel benchmark when its records are committed
(bench/results/kernel-*.csv, from make bench-kernel; otherwise a marked
placeholder stays in the letter) and the fuzzing record
(fuzz/campaigns.csv, fuzz/coverage.csv).  Results measured on other
lib/zbewalgo code than HEAD's stop it, unless ZBW_ALLOW_STALE=1.
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
    keys = ('date', 'cpu', 'compiler', 'libraries', 'tree', 'load')
    return 'Measured on:\n' + indent('\n'.join(
        '%s: %s' % (k, '; '.join(note[k])) for k in keys if k in note))


def bench(runs):
    """Per results file: ratio per input, then all inputs together."""
    out = []
    for run in runs:
        algs = render.guide_algs(run)
        rows = [[run.label[i], run.rec[(i, algs[0])]['pages']] +
                ['%.3f' % run.ratio(i, a) for a in algs] for i in run.inputs]
        out.append('%s.csv, ratio per input:\n\n%s' % (
            run.name, indent(render.text_table(['input', 'pages'] + algs,
                                               rows))))
        tot = [run.total(a) for a in algs]
        rows = [[a, '%.3f' % t['ratio'], '%.1f' % t['incomp'],
                 '%.1f' % t['comp'], '%.1f' % t['dec']]
                for a, t in zip(algs, tot)]
        out.append('%s.csv, all %d inputs, %d pages (sums of bytes and '
                   'times):\n\n%s' % (
                       run.name, len(run.inputs), tot[0]['pages'],
                       indent(render.text_table(
                           ['algorithm', 'ratio', 'incomp%', 'comp MiB/s',
                            'dec MiB/s'], rows))))
    return '\n\n'.join(out)


def kernel_bench(repo):
    runs = render.kernel_runs(repo)
    if not runs:
        return indent(para('[PLACEHOLDER: no %s/kernel-*.csv when this '
                           'series was generated; run make bench-kernel, '
                           'then make patches.]' % render.RESULTS))
    out = []
    for version, recs, note in runs:
        kernels = sorted({r['kernel'] for r in recs})
        head = ('Linux %s (qemu TCG, debug kernel), tree %s; per set '
                'orig/compr_data_size / orig/mem_used_total:' % (
                    ', '.join(kernels), note.get('tree', ['?'])[0]))
        out.append(para(head) + '\n\n' + indent(render.kernel_table(recs)))
    return '\n\n'.join(out)


def default_table(runs):
    """The chains of the default table the results measured."""
    for run in runs:
        for r in run.rows:
            m = re.match(r'default table: (.*)', r['params'])
            if r['algorithm'] == 'zbewalgo' and m:
                return indent('\n'.join(m.group(1).split(';'))) + \
                    '\n\n' + para(
                        'What each chain is for, and what it wins, is in '
                        'Documentation/staging/zbewalgo.rst, "Default '
                        'combination table".')
    return '  (the results do not name the default table)'


def fuzz(repo):
    rows = render.campaigns(repo)
    tot = render.fuzz_totals(rows)
    cpu = sum(t['cpu_s'] for t in tot.values())
    wall = sum(t['wall_s'] for t in tot.values())
    execs = sum(t['execs'] for t in tot.values())
    crashes = sum(t['crashes'] for t in tot.values())
    fixes = sorted({r['fixed_in'] for r in rows if r['fixed_in']})
    text = ('AFL++ under ASan and UBSan on the user-space build of '
            'lib/zbewalgo: %d harnesses (whole-page decompression of '
            'arbitrary bytes, round trips with input-chosen tables and '
            'parameters, too-small destinations, the table text interface, '
            'and every step decoder alone with exact-size buffers), '
            '%.1f CPU-hours, %.1f hours of fuzzer wall time, %.1f million '
            'executions in total.' % (len(tot), cpu / 3600.0, wall / 3600.0,
                                      execs / 1e6))
    if crashes:
        text += (' The %d crashes came from %d bugs, fixed in %s before '
                 'this posting; each has a regression test.' % (
                     crashes, len(fixes), render.join(fixes)))
    if sum(t['hangs'] for t in tot.values()):
        text += ' fuzz/README explains every hang.'
    table = render.text_table(
        ['harness', 'CPU s', 'wall s', 'execs', 'crashes', 'hangs'],
        [[h, str(t['cpu_s']), str(t['wall_s']), str(t['execs']),
          str(t['crashes']), str(t['hangs'])] for h, t in tot.items()])
    out = para(text) + '\n\n' + indent(table)
    cov = render.coverage(repo)
    if cov:
        c = cov[-1]
        out += '\n\n' + para(
            'Line coverage of %s by the saved corpora after campaign %s: '
            '%.1f%% (%s of %s lines).' % (
                c['files'], c['campaign'],
                100.0 * int(c['lines_covered']) / int(c['lines_total']),
                c['lines_covered'], c['lines_total']))
    return out


def check_fresh(repo):
    notes = [('bench/results/machine.txt', render.bench_note(repo))]
    notes += [('bench/results/kernel-%s.machine.txt' % v, note)
              for v, _, note in render.kernel_runs(repo)]
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
        'MACHINE': machine(render.bench_note(repo)),
        'BENCH': bench(runs),
        'KERNEL_BENCH': kernel_bench(repo),
        'DEFAULT_TABLE': default_table(runs),
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
