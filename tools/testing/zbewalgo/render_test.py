#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of bench/render.py (the generated figures of the docs) and of the
cover letter that reads the same records (scripts/patches/cover.py).

usage: render_test.py [-v]

Every test works on a scratch copy of the files involved, so the tree is
never written.  Run by `make docs` (part of `make check-user`).
"""
import csv
import io
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'bench'))
import render  # noqa: E402

REPO = render.REPO
RENDER = os.path.join(HERE, 'bench', 'render.py')
COVER = os.path.join(REPO, 'scripts', 'patches', 'cover.py')
FILES = [render.README, render.GUIDE, render.USER_GUIDE, render.FUZZ_README, render.CAMPAIGNS,
         render.COVERAGE]
GIT_ENV = dict(GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@example.org',
               GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@example.org',
               GIT_CONFIG_NOSYSTEM='1', HOME='/nonexistent')


def run(args, env=None, cwd=None):
    e = dict(os.environ)
    e.pop(render.ALLOW_STALE, None)
    e.update(GIT_ENV)
    e.update(env or {})
    return subprocess.run(args, capture_output=True, text=True, env=e,
                          cwd=cwd)


class Scratch(unittest.TestCase):
    """A copy of the docs, results and records, optionally a git repo."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='zbw-render-')
        for f in FILES:
            os.makedirs(os.path.join(self.dir, os.path.dirname(f)),
                        exist_ok=True)
            shutil.copy(os.path.join(REPO, f), os.path.join(self.dir, f))
        shutil.copytree(os.path.join(REPO, render.RESULTS),
                        os.path.join(self.dir, render.RESULTS))
        # Without a code id the history decides; set_code() adds one.
        note = os.path.join(render.RESULTS, 'machine.txt')
        self.write(note, re.sub(r'(?m)^# code: .*\n', '', self.read(note)))
        for d in ('core', 'classic', 'tuning'):
            os.makedirs(os.path.join(self.dir, 'lib/zbewalgo', d))
        self.write('lib/zbewalgo/core/engine.c', 'int x;\n')
        self.write('lib/zbewalgo/core/engine.h', '\n')
        self.write('lib/zbewalgo/Makefile',
                   'ZBEWALGO_CORE := core/engine.o\n'
                   'ZBEWALGO_CLASSIC := \\\n\t\tclassic/lz.o\n'
                   'ZBEWALGO_TUNING := tuning/sysfs.o\n'
                   'libzbewalgo-y := $(ZBEWALGO_CORE) stream.o\n')
        self.write('lib/zbewalgo/classic/lz.c', 'int l;\n')
        self.write('lib/zbewalgo/stream.c', 'int s;\n')
        self.write('lib/zbewalgo/stream.h', '\n')
        self.write('lib/zbewalgo/tuning/sysfs.c', 'int f;\n')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()

    def write(self, name, text):
        with open(self.path(name), 'w') as f:
            f.write(text)

    def check(self, allow_stale=True):
        env = {render.ALLOW_STALE: '1'} if allow_stale else {}
        return run([sys.executable, RENDER, '--repo', self.dir, '--check'],
                   env)

    def render(self):
        return run([sys.executable, RENDER, '--repo', self.dir])

    def git(self, *args):
        r = run(['git', '-C', self.dir] + list(args))
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.strip()

    def commit(self, msg):
        self.git('add', '-A')
        self.git('commit', '-q', '-m', msg)
        return self.git('rev-parse', '--short', 'HEAD')

    def shallow_clone(self):
        """A clone of depth 1 next to the scratch tree; the caller removes
        it."""
        clone = self.dir + '-clone'
        r = run(['git', 'clone', '-q', '--depth', '1',
                 'file://' + self.dir, clone])
        self.assertEqual(r.returncode, 0, r.stderr)
        return clone

    def set_tree(self, tree):
        name = os.path.join(render.RESULTS, 'machine.txt')
        self.write(name, re.sub(r'(?m)^# tree: .*$', '# tree:      ' + tree,
                                self.read(name)))

    def set_code(self, code):
        """Records the code id CODE after the tree line."""
        name = os.path.join(render.RESULTS, 'machine.txt')
        text = re.sub(r'(?m)^# code: .*\n', '', self.read(name))
        self.write(name, re.sub(r'(?m)^(# tree: .*)$',
                                r'\1\n# code:      ' + code, text))


class Drift(Scratch):
    def test_committed_blocks_match(self):
        r = self.check()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('generated blocks match', r.stdout)

    def test_edited_table_number_fails(self):
        guide = self.read(render.GUIDE)
        # The first number of the summary table.
        row = re.search(r'(?m)^ratio, .*? \d+\.\d{2}\b', guide)
        self.assertIsNotNone(row)
        self.write(render.GUIDE, guide.replace(row.group(0), row.group(0)[:-4]
                                               + '9.99', 1))
        r = self.check()
        self.assertEqual(r.returncode, 1)
        self.assertIn('9.99', r.stdout)         # the diff shows the edit
        self.assertIn('differ from what the results render', r.stderr)
        self.assertEqual(self.render().returncode, 0)
        self.assertEqual(self.read(render.GUIDE), guide)

    def test_edited_result_fails(self):
        name = os.path.join(render.RESULTS, 'sets.csv')
        rows = list(csv.reader(io.StringIO(self.read(name))))
        k = rows[0].index('zram_bytes')
        rows[1][k] = str(int(rows[1][k]) // 2)
        out = io.StringIO()
        csv.writer(out, lineterminator='\n').writerows(rows)
        self.write(name, out.getvalue())
        r = self.check()
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stdout, r'(?m)^-ratio, ``sets\.csv``')

    def test_edited_campaign_fails(self):
        text = self.read(render.CAMPAIGNS).replace(',37121623,', ',37121624,')
        self.assertNotEqual(text, self.read(render.CAMPAIGNS))
        self.write(render.CAMPAIGNS, text)
        r = self.check()
        self.assertEqual(r.returncode, 1)
        self.assertIn('+  decompress', r.stdout)
        self.assertIn('37121624', r.stdout)

    def test_edited_readme_figure_fails(self):
        readme = self.read(render.README)
        row = re.search(r'(?m)^decompression, MiB/s +\d+', readme)
        self.assertIsNotNone(row)
        self.write(render.README, readme.replace(row.group(0),
                                                 row.group(0) + '0', 1))
        r = self.check()
        self.assertEqual(r.returncode, 1)
        self.assertIn('a/README', r.stdout)
        self.assertEqual(self.render().returncode, 0)
        self.assertEqual(self.read(render.README), readme)

    def test_edited_guide_outside_blocks_is_free(self):
        self.write(render.GUIDE, self.read(render.GUIDE) + '\nMore prose.\n')
        self.assertEqual(self.check().returncode, 0)

    def test_renamed_results_file(self):
        # Sets come from the results files, whatever they are called.
        old = os.path.join(render.RESULTS, 'corpus.csv')
        new = os.path.join(render.RESULTS, 'debian-files.csv')
        os.rename(self.path(old), self.path(new))
        self.assertEqual(self.check().returncode, 1)
        self.assertEqual(self.render().returncode, 0)
        block = self.read(render.GUIDE).split(
            '.. BEGIN generated: bench results')[1].split('.. END generated')[0]
        self.assertIn('``debian-files.csv``', block)
        self.assertNotIn('corpus.csv', block)
        self.assertEqual(self.check().returncode, 0)

    def test_missing_end_marker(self):
        self.write(render.FUZZ_README, self.read(render.FUZZ_README).replace(
            '.. END generated: campaign 1', '', 1))
        r = self.check()
        self.assertEqual(r.returncode, 1)
        self.assertIn('no', r.stderr)

    def test_cover_letter(self):
        letter = os.path.join(self.dir, 'cover.patch')
        with open(letter, 'w') as f:
            f.write('Subject: [PATCH 0/4] *** SUBJECT HERE ***\n\n'
                    '*** BLURB HERE ***\n')
        r = run([sys.executable, COVER, self.dir, letter, 'src'],
                {render.ALLOW_STALE: '1'})
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(letter) as f:
            text = f.read()
        self.assertNotRegex(text, r'@[A-Z_]+@')
        flat = ' '.join(text.split())
        rows = render.campaigns(self.dir)
        tot = render.fuzz_totals(rows)
        self.assertIn('%.1f CPU-hours' % (
            sum(t['cpu_s'] for t in tot.values()) / 3600.0), flat)
        # One summary row per results file with zstd-3 and zbewalgo.
        for run_ in render.bench_runs(self.dir):
            if {'zstd-3', 'zbewalgo'} <= set(run_.algs):
                z = run_.total('zstd-3')
                self.assertRegex(text, r'(?m)^  %s +%d +%d +%.3f ' % (
                    re.escape(run_.name), len(run_.inputs), z['pages'],
                    z['ratio']))
        # The letter fits a page: its text, not the diffstat git adds.
        self.assertLessEqual(text.count('\n'), 80)
        # Stale results stop it without the override.
        r = run([sys.executable, COVER, self.dir, letter, 'src'])
        self.assertEqual(r.returncode, 1)
        self.assertIn('stale', r.stderr)


class Prose(Scratch):
    """A measured figure in a document's prose fails --check."""

    def test_figure_in_prose_fails(self):
        for doc in render.PROSE:
            text = self.read(doc)
            self.write(doc, text + '\nDecompression is 56 to 78 times '
                       'slower than lz4.\n')
            r = self.check()
            self.assertEqual(r.returncode, 1, doc)
            self.assertIn('"56 to 78 times" is a measured figure', r.stderr)
            self.assertIn('%s:%d:' % (doc, text.count('\n') + 2), r.stderr)
            # Not something the renderer can fix: rendering fails too.
            self.assertEqual(self.render().returncode, 1)
            self.write(doc, text)
        self.assertEqual(self.check().returncode, 0)

    def test_what_counts(self):
        flagged = ['56 to 78 times', '5.8x', '5.8 x', 'within 5%',
                   '1203.9 MiB/s', '3-9 times', 'a ratio of 2.041']
        free = ['powerpc 44x', 'Linux 6.12 and 7.2', '3264 bytes',
                'level 1', '64 KiB pages', 'zstd-3', '2 cores, 24 GiB',
                'about 40 minutes']
        for t in flagged:
            self.assertTrue(render.prose_figures(t, False), t)
        for t in free:
            self.assertEqual(render.prose_figures(t, False), [], t)

    def test_literal_comment_and_generated_are_not_prose(self):
        text = '\n'.join([
            'Prose.', '', '::', '', '  PERCENT=50%', '  lz4 2.5x', '',
            '.. a comment, 9 times', '   still the comment 10%', '',
            '.. BEGIN generated: x', '', '7.8 times as fast', '',
            '.. END generated: x', '', 'Back in prose: 12%.'])
        figs = render.prose_figures(text, True)
        self.assertEqual(figs, [(17, '12%')])
        # Plain text (README): only the generated blocks are left out.
        self.assertEqual([f for _, f in render.prose_figures(text, False)],
                         ['50%', '2.5x', '9 times', '10%', '12%'])


class Stale(Scratch):
    def test_fresh_then_code_change(self):
        self.git('init', '-q')
        tree = self.commit('one')
        self.set_tree(tree)
        self.assertEqual(self.render().returncode, 0)
        self.commit('results and docs')
        r = self.check(allow_stale=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('describe HEAD', r.stdout)
        self.write('lib/zbewalgo/core/engine.c', 'int y;\n')
        self.commit('code change')
        r = self.check(allow_stale=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('stale', r.stderr)
        self.assertIn('changed since ' + tree, r.stderr)
        r = self.check(allow_stale=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('accepted', r.stderr)
        # Without --check a stale result is reported, not fatal.
        self.assertEqual(self.render().returncode, 0)

    def test_not_an_ancestor(self):
        self.git('init', '-q')
        self.commit('one')
        self.git('checkout', '-q', '-b', 'side')
        self.write('lib/zbewalgo/core/engine.c', 'int side;\n')
        side = self.commit('side')
        self.git('checkout', '-q', '-')
        self.set_tree(side)
        self.commit('results')
        r = self.check(allow_stale=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('not an ancestor of HEAD', r.stderr)

    def test_dirty_unknown_and_missing(self):
        self.git('init', '-q')
        tree = self.commit('one')
        for t, msg in ((tree + '-dirty', 'uncommitted changes'),
                       ('unknown', 'do not name the tree'),
                       ('0123456', 'not in this repository')):
            self.set_tree(t)
            self.assertEqual(self.render().returncode, 0)
            r = self.check(allow_stale=False)
            self.assertEqual(r.returncode, 1, t)
            self.assertIn(msg, r.stderr)

    def test_no_git(self):
        self.set_tree('b4eae56')
        self.assertEqual(self.render().returncode, 0)
        r = self.check(allow_stale=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('no git history', r.stderr)
        self.assertEqual(self.check(allow_stale=True).returncode, 0)

    def test_shallow_clone(self):
        self.git('init', '-q')
        tree = self.commit('one')
        self.set_tree(tree)
        self.commit('two')
        self.write('unrelated.txt', 'y\n')
        self.commit('three')
        clone = self.shallow_clone()
        try:
            r = run([sys.executable, RENDER, '--repo', clone, '--check'])
            self.assertEqual(r.returncode, 1)
            self.assertIn('shallow clone', r.stderr)
        finally:
            shutil.rmtree(clone)

    def test_code_id(self):
        """With a code id a shallow clone or a tarball can be checked."""
        self.git('init', '-q')
        tree = self.commit('one')
        self.set_tree(tree)
        self.set_code(render.code_id(self.dir))
        self.assertEqual(self.render().returncode, 0)
        self.commit('results')
        self.write('unrelated.txt', 'y\n')
        self.commit('three')
        clone = self.shallow_clone()
        try:
            r = run([sys.executable, RENDER, '--repo', clone, '--check'])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn('describe HEAD', r.stdout)
            shutil.rmtree(os.path.join(clone, '.git'))
            r = run([sys.executable, RENDER, '--repo', clone, '--check'])
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(clone, 'lib/zbewalgo/core/engine.c'),
                      'a') as f:
                f.write('int z;\n')
            r = run([sys.executable, RENDER, '--repo', clone, '--check'])
            self.assertEqual(r.returncode, 1)
            self.assertIn('differ from the code', r.stderr)
        finally:
            shutil.rmtree(clone)
        # The kernel-only files (the top folder's, tuning/) do not count,
        # a classic step's on a continuation line of ZBEWALGO_CLASSIC and
        # a core header do.
        self.write('lib/zbewalgo/stream.c', 'int t;\n')
        self.write('lib/zbewalgo/stream.h', '/* t */\n')
        self.write('lib/zbewalgo/tuning/sysfs.c', 'int g;\n')
        self.commit('kernel only')
        r = self.check(allow_stale=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        for f, text in (('classic/lz.c', 'int m;\n'),
                        ('core/engine.h', '/* e */\n')):
            self.write('lib/zbewalgo/' + f, text)
            self.commit(f)
            r = self.check(allow_stale=False)
            self.assertEqual(r.returncode, 1, f)
            self.git('revert', '--no-edit', 'HEAD')
        # A new header file counts as a change of the code.
        self.write('lib/zbewalgo/core/new.h', '\n')
        self.commit('four')
        r = self.check(allow_stale=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('differ from the code', r.stderr)

    def test_tree_id(self):
        self.git('init', '-q')
        tree = self.commit('one')
        res = self.path(render.RESULTS)
        self.assertEqual(render.tree_id(self.dir, res), tree)
        self.write(os.path.join(render.RESULTS, 'machine.txt'), 'new\n')
        self.assertEqual(render.tree_id(self.dir, res), tree)
        self.write('lib/zbewalgo/core/engine.c', 'int z;\n')
        self.assertEqual(render.tree_id(self.dir, res), tree + '-dirty')


class Records(unittest.TestCase):
    def test_fuzz_totals(self):
        rows = [dict(harness='a', counts='campaign', cpu_s='10', wall_s='20',
                     execs='100', crashes='3', hangs='0'),
                dict(harness='a', counts='cumulative', cpu_s='30',
                     wall_s='50', execs='400', crashes='0', hangs='1'),
                dict(harness='a', counts='campaign', cpu_s='5', wall_s='6',
                     execs='7', crashes='2', hangs='0'),
                dict(harness='b', counts='campaign', cpu_s='1', wall_s='2',
                     execs='3', crashes='0', hangs='0')]
        t = render.fuzz_totals(rows)
        self.assertEqual(list(t), ['a', 'b'])
        self.assertEqual((t['a']['cpu_s'], t['a']['wall_s'], t['a']['execs'],
                          t['a']['crashes'], t['a']['hangs']),
                         (35, 56, 407, 5, 1))
        rows[3]['counts'] = 'total'
        self.assertRaises(ValueError, render.fuzz_totals, rows)

    def test_totals_match_bench_summary(self):
        # The 'all files' rows of the bench's own text output.
        for run_ in render.bench_runs(REPO):
            txt = os.path.join(REPO, render.RESULTS, run_.name + '.txt')
            if not os.path.exists(txt):
                continue
            with open(txt) as f:
                tail = f.read().split('\n== all ', 1)[1]
            for line in tail.splitlines()[2:]:
                v = line.split()
                if len(v) < 6 or v[0] not in run_.algs:
                    continue
                t = run_.total(v[0])
                self.assertEqual(('%.3f' % t['ratio'], '%.1f' % t['incomp']),
                                 (v[1], v[3]), line)
                # The csv's times are rounded: speeds agree to 0.1%.
                for got, want in ((t['comp'], v[4]), (t['dec'], v[5])):
                    self.assertAlmostEqual(got, float(want),
                                           delta=0.001 * got + 0.05,
                                           msg=line)

    def test_swap_in_agrees_with_the_table(self):
        """The guide's swap-in sentence is the ratio of the speeds the
        results hold (once it said "56 to 78 times" next to a table that
        showed 5.8 and 7.8)."""
        runs = render.bench_runs(REPO)
        text = ' '.join(render.swap_in(runs, lambda t: '``%s``' % t).split())
        for alg in ('zbewalgo', 'zbewalgo-1'):
            vals = sorted(r.total('lz4')['dec'] / r.total(alg)['dec']
                          for r in runs)
            self.assertIn(render.factor(vals[0]), text)
            self.assertIn(render.factor(vals[-1]), text)
        with open(os.path.join(REPO, render.GUIDE)) as f:
            guide = ' '.join(f.read().split())
        self.assertIn(text, guide)

    def test_summary_speeds(self):
        """The speed rows: the geometric mean of the files' speeds, then
        all bytes over all seconds."""
        runs = render.bench_runs(REPO)
        comp, dec = render.speeds(runs, 'lz4')
        b = sum(r.total('lz4')['bytes'] for r in runs)
        self.assertAlmostEqual(dec, b / render.MIB /
                               sum(r.total('lz4')['dec_s'] for r in runs))
        logs = [math.log(int(r['bytes']) / render.MIB / float(r['decompress_s']))
                for run in runs for r in run.rows if r['algorithm'] == 'lz4']
        geo = math.exp(sum(logs) / len(logs))
        table = render.summary_table(runs, render.text_table, str)
        self.assertRegex(table, r'(?m)^decompression, MiB/s .* %.0f .*\n'
                         r'  bytes summed .* %.0f ' % (geo, dec))

    def test_summary_ratios_are_per_file_geometric_means(self):
        """A ratio row is the geometric mean of the files' ratio_zram
        columns, the row below it the bytes summed, labelled (the README
        once led with a sum in which two grid files were most of the
        bytes)."""
        runs = render.bench_runs(REPO)
        table = render.summary_table(runs, render.text_table, str)
        algs = table.split('\n')[0].split()[1:]
        lines = table.split('\n')
        for run in runs:
            for desc, inputs in render.groups(run):
                label = 'ratio, %s.csv: %s' % (run.name, desc)
                i = next(k for k, x in enumerate(lines) if x.startswith(label))
                got = lines[i][len(label):].split()
                summed = lines[i + 1].split()
                self.assertEqual(summed[:2], ['bytes', 'summed'])
                for a, g, t in zip(algs, got, summed[2:]):
                    v = [math.log(float(run.rec[(f, a)]['ratio_zram']))
                         for f in inputs]
                    self.assertAlmostEqual(float(g), math.exp(sum(v) / len(v)),
                                           delta=0.0051, msg=(label, a))
                    self.assertEqual(t, '%.2f' % run.total(a, inputs)['ratio'])
        with open(os.path.join(REPO, render.README)) as f:
            readme = f.read()
        self.assertIn(table, readme)
        self.assertIn('geometric mean over the files', readme)

    def test_kernel_table(self):
        recs = []
        for s, a, orig, compr, mem in (('x', 'lz4', 8192, 4096, 8192),
                                       ('x', 'zbewalgo', 8192, 2048, 4096),
                                       ('all-sets', 'lz4', 8192, 4096, 8192)):
            recs.append(dict(workload='blk', set=s, algorithm=a,
                             orig_bytes=str(orig), compr_bytes=str(compr),
                             mem_used_bytes=str(mem), write_ms='1000.0',
                             read_ms='500.0', check='ok', kernel='7.2.13'))
        out = render.kernel_table(recs)
        self.assertRegex(out, r'(?m)^x +8 +2\.00 / 1\.00 +4\.00 / 2\.00$')
        self.assertRegex(out, r'(?m)^all-sets +8 +2\.00 / 1\.00 +-$')
        self.assertRegex(out, r'(?m)^lz4 +0\.0 +0\.0$')
        recs[0]['check'] = 'FAIL'
        self.assertIn('FAILED checks: x', render.kernel_table(recs))


if __name__ == '__main__':
    unittest.main()
