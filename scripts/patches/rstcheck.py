#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check reStructuredText files with docutils, as a light stand-in for
make htmldocs: every message of level WARNING or above is printed and
makes the exit status 1.  Sphinx's roles (:ref:, :doc:, :c:func:, ...)
and directives (toctree, kernel-doc, ...) are accepted as opaque, except
"kernel-doc:: FILE" with ":doc: TITLE": its DOC: block, taken from FILE
relative to the current directory (the kernel tree), is parsed in place
(tools/testing/zbewalgo/kerneldoc_rst.py), so a block that is missing in
the tree or does not parse is reported.

usage: rstcheck.py FILE...
"""
import os
import sys

import docutils.core
import docutils.nodes
import docutils.utils
from docutils.parsers.rst import Directive, directives, roles

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'tools', 'testing', 'zbewalgo'))
import kerneldoc_rst  # noqa: E402

SPHINX_ROLES = ['ref', 'doc', 'file', 'manpage', 'kbd', 'abbr', 'numref',
                'c:func', 'c:type', 'c:macro', 'c:member', 'c:struct',
                'c:union', 'c:enum', 'c:var', 'c:data', 'term']
SPHINX_DIRECTIVES = ['toctree', 'kernel-doc', 'kernel-abi', 'only',
                     'c:function', 'c:macro', 'c:type', 'c:struct',
                     'c:member', 'c:var', 'c:enum', 'c:union',
                     'code-block', 'highlight', 'glossary', 'index',
                     'kernel-feat', 'kernel-include', 'maintainers-include']


def opaque_role(name, rawtext, text, lineno, inliner, options=None,
                content=None):
    return [docutils.nodes.literal(rawtext, text)], []


class Opaque(Directive):
    has_content = True
    optional_arguments = 10
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        return []


# Directive accepts any option when option_spec is a dict that says yes.
class AnyOptions(dict):
    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged


Opaque.option_spec = AnyOptions()


class KernelDoc(kerneldoc_rst.KernelDoc):
    """The :doc: form expanded, any other form opaque."""
    def run(self):
        if set(self.options) != {'doc'}:
            return []
        return super().run()


def main():
    for name in SPHINX_ROLES:
        roles.register_local_role(name, opaque_role)
    for name in SPHINX_DIRECTIVES:
        directives.register_directive(name, Opaque)
    directives.register_directive('kernel-doc', KernelDoc)
    bad = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            src = f.read()
        messages = []
        settings = {'report_level': 5, 'halt_level': 5,
                    'warning_stream': False, 'file_insertion_enabled': False}
        doc = docutils.core.publish_doctree(
            src, source_path=path, settings_overrides=settings)
        for msg in doc.findall(docutils.nodes.system_message):
            if msg['level'] >= 2:
                messages.append(msg.astext().strip())
        for line in messages:
            print(line)
        bad |= bool(messages)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
