#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Which chain of the default table wins how many pages of each input
# (`zbewalgo -s compress`, one run per file), for `make bench`: per file
# the pages, those stored whole, and the wins of every chain that won any.
#
# usage: wins.sh ZBEWALGO_TOOL FILE...

set -euo pipefail
tool=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-24s %6s %6s  %s\n' file pages stored 'wins by chain'
for f in "$@"; do
	rm -f "$tmp/out"
	"$tool" -s compress "$f" "$tmp/out" 2>"$tmp/stats"
	awk -v name="$(basename "$f")" '
		/^pages / { pages = $2; sub(",", "", pages); stored = $5; sub(",", "", stored) }
		/ wins / && $1 > 0 { wins = wins sprintf(" %s %d", $3, $1) }
		END { printf "%-24s %6d %6d %s\n", name, pages, stored, wins }
	' "$tmp/stats"
done
