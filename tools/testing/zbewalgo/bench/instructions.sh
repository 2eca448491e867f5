#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Instructions per page instead of time: each algorithm of `zbewalgo bench`
# on the first PAGES pages of each file, under valgrind's callgrind, which
# counts what the code executes whatever else runs on the machine.  On the
# shared development machines a timed run can be off by a factor of two;
# these counts are the same on every run (same build, same libraries).
# They are not times: a cache miss or a mispredicted branch costs more
# than an instruction.
#
# usage: instructions.sh [-c TABLE] TOOL PAGES ALG[,ALG...] FILE...
#
# Prints, per file and algorithm: zram's ratio, and the instructions of
# compression and decompression per page (bench_algos.c's ALG_comp and
# ALG_decomp with all they call, one page at a time, one repetition).
# -c TABLE goes to zbewalgo bench for zbewalgo-custom.  Needs valgrind
# (Debian: apt-get install valgrind).

set -euo pipefail
opts=()
[ "${1:-}" != -c ] || { opts=(-c "$2"); shift 2; }
[ $# -ge 4 ] || { sed -n '3,18p' "$0" | cut -c3-; exit 2; }
tool=$1 pages=$2 algs=$3
shift 3
command -v valgrind >/dev/null || { echo "instructions: valgrind not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%-24s %-16s %7s %12s %12s\n' file algorithm ratio comp/page decomp/page
for f in "$@"; do
	head -c $((pages * 4096)) "$f" >"$tmp/in"
	n=$(( ($(stat -c %s "$tmp/in") + 4095) / 4096 ))
	for a in ${algs//,/ }; do
		ratio=$("$tool" bench -r 1 -a "$a" "${opts[@]}" "$tmp/in" | awk -v a="$a" '$1 == a { print $2; exit }')
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
			"$tool" bench -r 1 -a "$a" "${opts[@]}" "$tmp/in" >/dev/null 2>&1
		# the inclusive counts of bench_algos.c's X_comp and X_decomp
		callgrind_annotate --inclusive=yes "$tmp/cg" |
			awk -v f="${f##*/}" -v a="$a" -v r="$ratio" -v n="$n" '
				/bench_algos\.c:[a-z0-9]+_comp \[/ { gsub(",", "", $1); c += $1 }
				/bench_algos\.c:[a-z0-9]+_decomp \[/ { gsub(",", "", $1); d += $1 }
				END { printf "%-24s %-16s %7s %12.0f %12.0f\n", f, a, r, c / n, d / n }'
	done
done
