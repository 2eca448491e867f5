#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of demo-progress.py on lines in guest/demo.sh's printf formats.

usage: demo-progress_test.py [-v]     (run by make check-user)
"""
import importlib.util
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(HERE, 'demo-progress.py')
spec = importlib.util.spec_from_file_location('demo_progress', PROG)
dp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dp)

# One of each, as guest/demo.sh echoes them (console lines end in CRLF).
LOG = '''[    1.234] random kernel line
ZBW-DEMO: zbewalgo: block device, 19 data sets, 3 writes and reads each\r
ZBW-REC: blk float32-smooth zbewalgo 2097152 1170978 1253376 0 0 168.056 35.675 ok\r
ZBW-REC: swap zbwmem-384MiB lz4 402653184 201326592 210000000 12 34 15234.5 8123.4 ok\r
ZBW-DEP: csr-cg lz4+huge 1851392 190000 210000 3 0 53.1 42.0 34.2 ok\r
ZBW-DEP: csr-cg lz4 1851392 461000 480000 3 0 49.0 24.0 0 FAIL\r
ZBW-REC: blk broken record\r
ZBW-RESULT: ok\r
'''


class Progress(unittest.TestCase):
    def test_block_record(self):
        out = dp.line('ZBW-REC: blk float32-smooth zbewalgo 2097152 1170978 '
                      '1253376 0 0 168.056 35.675 ok')
        self.assertRegex(out, r'^  float32-smooth +zbewalgo +ratio +1\.79 +'
                         r'write +168 ms +read +36 ms +ok$')

    def test_swap_record(self):
        out = dp.line('ZBW-REC: swap zbwmem-384MiB lz4 402653184 201326592 '
                      '210000000 12 34 15234.5 8123.4 ok')
        self.assertIn('swap zbwmem-384MiB', out)
        self.assertRegex(out, r'ratio +2\.00 +write +15\.2 s +read +8\.1 s')

    def test_deploy_record(self):
        out = dp.line('ZBW-DEP: csr-cg lz4+huge 1851392 190000 210000 3 0 '
                      '53.1 42.0 34.2 ok')
        self.assertRegex(out, r'csr-cg +lz4\+huge +ratio +9\.74 .* pass +34 ms'
                         r' +ok$')
        self.assertNotIn('pass', dp.line('ZBW-DEP: csr-cg lz4 1851392 461000 '
                                         '480000 3 0 49.0 24.0 0 FAIL'))

    def test_stream(self):
        r = subprocess.run([sys.executable, PROG], input=LOG,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 6)
        self.assertEqual(lines[0], '  zbewalgo: block device, 19 data sets, '
                         '3 writes and reads each')
        self.assertNotIn('\r', r.stdout)
        self.assertNotIn('ZBW-REC: blk float32', r.stdout)  # no raw records
        # A record that does not parse is shown raw, not dropped.
        self.assertEqual(lines[-1], '  ZBW-REC: blk broken record')
        self.assertTrue(lines[-2].endswith('FAIL'))


if __name__ == '__main__':
    unittest.main()
