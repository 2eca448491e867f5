#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The deepest call chain of zbewalgo's kernel code, in stack bytes.

usage: stack-path.py [--src DIR] FILE.ci...

Reads the call graphs gcc writes with -fcallgraph-info=su (one .ci file
per object: each function's frame, "N bytes (static)", and its calls) and
prints every function's frame and the chain from an entry point (a
function nothing here calls: exported functions, the crypto and zram
callbacks) whose frames add up to the most, as

    deepest: N bytes: f1 (a) > f2 (b) > ...

Calls through a function pointer may reach any function of lib/zbewalgo
that is static and that nothing calls by name (the steps' coders and
state hooks), whichever
gives the deepest chain.  Functions defined outside these files (memcpy,
zstd, the allocator) count 0 bytes here; those the chain's functions
call are named after it, and the deepest chain into each of zstd's
functions is printed too ("into NAME: ..."): zstd's own stack comes on
top of it.  A frame of unbounded dynamic size (a VLA or alloca) fails.
"""
import os
import re
import sys

NODE = re.compile(r'^node: \{ title: "([^"]*)" label: "([^"]*)"')
EDGE = re.compile(r'^edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"'
                  r'(?: label: "([^"]*)")?')
STEP = re.compile(r'struct zbewalgo_step \w+ = \{(.*?)\}', re.S)
MEMBER = re.compile(r'\.(\w+)\s*=\s*(\w+)')
CALL = re.compile(r'(?:->|\.)\s*(\w+)\s*\(')
SIZE = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')
INDIRECT = '__indirect_call'


def read_source(src, path, cache):
    if path not in cache:
        try:
            with open(path if os.path.isabs(path) else
                      os.path.join(src, path)) as f:
                cache[path] = f.read().splitlines()
        except OSError:
            cache[path] = None
    return cache[path]


def main(src, files):
    frames = {}     # title -> bytes, for functions defined in FILES
    where = {}      # title -> source file
    names = {}      # title -> function name
    calls = {}      # title -> set of titles
    members = {}    # (title, INDIRECT) -> set of struct members called
    sources = {}
    dynamic = []
    for path in files:
        with open(path) as f:
            for line in f:
                m = NODE.match(line)
                if m:
                    title, label = m.groups()
                    parts = label.split('\\n')
                    names.setdefault(title, parts[0])
                    s = SIZE.search(label)
                    if s:
                        frames[title] = int(s.group(1))
                        where[title] = parts[1].split(':')[0] if len(parts) > 1 else ''
                        if s.group(2) == 'dynamic':
                            dynamic.append('%s (%s)' % (parts[0], s.group(2)))
                    continue
                m = EDGE.match(line)
                if m:
                    calls.setdefault(m.group(1), set()).add(m.group(2))
                    if m.group(2) == INDIRECT:
                        members.setdefault(m.group(1), set()).add(
                            called_member(src, m.group(3), sources))
    if not frames:
        sys.exit('stack-path.py: no function with a frame size in %s'
                 % ' '.join(files))

    called = set()
    for dsts in calls.values():
        called |= dsts
    roots = [t for t in frames if t not in called]
    # Function-pointer targets: the library's static functions nothing
    # calls by name (gcc titles a static function "FILE:NAME").
    pointees = [t for t in roots
                if '/lib/zbewalgo/' in where[t] and ':' in t]

    # struct member -> the static functions it can point to
    step_fns = {}
    for path in set(where.values()):
        if '/lib/zbewalgo/' not in path:
            continue
        text = '\n'.join(read_source(src, path, sources) or [])
        for block in STEP.findall(text):
            for member, fn in MEMBER.findall(block):
                step_fns.setdefault(member, set()).add(fn)

    callbacks = set().union(*step_fns.values()) if step_fns else set()

    def targets(t, c):
        if c != INDIRECT:
            return [c]
        out = []
        for member in members.get(t, {None}):
            if member in step_fns:
                out += [p for p in pointees if names[p] in step_fns[member]]
            else:
                out += [p for p in pointees if names[p] not in callbacks]
        return out

    memo = {}

    def deepest(t, stack):
        """(bytes, chain) of the deepest chain from t."""
        if t in memo:
            return memo[t]
        stack.add(t)
        best, chain = 0, []
        for c in sorted(calls.get(t, ())):
            for d in targets(t, c):
                if d not in frames or d in stack:
                    continue
                b, ch = deepest(d, stack)
                if b > best:
                    best, chain = b, ch
        stack.discard(t)
        memo[t] = (frames[t] + best, [t] + chain)
        return memo[t]

    def show(chain):
        return ' > '.join('%s (%d)' % (names[c], frames[c]) for c in chain)

    for t in sorted(frames, key=lambda t: (-frames[t], names[t])):
        print('frame %5d %s %s' % (frames[t], names[t],
                                   re.sub(r'^.*?/(?=(lib|crypto|drivers)/)', '',
                                          where[t])))
    entries = [t for t in roots if t not in pointees] or roots
    results = sorted((deepest(t, set()) for t in entries),
                     key=lambda r: (-r[0], names[r[1][0]]))
    for b, chain in results[:8]:
        print('chain %5d %s' % (b, show(chain)))
    b, chain = results[0]
    print('deepest: %d bytes: %s' % (b, show(chain)))
    ext = {names.get(d, d) for c in chain for d in calls.get(c, ())
           if d not in frames and d != INDIRECT}
    if ext:
        print('  its functions also call: %s' % ', '.join(sorted(ext)))
    # The deepest chain into each of zstd's functions: their own stack
    # comes on top (they are the kernel's, as zram's zstd backend runs).
    into = {}

    for t in entries:
        stack_order = []

        def walk(t, seen):
            stack_order.append(t)
            seen.add(t)
            for c in sorted(calls.get(t, ())):
                for d in targets(t, c):
                    if d in seen:
                        continue
                    if d in frames:
                        walk(d, seen)
                    elif names.get(d, d).startswith('zstd_'):
                        b = sum(frames[x] for x in stack_order)
                        if b > into.get(d, (0,))[0]:
                            into[d] = (b, list(stack_order))
            seen.discard(t)
            stack_order.pop()

        walk(t, set())
    for d, (b, chain) in sorted(into.items(), key=lambda x: -x[1][0]):
        print('into %s: %d bytes: %s' % (names.get(d, d), b, show(chain)))
    if dynamic:
        sys.exit('stack-path.py: frames of dynamic size: %s' % ', '.join(dynamic))
    return 0


def called_member(src, label, cache):
    """The struct member a pointer call at label (FILE:LINE:COL) calls."""
    if not label or label.count(':') < 2:
        return None
    path, line, col = label.rsplit(':', 2)
    lines = read_source(src, path, cache)
    if not lines or int(line) > len(lines):
        return None
    m = CALL.search(lines[int(line) - 1][max(int(col) - 1, 0):])
    return m.group(1) if m else None


if __name__ == '__main__':
    args = sys.argv[1:]
    src = '.'
    if args[:1] == ['--src'] and len(args) > 2:
        src, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    sys.exit(main(src, args))
