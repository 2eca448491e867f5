#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""render.py: the figures of the docs, from the committed results only.

usage: render.py [--check] [--repo DIR]
       render.py tree-id [EXCLUDE_DIR]
       render.py code-id

Reads the machine-readable results (bench/results/*.csv and machine.txt of
`make bench`, fuzz/campaigns.csv and fuzz/coverage.csv) and rewrites the
blocks between

    .. BEGIN generated: KEY
    .. END generated: KEY

in the files of renderers() (README, the admin guide, fuzz/README).
--check writes nothing: it prints a diff and exits 1 when a block differs
from what the results render, and exits 1 when the benchmark results were
measured on other lib/zbewalgo code than HEAD's (stale), unless
ZBW_ALLOW_STALE=1.  Without --check a stale result is only reported.

Both modes exit 1 when the prose of a document of PROSE (README, the
admin guide, INSTALL.rst) holds a measured figure outside its generated
blocks: a number or range followed by "times", "%" or a speed unit, a
decimal factor such as "5.8x", or a ratio with three decimals (see FIGURE).  Such a figure can only be
right if the renderer writes it from the results.

tree-id prints the commit of the work tree for a results header, with
"-dirty" when files outside EXCLUDE_DIR (the results) have changes.
code-id prints the SHA-256 of the code the results describe (the sources
and headers of lib/zbewalgo that user space builds, core/ and classic/,
its Makefile and include/linux/zbewalgo.h, by path and content, see
code_files()), so a clone without the measured commit in its history
(shallow, or a tarball) can still tell whether the results describe its
code.

The cover letter (scripts/patches/cover.py) imports this module, so that
every figure is read in one place.
"""
import csv
import difflib
import glob
import hashlib
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '../../../..'))
RESULTS = 'tools/testing/zbewalgo/bench/results'
CAMPAIGNS = 'fuzz/campaigns.csv'
COVERAGE = 'fuzz/coverage.csv'
GUIDE = 'Documentation/admin-guide/blockdev/zbewalgo.rst'
# The documents for people, whose prose may hold no measured figure outside
# a generated block (prose_figures()).
USER_GUIDE = 'docs/user-guide.rst'
README = 'README'
PROSE = [README, GUIDE, USER_GUIDE]
FUZZ_README = 'fuzz/README'
# The code whose output the results describe.
CODE = ['lib/zbewalgo', 'include/linux/zbewalgo.h']
ALLOW_STALE = 'ZBW_ALLOW_STALE'
# The compressors zram users choose between; the guide compares zbewalgo
# and its presets with those of them the results hold.
OTHERS = ['lz4', 'lzo-rle', 'zstd-1', 'zstd-3']
MIB = 1 << 20
# Ratio differences under this are "about the same" in the advice.
CLOSE = 0.05
# The README's and the guide's summary: zbewalgo, its level 1 and the
# compressors a zram user would otherwise take.
SUMMARY = ['zbewalgo', 'zbewalgo-1', 'lz4', 'zstd-1', 'zstd-3']
# The generated sets of float fields and solver state (gen-data.py names;
# tools/testing/kernel/demo-table.py groups the same).
FLOAT_SOLVER = ('float32-', 'float64-', 'csr-cg', 'hpcg-heap')

BEGIN = re.compile(r'^(\s*)\.\. BEGIN generated: (.+?)\s*$')
END = '.. END generated: '


# ---- Reading the results --------------------------------------------------

def read_note(path):
    """{key: [values]} of the '# key: value' lines of a machine note."""
    note = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'#\s*([a-z][\w-]*):\s*(.*?)\s*$', line)
            if m:
                note.setdefault(m.group(1), []).append(m.group(2))
    return note


class Run:
    """One `zbewalgo bench --csv` file: records per input and algorithm."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        with open(path, newline='') as f:
            self.rows = list(csv.DictReader(f))
        if not self.rows:
            raise ValueError('%s: no records' % path)
        self.algs, self.inputs, self.rec = [], [], {}
        for r in self.rows:
            if r['algorithm'] not in self.algs:
                self.algs.append(r['algorithm'])
            if r['file'] not in self.inputs:
                self.inputs.append(r['file'])
            self.rec[(r['file'], r['algorithm'])] = r
        # Inputs named relative to the directory they all share.
        common = os.path.commonpath([os.path.dirname(i) for i in self.inputs])
        self.label = {i: os.path.relpath(i, common) for i in self.inputs}
        self.page_size = int(self.rows[0]['page_size'])
        self.threshold = int(self.rows[0]['threshold'])

    def ratio(self, inp, alg):
        return float(self.rec[(inp, alg)]['ratio_zram'])

    def per_file(self, alg, inputs=None):
        """Per input of INPUTS (all by default) that ALG has: its ratio
        (bytes over zram's bytes) and speeds in MiB/s."""
        out = []
        for i in (inputs or self.inputs):
            r = self.rec.get((i, alg))
            if r:
                b = int(r['bytes'])
                out.append({'ratio': b / int(r['zram_bytes']),
                            'comp': b / MIB / float(r['compress_s']),
                            'dec': b / MIB / float(r['decompress_s'])})
        return out

    def total(self, alg, inputs=None):
        """The 'all files' figures (or those of INPUTS): sums of bytes and
        times."""
        rs = [self.rec[(i, alg)] for i in (inputs or self.inputs)
              if (i, alg) in self.rec]
        b = sum(int(r['bytes']) for r in rs)
        pages = sum(int(r['pages']) for r in rs)
        stored = sum(round(int(r['pages']) * float(r['incompressible_pct'])
                           / 100) for r in rs)
        return {
            'bytes': b,
            'comp_s': sum(float(r['compress_s']) for r in rs),
            'dec_s': sum(float(r['decompress_s']) for r in rs),
            'pages': pages,
            'incomp': 100.0 * stored / pages if pages else 0.0,
            'ratio': b / sum(int(r['zram_bytes']) for r in rs),
            'comp': b / MIB / sum(float(r['compress_s']) for r in rs),
            'dec': b / MIB / sum(float(r['decompress_s']) for r in rs),
        }


def is_bench_csv(path):
    with open(path, newline='') as f:
        head = next(csv.reader(f), [])
    return head[:2] == ['file', 'algorithm']


def bench_runs(repo):
    """Every bench run of the results, by file name: no fixed list of sets."""
    paths = sorted(glob.glob(os.path.join(repo, RESULTS, '*.csv')))
    return [Run(p) for p in paths if is_bench_csv(p)]


def bench_note(repo):
    return read_note(os.path.join(repo, RESULTS, 'machine.txt'))


def kernel_runs(repo):
    """[(version, records, note)] of the committed in-kernel results."""
    out = []
    for p in sorted(glob.glob(os.path.join(repo, RESULTS, 'kernel-*.csv'))):
        with open(p, newline='') as f:
            recs = list(csv.DictReader(f))
        note = os.path.splitext(p)[0] + '.machine.txt'
        out.append((os.path.basename(p)[len('kernel-'):-len('.csv')], recs,
                    read_note(note) if os.path.exists(note) else {}))
    return out


def campaigns(repo):
    with open(os.path.join(repo, CAMPAIGNS), newline='') as f:
        return list(csv.DictReader(f))


def coverage(repo):
    with open(os.path.join(repo, COVERAGE), newline='') as f:
        return list(csv.DictReader(f))


def fuzz_totals(rows):
    """Per harness, in order of appearance: CPU s, wall s, execs over all
    campaigns (a 'cumulative' row already holds the earlier ones), and the
    crashes and hangs, which every row counts for its own campaign."""
    tot = {}
    for r in rows:
        t = tot.setdefault(r['harness'], dict(cpu_s=0, wall_s=0, execs=0,
                                              crashes=0, hangs=0, runs=0))
        if r['counts'] == 'cumulative':
            t.update(cpu_s=0, wall_s=0, execs=0)
        elif r['counts'] != 'campaign':
            raise ValueError('%s: counts must be campaign or cumulative, '
                             'not %r' % (CAMPAIGNS, r['counts']))
        for k in ('cpu_s', 'wall_s', 'execs', 'crashes', 'hangs'):
            t[k] += int(r[k])
        t['runs'] += 1
    return tot


# ---- Staleness ------------------------------------------------------------

def git(repo, *args):
    return subprocess.run(['git', '-C', repo] + list(args),
                          capture_output=True, text=True)


def code_files(repo):
    """The files of CODE that decide what the user-space build does: the
    Makefile of lib/zbewalgo, the sources it lists for user space
    (ZBEWALGO_CORE and ZBEWALGO_CLASSIC, as make reads them: core/ and
    classic/), every header of their folders, and
    include/linux/zbewalgo.h; not what only the kernel builds (the top
    folder's config.c, stream.c, stream.h, ..., tuning/) or the tests."""
    lib = CODE[0]
    files = [f for f in CODE[1:] if os.path.isfile(os.path.join(repo, f))]
    mk = os.path.join(lib, 'Makefile')
    srcs = []
    if os.path.isfile(os.path.join(repo, mk)):
        r = subprocess.run(['make', '-s', '--no-print-directory', '-C', repo,
                            '-f', '-'], capture_output=True, text=True,
                           input='include %s\n'
                                 '$(info $(ZBEWALGO_CORE) $(ZBEWALGO_CLASSIC))\n'
                                 'all: ;@:\n' % mk)
        if r.returncode:
            sys.exit('render.py: make cannot read %s: %s' % (mk, r.stderr))
        srcs = [o[:-2] + '.c' for o in r.stdout.split() if o.endswith('.o')]
        files.append(mk)
    for d in sorted({os.path.dirname(f) for f in srcs}):
        for n in sorted(os.listdir(os.path.join(repo, lib, d))):
            f = os.path.join(d, n)
            if n.endswith('.h') or f in srcs:
                files.append(os.path.join(lib, f))
    return sorted(files)


def code_id(repo):
    """SHA-256 over the paths and contents of code_files()."""
    h = hashlib.sha256()
    for f in code_files(repo):
        with open(os.path.join(repo, f), 'rb') as fh:
            h.update(b'%s\0%s\0' % (f.encode(),
                                      hashlib.sha256(fh.read()).hexdigest()
                                      .encode()))
    return h.hexdigest()


def stale(repo, tree, code=None):
    """None when results of TREE (code id CODE) describe this code, else why.

    With a code id, the code itself decides, and the history is asked only
    where it has the commit: a shallow clone or a tarball can be checked.
    """
    if not tree or tree == 'unknown':
        return 'the results do not name the tree they measured'
    if tree.endswith('-dirty'):
        return ('the results were measured on %s with uncommitted changes'
                % tree)
    if code:
        if code != code_id(repo):
            return '%s differ from the code the results of %s measured' % (
                ' and '.join(CODE), tree)
        commit = git(repo, 'rev-parse', '--verify', '-q', tree + '^{commit}')
        if (not commit.returncode and
                git(repo, 'merge-base', '--is-ancestor',
                    commit.stdout.strip(), 'HEAD').returncode):
            return '%s, the tree the results measured, is not an ancestor ' \
                   'of HEAD' % tree
        return None
    top = git(repo, 'rev-parse', '--show-toplevel')
    # A tarball unpacked inside another work tree has no history either.
    if top.returncode or os.path.realpath(top.stdout.strip()) != \
            os.path.realpath(repo):
        return ('no git history here (a tarball?): cannot tell whether '
                'the results of %s describe this %s' % (tree, CODE[0]))
    commit = git(repo, 'rev-parse', '--verify', '-q', tree + '^{commit}')
    if commit.returncode:
        if git(repo, 'rev-parse', '--is-shallow-repository'
               ).stdout.strip() == 'true':
            return ('shallow clone: its history does not reach %s, the tree '
                    'the results measured (git fetch --unshallow)' % tree)
        return '%s, the tree the results measured, is not in this ' \
               'repository' % tree
    commit = commit.stdout.strip()
    if git(repo, 'merge-base', '--is-ancestor', commit, 'HEAD').returncode:
        return '%s, the tree the results measured, is not an ancestor of ' \
               'HEAD' % tree
    if git(repo, 'diff', '--quiet', commit, 'HEAD', '--',
           *code_files(repo)).returncode:
        return '%s changed since %s, the tree the results measured ' \
               '(git diff --stat %s HEAD -- %s)' % (
                   ' or '.join(CODE), tree, tree, ' '.join(CODE))
    return None


def tree_id(repo, exclude=None):
    """The commit for a results header; -dirty for changes outside EXCLUDE
    and the files whose blocks this module renders from the results."""
    d = git(repo, 'describe', '--always')
    if d.returncode:
        return 'unknown'
    spec = ['.'] + [':(exclude)' + f for f in (README, GUIDE, FUZZ_README)]
    if exclude:
        rel = os.path.relpath(os.path.abspath(exclude), repo)
        if not rel.startswith('..'):
            spec.append(':(exclude)' + rel)
    dirty = git(repo, 'status', '--porcelain', '--', *spec).stdout.strip()
    return d.stdout.strip() + ('-dirty' if dirty else '')


# ---- Formatting -------------------------------------------------------------

def rst_table(header, rows):
    """A simple reST table; the first column left, the others right."""
    cols = list(zip(*([header] + rows)))
    w = [max(len(c) for c in col) for col in cols]
    line = lambda r: '  '.join(c.ljust(w[0]) if i == 0 else c.rjust(w[i])
                               for i, c in enumerate(r)).rstrip()
    rule = '  '.join('=' * n for n in w)
    return '\n'.join([rule, line(header), rule] +
                     [line(r) for r in rows] + [rule])


def text_table(header, rows):
    """The same, without rules, for plain text."""
    cols = list(zip(*([header] + rows)))
    w = [max(len(c) for c in col) for col in cols]
    return '\n'.join('  '.join(c.ljust(w[0]) if i == 0 else c.rjust(w[i])
                               for i, c in enumerate(r)).rstrip()
                     for r in [header] + rows)


def wrap(text, width=76):
    out, line = [], ''
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = line + ' ' + word if line else word
    return '\n'.join(out + [line])




def factor(x):
    return '%.0f' % x if x >= 9.95 else '%.1f' % x


def join(items):
    items = list(items)
    if len(items) < 2:
        return ''.join(items)
    return ', '.join(items[:-1]) + ' and ' + items[-1]


# ---- README and the admin guide: the summary --------------------------------

def guide_algs(run):
    return [a for a in run.algs if a.startswith('zbewalgo')] + \
        [a for a in OTHERS if a in run.algs]




def short_machine_line(note, code=lambda t: t):
    """Date and machine in one line.  The tree stays in the results files,
    which the freshness check reads: a user's page has no use for it."""
    first = lambda k: note.get(k, ['?'])[0]
    cpu = re.sub(r', (\d+) online', r', \1 cores',
                 re.sub(r', [\d.]+ MHz$', '', first('cpu')))
    mem = ', %s' % first('memory') if 'memory' in note else ''
    return ('%s on %s, %s%s:' % (
        code('make bench'), first('date').split()[0], cpu, mem))


def summary_algs(runs):
    """zbewalgo, its level 1 and the compressors of SUMMARY that every run
    holds."""
    return [a for a in SUMMARY if all(a in r.algs for r in runs)]


def groups(run):
    """[(description, inputs)]: the float and solver sets apart from the
    rest when a run has both, else all its inputs."""
    fs = [i for i in run.inputs if run.label[i].startswith(FLOAT_SOLVER)]
    rest = [i for i in run.inputs if i not in fs]
    if fs and rest:
        return [('%d float and solver sets' % len(fs), fs),
                ('%d other inputs' % len(rest), rest)]
    return [('all %d inputs' % len(run.inputs), run.inputs)]


def speeds(runs, alg):
    """Compression and decompression speed over every input of RUNS, all
    bytes over all seconds."""
    b = cs = ds = 0
    for run in runs:
        t = run.total(alg)
        b, cs, ds = b + t['bytes'], cs + t['comp_s'], ds + t['dec_s']
    return b / MIB / cs, b / MIB / ds


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


def geo_speeds(runs, alg):
    """Compression and decompression speed, the geometric means over
    every input of RUNS."""
    files = [f for run in runs for f in run.per_file(alg)]
    return (geomean(f['comp'] for f in files),
            geomean(f['dec'] for f in files))


# Said with the summary table: what its rows are.
SUMMARY_NOTE = ('Each figure is the geometric mean over the files, each file '
                'counting the same; the rows "bytes summed" below them divide '
                'all bytes by all of zram\'s bytes (or seconds), which the '
                'largest files dominate.')
SUMMED = '  bytes summed'


def summary_table(runs, table, code):
    """Ratios per group of inputs and speeds, one column per algorithm:
    per-file geometric means, each with its bytes-summed figure below."""
    algs = summary_algs(runs)
    rows = []
    for run in runs:
        for desc, inputs in groups(run):
            rows.append(['ratio, %s: %s' % (code(run.name + '.csv'), desc)] +
                        ['%.2f' % geomean(f['ratio'] for f in
                                          run.per_file(a, inputs))
                         for a in algs])
            rows.append([SUMMED] + ['%.2f' % run.total(a, inputs)['ratio']
                                    for a in algs])
    geo = [geo_speeds(runs, a) for a in algs]
    sp = [speeds(runs, a) for a in algs]
    rows.append(['compression, MiB/s'] + ['%.0f' % c for c, d in geo])
    rows.append([SUMMED] + ['%.0f' % c for c, d in sp])
    rows.append(['decompression, MiB/s'] + ['%.0f' % d for c, d in geo])
    rows.append([SUMMED] + ['%.0f' % d for c, d in sp])
    return table(['figure'] + algs, rows)


def ahead(runs, code):
    """Where the default table's ratio is CLOSE or more above the best of
    the other compressors, per run."""
    parts = []
    others = []
    for run in runs:
        others = [a for a in OTHERS if a in run.algs]
        if 'zbewalgo' not in run.algs or not others:
            continue
        n = {'ahead': [], 'close': [], 'behind': []}
        for i in run.inputs:
            d = run.ratio(i, 'zbewalgo') / max(run.ratio(i, a)
                                              for a in others) - 1
            n['ahead' if d >= CLOSE else 'behind' if d <= -CLOSE
              else 'close'].append(i)
        fs = [i for i in run.inputs if run.label[i].startswith(FLOAT_SOLVER)]
        fs_ahead = [i for i in n['ahead'] if i in fs]
        text = 'on %d of the %d inputs of %s' % (
            len(n['ahead']), len(run.inputs), code(run.name + '.csv'))
        if fs_ahead:
            text += ', %s%d float and solver sets among them' % (
                'all ' if len(fs_ahead) == len(fs) else '', len(fs_ahead))
        text += ' (within %.0f%% on %d' % (CLOSE * 100, len(n['close']))
        if n['behind']:
            text += ', below on %d' % len(n['behind'])
        parts.append(text + ')')
    if not parts:
        return ''
    return wrap('The default table\'s ratio is %.0f%% or more above the best '
                'of %s %s.' % (CLOSE * 100, join(others), ' and '.join(parts)))


def swap_in(runs, code):
    """How much faster lz4 decompresses than the default table and level 1,
    over all inputs of each run: the range over the runs."""
    parts = []
    for alg, what in (('zbewalgo', 'the default table'),
                      ('zbewalgo-1', 'level 1')):
        vals = sorted(run.total('lz4')['dec'] / run.total(alg)['dec']
                      for run in runs if alg in run.algs and
                      'lz4' in run.algs)
        if vals:
            rng = factor(vals[0]) if factor(vals[0]) == factor(vals[-1]) \
                else '%s to %s' % (factor(vals[0]), factor(vals[-1]))
            parts.append('%s times as fast as %s' % (rng, what))
    if not parts:
        return ''
    return wrap('lz4 decompresses %s (over all inputs of %s, one thread in '
                'user space).' % (' and '.join(parts),
                                  join(code(r.name + '.csv') for r in runs)))


def guide_bench(repo):
    runs = bench_runs(repo)
    if not runs:
        raise ValueError('no bench results (*.csv) in %s' % RESULTS)
    code = lambda t: '``%s``' % t
    sizes = sorted({(r.page_size, r.threshold) for r in runs})
    line = short_machine_line(bench_note(repo), code)[:-1]
    if len(sizes) == 1:
        line += ', %d-byte pages, zram\'s threshold %d bytes' % sizes[0]
    parts = [wrap('Measured by ' + line + '.  ' + SUMMARY_NOTE), '',
             summary_table(runs, rst_table, code), '', ahead(runs, code)]
    return '\n'.join(parts)


def guide_dict(repo):
    """zram's dict= on the sets and test files (results/dict.csv)."""
    path = os.path.join(repo, RESULTS, 'dict.csv')
    with open(path, newline='') as f:
        recs = list(csv.DictReader(f))
    if not recs:
        raise ValueError('%s: no records' % path)

    def geo(kind, alg, col):
        v = [float(r[col]) for r in recs
             if r['kind'] == kind and r['algorithm'] == alg]
        return math.exp(sum(map(math.log, v)) / len(v))

    kinds = [k for k in ('own', 'file') if any(r['kind'] == k for r in recs)]
    where = {'own': 'on the second half of each generated set',
             'file': 'of each test file'}
    parts = ['%s from %.3f to %.3f (zstd-3: %.3f to %.3f)'
             % (where[k], geo(k, 'zbewalgo', 'ratio_zram'),
                geo(k, 'zbewalgo+dict', 'ratio_zram'),
                geo(k, 'zstd-3', 'ratio_zram'),
                geo(k, 'zstd-3+dict', 'ratio_zram')) for k in kinds]
    speed = sorted(geo(k, 'zbewalgo+dict', 'compress_mibps') /
                   geo(k, 'zstd-3+dict', 'compress_mibps') for k in kinds)
    rng = '%.2f' % speed[0] if len(speed) == 1 or \
        '%.2f' % speed[0] == '%.2f' % speed[-1] else \
        '%.2f to %.2f' % (speed[0], speed[-1])
    return wrap('In ``make bench-dict`` (``results/dict.txt``, geometric '
                'means), a dictionary trained on the first half of the '
                'pages took the default table\'s ratio %s.  Compression '
                'with it runs at %s times the speed of zstd-3 with the same '
                'dictionary: zstd compresses each page once, with the '
                'dictionary, at the zstd level of the compression level (3 '
                'for the default).' % (join(parts), rng))


def readme_summary(repo):
    runs = bench_runs(repo)
    if not runs:
        raise ValueError('no bench results (*.csv) in %s' % RESULTS)
    code = lambda t: t
    return '\n'.join([wrap(short_machine_line(bench_note(repo))[:-1] + '.  ' +
                           SUMMARY_NOTE), '',
                      summary_table(runs, text_table, code), '',
                      ahead(runs, code)])


# ---- Figures in prose ---------------------------------------------------------
#
# A measured figure in a user document stands only inside a generated block,
# where the renderer writes it from the results it cites; in the prose it
# would go stale, or be wrong from the start.  A figure here is a number
# (or a range "N to M") followed by "times", "%", or a speed in MiB/s, MB/s
# or GiB/s, a decimal number followed by "x" ("5.8x"), or a ratio written
# with three decimals.  Literal
# blocks and comments of an .rst file are not prose.  render.py --check
# fails on any such figure outside the generated blocks of PROSE.

FIGURE = re.compile(
    r'(?<![\w.])\d+(?:\.\d+)?(?:\s*(?:to|-|and)\s*\d+(?:\.\d+)?)?'
    r'\s*(?:times\b|%|[MG]i?B/s\b)'
    r'|(?<![\w.])\d+\.\d+ ?x\b'
    r'|(?<![\w.])\d+\.\d{3}(?![\w.])')


def prose_lines(text, rst):
    """(line number, line) of TEXT outside generated blocks and, in rst,
    outside literal blocks and comments."""
    lines = text.split('\n')
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        m = BEGIN.match(line)
        if m:
            end = m.group(1) + END + m.group(2)
            i = lines.index(end, i + 1) + 1 if end in lines[i + 1:] \
                else len(lines)
            continue
        ind = len(line) - len(line.lstrip())
        if rst and (line.rstrip().endswith('::') or
                    re.match(r'\s*\.\.(\s|$)', line)):
            # Skip the indented body that follows (a literal block, a
            # comment or a directive's content).
            if not re.match(r'\s*\.\.(\s|$)', line):
                out.append((i + 1, line))      # the paragraph before '::'
            i += 1
            while i < len(lines) and (not lines[i].strip() or
                                      len(lines[i]) -
                                      len(lines[i].lstrip()) > ind):
                i += 1
            continue
        out.append((i + 1, line))
        i += 1
    return out


def prose_figures(text, rst):
    """(line number, figure) of every measured figure in the prose."""
    return [(n, m.group(0)) for n, line in prose_lines(text, rst)
            for m in FIGURE.finditer(line)]


# ---- The in-kernel results (make bench-kernel) ------------------------------

def kernel_table(recs):
    """Per set: orig KiB and, per algorithm, orig/compr_data_size and
    orig/mem_used_total; then write and read speed of the whole pool."""
    algs, sets, by = [], [], {}
    for r in recs:
        key = (r['workload'], r['set'])
        if r['algorithm'] not in algs:
            algs.append(r['algorithm'])
        if key not in sets:
            sets.append(key)
        by[key + (r['algorithm'],)] = r
    rows = []
    for key in sets:
        rs = [by.get(key + (a,)) for a in algs]
        origs = {r['orig_bytes'] for r in rs if r}
        name = key[1] if key[0] == 'blk' else '%s %s' % key
        rows.append([name, '%d' % (int(origs.pop()) // 1024)
                     if len(origs) == 1 else 'varies'] +
                    ['%.2f / %.2f' % (int(r['orig_bytes']) /
                                      int(r['compr_bytes']),
                                      int(r['orig_bytes']) /
                                      int(r['mem_used_bytes']))
                     if r else '-' for r in rs])
    out = text_table(['set', 'orig KiB'] + algs, rows)
    speed = []
    for a in algs:
        r = by.get(('blk', 'all-sets', a))
        if r and float(r['write_ms']) > 0 and float(r['read_ms']) > 0:
            mib = int(r['orig_bytes']) / MIB
            speed.append([a, '%.1f' % (mib / float(r['write_ms']) * 1000),
                          '%.1f' % (mib / float(r['read_ms']) * 1000)])
    if speed:
        out += '\n\nall sets in one zram device, MiB/s (emulated CPU):\n' + \
            text_table(['algorithm', 'write', 'read'], speed)
    failed = sorted({r['set'] for r in recs if r['check'] != 'ok'})
    if failed:
        out += '\n\nFAILED checks: ' + ', '.join(failed)
    return out


# ---- fuzz/README ----------------------------------------------------------

def fuzz_table(rows, campaign):
    rs = [r for r in rows if r['campaign'] == campaign]
    if not rs:
        raise ValueError('%s has no campaign %r' % (CAMPAIGNS, campaign))
    return text_table(
        ['harness', 'CPU s', 'wall s', 'execs', 'exec/s', 'edges', 'bitmap',
         'crashes', 'hangs'],
        [[r['harness'] + (' (%s)' % r['footnote'] if r['footnote'] else ''),
          r['cpu_s'], r['wall_s'], r['execs'], r['exec_per_s'], r['edges'],
          r['bitmap_pct'] + '%', r['crashes'], r['hangs']] for r in rs])


# ---- Blocks -----------------------------------------------------------------

def renderers(repo):
    """{file: function(key) -> text} of the generated blocks."""
    fuzz_rows = []

    def fuzz_block(key):
        if not fuzz_rows:
            fuzz_rows.extend(campaigns(repo))
        m = re.match(r'campaign (\S+)', key)
        if not m:
            raise ValueError('%s: unknown block %r' % (FUZZ_README, key))
        return fuzz_table(fuzz_rows, m.group(1))

    def guide_block(key):
        if key == 'bench results':
            return guide_bench(repo)
        if key == 'swap-in':
            return swap_in(bench_runs(repo), lambda t: '``%s``' % t)
        if key == 'dict':
            return guide_dict(repo)
        raise ValueError('%s: unknown block %r' % (GUIDE, key))

    def readme_block(key):
        if key != 'summary':
            raise ValueError('%s: unknown block %r' % (README, key))
        return readme_summary(repo)

    return {README: readme_block, GUIDE: guide_block, FUZZ_README: fuzz_block}


def render_file(text, render, name):
    """TEXT with every generated block rendered anew."""
    out, lines, i = [], text.split('\n'), 0
    found = 0
    while i < len(lines):
        out.append(lines[i])
        m = BEGIN.match(lines[i])
        i += 1
        if not m:
            continue
        indent, key = m.groups()
        end = indent + END + key
        try:
            j = lines.index(end, i)
        except ValueError:
            raise ValueError('%s: no %r line' % (name, end.strip()))
        body = render(key)
        out += [''] + [(indent + l).rstrip() for l in body.split('\n')] + ['']
        out.append(end)
        i = j + 1
        found += 1
    if not found:
        raise ValueError('%s: no generated block' % name)
    return '\n'.join(out)


def main(argv):
    args = argv[1:]
    repo = REPO
    if '--repo' in args:
        k = args.index('--repo')
        repo = os.path.abspath(args[k + 1])
        del args[k:k + 2]
    if args[:1] == ['tree-id']:
        print(tree_id(repo, args[1] if len(args) > 1 else None))
        return 0
    if args == ['code-id']:
        print(code_id(repo))
        return 0
    check = args == ['--check']
    if args and not check:
        sys.stderr.write(__doc__)
        return 2
    status = 0
    for name, render in renderers(repo).items():
        path = os.path.join(repo, name)
        with open(path) as f:
            old = f.read()
        try:
            new = render_file(old, render, name)
        except (ValueError, KeyError, OSError) as e:
            print('render: %s' % e, file=sys.stderr)
            return 1
        if new == old:
            print('render: %s: generated blocks match the results' % name)
        elif check:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True),
                'a/' + name, 'b/' + name))
            print('render: %s: the generated blocks differ from what the '
                  'results render (diff above); run %s' % (
                      name, os.path.relpath(os.path.abspath(__file__),
                                            REPO)),
                  file=sys.stderr)
            status = 1
        else:
            with open(path, 'w') as f:
                f.write(new)
            print('render: %s: rewritten from the results' % name)
    for name in PROSE:
        with open(os.path.join(repo, name)) as f:
            figs = prose_figures(f.read(), name.endswith('.rst'))
        for n, fig in figs:
            print('render: %s:%d: "%s" is a measured figure outside a '
                  'generated block: render it from the results or remove '
                  'it' % (name, n, fig), file=sys.stderr)
            status = 1
        if not figs:
            print('render: %s: no measured figure outside the generated '
                  'blocks' % name)
    note = bench_note(repo)
    why = stale(repo, note.get('tree', [''])[0], note.get('code', [None])[0])
    if why:
        print('render: the benchmark results are stale: %s.  Rerun make '
              'bench (it measures and re-renders the docs), or set %s=1 '
              'while the code is being changed.' % (why, ALLOW_STALE),
              file=sys.stderr)
        if check and os.environ.get(ALLOW_STALE) != '1':
            status = 1
        elif check:
            print('render: %s=1: stale results accepted' % ALLOW_STALE,
                  file=sys.stderr)
    else:
        print('render: the benchmark results describe HEAD\'s %s'
              % ' and '.join(CODE))
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv))
