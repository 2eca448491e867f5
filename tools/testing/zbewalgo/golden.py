#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Golden compressed pages: every release's pages decode forever.

usage: golden.py check [--runner CMD] [--without STEPS] TOOL [DIR]
       golden.py make TOOL DIR/RELEASE

check: every page listed in DIR/*/pages.tsv (default: the golden/ folder
next to this script) must decompress with TOOL's page-decompress to
exactly the recorded length and SHA-256, and the same page with its last
byte cut off, or one byte appended, must be refused (a page's encoding
takes exactly its bytes).  --runner prefixes every TOOL call, e.g.
"qemu-s390x -L /usr/s390x-linux-gnu" for a cross-built TOOL.
--without names steps (comma-separated) TOOL is built without: the pages
whose chain has one of them must be refused, the others decode as above.

Pages compressed with a zstd dictionary (zram's dict=) name it in the
dict column, a file next to pages.tsv: they must decode byte-exact with
it, and be refused without it.

make: writes a new release's set, pages.bin (the compressed pages back to
back) and pages.tsv (one row a page), from the data sets of gen-data.py
compressed by TOOL: every combination of the level 1, 2 and 3 tables
alone, every step alone (and ALONE_CHAINS), the num steps on byte-reversed
sets (big-endian numbers), on pages of few distinct numbers (their
palette view), arrays of records (at a lag) and rounded floats with a
few odd numbers (a shift's exceptions), each level's whole table (so
the engine's choice and stored pages are there too), short pages,
16 KiB and 64 KiB pages, and pages of each level that a dictionary
(dict.zstd, trained by TOOL's train-dict on other pages of the same
sets) made smaller.  A combination is recorded only where it beat the
stored form, so the set shows every step's encoder output.  A release's set is never
changed once committed; a new format or step gets a new release's set.
"""
import hashlib
import os
import shlex
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ['name', 'offset', 'length', 'page_size', 'orig_len',
           'orig_sha256', 'chain', 'dict']
# Sets from before dictionaries have no dict column.
OLD_COLUMNS = COLUMNS[:-1]
DICT = 'dict.zstd'
# The sets whose pages the dictionary is trained on and compresses.
DICT_SETS = ['text-linux', 'elf-binaries', 'csv-fpga', 'hpcg-heap']
# Data sets whose pages go into a new set, each a different kind of
# page; random gives the stored pages.
SETS = ['float32-smooth', 'float32-ocean', 'float32-cloud',
        'float64-jacobi', 'csr-cg', 'hpcg-heap', 'csv-fpga', 'text-linux',
        'elf-binaries', 'random']
PAGES_PER_CHAIN = 3
# Chains for the decoders of steps the tables run only in one pass with
# the next step (delta2 then bitshuffle2): each step's own decoder too.
ALONE_CHAINS = ['delta2-zstd', 'bitshuffle2-zstd']


def run(runner, tool, args, data):
    return subprocess.run(runner + [tool] + args, input=data,
                          capture_output=True)


def refused(out):
    """Whether the tool turned a page down, with a message, not a crash."""
    return out.returncode == 1 and b'zbewalgo:' in out.stderr


def read_set(d):
    with open(os.path.join(d, 'pages.tsv')) as f:
        head = f.readline().rstrip('\n').split('\t')
        if head not in (COLUMNS, OLD_COLUMNS):
            raise SystemExit('%s/pages.tsv: columns %s, expected %s'
                             % (d, head, COLUMNS))
        rows = [dict(zip(head, l.rstrip('\n').split('\t'))) for l in f]
    with open(os.path.join(d, 'pages.bin'), 'rb') as f:
        blob = f.read()
    return rows, blob


def check(argv):
    runner, without = [], set()
    while argv[:1] in (['--runner'], ['--without']) and len(argv) > 1:
        if argv[0] == '--runner':
            runner = shlex.split(argv[1])
        else:
            without = set(argv[1].split(','))
        argv = argv[2:]
    if len(argv) not in (1, 2):
        raise SystemExit(__doc__)
    tool = argv[0]
    top = argv[1] if len(argv) > 1 else os.path.join(HERE, 'golden')
    releases = sorted(r for r in os.listdir(top)
                      if os.path.isfile(os.path.join(top, r, 'pages.tsv')))
    if not releases:
        raise SystemExit('golden: no release sets under %s' % top)
    passed = failed = 0
    for rel in releases:
        rows, blob = read_set(os.path.join(top, rel))
        bad = []
        left_out = 0
        for r in rows:
            off, n = int(r['offset']), int(r['length'])
            page = blob[off:off + n]
            p = ['-p', r['page_size'], 'page-decompress']
            dict_args = (['-D', os.path.join(top, rel, r['dict'])]
                         if r.get('dict', '-') != '-' else [])
            if without & set(r['chain'].split('-')):
                out = run(runner, tool, dict_args + p, page)
                if not refused(out):
                    bad.append('%s: decoded without its steps (exit %d)'
                               % (r['name'], out.returncode))
                left_out += 1
                continue
            if dict_args:
                out = run(runner, tool, p, page)
                if not refused(out):
                    bad.append('%s: decoded without its dictionary (exit %d)'
                               % (r['name'], out.returncode))
                p = dict_args + p
            out = run(runner, tool, p, page)
            if (len(page) != n or out.returncode or
                    len(out.stdout) != int(r['orig_len']) or
                    hashlib.sha256(out.stdout).hexdigest() != r['orig_sha256']):
                bad.append('%s: not decoded byte-exact (exit %d) %s'
                           % (r['name'], out.returncode,
                              out.stderr.decode(errors='replace').strip()))
                continue
            for what, mangled in (('cut', page[:-1]),
                                  ('appended', page + b'\0')):
                out = run(runner, tool, p, mangled)
                if not refused(out):
                    bad.append('%s: one byte %s was not refused (exit %d)'
                               % (r['name'], what, out.returncode))
        if len(blob) != sum(int(r['length']) for r in rows):
            bad.append('pages.bin has bytes no row names')
        for b in bad:
            print('not ok - golden %s: %s' % (rel, b))
        if bad:
            failed += 1
        else:
            passed += 1
            chains = len({r['chain'] for r in rows
                          if not without & set(r['chain'].split('-'))})
            dicts = sum(r.get('dict', '-') != '-' for r in rows)
            print('ok - golden %s: %d pages (%d combinations, %d with a '
                  'dictionary) decode byte-exact, cut and appended bytes '
                  'refused' % (rel, len(rows) - left_out, chains, dicts) +
                  (', %d pages of steps left out refused' % left_out
                   if without else ''))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def palette_pages():
    """(name, word size, page) of few distinct numbers far apart, which
    the num steps write in their palette view."""
    x = 12345

    def rnd(n):
        nonlocal x
        x = (x * 1103515245 + 12345) % 2 ** 31
        return x % n

    def page(w, fmt, numbers):
        return b''.join(struct.pack(fmt, v) for v in numbers)[:4096]

    adc = [((rnd(281) + 0.5) * 10 / 4095 - 0.3) for _ in range(1024)]
    objs = [0x7f3a00000000 + ((k + 1) * 0x9e3779b9 & 0xffffff0)
            for k in range(50)]
    yield 'adc-float32', 4, page(4, '<f', adc)
    yield 'adc-float32.big-endian', 4, page(4, '>f', adc)
    yield 'pointers', 8, page(8, '<Q', [objs[rnd(50)] for _ in range(512)])
    yield 'u16-of-300', 2, page(2, '<H', [(rnd(300) + 1) * 40503 % 65536
                                          for _ in range(2048)])
    yield 'u16-of-512', 2, page(2, '<H', [(k * 263 % 512 + 1) * 40503 % 65536
                                          for k in range(2048)])


def lag_pages():
    """(name, word size, lag, page) of arrays of records, which the num
    steps write with differences at a lag."""
    def page(fmt, records):
        return b''.join(struct.pack(fmt, *r) for r in records)[:4096]

    # a pointer that grows by 40 a record, a counter and a zero
    yield 'records-of-24', 8, 3, page('<QQQ', [
        (0x7f3a12340000 + 40 * r, 1000 + r, 0) for r in range(171)])
    # an offset, a count and a float that changes a little
    yield 'records-of-12', 4, 3, page('<IIf', [
        (4096 + 12 * r, r * r % 977, 1.5 + r / 1024) for r in range(342)])
    # four 16-bit fields, two of them constant
    yield 'records-of-8', 2, 4, page('<HHHH', [
        (3 * r, 0x1234, r * 7 % 256, 9) for r in range(512)])


def exception_pages():
    """(name, word size, page) of quantized floats with a few odd numbers,
    which the num steps write with a shift and its exceptions."""
    # doubles whose low 20 bits are zero but in two
    yield 'rounded-doubles', 8, struct.pack('<512Q', *[
        0x3ff0000000000000 + (i * i << 20) + (0x2a if i in (9, 300) else 0)
        for i in range(512)])
    # floats whose low 12 bits are zero but in seven
    yield 'rounded-floats', 4, struct.pack('<1024I', *[
        0x3f800000 + 0x1000 * (i % 64 if i % 64 < 32 else 64 - i % 64) +
        (1 + i % 255 if i * 37 % 1021 < 6 else 0) for i in range(1024)])


def tool_lines(tool, *args):
    out = subprocess.run([tool] + list(args), capture_output=True,
                         text=True, check=True)
    return out.stdout.split()


def compress(tool, args, page):
    """Returns (compressed, winner or 'stored') for one page."""
    out = subprocess.run([tool, '-s'] + args + ['page-compress'],
                         input=page, capture_output=True, check=True)
    stats = out.stderr.decode()
    if 'stored uncompressed 1,' in stats:
        return out.stdout, 'stored'
    won = [l.split()[-1] for l in stats.splitlines()
           if l.split()[:2] == ['1', 'wins']]
    if len(won) != 1:
        raise SystemExit('cannot tell the winner from:\n' + stats)
    return out.stdout, won[0]


def make(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    tool, out_dir = argv
    if os.path.exists(out_dir):
        raise SystemExit('%s exists: a release set is never rewritten'
                         % out_dir)
    tmp = tempfile.mkdtemp()
    subprocess.run([sys.executable, os.path.join(HERE, 'gen-data.py'),
                    tmp, '256'] + SETS, check=True, stdout=subprocess.DEVNULL)
    data = {s: open(os.path.join(tmp, s), 'rb').read() for s in SETS}
    rows, blob = [], bytearray()

    def add(name, page, args, page_size=4096, want=None, dict_file=None):
        c, chain = compress(tool, ['-p', str(page_size)] + args, page)
        if want and chain != want:
            return False
        if dict_file:
            # only pages the dictionary changed need it
            plain, _ = compress(tool, ['-p', str(page_size)] +
                                [a for a in args if a not in ('-D', dict_file)],
                                page)
            if plain == c:
                return False
        rows.append({'name': name, 'offset': len(blob), 'length': len(c),
                     'page_size': page_size, 'orig_len': len(page),
                     'orig_sha256': hashlib.sha256(page).hexdigest(),
                     'chain': chain, 'dict': DICT if dict_file else '-'})
        blob.extend(c)
        return True

    def pages(size):
        # Page i of every set in turn, so one chain sees several kinds.
        for i in (0, 5, 23, 41):
            for s in SETS:
                p = data[s][i * size:(i + 1) * size]
                if len(p) == size:
                    yield '%s.%d' % (s, i), p

    chains = []
    for lvl in ('1', '2', '3'):
        chains += [c for c in tool_lines(tool, '-l', lvl, 'table')
                   if c not in chains]
    chains += [c for c in ALONE_CHAINS if c not in chains]
    steps = tool_lines(tool, 'steps')[1::2]
    for chain in chains + [s for s in steps if s not in chains]:
        kept = 0
        for name, p in pages(4096):
            if kept < PAGES_PER_CHAIN and add('%s.%s' % (chain, name), p,
                                              ['-c', chain], want=chain):
                kept += 1
        if not kept and chain not in steps:
            raise SystemExit('no page where %s beats the stored form'
                             % chain)
    # the num steps read big-endian numbers too: sets byte-reversed
    for s, w in (('float32-smooth', 4), ('float64-jacobi', 8)):
        p = data[s][:4096]
        p = b''.join(p[i:i + w][::-1] for i in range(0, len(p), w))
        add('num%d.%s.big-endian' % (w, s), p, ['-c', 'num%d' % w],
            want='num%d' % w)
    def num_payload(name, w, p):
        """Adds page p compressed by num<w> alone: its payload, from the
        mode byte on."""
        if not add('num%d.%s' % (w, name), p, ['-c', 'num%d' % w],
                   want='num%d' % w) or rows[-1]['chain'] != 'num%d' % w:
            raise SystemExit('num%d: %s not compressed' % (w, name))
        c = blob[rows[-1]['offset']:]
        head = 1 + (c[0] >> 4 & 7)
        while c[head] & 0x80:
            head += 1
        return c[head + 1:]

    # and pages of few distinct numbers in their palette view (view 3)
    for name, w, p in palette_pages():
        if num_payload(name, w, p)[0] & 3 != 3:
            raise SystemExit('num%d: %s not in the palette view' % (w, name))
    # and arrays of records at their lag (bits 4 and 5 of the mode byte,
    # then the lag byte, lag - 1 in its low bits)
    for name, w, lag, p in lag_pages():
        c = num_payload(name, w, p)
        if c[0] >> 4 & 3 != 3 or (c[1] & 0x1f) + 1 != lag:
            raise SystemExit('num%d: %s not at lag %d' % (w, name, lag))
    # and floats with a shift's exceptions (the float view and bit 5 of the
    # mode byte, then the length, then bit 7 of the shift byte)
    for name, w, p in exception_pages():
        c = num_payload(name, w, p)
        if c[0] & 0x33 != 0x22 or not c[3] & 0x80:
            raise SystemExit('num%d: %s has no exceptions' % (w, name))
    # zstd's frames in the zstd step's compact form (bit 3 of their first
    # byte), from 0.9.0 on: a page of zstd alone, after its 4-byte header
    if not add('zstd.compact.text-linux', data['text-linux'][:4096],
               ['-c', 'zstd'], want='zstd') or \
            not blob[rows[-1]['offset'] + 4] & 0x08:
        raise SystemExit('zstd: text-linux not in the compact form')
    for lvl in ('1', '2', '3'):
        for name, p in pages(4096):
            if name.endswith('.5'):
                add('level%s.%s' % (lvl, name), p, ['-l', lvl])
    for n in (1, 100, 4095):
        add('level2.text-linux.len%d' % n, data['text-linux'][:n], [])
    for size in (16384, 65536):
        for s in ('float32-ocean', 'text-linux', 'random'):
            add('level2.%s.size%d' % (s, size), data[s][:size], [],
                page_size=size)
    # A dictionary from the second half of some sets, for the first half
    os.makedirs(out_dir)
    dict_file = os.path.join(out_dir, DICT)
    train = os.path.join(tmp, 'train')
    with open(train, 'wb') as f:
        for s in DICT_SETS:
            f.write(data[s][len(data[s]) // 8192 * 4096:])
    subprocess.run([tool, 'train-dict', '-s', '16384', '-o', dict_file,
                    train], check=True, capture_output=True)
    for lvl in ('1', '2', '3'):
        for s in DICT_SETS:
            kept = 0
            for i in range(len(data[s]) // 8192):
                if kept < PAGES_PER_CHAIN and add(
                        'dict.level%s.%s.%d' % (lvl, s, i),
                        data[s][i * 4096:(i + 1) * 4096],
                        ['-l', lvl, '-D', dict_file], dict_file=dict_file):
                    kept += 1
    with open(os.path.join(out_dir, 'pages.bin'), 'wb') as f:
        f.write(blob)
    with open(os.path.join(out_dir, 'pages.tsv'), 'w') as f:
        f.write('\t'.join(COLUMNS) + '\n')
        for r in rows:
            f.write('\t'.join(str(r[c]) for c in COLUMNS) + '\n')
    missing = [s for s in steps if not any(
        s in r['chain'].split('-') for r in rows)]
    print('%s: %d pages, %d bytes, %d combinations; steps never used: %s'
          % (out_dir, len(rows), len(blob), len({r['chain'] for r in rows}),
             ' '.join(missing) or 'none'))
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == 'check':
        return check(sys.argv[2:])
    if len(sys.argv) > 1 and sys.argv[1] == 'make':
        return make(sys.argv[2:])
    raise SystemExit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
