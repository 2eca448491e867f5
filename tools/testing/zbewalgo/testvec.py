#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the kernel self-test vectors (crypto/testmgr-zbewalgo.h) with the
user-space tool.

usage: testvec.py ZBEWALGO_BINARY TESTMGR_FRAGMENT

Every compressed form in the file (the output of a compression vector,
the input of a decompression vector) must decode byte-exact to its
plain form with `zbewalgo page-decompress`, the lengths must match
.inlen and .outlen, and the plain inputs of the compression vectors must
round-trip through `zbewalgo -p 512 page-compress`, as testmgr checks
them.  Prints one line per vector and exits 1 on the first mismatch.
"""
import re
import subprocess
import sys


def vectors(text, name):
    """(inlen, outlen, input, output) of each entry of array NAME."""
    m = re.search(r'%s\[\] = \{(.*?)\n\};' % re.escape(name), text, re.S)
    if not m:
        sys.exit('%s: no array %s' % (sys.argv[2], name))
    out = []
    for e in re.findall(r'\{(.*?)\n\t\}', m.group(1), re.S):
        f = dict(re.findall(r'\.(\w+)\s*=\s*([^,]*(?:"[^,]*)?),?\n', e + '\n'))
        data = {}
        for k in ('input', 'output'):
            lits = re.findall(r'"((?:\\x[0-9a-f]{2})*)"', f[k])
            data[k] = bytes.fromhex(''.join(lits).replace('\\x', ''))
        out.append((int(f['inlen']), int(f['outlen']), data['input'],
                    data['output']))
    return out


def run(tool, args, data):
    r = subprocess.run([tool] + args, input=data, capture_output=True)
    return r.stdout if r.returncode == 0 else None


def main():
    tool, path = sys.argv[1:3]
    text = open(path).read()
    n = 0
    for name, packed_is_output in (('zbewalgo_comp_tv_template', True),
                                   ('zbewalgo_decomp_tv_template', False)):
        for i, (inlen, outlen, src, dst) in enumerate(vectors(text, name)):
            what = '%s[%d]' % (name, i)
            if (inlen, outlen) != (len(src), len(dst)):
                sys.exit('%s: .inlen/.outlen %d/%d, data %d/%d bytes'
                         % (what, inlen, outlen, len(src), len(dst)))
            plain, packed = (src, dst) if packed_is_output else (dst, src)
            if run(tool, ['-p', '512', 'page-decompress'], packed) != plain:
                sys.exit('%s: its compressed form does not decode to its '
                         'plain form' % what)
            if packed_is_output:
                c = run(tool, ['-p', '512', 'page-compress'], plain)
                if c is None or run(tool, ['-p', '512', 'page-decompress'],
                                    c) != plain:
                    sys.exit('%s: no round trip through page-compress'
                             % what)
            print('ok %s: %d -> %d bytes' % (what, len(plain), len(packed)))
            n += 1
    print('%d vectors decode byte-exact' % n)


if __name__ == '__main__':
    main()
