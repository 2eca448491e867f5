#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The command-line tool with the user's files, as zstd and lz4 treat them.

usage: files_test.py ZBEWALGO_BINARY

- IN and OUT the same file (also through a hard or symbolic link, stdin
  or stdout) is refused by compress and decompress;
- an existing OUT is kept unless -f, also when the run then fails;
- OUT never holds a partial output: a run killed by SIGTERM, SIGINT or
  SIGHUP leaves neither OUT nor its temporary file, SIGKILL no OUT;
- the input is never touched (its bytes, size, inode and times);
- every one-byte change (xor 0xff) at every offset of a compressed file,
  and every truncation, is refused with no OUT left;
- the committed version 1 files decode byte-exact;
- a page that needs a dictionary says so; a garbage dictionary is
  refused by every command that takes one;
- errors name the file and the reason; --version.
Prints "ok"/"not ok" lines and "N passed, N failed".
"""

import concurrent.futures
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
V1 = os.path.join(HERE, 'container-v1')
DICT = os.path.join(HERE, 'golden', '0.3.0', 'dict.zstd')
SANITIZER = ('Sanitizer', 'runtime error:')


class Test:
    def __init__(self, tool, tmp):
        self.tool = tool
        self.tmp = tmp
        self.passed = self.failed = 0

    def check(self, name, cond, detail=''):
        if cond:
            self.passed += 1
            print('ok - ' + name)
        else:
            self.failed += 1
            print('not ok - ' + name)
            for line in str(detail).splitlines()[:10]:
                print('#   ' + line)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run(self, *args, stdin=None, stdout=None):
        """(status, stdout bytes, stderr text) of the tool with @args"""
        fin = open(stdin, 'rb') if stdin else subprocess.DEVNULL
        try:
            r = subprocess.run([self.tool] + list(args), stdin=fin,
                               stdout=stdout or subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=600)
        finally:
            if stdin:
                fin.close()
        err = r.stderr.decode(errors='replace')
        if any(s in err for s in SANITIZER):
            return -1000, r.stdout, err
        return r.returncode, r.stdout, err

    def failed_with(self, name, res, pattern, status=1):
        """the run @res failed with @status and a message matching @pattern"""
        rc, _, err = res
        self.check(name, rc == status and re.search(pattern, err),
                   'exit %d, want %d and /%s/:\n%s' % (rc, status, pattern,
                                                       err))

    def leftovers(self, out):
        """OUT's temporary files (OUT.XXXXXX) left in its directory"""
        d, b = os.path.split(out)
        return [n for n in os.listdir(d)
                if re.fullmatch(re.escape(b) + r'\.[A-Za-z0-9]{6}', n)]


def fingerprint(path):
    st = os.stat(path)
    data = open(path, 'rb').read()
    return (hashlib.sha256(data).hexdigest(), st.st_size, st.st_ino,
            st.st_mtime_ns, st.st_ctime_ns)


def text(n, seed=1):
    words = (b'the kernel page zram swap memory compress file container '
             b'version checksum header dictionary zstd decode offset').split()
    out, x = [], seed
    while sum(len(w) + 1 for w in out) < n:
        x = (x * 1103515245 + 12345) & 0x7fffffff
        out.append(words[x % len(words)])
    return b' '.join(out)[:n]


def same_file(t):
    f, c = t.path('same'), t.path('same.zbw')
    open(f, 'wb').write(text(10000))
    assert t.run('compress', f, c)[0] == 0
    os.link(f, t.path('same.hard'))
    os.symlink(f, t.path('same.sym'))
    os.link(c, t.path('same.zbw.hard'))
    os.symlink(c, t.path('same.zbw.sym'))
    for cmd, src in (('compress', f), ('decompress', c)):
        for how, out in (('itself', src), ('a hard link', src + '.hard'
                          if cmd == 'decompress' else t.path('same.hard')),
                         ('a symbolic link', src + '.sym'
                          if cmd == 'decompress' else t.path('same.sym'))):
            for force in ([], ['-f']):
                before = fingerprint(src)
                res = t.run(*force, cmd, src, out)
                t.failed_with('%s %s IN and OUT %s: refused' %
                              (' '.join(force + [cmd]), how, how),
                              res, 'the output is the input file')
                t.check('%s %s IN and OUT %s: input untouched' %
                        (' '.join(force + [cmd]), how, how),
                        fingerprint(src) == before and
                        not t.leftovers(out))
        before = fingerprint(src)
        res = t.run(cmd, '-', src, stdin=src)
        t.failed_with('%s - IN <IN: refused' % cmd, res,
                      'the output is the input file')
        with open(src, 'ab') as o:
            res = t.run('-f', cmd, src, '-', stdout=o)
        t.failed_with('%s IN - >>IN: refused' % cmd, res,
                      'stdout is the input file')
        t.check('%s: stdin, stdout: input untouched' % cmd,
                fingerprint(src) == before)


def existing_out(t):
    f, c, out = t.path('ex'), t.path('ex.zbw'), t.path('ex.out')
    open(f, 'wb').write(text(9000, 2))
    for cmd, src in (('compress', f), ('decompress', c)):
        if cmd == 'decompress':
            assert t.run('compress', f, c)[0] == 0
        open(out, 'wb').write(b'old\n')
        before = fingerprint(out)
        t.failed_with('%s: an existing OUT is refused without -f' % cmd,
                      t.run(cmd, src, out), re.escape(out) +
                      r': already exists \(-f')
        t.check('%s: the existing OUT is kept' % cmd,
                fingerprint(out) == before and not t.leftovers(out))
        for force in ('-f', '--force'):
            os.unlink(out)
            open(out, 'wb').write(b'old\n')
            rc, _, err = t.run(force, cmd, src, out)
            t.check('%s %s: replaces OUT' % (force, cmd),
                    rc == 0 and open(out, 'rb').read() != b'old\n' and
                    not t.leftovers(out), err)
    t.check('-f: the round trip is exact', open(out, 'rb').read() ==
            open(f, 'rb').read())
    mask = os.umask(0)
    os.umask(mask)
    os.unlink(out)
    t.run('compress', f, out)
    t.check('OUT has the mode of a new file (0666 & ~umask)',
            os.stat(out).st_mode & 0o7777 == 0o666 & ~mask,
            oct(os.stat(out).st_mode))
    # -f, then the input turns out bad: OUT as it was
    os.mkdir(t.path('ex.dir'))
    garbage = t.path('ex.garbage')
    open(garbage, 'wb').write(bytes(range(256)) * 4)
    dictc = os.path.join(V1, 'sample-dict.zbw')
    for what, args in (
            ('a directory', ['compress', t.path('ex.dir')]),
            ('a missing input', ['compress', t.path('ex.none')]),
            ('not zbewalgo output', ['decompress', garbage]),
            ('a missing dictionary', ['decompress', dictc]),
            ('a garbage dictionary', ['-D', garbage, 'compress', f])):
        open(out, 'wb').write(b'old\n')
        before = fingerprint(out)
        rc, _, err = t.run('-f', *args[:-1], args[-1], out)
        t.check('-f, %s: fails, OUT kept, no temporary file' % what,
                rc == 1 and fingerprint(out) == before and
                not t.leftovers(out), 'exit %d\n%s' % (rc, err))
    rc, data, err = t.run('compress', f, '-')
    rc2, back, err2 = t.run('decompress', '-', '-', stdin=c)
    t.check("'-': stdin and stdout still work",
            rc == 0 and rc2 == 0 and back == open(f, 'rb').read() and
            data == open(c, 'rb').read(), err + err2)


def writing(t, out, old):
    """output under way: a temporary file, or OUT itself written"""
    if t.leftovers(out):
        return True
    try:
        return open(out, 'rb').read() != b'old\n' if old else True
    except FileNotFoundError:
        return False


def default_signals():
    """The signals killed() sends, at their default action."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def killed(t):
    """A run killed mid-way leaves no OUT; with -f, the old OUT."""
    big = t.path('big')
    chunk = text(64 * 1024, 3)
    with open(big, 'wb') as o:	# 32 MiB, a few seconds' work at least
        for i in range(512):
            o.write(b'%d' % i + chunk)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP,
                signal.SIGKILL):
        for old in (False, True):
            out = t.path('killed.%d.%d' % (sig, old))
            if old:
                open(out, 'wb').write(b'old\n')
            # as from a terminal: a signal that reached this test
            # ignored (nohup, a background job) is the tool's to keep
            p = subprocess.Popen([t.tool] + (['-f'] if old else []) +
                                 ['compress', big, out],
                                 stderr=subprocess.PIPE,
                                 preexec_fn=default_signals)
            t0 = time.time()
            while not writing(t, out, old) and p.poll() is None and \
                    time.time() - t0 < 60:
                time.sleep(0.005)
            time.sleep(0.05)
            running = p.poll() is None
            p.send_signal(sig)
            p.wait()
            err = p.stderr.read().decode(errors='replace')
            left = t.leftovers(out)
            name = 'kill -%s mid-way%s' % (signal.Signals(sig).name[3:],
                                           ', -f over an old OUT' if old
                                           else '')
            want = open(out, 'rb').read() == b'old\n' if old else \
                not os.path.lexists(out)
            if sig == signal.SIGKILL:
                for n in left:	# nothing can remove it
                    os.unlink(os.path.join(t.tmp, n))
                left = []
            t.check(name + (': the old OUT, intact' if old else
                            ': no OUT') + ('' if sig == signal.SIGKILL
                                           else ', no temporary file'),
                    running and p.returncode == -sig and want and
                    not left, 'running when killed: %s, status %s, '
                    'left %s\n%s' % (running, p.returncode, left, err))


def crc32c(data, crc=0):
    """CRC-32C as the file container's documentation defines it"""
    crc ^= 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = crc >> 1 ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff


def layout(t, data, orig):
    """@data is version 2 of @orig, as documented: '' or what is not"""
    le = lambda b: int.from_bytes(b, 'little')
    if crc32c(b'123456789') != 0xe3069283:
        return 'the reference crc32c is wrong'
    if data[:4] != b'ZBWF' or le(data[4:8]) != 2 or \
            le(data[8:12]) != 4096 or le(data[12:20]) != len(orig) or \
            le(data[20:24]) != 0 or le(data[24:28]) != crc32c(data[:24]):
        return 'header'
    pos, pages = 28, 0
    while pages * 4096 < len(orig):
        n = le(data[pos:pos + 4])
        if le(data[pos + 4:pos + 8]) != crc32c(data[pos + 8:pos + 8 + n],
                                               crc32c(data[pos:pos + 4])):
            return 'page %d' % pages
        pos, pages = pos + 8 + n, pages + 1
    if data[pos:] != crc32c(orig).to_bytes(4, 'little'):
        return 'trailer'
    return ''


def flip_one(t, data, i, how):
    """decompress of @data changed at @i (@how): refused, no OUT"""
    name = 'flip.%s.%d' % (how, i)
    src, out = t.path(name), t.path(name + '.out')
    d = bytearray(data)
    if how == 'xor':
        d[i] ^= 0xff
    else:
        d = d[:i]
    open(src, 'wb').write(d)
    rc, _, err = t.run('decompress', src, out)
    ok = rc == 1 and not os.path.lexists(out) and not t.leftovers(out) \
        and err.startswith('zbewalgo: ' + src)
    os.unlink(src)
    return ok, '%s at %d: exit %d: %s' % (how, i, rc, err.strip())


def checksums(t):
    # the committed sample's text page, a zero page and part of its float
    # page: a header, three page records (one tiny), the trailer
    f, c = t.path('ck'), t.path('ck.zbw')
    sample = open(os.path.join(V1, 'sample'), 'rb').read()
    open(f, 'wb').write(sample[:4096] + bytes(4096) + sample[8192:9192])
    assert t.run('compress', f, c)[0] == 0
    data = open(c, 'rb').read()
    bad = layout(t, data, open(f, 'rb').read())
    t.check('version 2 as documented: header, page records and trailer '
            'with their CRC-32C', not bad, bad)
    n = len(data)
    # every offset; truncations: all in the header and the last page
    # record, every third one between
    cuts = sorted(set(range(40)) | set(range(0, n, 3)) |
                  set(range(n - 100, n)))
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for how, offs, what in (
                ('xor', range(n), 'one-byte change (xor 0xff) at every '
                 'offset'),
                ('cut', cuts, '%d truncations' % len(cuts))):
            bad = [why for ok, why in ex.map(
                lambda i: flip_one(t, data, i, how), offs) if not ok]
            t.check('%s of the %d-byte file: refused, no OUT left' %
                    (what, n), not bad,
                    '%d not refused:\n%s' % (len(bad), '\n'.join(bad[:10])))
    open(t.path('ck.long'), 'wb').write(data + b'\0')
    t.failed_with('a byte appended: refused', t.run(
        'decompress', t.path('ck.long'), t.path('ck.long.out')),
        'trailing data')
    for what, off, pattern in (
            ('the header', 13, 'header checksum mismatch'),
            ('the first page record', 40,
             'page 0: checksum mismatch: the file is corrupt'),
            ('the trailer', len(data) - 1, 'content checksum mismatch')):
        d = bytearray(data)
        d[off] ^= 1
        src = t.path('ck.bit')
        open(src, 'wb').write(d)
        t.failed_with('one bit of %s: says which checksum' % what,
                      t.run('decompress', src, t.path('ck.bit.out')),
                      pattern)
    d = bytearray(data)
    d[40] ^= 1
    open(src, 'wb').write(d)
    rc, out, err = t.run('decompress', src, '-')
    t.check('a corrupt page, to stdout: nothing written', rc == 1 and
            not out, err)


def version1(t):
    orig = open(os.path.join(V1, 'sample'), 'rb').read()
    rc, out, err = t.run('decompress', os.path.join(V1, 'sample.zbw'), '-')
    t.check('container version 1 decodes byte-exact', rc == 0 and
            out == orig, err)
    rc, out, err = t.run('-D', DICT, 'decompress',
                         os.path.join(V1, 'sample-dict.zbw'), '-')
    t.check('container version 1 with a dictionary decodes byte-exact',
            rc == 0 and out == orig, err)
    t.failed_with('version 1, no -D: needs the dictionary', t.run(
        'decompress', os.path.join(V1, 'sample-dict.zbw'),
        t.path('v1.out')), r'sample-dict.zbw: page 0: needs the dictionary '
        r'it was compressed with \(zstd dictionary id \d+\): give it with -D')
    d = bytearray(open(os.path.join(V1, 'sample.zbw'), 'rb').read())
    d[4] = 3
    open(t.path('v3.zbw'), 'wb').write(d)
    t.failed_with('an unknown container version: named', t.run(
        'decompress', t.path('v3.zbw'), t.path('v3.out')),
        'file container version 3; this tool reads versions 1 and 2')


def dictionaries(t):
    f, c = os.path.join(V1, 'sample'), t.path('dc.zbw')
    t.run('-D', DICT, 'compress', f, c)
    t.failed_with('compressed with -D, decompressed without: needs the '
                  'dictionary', t.run('decompress', c, t.path('dc.out')),
                  r'needs the dictionary it was compressed with \(zstd '
                  r'dictionary id \d+\): give it with -D FILE')
    t.check('... and no OUT', not os.path.lexists(t.path('dc.out')))
    other = bytearray(open(DICT, 'rb').read())
    other[4] ^= 1		# another id
    open(t.path('other.dict'), 'wb').write(other)
    t.failed_with('decompressed with another dictionary: both ids', t.run(
        '-D', t.path('other.dict'), 'decompress', c, t.path('dc.out')),
        r'compressed with zstd dictionary id \d+, but -D \S+ has id \d+')
    page, onepage = t.path('dc.page'), t.path('dc.one')
    open(onepage, 'wb').write(open(f, 'rb').read()[:4096])
    rc, pc, _ = t.run('-D', DICT, 'page-compress', stdin=onepage)
    open(page, 'wb').write(pc)
    t.failed_with('page-decompress, no -D: needs the dictionary', t.run(
        'page-decompress', stdin=page), r'stdin: needs the dictionary it '
        r'was compressed with \(zstd dictionary id \d+\)')
    garbage = t.path('garbage.dict')
    open(garbage, 'wb').write(bytes((i * 7 + 1) & 0xff for i in range(999)))
    magic = t.path('magic.dict')
    open(magic, 'wb').write(bytes.fromhex('37a430ec2a000000') +
                            bytes((i * 31) & 0xff for i in range(2000)))
    c2 = t.path('dc2.zbw')
    t.run('compress', f, c2)
    for d in (garbage, magic):
        kind = 'garbage' if d == garbage else 'garbage with the magic number'
        for args, stdin in ((['compress', f, t.path('g.out')], None),
                            (['decompress', c2, t.path('g.out')], None),
                            (['page-compress'], page),
                            (['page-decompress'], page)):
            t.failed_with('%s -D %s: refused' % (args[0], kind),
                          t.run('-D', d, *args, stdin=stdin),
                          re.escape(d) + ': not a zstd dictionary')
        t.failed_with('bench --dict %s: refused' % kind,
                      t.run('bench', '-r', '1', '--dict', d, f),
                      re.escape(d) + ': not a zstd dictionary')
        t.failed_with('bench -a zbewalgo+dict --dict %s: refused' % kind,
                      t.run('bench', '-r', '1', '-a', 'zbewalgo+dict',
                            '--dict', d, f),
                      re.escape(d) + ': not a zstd dictionary')
    t.check('no OUT after a refused dictionary',
            not os.path.lexists(t.path('g.out')))


def errors(t):
    f = os.path.join(V1, 'sample')
    none = t.path('no/such')
    pages = t.path('pages')	# enough to train a dictionary on
    open(pages, 'wb').write(b''.join(text(4096, i) for i in range(16)))
    for what, args, stdout, pattern in (
            ('a missing input', ['compress', none, t.path('e1')], None,
             re.escape(none) + ': No such file or directory'),
            ('a directory', ['compress', t.tmp, t.path('e1')], None,
             re.escape(t.tmp) + ': Is a directory'),
            ('OUT in a missing directory', ['compress', f, none], None,
             re.escape(none) + r': cannot create a temporary file beside '
             r'it: No such file or directory'),
            ('OUT a directory', ['compress', f, t.tmp], None,
             re.escape(t.tmp) + ': Is a directory'),
            ('/dev/full', ['compress', f, '/dev/full'], None,
             '/dev/full: No space left on device'),
            ('stdout /dev/full', ['compress', f, '-'], '/dev/full',
             'stdout: No space left on device'),
            ('decompress to /dev/full',
             ['decompress', os.path.join(V1, 'sample.zbw'), '/dev/full'],
             None, '/dev/full: No space left on device'),
            ('page-compress to /dev/full', ['-p', '65536', 'page-compress'],
             '/dev/full', 'stdout: No space left on device'),
            ('bench --json=/dev/full', ['bench', '-r', '1', '-a', 'lz4',
                                        '--json=/dev/full', f], None,
             '/dev/full: No space left on device'),
            ('bench --csv=/dev/full', ['bench', '-r', '1', '-a', 'lz4',
                                       '--csv=/dev/full', f], None,
             '/dev/full: No space left on device'),
            ('bench to /dev/full', ['bench', '-r', '1', '-a', 'lz4', f],
             '/dev/full', 'stdout: No space left on device'),
            ('bench on an empty file', ['bench', '-r', '1', '/dev/null'],
             None, 'nothing measured'),
            ('bench on a missing file', ['bench', '-r', '1', none], None,
             re.escape(none) + ': No such file or directory'),
            ('train-dict -o /dev/full', ['train-dict', '-s', '1024', '-o',
                                         '/dev/full', pages], None,
             '/dev/full: No space left on device'),
            ('train-dict on a directory', ['train-dict', '-o', t.path('e2'),
                                           t.tmp], None,
             re.escape(t.tmp) + ': Is a directory')):
        if stdout:
            with open(stdout, 'wb') as o:
                res = t.run(*args, stdin=f, stdout=o)
        else:
            res = t.run(*args, stdin=f)
        t.failed_with('%s: the file and the reason' % what, res, pattern)
    rc, out, err = t.run('--version')
    want = re.search(r'PACKAGE_VERSION="(.*)"', open(os.path.join(
        HERE, '..', '..', '..', 'dkms.conf')).read()).group(1)
    t.check('--version: the release, the page format and container '
            'versions', rc == 0 and re.fullmatch(
                r'zbewalgo %s\npage format version 1, file container version'
                r' 2 \(decodes 1 to 2\)\n' % re.escape(want), out.decode()),
            out.decode() + err)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix='zbw-files-')
    t = Test(os.path.abspath(sys.argv[1]), tmp)
    try:
        for part in (same_file, existing_out, killed, checksums, version1,
                     dictionaries, errors):
            part(t)
    finally:
        shutil.rmtree(tmp)
    print('%d passed, %d failed' % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == '__main__':
    sys.exit(main())
