#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Does a second compression of a page come out as the first, on the same
# context, on another context with another history, and after another
# table ran in between (zbewalgo_retry, retry.c)?  With BASE, the same
# program is also built against the library of commit BASE
# (base-tree.sh) and run first, for a before and after.
# `make retry-check [BASE=COMMIT]` runs it on the generated data sets and
# the test data at levels 1, 2 and 3.
#
# usage: retry.sh PROGRAM [BASE] -- FILE...

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
prog=$1
shift
base=
if [ "$1" != -- ]; then
	base=$1
	shift
fi
[ "${1:-}" = -- ] || { echo "usage: retry.sh PROGRAM [BASE] -- FILE..." >&2; exit 2; }
shift

if [ -n "$base" ]; then
	rev=$(git -C "$top" rev-parse --short "$base^{commit}")
	src=$("$here/base-tree.sh" "$rev" build/libzbewalgo.a)
	${CC:-cc} -O2 -I"$src/include" -I"$src/tools/zbewalgo/shim" \
		-o "$src/build/zbewalgo_retry" "$here/retry.c" \
		"$here/load_pages.c" "$src/build/libzbewalgo.a" -lzstd -lm
	files=("$@")
	for level in 1 2 3; do
		echo "== commit $rev, level $level"
		"$src/build/zbewalgo_retry" -l "$level" "${files[@]}" | sed -n '2p;$p' || true
	done
fi
status=0
for level in 1 2 3; do
	echo "== this tree, level $level"
	"$prog" -l "$level" "$@" | sed -n '2p;$p' || status=1
done
exit $status
