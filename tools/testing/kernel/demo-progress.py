#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""demo-progress.py: make run's guest lines, for a person.

usage: ... | demo-progress.py

Reads the console of guest/demo.sh on stdin and prints one readable line
per record as it comes: "ZBW-DEMO:" lines as they are, "ZBW-REC:" and
"ZBW-DEP:" records (fields as guest/demo.sh prints them, see FIELDS and
DEP_FIELDS of demo-table.py) as set, algorithm, ratio and times; every
other line is left to the console log.  A record that does not parse is
printed raw, so nothing is lost.
"""
import sys

REC = ('kind', 'set', 'alg', 'orig', 'compr', 'mem', 'huge', 'same',
       'write_ms', 'read_ms', 'check')
DEP = ('set', 'conf', 'orig', 'compr', 'mem', 'huge', 'same', 'write_ms',
       'read_ms', 'pass_ms', 'check')


def ratio(orig, compr):
    return '%.2f' % (int(orig) / int(compr)) if int(compr) else '-'


def fmt_ms(ms):
    ms = float(ms)
    return '%.1f s' % (ms / 1000) if ms >= 1000 else '%.0f ms' % ms


def line(raw):
    """The readable form of one console line, or None to skip it."""
    raw = raw.rstrip('\r\n')
    tag, _, rest = raw.partition(': ')
    v = rest.split()
    try:
        if tag == 'ZBW-DEMO':
            return '  ' + rest
        if tag == 'ZBW-REC' and len(v) == len(REC):
            r = dict(zip(REC, v))
            what = r['set'] if r['kind'] == 'blk' else 'swap ' + r['set']
            return ('  %-24s %-9s ratio %5s  write %8s  read %8s  %s' % (
                what, r['alg'], ratio(r['orig'], r['compr']),
                fmt_ms(r['write_ms']), fmt_ms(r['read_ms']), r['check']))
        if tag == 'ZBW-DEP' and len(v) == len(DEP):
            r = dict(zip(DEP, v))
            out = ('  %-24s %-14s ratio %5s  write %8s  read %8s' % (
                r['set'], r['conf'], ratio(r['orig'], r['compr']),
                fmt_ms(r['write_ms']), fmt_ms(r['read_ms'])))
            if '+' in r['conf']:
                out += '  pass %s' % fmt_ms(r['pass_ms'])
            return out + '  ' + r['check']
    except ValueError:
        pass
    if tag in ('ZBW-REC', 'ZBW-DEP'):
        return '  ' + raw
    return None


def main():
    for raw in sys.stdin:
        out = line(raw)
        if out is not None:
            print(out, flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
