#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The command-line tool on odd arguments and files: no crash, ever.

usage: args_test.py ZBEWALGO_BINARY

Every row of ROWS runs the tool (the sanitizer build under make
check-user) with one command line: each subcommand with bad, missing and
odd options, numbers out of range, and as its files an empty file, a
directory, /dev/null, /dev/full, a path that does not exist, garbage and
dictionaries that are not.  Each must end with its exit status (0 done,
1 failed, 2 a bad command line; None: any of them, for tune, whose
statuses are not this test's), without a signal or a sanitizer report,
and with a "zbewalgo:" message or the usage when it did not succeed.
Prints "ok"/"not ok" lines and "N passed, N failed".
"""

import os
import shutil
import subprocess
import sys
import tempfile

# Placeholders: F text file (3 pages), S one page, C its container, V1 a
# version 1 container, E empty, G garbage, DIR a directory, NONE a path
# that does not exist, DICT a zstd dictionary, MAGIC a file with a
# dictionary's magic number and id then garbage, OUT a new output path.
# A row: (status, argv, stdin file or None, stdout file or None).
ROWS = [
    # the options before a command
    (2, [], None, None),
    (0, ['--version'], None, None),
    (0, ['-V'], None, None),
    (0, ['-h'], None, None),
    (2, ['nosuch'], None, None),
    (2, ['--nosuch', 'table'], None, None),
    (2, ['-p'], None, None),
    (2, ['-p', '0', 'table'], None, None),
    (2, ['-p', '65537', 'table'], None, None),
    (2, ['-p', '-1', 'table'], None, None),
    (2, ['-p', '4096x', 'table'], None, None),
    (2, ['-p', '99999999999999999999999', 'table'], None, None),
    (0, ['-p', '1', 'compress', 'S', 'OUT'], None, None),
    (0, ['-p', '65536', 'compress', 'F', 'OUT'], None, None),
    (2, ['-l', '9', 'table'], None, None),
    (2, ['-l', '-1', 'table'], None, None),
    (2, ['-e', '-1', 'table'], None, None),
    (2, ['-e', '1048577', 'table'], None, None),
    (2, ['-m', 'x', 'table'], None, None),
    (0, ['-m', '0', 'compress', 'F', 'OUT'], None, None),
    (0, ['-e', '0', '-m', '1048576', 'compress', 'F', 'OUT'], None, None),
    (2, ['-c', 'bwt-' * 20000 + 'rle', 'table'], None, None),
    (2, ['-c', '----', 'table'], None, None),
    (2, ['-c', 'rle-', 'table'], None, None),
    (2, ['-c', '\t\n', 'table'], None, None),
    (0, ['-c', 'rle', '-l', '1', 'table'], None, None),
    (0, ['table'], None, None),
    (0, ['steps'], None, None),
    (0, ['table', 'extra'], None, None),
    # compress
    (2, ['compress'], None, None),
    (2, ['compress', 'F'], None, None),
    (2, ['compress', 'F', 'OUT', 'OUT'], None, None),
    (2, ['-x', 'compress', 'F', 'OUT'], None, None),
    (1, ['compress', 'NONE', 'OUT'], None, None),
    (1, ['compress', 'DIR', 'OUT'], None, None),
    (1, ['compress', 'F', 'DIR'], None, None),
    (1, ['compress', 'F', 'F'], None, None),
    (1, ['compress', 'F', 'NONE/x'], None, None),
    (1, ['compress', 'F', '/dev/full'], None, None),
    (1, ['compress', 'F', '-'], None, '/dev/full'),
    (0, ['compress', 'F', '/dev/null'], None, None),
    (0, ['compress', 'E', 'OUT'], None, None),
    (0, ['compress', '/dev/null', 'OUT'], None, None),
    (0, ['compress', '-', 'OUT'], 'F', None),
    (0, ['compress', '-', '-'], 'E', None),
    (0, ['-s', '-l', '3', 'compress', 'F', 'OUT'], None, None),
    (1, ['-D', 'G', 'compress', 'F', 'OUT'], None, None),
    (1, ['-D', 'E', 'compress', 'F', 'OUT'], None, None),
    (1, ['-D', 'MAGIC', 'compress', 'F', 'OUT'], None, None),
    (1, ['-D', 'DIR', 'compress', 'F', 'OUT'], None, None),
    (1, ['-D', 'NONE', 'compress', 'F', 'OUT'], None, None),
    (1, ['-D', '/dev/null', 'compress', 'F', 'OUT'], None, None),
    (1, ['-D', 'F', 'compress', 'F', 'OUT'], None, None),
    (0, ['-D', 'DICT', 'compress', 'F', 'OUT'], None, None),
    (0, ['-D', 'DICT', '-l', '1', '-p', '8192', 'compress', 'F', 'OUT'],
     None, None),
    # decompress
    (2, ['decompress', 'C'], None, None),
    (1, ['decompress', 'G', 'OUT'], None, None),
    (1, ['decompress', 'E', 'OUT'], None, None),
    (1, ['decompress', '/dev/null', 'OUT'], None, None),
    (1, ['decompress', 'DIR', 'OUT'], None, None),
    (1, ['decompress', 'NONE', 'OUT'], None, None),
    (1, ['decompress', 'F', 'OUT'], None, None),
    (1, ['decompress', 'C', 'C'], None, None),
    (1, ['decompress', 'C', 'DIR'], None, None),
    (1, ['decompress', 'C', '/dev/full'], None, None),
    (1, ['decompress', 'C', '-'], None, '/dev/full'),
    (1, ['decompress', '-', 'OUT'], 'G', None),
    (0, ['decompress', 'C', 'OUT'], None, None),
    (0, ['decompress', 'C', '/dev/null'], None, None),
    (0, ['decompress', '-', '-'], 'C', None),
    (0, ['decompress', 'V1', 'OUT'], None, None),
    (0, ['-p', '64', '-l', '1', 'decompress', 'C', 'OUT'], None, None),
    (1, ['-D', 'G', 'decompress', 'C', 'OUT'], None, None),
    (1, ['-D', 'MAGIC', 'decompress', 'C', 'OUT'], None, None),
    (1, ['-D', 'E', 'decompress', 'C', 'OUT'], None, None),
    (0, ['-D', 'DICT', 'decompress', 'C', 'OUT'], None, None),
    # page-compress, page-decompress
    (0, ['page-compress'], 'S', None),
    (0, ['page-compress'], 'E', None),
    (0, ['page-compress'], '/dev/null', None),
    (1, ['page-compress'], 'F', None),
    (1, ['page-compress'], 'S', '/dev/full'),
    (0, ['-p', '65536', 'page-compress'], 'F', None),
    (1, ['-D', 'G', 'page-compress'], 'S', None),
    (1, ['-D', 'MAGIC', 'page-compress'], 'S', None),
    (1, ['-D', 'NONE', 'page-compress'], 'S', None),
    (1, ['page-decompress'], 'E', None),
    (1, ['page-decompress'], 'G', None),
    (1, ['page-decompress'], 'C', None),
    (1, ['page-decompress'], 'F', None),
    (1, ['-D', 'G', 'page-decompress'], 'G', None),
    (1, ['-D', 'MAGIC', 'page-decompress'], 'G', None),
    (1, ['-D', 'DIR', 'page-decompress'], 'G', None),
    (1, ['-p', '1', 'page-decompress'], 'G', None),
    # bench
    (2, ['bench'], None, None),
    (2, ['bench', '--nosuch', 'F'], None, None),
    (2, ['bench', '-r'], None, None),
    (2, ['bench', '-r', '0', 'F'], None, None),
    (2, ['bench', '-r', '1002', 'F'], None, None),
    (2, ['bench', '-r', 'x', 'F'], None, None),
    (2, ['bench', '-r', 'nan', 'F'], None, None),
    (2, ['bench', '-t', '0', 'F'], None, None),
    (2, ['bench', '-t', '5000', 'F'], None, None),
    (2, ['bench', '-t', 'inf', 'F'], None, None),
    (2, ['bench', '-p', '0', 'F'], None, None),
    (2, ['bench', '-p', '65537', 'F'], None, None),
    (2, ['bench', '-e', '-5', 'F'], None, None),
    (2, ['bench', '-a', '', 'F'], None, None),
    (2, ['bench', '-a', 'lz5', 'F'], None, None),
    (2, ['bench', '-a', ',,,', 'F'], None, None),
    (2, ['bench', '-c', 'nosuch', 'F'], None, None),
    (2, ['bench', '--backing-mibps', '0', 'F'], None, None),
    (2, ['bench', '--backing-read-mibps', '-1', 'F'], None, None),
    (2, ['bench', '--recompress-threshold', 'x', 'F'], None, None),
    (2, ['bench', '--plot'], None, None),
    (2, ['bench', '--csv', '--json', 'F'], None, None),
    (2, ['bench', '--recompress=nosuch', 'F'], None, None),
    (2, ['bench', '--recompress', '--csv', 'F'], None, None),
    (1, ['bench', 'NONE'], None, None),
    (1, ['bench', 'DIR'], None, None),
    (1, ['bench', 'E'], None, None),
    (1, ['bench', '/dev/null'], None, None),
    (1, ['bench', '-'], 'E', None),
    (2, ['bench', '-r', '1', '-a', 'lz4', '--recompress', 'E'], None, None),
    (1, ['bench', '-r', '1', '--recompress', 'E'], None, None),
    (1, ['bench', '-r', '1', '-a', 'lz4', 'F'], None, '/dev/full'),
    (1, ['bench', '-r', '1', '-a', 'lz4', '--csv=/dev/full', 'F'], None,
     None),
    (1, ['bench', '-r', '1', '-a', 'lz4', '--json=/dev/full', 'F'], None,
     None),
    (1, ['bench', '-r', '1', '-a', 'lz4', '--csv=DIR', 'F'], None, None),
    (1, ['bench', '-r', '1', '-a', 'lz4', '--json=NONE/x', 'F'], None,
     None),
    (1, ['bench', '--dict', 'G', 'F'], None, None),
    (1, ['bench', '--dict', 'MAGIC', 'F'], None, None),
    (1, ['bench', '--dict', 'E', 'F'], None, None),
    (1, ['bench', '--dict', 'DIR', 'F'], None, None),
    (1, ['bench', '--dict', 'NONE', 'F'], None, None),
    (1, ['bench', '--dict', '/dev/null', 'F'], None, None),
    (1, ['bench', '-r', '1', '-a', 'zbewalgo+dict', '--dict', 'G', 'F'],
     None, None),
    (2, ['bench', '-a', 'zstd-3+dict', 'F'], None, None),
    (0, ['bench', '-r', '1', '-a', 'lz4,zbewalgo+dict,zstd-3+dict',
         '--dict', 'DICT', 'F'], None, None),
    (0, ['bench', '-r', '1', '-a', 'lz4,memcpy', 'E', 'F'], None, None),
    (0, ['bench', '-r', '1', '-a', 'zbewalgo', '-p', '64', 'S'], None,
     None),
    (0, ['bench', '-h'], None, None),
    # train-dict
    (2, ['train-dict'], None, None),
    (2, ['train-dict', '-o'], None, None),
    (2, ['train-dict', '-o', 'OUT'], None, None),
    (2, ['train-dict', 'F'], None, None),
    (2, ['train-dict', '--nosuch', '-o', 'OUT', 'F'], None, None),
    (2, ['train-dict', '-o', 'OUT', '-s', '5', 'F'], None, None),
    (2, ['train-dict', '-o', 'OUT', '-s', 'x', 'F'], None, None),
    (2, ['train-dict', '-o', 'OUT', '-p', '0', 'F'], None, None),
    (2, ['train-dict', '-o', 'OUT', '-p', '65537', 'F'], None, None),
    (1, ['train-dict', '-o', 'OUT', 'NONE'], None, None),
    (1, ['train-dict', '-o', 'OUT', 'DIR'], None, None),
    (1, ['train-dict', '-o', 'OUT', 'E'], None, None),
    (1, ['train-dict', '-o', 'OUT', '/dev/null'], None, None),
    (1, ['train-dict', '-o', 'OUT', 'G'], None, None),
    (1, ['train-dict', '-o', 'OUT', '--pid', '0'], None, None),
    (1, ['train-dict', '-o', 'OUT', '--pid', 'x'], None, None),
    (0, ['train-dict', '-h'], None, None),
    # tune: its statuses are its owner's; no crash is this test's
    (None, ['tune'], None, None),
    (None, ['tune', 'NONE'], None, None),
    (None, ['tune', 'DIR'], None, None),
    (None, ['tune', 'E'], None, None),
    (None, ['tune', '/dev/null'], None, None),
    (None, ['tune', '-n', '0', 'F'], None, None),
    (None, ['tune', '-n', '-1', 'F'], None, None),
    (None, ['tune', '-p', '0', 'F'], None, None),
    (None, ['tune', '--nosuch'], None, None),
    (None, ['tune', '--pid', 'x'], None, None),
    (None, ['tune', '-n', '16', '--screen', '16', '--holdout', '0', '-L',
            '2', '-b', '2', '-k', '2', '-r', '1', '--json=/dev/full', 'F'],
     None, None),
]

SANITIZER = ('Sanitizer', 'runtime error:', 'LeakSanitizer')


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    tool = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix='zbw-args-')
    try:
        return run(tool, tmp)
    finally:
        shutil.rmtree(tmp)


def make_files(tool, tmp):
    p = {k: os.path.join(tmp, k.lower()) for k in
         ('F', 'S', 'C', 'V1', 'E', 'G', 'DIR', 'NONE', 'DICT', 'MAGIC')}
    words = b'the page zram swap memory compress file container header '
    text = (words * 300)[:3 * 4096 + 100]
    open(p['F'], 'wb').write(text)
    open(p['S'], 'wb').write(text[:4096])
    open(p['E'], 'wb').close()
    open(p['G'], 'wb').write(bytes((i * 97 + 13) & 0xff for i in range(300)))
    os.mkdir(p['DIR'])
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.copy(os.path.join(here, 'golden', '0.3.0', 'dict.zstd'), p['DICT'])
    shutil.copy(os.path.join(here, 'container-v1', 'sample.zbw'), p['V1'])
    # a dictionary's magic number and a non-zero id, then garbage
    open(p['MAGIC'], 'wb').write(bytes.fromhex('37a430ec01000000') +
                                 bytes((i * 31) & 0xff for i in range(2000)))
    subprocess.run([tool, 'compress', p['F'], p['C']], check=True)
    return p


def run(tool, tmp):
    files = make_files(tool, tmp)
    passed = failed = 0
    for n, (want, argv, stdin, stdout) in enumerate(ROWS):
        out = os.path.join(tmp, 'out%d' % n)
        subst = dict(files, OUT=out)

        def arg(a):
            for k in sorted(subst, key=len, reverse=True):
                if a == k or a.startswith(k + '/') or a.endswith('=' + k):
                    return a.replace(k, subst[k], 1)
            return a
        args = [arg(a) for a in argv]
        fin = open(arg(stdin), 'rb') if stdin else subprocess.DEVNULL
        fout = open(stdout, 'wb') if stdout else subprocess.PIPE
        try:
            r = subprocess.run([tool] + args, stdin=fin, stdout=fout,
                               stderr=subprocess.PIPE, timeout=300,
                               cwd=tmp)
        finally:
            if stdin:
                fin.close()
            if stdout:
                fout.close()
        err = r.stderr.decode(errors='replace')
        name = 'zbewalgo %s%s%s -> %s' % (
            ' '.join(argv).encode('unicode_escape').decode()[:100], ' <' + stdin if stdin else '',
            ' >' + stdout if stdout else '', want)
        why = []
        if r.returncode < 0:
            why.append('killed by signal %d' % -r.returncode)
        elif want is None and r.returncode not in (0, 1, 2):
            why.append('exit %d' % r.returncode)
        elif want is not None and r.returncode != want:
            why.append('exit %d' % r.returncode)
        if any(s in err for s in SANITIZER):
            why.append('sanitizer report')
        if r.returncode > 0 and 'zbewalgo:' not in err and 'usage:' not in err:
            why.append('no message')
        if why:
            failed += 1
            print('not ok - %s: %s' % (name, ', '.join(why)))
            for line in err.splitlines()[:8]:
                print('#   ' + line)
        else:
            passed += 1
            print('ok - %s' % name)
        if os.path.isfile(out):
            os.unlink(out)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
