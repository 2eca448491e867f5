#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A refactor must not change what zbewalgo writes.  Builds the tool of
# commit BASE (once, in build/same-output/COMMIT) and requires it and TOOL,
# this tree's build, to write the same bytes for every file below the
# DATA_DIRs at levels 1, 2 and 3 and with 64 KiB pages, and to decode each
# other's output (cross_test.sh).  `make same-output BASE=COMMIT` runs it
# on the generated data sets and the test data.
#
# usage: same-output.sh BASE TOOL DATA_DIR...

set -euo pipefail
[ $# -ge 3 ] || { echo "usage: same-output.sh BASE TOOL DATA_DIR..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
rev=$(git -C "$top" rev-parse --short "$1^{commit}")
tool=$2
shift 2
src=$top/build/same-output/$rev
if [ ! -x "$src/build/zbewalgo" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$top" archive "$rev" | tar -x -C "$src"
	echo "same-output: building the tool of $rev" >&2
	# The plain build, whatever the make that called this script was
	# given (SANITIZE=1 reaches here in MAKEFLAGS and the environment).
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$src" -s \
		SANITIZE= BUILD=build build/zbewalgo >/dev/null
fi
exec "$here/cross_test.sh" -n "commit $rev and this tree" env \
	"$src/build/zbewalgo" "$tool" "$@"
