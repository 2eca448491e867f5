#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Builds the predefined code tables of the huffman step (mode 3).

  gen.py SECTIONS HEADER RST    write the tables to HEADER and into RST
  gen.py --check HEADER RST     exit 1 unless both hold the same tables

SECTIONS is the output of lz-sections (one "SECTION HEX" line per lz
section of the training pages).  The tables are found by k-means over the
sections: one table per lz section kind to start with, then the cluster
that costs the most bits is split in two until there are NR_TABLES, each
step followed by reassigning every section to its cheapest table.  A
table is a Huffman code over all 256 byte values (unseen ones get the
weight of half an occurrence), so any section can use it, with codes of
at most MAX_BITS bits.
Only sections of at least MIN_LEN bytes take part: lz keeps shorter ones
raw.  Deterministic: the same input gives the same tables.
"""
import re
import sys

NR_TABLES = 8
# Longest code: a decoder builds a table of 2^MAX_BITS entries per use,
# and the 2048 of 11-bit codes cost more to build than short inputs save.
MAX_BITS = 9
MIN_LEN = 32
NR_KINDS = 5
ROUNDS = 6
BEGIN = '.. predefined-tables-begin'
END = '.. predefined-tables-end'


def lengths(freq, limit=MAX_BITS):
    """Optimal code lengths <= limit for all symbols (package-merge)."""
    items = sorted((f, s) for s, f in enumerate(freq))
    leaves = [(f, (s,)) for f, s in items]
    pkg = leaves
    for _ in range(limit - 1):
        pairs = [(pkg[i][0] + pkg[i + 1][0], pkg[i][1] + pkg[i + 1][1])
                 for i in range(0, len(pkg) - 1, 2)]
        pkg = sorted(leaves + pairs, key=lambda x: x[0])
    out = [0] * len(freq)
    for _, syms in pkg[:2 * len(freq) - 2]:
        for s in syms:
            out[s] += 1
    return out


def table(hists):
    tot = [0] * 256
    for h in hists:
        for s, c in h:
            tot[s] += c
    n = sum(tot) or 1
    # scaled integer weights; an unseen symbol weighs half an occurrence
    return lengths([(2 * c + 1) * (1 << 20) // (2 * n) + 1 for c in tot])


def cost(tab, h):
    return sum(c * tab[s] for s, c in h)


def cluster(secs):
    kinds = [[h for k, h in secs if k == i] for i in range(NR_KINDS)]
    tabs = [table(hs) for hs in kinds if hs]
    assign = None

    def reassign():
        a = [min(range(len(tabs)), key=lambda j: (cost(tabs[j], h), j))
             for _, h in secs]
        for j in range(len(tabs)):
            members = [secs[i][1] for i in range(len(secs)) if a[i] == j]
            if members:
                tabs[j] = table(members)
        return a

    for _ in range(ROUNDS):
        assign = reassign()
    while len(tabs) < NR_TABLES:
        totals = [0] * len(tabs)
        for i, (_, h) in enumerate(secs):
            totals[assign[i]] += cost(tabs[assign[i]], h)
        j = max(range(len(tabs)), key=lambda j: (totals[j], -j))
        members = [(cost(tabs[j], h) / sum(c for _, c in h), i)
                   for i, (_, h) in enumerate(secs) if assign[i] == j]
        members.sort(reverse=True)
        worse = [secs[i][1] for _, i in members[:len(members) // 2]]
        tabs.append(table(worse))
        for _ in range(ROUNDS):
            assign = reassign()
    return tabs


def read_sections(path):
    secs = []
    with open(path) as f:
        for line in f:
            k, _, data = line.strip().partition(' ')
            b = bytes.fromhex(data)
            if len(b) < MIN_LEN:
                continue
            h = [0] * 256
            for x in b:
                h[x] += 1
            secs.append((int(k), [(s, c) for s, c in enumerate(h) if c]))
    return secs


def header_text(tabs):
    out = ['/* SPDX-License-Identifier: GPL-2.0-only */',
           '/*',
           ' * Predefined code tables of the huffman step (mode 3): code '
           'lengths of',
           ' * the byte values 0..255, generated from the lz sections of '
           'training',
           ' * pages.  Part of the page format '
           '(Documentation/staging/zbewalgo.rst):',
           ' * never change them.',
           ' */',
           '',
           '#ifndef ZBEWALGO_HUFFMAN_TABLES_H',
           '#define ZBEWALGO_HUFFMAN_TABLES_H',
           '',
           '#define ZBW_HUF_NR_TABLES\t%d' % len(tabs),
           '',
           'static const u8 zbw_huf_tables[ZBW_HUF_NR_TABLES][256] = {']
    for t in tabs:
        out.append('\t{')
        for i in range(0, 256, 16):
            out.append('\t\t' + ', '.join('%2d' % x for x in t[i:i + 16])
                       + ',')
        out.append('\t},')
    out += ['};', '', '#endif', '']
    return '\n'.join(out)


def rst_text(tabs):
    out = [BEGIN, '', '::', '']
    for j, t in enumerate(tabs):
        digits = ''.join('%x' % x for x in t)
        for i in range(0, 256, 64):
            pre = '  %d  ' % j if i == 0 else '     '
            out.append(pre + digits[i:i + 64])
    out += ['', END]
    return '\n'.join(out)


def parse_header(text):
    body = text[text.index('[256] = {'):]
    nums = [int(x) for x in re.findall(r'\b\d+\b', body)[1:]]
    return [nums[i:i + 256] for i in range(0, len(nums), 256)]


def parse_rst(text):
    block = text[text.index(BEGIN):text.index(END)]
    tabs = []
    for line in block.splitlines()[4:]:
        f = line.split()
        if not f:
            continue
        if len(f) == 2:
            tabs.append('')
        tabs[-1] += f[-1]
    return [[int(c, 16) for c in t] for t in tabs]


def main():
    if sys.argv[1] == '--check':
        h = parse_header(open(sys.argv[2]).read())
        r = parse_rst(open(sys.argv[3]).read())
        ok = h == r and len(h) > 0 and all(len(t) == 256 for t in h)
        for t in h:
            ok = ok and sum(2 ** (MAX_BITS - x) for x in t) == 2 ** MAX_BITS
        if not ok:
            sys.exit('%s and %s disagree on the predefined Huffman tables'
                     % (sys.argv[2], sys.argv[3]))
        return
    tabs = cluster(read_sections(sys.argv[1]))
    with open(sys.argv[2], 'w') as f:
        f.write(header_text(tabs))
    rst = open(sys.argv[3]).read()
    a, b = rst.index(BEGIN), rst.index(END) + len(END)
    with open(sys.argv[3], 'w') as f:
        f.write(rst[:a] + rst_text(tabs) + rst[b:])


if __name__ == '__main__':
    main()
