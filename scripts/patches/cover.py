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
import csv
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


def realprog(repo):
    """zram's mm_stat per real program and configuration (realprog.csv)."""
    path = os.path.join(repo, render.RESULTS, 'realprog.csv')
    if not os.path.exists(path):
        return indent(para('[PLACEHOLDER: no %s/realprog.csv; run make '
                           'realprog, then make patches.]' % render.RESULTS))
    with open(path, newline='') as f:
        recs = [r for r in csv.DictReader(f) if r['conf'] != 'capture']
    out = []
    for prog in dict.fromkeys(r['prog'] for r in recs):
        rows = []
        for r in recs:
            if r['prog'] != prog:
                continue
            orig, compr = int(r['orig']), int(r['compr'])
            mem = int(r['mem_used'])
            rows.append([r['conf'], '%.1f' % (orig / 2**20),
                         '%.2f' % (orig / compr) if compr else '-',
                         '%.2f' % (orig / mem) if mem else '-', r['huge'],
                         r['wall'], 'ok' if r['rc'] == '0' else
                         'rc ' + r['rc']])
        limit = next(r['limit'] for r in recs if r['prog'] == prog)
        out.append('%s (memory.max %s MiB):\n\n%s' % (
            prog, limit, indent(render.text_table(
                ['zram', 'orig MiB', 'o/compr', 'o/mem', 'huge', 'wall s',
                 'rc'], rows))))
    return '\n\n'.join(out)


def realswap(runs):
    """The pages the real programs swapped, zbewalgo against zstd-3."""
    run = next((r for r in runs if r.name == 'realswap'), None)
    if not run or 'zstd-3' not in run.algs:
        return indent(para('[PLACEHOLDER: no realswap.csv with zstd-3; run '
                           'make realprog and make bench.]'))
    algs = [a for a in ('zbewalgo', 'zbewalgo-1') if a in run.algs]
    rows = []
    for i in run.inputs:
        z = run.rec[(i, 'zstd-3')]
        row = [run.label[i].replace('.bin', ''), z['pages']]
        for a in algs:
            r = run.rec[(i, a)]
            row += ['%.3f' % (float(r['ratio_zram']) / float(z['ratio_zram'])),
                    '%.2f' % (float(r['compress_mibps']) /
                              float(z['compress_mibps'])),
                    '%.2f' % (float(r['decompress_mibps']) /
                              float(z['decompress_mibps'])),
                    '%.2f' % (float(r['roundtrip_mibps']) /
                              float(z['roundtrip_mibps']))
                    if r.get('roundtrip_mibps') else '-',
                    r.get('pages_over_zstd3') or '-']
        rows.append(row)
    head = ['program', 'pages']
    for a in algs:
        short = {'zbewalgo': 'dflt', 'zbewalgo-1': 'lvl1'}[a]
        head += ['%s ratio' % short, 'comp', 'dec', 'rt', '>64B']
    return indent(render.text_table(head, rows))


def results_lines(repo, name, prefixes):
    """The lines of results file NAME that start with one of PREFIXES."""
    path = os.path.join(repo, render.RESULTS, name)
    if not os.path.exists(path):
        return ['[PLACEHOLDER: no %s]' % name]
    with open(path) as f:
        return [l.rstrip('\n') for l in f if l.startswith(prefixes)]


def latency(repo):
    """The 99th percentiles of time per page in the kernel over zstd's."""
    # the last geomean line is the percentile table's: two columns
    geo = results_lines(repo, 'kernel-7.2.txt', ('geomean',))
    nums = geo[-1].split()[1:] if geo and geo[-1].startswith('geomean') else []
    if len(nums) != 2:
        return indent('[PLACEHOLDER: no geomean line in kernel-7.2.txt]')
    text = para('The 99th percentile of the time per page, zbewalgo\'s over '
                'zstd\'s, geometric mean over the sets: %s for compression, '
                '%s for decompression.  Where it is furthest above:' % tuple(nums))
    worst = results_lines(repo, 'kernel-7.2.txt', ('zbewalgo\'s 99th',))
    return text + '\n\n' + indent('\n'.join(render.wrap(l, 70)
                                            for l in worst))


def arm64(repo):
    """The summary of results/arm64.txt: emulated, then native means."""
    path = os.path.join(repo, render.RESULTS, 'arm64.txt')
    if not os.path.exists(path):
        return indent('[PLACEHOLDER: no arm64.txt; run make bench-arm64]')
    with open(path) as f:
        lines = f.read().splitlines()
    start = next((i for i, l in enumerate(lines)
                  if l.startswith('# summary:')), None)
    if start is None:
        return indent('[PLACEHOLDER: no summary in arm64.txt]')
    out = []
    for l in lines[start:]:
        if l.startswith('# ') and not l.startswith('# inputs') and \
                not l.startswith('#    '):
            out.append(render.wrap(l[2:], 70))
        else:
            # the column heads keep their place over the rows
            out.append(l.replace('# ', '  ', 1).rstrip())
    return indent('\n'.join(out))


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
        'REALPROG': realprog(repo),
        'REALSWAP': realswap(runs),
        'MEMORY': indent('\n'.join(
            render.wrap(l, 70) for l in results_lines(
                repo, 'kernel-7.2.txt', ('memory per stream',)))),
        'LATENCY': latency(repo),
        'WORST': indent('\n'.join(results_lines(
            repo, 'worst.txt', ('# zstd-3', 'table', 'level', '# slowest')))),
        'ARM64': arm64(repo),
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
