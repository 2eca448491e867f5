#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of realprog-table.py (live runs, repeated) and
realprog-replay-table.py (replays, the determinism check, the optional
parts against zbewalgo and zstd-3) on records in guest/realprog.sh's
formats.

usage: realprog-table_test.py [-v]     (run by make check-user)
"""
import csv
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LIVE = os.path.join(HERE, 'realprog-table.py')
REPLAY = os.path.join(HERE, 'realprog-replay-table.py')
MIB = 1 << 20


def rec(prog, conf, run, orig, used, wall, rc=0, huge=0):
    return ('prog=%s conf=%s run=%d rc=%s limit=32 wall=%s orig=%d compr=%d mem_used=%d '
            'mem_used_max=%d huge=%d same=0 pswpin=100 pswpout=%d peak=%d load=1.50'
            % (prog, conf, run, rc, wall, orig, used * 3 // 4, used, used, huge, 200 + run,
               32 * MIB))


def table(script, lines, opts=()):
    """SCRIPT on a results file of LINES: (exit status, text, CSV rows)."""
    with tempfile.TemporaryDirectory() as d:
        res, out = os.path.join(d, 'results.txt'), os.path.join(d, 'out.csv')
        with open(res, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        p = subprocess.run([sys.executable, script, *opts, res, out],
                           capture_output=True, text=True)
        rows = []
        if os.path.exists(out):
            with open(out) as f:
                rows = list(csv.DictReader(f))
    return p.returncode, p.stdout, rows


class Live(unittest.TestCase):
    def table(self, lines):
        return table(LIVE, lines)

    def test_median_and_spread(self):
        # Three runs of lz4: o/mem 2.0, 3.0 and 2.5; zstd once.
        rc, text, rows = self.table([
            'kind=dict prog=p bytes=32768 id=7 src=an_earlier_capture',
            rec('p', 'lz4', 1, 20 * MIB, 10 * MIB, '10.00'),
            rec('p', 'zstd', 1, 24 * MIB, 6 * MIB, '20.00'),
            rec('p', 'lz4', 2, 30 * MIB, 10 * MIB, '14.00'),
            rec('p', 'lz4', 3, 25 * MIB, 10 * MIB, '12.00')])
        self.assertEqual(rc, 0, text)
        lz4 = next(l for l in text.splitlines() if l.startswith('  lz4 '))
        self.assertEqual(lz4.split()[1:6], ['3', '2.50', '2.00-3.00', '3.33', '25.0'])
        self.assertRegex(lz4, r' 12\.0 10\.0-14\.0 +ok$')
        zstd = next(l for l in text.splitlines() if l.startswith('  zstd '))
        # One run: no spread.
        self.assertEqual(zstd.split()[1:3], ['1', '4.00'])
        self.assertRegex(zstd, r' 20\.0 +ok$')
        # The CSV: a row per run, the ratios with them.
        self.assertEqual([(r['conf'], r['run']) for r in rows],
                         [('lz4', '1'), ('zstd', '1'), ('lz4', '2'), ('lz4', '3')])
        self.assertEqual(rows[2]['o_mem'], '3.0000')
        self.assertEqual(rows[1]['o_c'], '5.3333')

    def test_failed_run_fails(self):
        rc, text, _ = self.table([
            rec('p', 'lz4', 1, 20 * MIB, 10 * MIB, '10.00'),
            rec('p', 'lz4', 2, 0, 0, '0', rc='zram')])
        self.assertEqual(rc, 1)
        self.assertIn('FAILED run 2: zram', text)

    def test_old_records_without_run(self):
        line = rec('p', 'zbewalgo', 1, 20 * MIB, 5 * MIB, '9.00').replace(' run=1', '')
        rc, text, rows = self.table([line])
        self.assertEqual(rc, 0, text)
        self.assertEqual(rows[0]['run'], '1')


def replay_rec(conf, run, peak_used, end=None):
    mm = '%d,%d,%d,0,%d,0,0,0,0' % (40 * MIB, peak_used * 3 // 4, peak_used, peak_used)
    return ('prog=p conf=%s run=%d rc=0 wpages=1000 discards=3 peak=%s last=%s end=%s '
            'max_orig=%d mismatch=0 write_us=1000 p50_us=10 p99_us=50 rounds=0 wall=1.00'
            % (conf, run, mm, mm, end or mm, 40 * MIB))


class Replay(unittest.TestCase):
    def table(self, lines):
        return table(REPLAY, lines)[:2]

    def test_twice_identical(self):
        rc, text = self.table([replay_rec('zstd-3', 1, 10 * MIB),
                               replay_rec('zstd-3', 2, 10 * MIB),
                               replay_rec('zbewalgo', 1, 9 * MIB)])
        self.assertEqual(rc, 0, text)
        self.assertIn('p zstd-3: identical', text)
        self.assertRegex(text, r'\n  zbewalgo +0\.900  \(0\.900\)')

    def test_twice_different_fails(self):
        rc, text = self.table([replay_rec('zstd-3', 1, 10 * MIB),
                               replay_rec('zstd-3', 2, 10 * MIB, end='1,2,3,0,4,0,0,0,0')])
        self.assertEqual(rc, 1)
        self.assertIn('p zstd-3: DIFFERENT end', text)

    def keep(self, old, new):
        """The replay table of NEW with the rows of OLD kept (tree t0)."""
        with tempfile.TemporaryDirectory() as d:
            csv_old = os.path.join(d, 'old.csv')
            self.assertEqual(table(REPLAY, old)[0], 0)
            rc, _, rows = table(REPLAY, old)
            with open(csv_old, 'w', newline='') as f:
                w = csv.DictWriter(f, list(rows[0]))
                w.writeheader()
                w.writerows(rows)
            return table(REPLAY, new, ('--keep', csv_old, 't0'))

    def test_keep_rows_of_unchanged_configurations(self):
        rc, text, rows = self.keep([replay_rec('zstd-3', 1, 10 * MIB),
                                    replay_rec('lz4', 1, 16 * MIB),
                                    replay_rec('zbewalgo', 1, 9 * MIB)],
                                   [replay_rec('zstd-3', 1, 10 * MIB),
                                    replay_rec('zbewalgo', 1, 8 * MIB)])
        self.assertEqual(rc, 0, text)
        self.assertIn('tree t0 (the same logs): lz4; replayed again here and '
                      'identical to it: zstd-3', text)
        self.assertRegex(text, r'\n  lz4 +1\.600  \(1\.600\)')
        self.assertRegex(text, r'\n  zbewalgo +0\.800  \(0\.800\)')
        self.assertEqual([r['tree'] for r in rows], ['', '', 't0'])

    def test_keep_never_old_zbewalgo_rows(self):
        rc, text, rows = self.keep([replay_rec('zstd-3', 1, 10 * MIB),
                                    replay_rec('zbewalgo-3', 1, 8 * MIB)],
                                   [replay_rec('zstd-3', 1, 10 * MIB)])
        self.assertEqual(rc, 0, text)
        self.assertEqual([r['conf'] for r in rows], ['zstd-3'])

    def test_keep_refused_when_a_shared_configuration_differs(self):
        rc, text, _ = self.keep([replay_rec('zstd-3', 1, 10 * MIB),
                                 replay_rec('lz4', 1, 16 * MIB)],
                                [replay_rec('zstd-3', 1, 11 * MIB)])
        self.assertEqual(rc, 1)


class Optional(unittest.TestCase):
    """--optional: zbewalgo+X over zbewalgo and over the earlier records' zstd-3."""

    def run_optional(self, lines, ref_rows, extra=lambda d: []):
        with tempfile.TemporaryDirectory() as d:
            res, out = os.path.join(d, 'replay.txt'), os.path.join(d, 'out.csv')
            ref = os.path.join(d, 'ref.csv')
            with open(res, 'w') as f:
                f.write('\n'.join(lines) + '\n')
            with open(ref, 'w', newline='') as f:
                w = csv.DictWriter(f, ['prog', 'conf', 'run', 'rc', 'end'])
                w.writeheader()
                for conf, used in ref_rows:
                    w.writerow({'prog': 'p', 'conf': conf, 'run': '1', 'rc': '0',
                                'end': '0,0,0,0,%d,0,0,0,0' % used})
            p = subprocess.run([sys.executable, REPLAY, '--optional', res, out, ref] + extra(d),
                               capture_output=True, text=True)
            with open(out) as f:
                rows = list(csv.DictReader(f))
        return p.returncode, p.stdout, rows

    def test_ratios(self):
        rc, text, rows = self.run_optional(
            [replay_rec('zbewalgo', 1, 10 * MIB), replay_rec('zbewalgo', 2, 10 * MIB),
             replay_rec('zbewalgo+tune', 1, 9 * MIB), replay_rec('zbewalgo+classic', 1, 11 * MIB)],
            [('zstd-3', 12 * MIB), ('zbewalgo', 10 * MIB)])
        self.assertEqual(rc, 0, text)
        self.assertRegex(text, r'\n  p +10\.00 +12\.00 \| +9\.00 +0\.900 +0\.750 +1\.00 \|'
                               r' +11\.00 +1\.100 +0\.917 +1\.00\n')
        self.assertIn("zbewalgo's peak here equals the earlier records' for 1 of 1", text)
        self.assertEqual([(r['conf'], r['over_zbewalgo'], r['over_zstd-3']) for r in rows],
                         [('zbewalgo+tune', '0.9000', '0.7500'),
                          ('zbewalgo+classic', '1.1000', '0.9167')])

    def test_tables(self):
        def files(d):
            with open(os.path.join(d, 'p.tune'), 'w') as f:
                f.write('# zbewalgo tune on pages 1-50 of 100 of p.bin (write order)\n'
                        'zbewalgo.table=zstd;num8 zbewalgo.early_abort_size=512\n')
            with open(os.path.join(d, 'p.prov'), 'w') as f:
                f.write('program=p\ncut=pages=120 zero=0 skipped=1\n')
            with open(os.path.join(d, 'classic'), 'w') as f:
                f.write('zbewalgo.table=zstd;lz\n')
            return ['--tables', d, '--classic', os.path.join(d, 'classic')]
        rc, text, _ = self.run_optional(
            [replay_rec('zbewalgo', 1, 10 * MIB), replay_rec('zbewalgo+tune', 1, 9 * MIB)],
            [('zstd-3', 12 * MIB)], files)
        self.assertEqual(rc, 0, text)
        self.assertIn('  zbewalgo+classic: zbewalgo.table=zstd;lz\n', text)
        self.assertIn('  p zbewalgo+tune: zbewalgo.table=zstd;num8 zbewalgo.early_abort_size=512\n'
                      '    zbewalgo tune on pages 1-50 of 100 of p.bin (write order)\n'
                      "    (the replayed log wrote 120 pages: p.bin is another capture's)",
                      text)

    def test_failed_fails(self):
        failed = replay_rec('zbewalgo+tune', 1, 9 * MIB).replace('rc=0', 'rc=zram')
        rc, text, _ = self.run_optional([replay_rec('zbewalgo', 1, 10 * MIB), failed],
                                        [('zstd-3', 12 * MIB)])
        self.assertEqual(rc, 1)
        self.assertIn('FAILED', text)


if __name__ == '__main__':
    unittest.main()
