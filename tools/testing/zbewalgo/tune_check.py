#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks that the lines zbewalgo tune prints apply its recommendation as
they are pasted, read the way their programs read them.

usage: tune_check.py TOOL TEXT JSON [--lean] [--decode-kind KIND]
                     [--want-classic] [--want-level]

TEXT is tune's text report, JSON its --json of the same run.  Each check
prints "ok - ..." or "not ok - ..."; the exit status is 1 if one failed.

  - the algorithm_params line, as the shell runs it and zram parses what it
    writes (next_arg(): words of KEY=VALUE, double quotes around a value);
  - the zramctl line (util-linux 2.41 writes --algorithm-params as it is
    into algorithm_params after comp_algorithm);
  - the zram-generator line (1.2.0 and later: the ini parser drops double
    quotes and takes " ;" or " #" for a comment, the value is split at
    white space into algorithms, and what is between an algorithm's
    parentheses goes to algorithm_params as "algo=NAME PARAMS" with its
    commas made spaces);
each must give zram the same keys: the recommended table (which the tool
parses back to the same table), early_abort_size and max_output_size, or
the preset level alone.  The table's classic steps
(lib/zbewalgo/core/steps.h) are listed and warned about, none with
--lean.  The decompression budget
is the one asked for and, by default, the recommendation decompresses no
slower than the default table (in the model within 10%, measured within
5%, tune's allowances for noise), or is the default table, or comes with
a warning.
"""
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS_H = os.path.join(HERE, '..', '..', '..', 'lib', 'zbewalgo', 'core',
                       'steps.h')
KEYS = {'algo', 'priority', 'level', 'dict', 'zbewalgo.table',
        'zbewalgo.early_abort_size', 'zbewalgo.max_output_size'}
DECODE_SLACK = 0.05	# tune.h
MODEL_SLACK = 0.1

failed = 0


def check(name, cond, detail=''):
    global failed
    if cond:
        print('ok - tune lines: %s' % name)
    else:
        failed += 1
        print('not ok - tune lines: %s' % name)
        if detail:
            print('#   %s' % str(detail)[:600])


def zram_params(text):
    """algorithm_params as zram's parser takes it: {key: value}."""
    out = {}
    for word in re.findall(r'(?:[^\s"]|"[^"]*")+', text):
        key, eq, val = word.partition('=')
        if not eq:
            raise ValueError('%r: not KEY=VALUE' % word)
        if key in out:
            raise ValueError('%r given twice' % key)
        out[key] = val.replace('"', '')
    unknown = set(out) - KEYS
    if unknown:
        raise ValueError('keys zram does not take: %s' % sorted(unknown))
    return out


def sysfs_value(line):
    """What "echo '...' > /sys/block/zramN/algorithm_params" writes."""
    argv = shlex.split(line)
    if (len(argv) != 4 or argv[0] != 'echo' or argv[2] != '>' or
            not re.match(r'^/sys/block/zram\d+/algorithm_params$', argv[3])):
        raise ValueError('not an echo into algorithm_params: %r' % argv)
    return argv[1]


def zramctl_value(line):
    argv = shlex.split(line)
    if argv[0] != 'zramctl':
        raise ValueError('not a zramctl command: %r' % argv)
    opts = dict(zip(argv[1::], argv[2::]))
    if opts.get('--algorithm') != 'zbewalgo':
        raise ValueError('no --algorithm zbewalgo: %r' % argv)
    return opts['--algorithm-params']


def generator_value(line):
    """zram-generator's algorithm_params write for its primary."""
    key, eq, val = line.partition('=')
    if key.strip() != 'compression-algorithm' or not eq:
        raise ValueError('not a compression-algorithm line: %r' % line)
    val = val.strip()
    if '"' in val or re.search(r'\s[;#]', val):
        raise ValueError('quotes or an inline comment for the ini parser')
    algos = val.split()
    if len(algos) != 1:
        raise ValueError('%d algorithms, not one' % len(algos))
    algo, paren, params = algos[0].partition('(')
    if algo != 'zbewalgo' or not paren or not params.endswith(')'):
        raise ValueError('not zbewalgo(PARAMS): %r' % algos[0])
    return 'algo=%s %s' % (algo, params[:-1].replace(',', ' '))


def classic_ids():
    pat = re.compile(r'^ZBW_STEP\(\w+,\s*(\w+),\s*(\d+),\s*(\w+)\)')
    res = {}
    for line in open(STEPS_H):
        m = pat.match(line)
        if m and m.group(3) == 'classic':
            res[m.group(1)] = int(m.group(2))
    return res


def table_of(tool, table):
    """The table as the tool parses it back, one line."""
    r = subprocess.run([tool, '-c', table, 'table'], capture_output=True,
                       text=True)
    if r.returncode:
        raise ValueError('the tool refuses %r: %s' % (table, r.stderr))
    return ' '.join(r.stdout.split())


def lines_after(text, head):
    """The three per-device lines of the block that follows HEAD."""
    i = text.find(head)
    if i < 0:
        return None
    rest = [x.strip() for x in text[i:].split('\n')]
    find = lambda p: next((x for x in rest if x.startswith(p)), None)
    return (find("echo 'algo=zbewalgo"), find('zramctl '),
            find('compression-algorithm = '))


def check_lines(tool, name, lines, want_json, want, level=0):
    if not all(lines):
        check(name + ': the three lines are printed', False, lines)
        return
    check(name + ': text and JSON agree',
          list(lines) == [want_json['algorithm_params'], want_json['zramctl'],
                          want_json['zram_generator']], (lines, want_json))
    try:
        got = [zram_params(sysfs_value(lines[0]))]
        got.append(dict(zram_params(zramctl_value(lines[1])),
                        algo='zbewalgo'))
        got.append(zram_params(generator_value(lines[2])))
    except ValueError as e:
        check(name + ': the lines parse', False, e)
        return
    check(name + ': algorithm_params, zramctl and zram-generator give zram '
          'the same keys', got[0] == got[1] == got[2], got)
    p = got[0]
    if level:
        check(name + ': level=%d alone' % level,
              p == {'algo': 'zbewalgo', 'level': str(level)}, p)
        return
    try:
        tab = table_of(tool, p.get('zbewalgo.table', ''))
    except ValueError as e:
        check(name + ': the table parses', False, e)
        return
    check(name + ': the table, thresholds as recommended',
          tab == want['table'] and p.get('algo') == 'zbewalgo' and
          p.get('zbewalgo.early_abort_size') == str(want['early_abort_size']) and
          p.get('zbewalgo.max_output_size') == str(want['max_output_size']),
          (p, tab, want))


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.stderr.write(__doc__)
        return 2
    tool, text_path, json_path = args[:3]
    opts = args[3:]
    lean = '--lean' in opts
    kind = (opts[opts.index('--decode-kind') + 1] if '--decode-kind' in opts
            else 'as fast as the default table')
    text = open(text_path).read()
    d = json.load(open(json_path))
    rec = d['recommendation']
    by = {r['name']: r for r in d['results']}

    check_lines(tool, 'device', lines_after(text, 'for one zram device only'),
                rec['device'], rec)
    level = rec['preset_level']
    if level:
        check('a preset within its tolerance: its level lines', rec['level'] and
              rec['level']['level'] == level, rec['level'])
        check_lines(tool, 'level', lines_after(text, 'Preset level %d is as good'
                                               % level),
                    rec['level'], rec, level)
    else:
        check('no preset within its tolerance: no level lines',
              rec['level'] is None and 'Preset level' not in text)
    if '--want-level' in opts:
        check('this input has a preset as good', bool(level))

    classic = classic_ids()
    named = {s for comb in rec['table'].split() for s in comb.split('-')}
    want = sorted(named & set(classic), key=classic.get)
    check('the classic steps the table names are listed',
          rec['classic_steps'] == want and rec['lean'] == lean,
          (rec['classic_steps'], want))
    warned = 'WARNING: the table names' in text and \
        'CONFIG_ZBEWALGO_CLASSIC_STEPS=y' in text
    check('a warning if and only if the table needs classic steps',
          warned == bool(want))
    if lean:
        check('--lean: no classic step in any table it reports', not want and
              not any(set(c['chain'].split('-')) & set(classic)
                      for c in d['candidates']), want)
    if '--want-classic' in opts:
        check('this input and budget give a table with classic steps',
              bool(want))

    b = d['budget']
    check('decompression budget: %s' % kind, b['decompress_kind'] == kind, b)
    if kind == 'as fast as the default table' and b['met']:
        r, dfl = by['recommended'], by['default']
        check('the model decompresses no slower than the default table '
              '(%.0f%% for its coarser times)' % (100 * MODEL_SLACK),
              r['model']['decompress_vs_lz4'] * (1 + MODEL_SLACK) >=
              dfl['model']['decompress_vs_lz4'] * (1 - 1e-6),
              (r['model'], dfl['model']))
        check('measured: no slower than the default table (%.0f%% for noise), '
              'or the default table, or a warning' % (100 * DECODE_SLACK),
              r['table'] == dfl['table'] or
              r['sample']['decompress_mibps'] * (1 + DECODE_SLACK) >=
              dfl['sample']['decompress_mibps'] or
              (b['decompress_slower'] and 'decompresses x' in text),
              (r['sample'], dfl['sample']))
        check('a fallback to the default table is reported',
              not b['decompress_fallback'] or
              (r['table'] == dfl['table'] and 'so the default table it is' in text),
              b)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
