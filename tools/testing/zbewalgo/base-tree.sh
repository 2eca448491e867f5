#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The tree of commit REV, with make TARGET... built the plain way, for the
# tools that compare this tree with an older one (same-output.sh,
# retry.sh).  Unpacked once into build/base/COMMIT and kept; prints that
# directory.
#
# usage: base-tree.sh REV TARGET...

set -euo pipefail
[ $# -ge 2 ] || { echo "usage: base-tree.sh REV TARGET..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
rev=$(git -C "$top" rev-parse --short "$1^{commit}")
shift
src=$top/build/base/$rev
if [ ! -e "$src/.unpacked" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$top" archive "$rev" | tar -x -C "$src"
	touch "$src/.unpacked"
fi
echo "base-tree: building $* of $rev" >&2
# The plain build, whatever the make that called this script was given
# (SANITIZE=1 reaches here in MAKEFLAGS and the environment).
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$src" -s SANITIZE= \
	BUILD=build "$@" >/dev/null
echo "$src"
