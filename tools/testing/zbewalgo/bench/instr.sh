#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Instructions zbewalgo_compress() runs on each file below DATA_DIR, one
# `zbewalgo bench -r 1 -a zbewalgo` pass under callgrind, for this tree's
# TOOL and the tool of commit BASE (base-tree.sh), with their ratio and
# the geometric mean of the ratios.  Instruction counts do not depend on
# the machine's load, so a change of a few percent shows where timed
# benchmarks cannot tell it from their spread.  Needs valgrind.
#
# usage: instr.sh BASE TOOL DATA_DIR

set -euo pipefail
[ $# -eq 3 ] || { echo "usage: instr.sh BASE TOOL DATA_DIR" >&2; exit 2; }
command -v valgrind >/dev/null ||
	{ echo "instr.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
base=$("$here/base-tree.sh" "$1" build/zbewalgo)/build/zbewalgo
tool=$2
data=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# instructions of zbewalgo_compress() for TOOL on FILE
count() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
		--toggle-collect=zbewalgo_compress "$1" bench -r 1 \
		-a zbewalgo "$2" >/dev/null 2>&1
	sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$tmp/out" | head -n 1
}

printf '%-28s %14s %14s %7s\n' file "$1" tree ratio
logsum=0
n=0
for f in "$data"/*; do
	[ -f "$f" ] || continue
	a=$(count "$base" "$f")
	b=$(count "$tool" "$f")
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
	printf '%-28s %14s %14s %7s\n' "$(basename "$f")" "$a" "$b" "$r"
	logsum=$(awk -v s="$logsum" -v r="$r" 'BEGIN { print s + log(r) }')
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "instr.sh: no files in $data" >&2; exit 1; }
awk -v s="$logsum" -v n="$n" \
	'BEGIN { printf "geometric mean of the ratios over %d files: %.3f\n", n, exp(s / n) }'
