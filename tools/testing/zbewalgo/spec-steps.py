#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the format document's steps against lib/zbewalgo/core/steps.h.

usage: spec-steps.py STEPS_H SPEC_RST

Every step of the ZBW_STEP list must be in the format document's step
table with its id and name, in id order, and be named "NAME (ID)" in a
section title; the table must list nothing else.  Each such section must
take the step's format from its source with

  .. kernel-doc:: lib/zbewalgo/DIR/FILE.c
     :doc: TITLE

where TITLE names the step and FILE.c (DIR is core or classic; the
path is relative to the current directory, the source tree) has that
DOC: block.  (The admin guide
refers to the step table rather than listing the steps, so a new step
does not touch it.)
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kerneldoc_rst import doc_block  # noqa: E402

KERNEL_DOC = re.compile(r'^\.\. kernel-doc:: (\S+)\n   :doc: (.+)$', re.M)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    steps_h, spec = sys.argv[1:3]
    code = [(int(i), n) for n, i in re.findall(
        r'^ZBW_STEP\([A-Z0-9]+,\s*([a-z0-9]+),\s*(\d+),\s*[a-z]+\)',
        open(steps_h).read(), re.M)]
    text = open(spec).read()
    table = re.search(r'\nSteps\n=+\n.*?\n(=+ +=+ +=+\n.*?\n=+ +=+ +=+\n)'
                      r'(.*?)\n=+ +=+ +=+\n', text, re.S)
    if not code or not table:
        raise SystemExit('spec-steps: no step list in %s or no step table '
                         'in %s' % (steps_h, spec))
    doc = [(int(m.group(1)), m.group(2)) for m in
           re.finditer(r'^\s*(\d+)\s+([a-z0-9]+)\s', table.group(2), re.M)]
    errors = []
    if doc != code:
        errors.append('the step table lists %s, steps.h %s' % (doc, code))
    # Section titles may name several steps: "delta4 (12), delta8 (13)".
    # A section runs up to the next title of any level.
    titles = [m for m in re.finditer(r'^(.+)\n([-=])\2*$', text, re.M)
              if len(m.group(0)) == 2 * len(m.group(1)) + 1]
    sections = {}
    for k, m in enumerate(titles):
        end = titles[k + 1].start() if k + 1 < len(titles) else len(text)
        if m.group(2) == '-':
            for n, i in re.findall(r'([a-z0-9]+) \((\d+)\)', m.group(1)):
                sections[(int(i), n)] = text[m.end():end]
    for i, n in code:
        if (i, n) not in sections:
            errors.append('no section titled "%s (%d)"' % (n, i))
            continue
        docs = KERNEL_DOC.findall(sections[(i, n)])
        if not docs:
            errors.append('section "%s (%d)" has no ".. kernel-doc:: FILE" '
                          'with ":doc: TITLE"' % (n, i))
            continue
        for path, title in docs:
            try:
                doc_block('.', path, title)
            except (LookupError, OSError) as e:
                errors.append('section "%s (%d)": %s' % (n, i, e))
        if not any(re.search(r'\b%s\b' % n, title) for _, title in docs):
            errors.append('section "%s (%d)": no DOC: title names %s (%s)'
                          % (n, i, n, ', '.join(t for _, t in docs)))
    errors = ['%s: %s' % (spec, e) for e in errors]
    for e in errors:
        print('spec-steps: %s' % e, file=sys.stderr)
    if errors:
        return 1
    print('docs: %s describes the %d steps of %s, each from a DOC: block'
          % (spec, len(code), steps_h))
    return 0


if __name__ == '__main__':
    sys.exit(main())
