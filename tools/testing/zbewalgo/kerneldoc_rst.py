#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check reStructuredText files with docutils, DOC: blocks included.

usage: kerneldoc_rst.py [--srctree DIR] FILE...

Each FILE is parsed as "python3 -m docutils --halt=warning
--report=warning --no-file-insertion FILE /dev/null" does, except that
the kernel's Sphinx directive

  .. kernel-doc:: lib/zbewalgo/DIR/FILE.c
     :doc: TITLE

is known: like the kernel's kernel-doc, it takes the comment of FILE.c
that starts with "/**" and " * DOC: TITLE", strips each line's " * " (or
" *"), and parses the text as reStructuredText in place of the directive.
The path is relative to the source tree (--srctree, default the current
directory), as in a kernel tree.  A missing file or DOC: block, another
option than :doc:, and any warning in the text stop the check.  Prints
"docs: FILE ok" for each FILE that passes; exits 1 at the first that
does not.
"""
import os
import re
import sys

import docutils.core
import docutils.nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import ViewList

# The patterns of the kernel's kernel-doc (tools/lib/python/kdoc).
DOC_START = re.compile(r'^/\*\*\s*$')
DOC_TITLE = re.compile(r'\s*\*\s*DOC:\s*(.*)')
DOC_END = re.compile(r'\*/')
DOC_LINE = re.compile(r'\s*\* ?(.*)')

SRCTREE = '.'


def doc_blocks(path):
    """The DOC: blocks of the C file PATH, as {title: [(lineno, text)]}
    with 1-based line numbers and the comment prefixes stripped."""
    blocks = {}
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        if (DOC_START.match(lines[i]) and i + 1 < len(lines)
                and DOC_TITLE.match(lines[i + 1])):
            title = DOC_TITLE.match(lines[i + 1]).group(1).strip()
            body = []
            i += 2
            while i < len(lines) and not DOC_END.search(lines[i]):
                m = DOC_LINE.match(lines[i])
                body.append((i + 1, m.group(1) if m else lines[i]))
                i += 1
            while body and not body[0][1].strip():
                body.pop(0)
            while body and not body[-1][1].strip():
                body.pop()
            blocks[title] = body
        i += 1
    return blocks


def doc_block(srctree, rel, title):
    """The lines of DOC: TITLE in SRCTREE/REL; raises LookupError with a
    message saying what is missing."""
    path = os.path.join(srctree, rel)
    if not os.path.isfile(path):
        raise LookupError('%s: no such file in the source tree %s'
                          % (rel, os.path.abspath(srctree)))
    blocks = doc_blocks(path)
    if title not in blocks:
        raise LookupError('%s: no "DOC: %s" block (it has: %s)'
                          % (rel, title, ', '.join(
                              '"%s"' % t for t in blocks) or 'none'))
    if not blocks[title]:
        raise LookupError('%s: "DOC: %s" is empty' % (rel, title))
    return blocks[title]


class KernelDoc(Directive):
    """The :doc: form of Documentation/sphinx/kerneldoc.py."""
    required_arguments = 1
    optional_arguments = 0
    has_content = False
    option_spec = {'doc': directives.unchanged_required,
                   'export': directives.unchanged,
                   'internal': directives.unchanged,
                   'identifiers': directives.unchanged,
                   'no-identifiers': directives.unchanged,
                   'functions': directives.unchanged}

    def run(self):
        rel = self.arguments[0]
        others = sorted(set(self.options) - {'doc'})
        if others or 'doc' not in self.options:
            raise self.error('kernel-doc %s: only the :doc: TITLE form is '
                             'checked here, not %s' % (rel, ' '.join(
                                 ':%s:' % o for o in others) or
                                 'the whole file'))
        try:
            lines = doc_block(SRCTREE, rel, self.options['doc'])
        except (LookupError, OSError, UnicodeDecodeError) as e:
            raise self.error('kernel-doc: %s' % e)
        content = ViewList()
        for lineno, text in lines:
            content.append(text, rel, lineno - 1)
        node = docutils.nodes.section()
        self.state.nested_parse(content, 0, node, match_titles=True)
        return node.children


def main(argv):
    global SRCTREE
    if len(argv) >= 2 and argv[0] == '--srctree':
        SRCTREE = argv[1]
        argv = argv[2:]
    if not argv or any(a.startswith('-') for a in argv):
        raise SystemExit(__doc__)
    directives.register_directive('kernel-doc', KernelDoc)
    for path in argv:
        try:
            docutils.core.publish_cmdline(
                writer_name='null', enable_exit_status=True,
                argv=['--halt=warning', '--report=warning',
                      '--no-file-insertion', path, os.devnull])
        except SystemExit as e:
            if e.code:
                print('docs: %s FAILED' % path, file=sys.stderr)
                return 1
        print('docs: %s ok' % path)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
