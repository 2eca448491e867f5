#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The literal blocks of the user documents, for the tests that run them.

The documents are the admin guide (Documentation/admin-guide/blockdev/
zbewalgo.rst) and the install guide (INSTALL.rst); the callers name them,
in that order.  Every literal block of a document is tagged by an rst
comment before the paragraph that introduces it (invisible in the rendered
page):

    .. zbw-test: NAME PLACE[,PLACE...] [file=PATH] [keep] [vars=A,B]

PLACE says where the block runs (see PLACES); file=PATH makes the block
the content of a file instead of commands; keep runs it on the state the
block before it left (no clean-up in between); vars names the variables
the block expects, which the document must define in the text before it.
A name is unique over all the documents.

  doc-blocks.py check DOC...           every block tagged, tags valid
  doc-blocks.py names PLACES DOC...    the check names of the blocks of
                                       PLACES (comma-separated)
  doc-blocks.py extract PLACES DIR DOC...
      DIR/NN-NAME.sh (commands) or NN-NAME.file (content) plus NN-NAME.path,
      NN-NAME.keep and NN-NAME.vars where the tag says so, in the order of
      the documents and of the blocks in each; PLACES "all" takes every
      block (doc-user.sh verifies the unit files among them)
"""
import os
import re
import sys

PLACES = {
    'guest': 'every make check-kernel guest (6.1, 6.12, 7.2)',
    'guest-levels': 'make check-kernel guests whose zram has algorithm_params (6.12+)',
    'guest-recomp': 'make check-kernel guests whose zram has recompression and writeback (6.12+)',
    'dkms': "the make check-dkms guest (Debian's 6.1 kernel)",
    'dkms-6.12': "the make check-dkms guest on Debian 13's 6.12 kernel (zswap)",
    'dkms-host': 'the host of make check-dkms, before the boot',
    'dkms-host-end': 'the host of make check-dkms, after the boot',
    'user': 'make check-user, in user space',
}
TAG = re.compile(r'^\s*\.\. zbw-test:\s*(.*)$')
NAME = re.compile(r'^[a-z0-9][a-z0-9-]*$')


def indent(line):
    return len(line) - len(line.lstrip(' '))


def blocks(path):
    """(lineno, tag text or None, tag lineno, block lines) per literal block."""
    lines = open(path).read().split('\n')
    out = []
    tag = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = TAG.match(line)
        if m:
            if tag:
                raise SystemExit('%s:%d: tag without a block (next tag at %d)'
                                 % (path, tag[1], i + 1))
            tag = (m.group(1), i + 1)
            i += 1
            continue
        s = line.rstrip()
        # A paragraph ending in "::" (not a directive) introduces a block.
        code = re.match(r'^\s*\.\. (code-block|code|sourcecode)::', s)
        if code or (s.endswith('::') and not re.match(r'^\s*\.\. \S+::', s)):
            start = i + 1
            j = start
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and indent(lines[j]) > indent(line):
                b = indent(lines[j])
                body = []
                while j < len(lines) and (not lines[j].strip() or
                                          indent(lines[j]) >= b):
                    body.append(lines[j][b:])
                    j += 1
                while body and not body[-1].strip():
                    body.pop()
                out.append((start, tag[0] if tag else None,
                            tag[1] if tag else None, body))
                tag = None
                i = j
                continue
        i += 1
    if tag:
        raise SystemExit('%s:%d: tag without a block' % (path, tag[1]))
    return out


def parse_all(paths):
    """The tagged blocks of every document in order; exits on an untagged
    block, a bad tag or a name used twice (in one document or two)."""
    res, names, errors = [], {}, []
    for path in paths:
        res += parse(path, names, errors)
    if errors:
        raise SystemExit('\n'.join(errors))
    return res


def parse(path, names, errors):
    """The tagged blocks of PATH as dicts; errors go to ERRORS, NAMES maps
    the names seen so far to where."""
    res = []
    text = open(path).read()
    for lineno, tag, tagline, body in blocks(path):
        if tag is None:
            errors.append('%s:%d: literal block without a ".. zbw-test:" tag'
                          % (path, lineno))
            continue
        words = tag.split()
        if len(words) < 2 or not NAME.match(words[0]):
            errors.append('%s:%d: tag wants NAME PLACE[,PLACE] [options]'
                          % (path, tagline))
            continue
        b = {'name': words[0], 'places': words[1].split(','), 'line': lineno,
             'body': body, 'file': None, 'keep': False, 'vars': []}
        for w in words[2:]:
            if w.startswith('file='):
                b['file'] = w[5:]
            elif w == 'keep':
                b['keep'] = True
            elif w.startswith('vars='):
                b['vars'] = w[5:].split(',')
            else:
                errors.append('%s:%d: unknown tag option %s' % (path, tagline, w))
        for p in b['places']:
            if p not in PLACES:
                errors.append('%s:%d: unknown place %s (one of: %s)'
                              % (path, tagline, p, ' '.join(PLACES)))
        if b['name'] in names:
            errors.append('%s:%d: block name %s used twice (also %s)'
                          % (path, tagline, b['name'], names[b['name']]))
        names.setdefault(b['name'], '%s:%d' % (path, tagline))
        # A variable is defined where the guide says ``NAME`` before the block.
        before = text[:text.index('.. zbw-test: ' + tag)]
        for v in b['vars']:
            if '``%s``' % v not in before:
                errors.append('%s:%d: variable %s is not described before the block'
                              % (path, tagline, v))
            elif not any(re.search(r'\$\{?%s\b' % v, x) for x in body):
                errors.append('%s:%d: variable %s is not used in the block'
                              % (path, tagline, v))
        res.append(b)
    return res


def main():
    a = sys.argv[1:]
    if len(a) >= 2 and a[0] == 'check':
        for doc in a[1:]:
            bs = parse_all([doc])
            print('docs: %s: %d literal blocks, each tagged for a test'
                  % (doc, len(bs)))
        parse_all(a[1:])
    elif len(a) >= 3 and a[0] == 'names':
        for b in parse_all(a[2:]):
            if set(a[1].split(',')) & set(b['places']):
                print('doc-' + b['name'])
    elif len(a) >= 4 and a[0] == 'extract':
        os.makedirs(a[2], exist_ok=True)
        n = 0
        for b in parse_all(a[3:]):
            if a[1] != 'all' and not set(a[1].split(',')) & set(b['places']):
                continue
            n += 1
            base = os.path.join(a[2], '%02d-%s' % (n, b['name']))
            with open(base + ('.file' if b['file'] else '.sh'), 'w') as f:
                f.write('\n'.join(b['body']) + '\n')
            if b['file']:
                with open(base + '.path', 'w') as f:
                    f.write(b['file'] + '\n')
            if b['keep']:
                open(base + '.keep', 'w').close()
            if b['vars']:
                with open(base + '.vars', 'w') as f:
                    f.write(' '.join(b['vars']) + '\n')
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
