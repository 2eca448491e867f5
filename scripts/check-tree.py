#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make check-tree: the limits the tree is read by, checked.

 - a kernel source (what the series puts into a kernel tree: lib/,
   crypto/, drivers/, include/, Documentation/) has at most 600 lines, a
   tool's source (tools/, scripts/, fuzz/) at most 1200;
 - the kernel sources' #include "..." form no circle;
 - no comment in a kernel source names a file of this repository that a
   kernel tree does not get (tools/zbewalgo/bench.c, fuzz/...) or one of
   its make targets ("make worst"): a kernel reader cannot follow those.

Prints each finding and exits 1 when there is one.
"""

import os
import re
import subprocess
import sys

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), '..'))
KERNEL_DIRS = ('lib/', 'crypto/', 'drivers/', 'include/', 'Documentation/')
TOOL_DIRS = ('tools/', 'scripts/', 'fuzz/')
# this repository's folders a kernel tree never gets, named with or
# without a file in them
OUTSIDE_DIRS = ('fuzz/', 'tools/zbewalgo', 'tools/testing/zbewalgo',
                'tools/testing/kernel', 'build/')
LIMITS = {'kernel': 600, 'tool': 1200}
SOURCE = re.compile(r'\.(c|h|py|sh)$')
# files whose leading comments stay here: kernel-integrate.py copies only
# what follows them
LEADING_COMMENTS_STAY = {'crypto/testmgr-zbewalgo.h'}


def tracked():
    """The repository's files: git's list, or the tree's without git."""
    try:
        out = subprocess.run(['git', '-C', REPO, 'ls-files'], check=True,
                             capture_output=True, text=True).stdout
        return [f for f in out.split('\n') if f]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for top, dirs, names in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in ('.git', 'build')]
        files += [os.path.relpath(os.path.join(top, n), REPO) for n in names]
    return files


def lines(f):
    with open(os.path.join(REPO, f), encoding='utf-8') as fh:
        return fh.read().count('\n')


def check_lengths(files):
    bad = []
    for f in files:
        if not SOURCE.search(f):
            continue
        kind = ('kernel' if f.startswith(KERNEL_DIRS) else
                'tool' if f.startswith(TOOL_DIRS) else None)
        if not kind:
            continue
        n = lines(f)
        if n > LIMITS[kind]:
            bad.append('%s: %d lines, more than a %s source\'s %d' %
                       (f, n, kind, LIMITS[kind]))
    return bad


def includes(f, kernel):
    """The kernel sources that @f includes with #include "..."."""
    with open(os.path.join(REPO, f), encoding='utf-8') as fh:
        text = fh.read()
    out = []
    for name in re.findall(r'^#\s*include\s+"([^"]+)"', text, re.M):
        path = os.path.normpath(os.path.join(os.path.dirname(f), name))
        if path in kernel:
            out.append(path)
    return out


def check_circles(kernel):
    graph = {f: includes(f, kernel) for f in kernel}
    bad, done = [], set()

    def walk(f, stack):
        if f in stack:
            circle = stack[stack.index(f):] + [f]
            bad.append('include circle: ' + ' -> '.join(circle))
            return
        if f in done:
            return
        for g in graph[f]:
            walk(g, stack + [f])
        done.add(f)

    for f in sorted(graph):
        walk(f, [])
    return sorted(set(bad))


def comments(text):
    return re.findall(r'/\*.*?\*/|//[^\n]*', text, re.S)


def make_targets():
    with open(os.path.join(REPO, 'Makefile'), encoding='utf-8') as fh:
        return set(re.findall(r'^([a-z][a-z0-9-]+):', fh.read(), re.M))


def check_comments(files, kernel):
    """Names in kernel comments that a kernel tree lacks."""
    outside = {f for f in files if not f.startswith(KERNEL_DIRS)}
    outside_names = {os.path.basename(f) for f in outside} - \
        {os.path.basename(f) for f in files if f.startswith(KERNEL_DIRS)}
    targets = make_targets()
    bad = []
    for f in sorted(kernel):
        if not SOURCE.search(f):
            continue
        with open(os.path.join(REPO, f), encoding='utf-8') as fh:
            text = fh.read()
        if f in LEADING_COMMENTS_STAY:
            text = re.sub(r'^(\s*/\*.*?\*/)*', '', text, flags=re.S)
        for c in comments(text):
            for path in re.findall(r'[\w.-]+(?:/[\w.-]+)+', c):
                path = path.rstrip('.')
                if path in outside or path.startswith(OUTSIDE_DIRS):
                    bad.append('%s: a comment names %s' % (f, path))
            for name in re.findall(r'(?<![\w/.-])[\w-]+\.(?:c|h|py|sh)\b', c):
                if name in outside_names:
                    bad.append('%s: a comment names %s' % (f, name))
            for t in re.findall(r'\bmake ([a-z][a-z0-9-]+)', c):
                if t in targets:
                    bad.append('%s: a comment names make %s' % (f, t))
    return bad


def main():
    files = tracked()
    kernel = {f for f in files if f.startswith(KERNEL_DIRS)}
    bad = check_lengths(files) + check_circles(kernel) + \
        check_comments(files, kernel)
    for b in bad:
        print(b)
    print('check-tree: %d kernel and %d tool sources, %d findings' %
          (sum(1 for f in kernel if SOURCE.search(f)),
           sum(1 for f in files if f.startswith(TOOL_DIRS) and
               SOURCE.search(f)), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
