# SPDX-License-Identifier: GPL-2.0-only
"""What bench-plot.py and tune-plot.py share: arguments, input, matplotlib.

Both scripts are run by path and import this module from their directory.
"""
import argparse
import json
import sys

MIB = 1024.0 * 1024.0


def parse_args(doc, add_options=None):
    """[options] JSON OUT.png: add_options(parser) first, then --title."""
    ap = argparse.ArgumentParser(description=doc.split('\n')[0])
    if add_options:
        add_options(ap)
    ap.add_argument('--title', default='')
    ap.add_argument('json')
    ap.add_argument('png')
    return ap.parse_args()


def pyplot(prog):
    """matplotlib.pyplot drawing to files, or None when it is missing."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('%s: matplotlib missing (Debian: apt-get install '
              'python3-matplotlib)' % prog, file=sys.stderr)
        return None
    return plt


def load(path):
    with open(path) as f:
        return json.load(f)
