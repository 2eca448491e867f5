#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A refactor must not change what zbewalgo writes.  Builds the tool of
# commit BASE (base-tree.sh) and requires it and TOOL,
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
src=$("$here/base-tree.sh" "$rev" build/zbewalgo)
exec "$here/cross_test.sh" -n "commit $rev and this tree" env \
	"$src/build/zbewalgo" "$tool" "$@"
