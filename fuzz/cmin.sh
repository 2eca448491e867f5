#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Minimises the corpora with afl-cmin (edge coverage of build/afl/<h>).
#
#   cmin.sh HARNESS...             corpus/<h> + build/out/<h>/*/queue
#                                  -> corpus/<h>
#   cmin.sh --from DIR HARNESS...  DIR/<h> -> corpus/<h> (fresh seeds)
#
# Files are named by their SHA-1, so reruns give stable names and git
# diffs show only real corpus changes.
set -euo pipefail
cd "$(dirname "$0")"
from=
if [ "${1:-}" = --from ]; then
	from=$2
	shift 2
fi
export AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_QUIET=1
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0
for h in "$@"; do
	tmp=build/cmin/$h
	rm -rf "$tmp" && mkdir -p "$tmp/in" "$tmp/out"
	if [ -n "$from" ]; then
		srcs=("$from/$h")
	else
		srcs=(corpus/"$h" build/out/"$h"/*/queue)
	fi
	for d in "${srcs[@]}"; do
		[ -d "$d" ] || continue
		find "$d" -maxdepth 1 -type f ! -name '.*' -size -64k \
			-exec sh -c 'for f; do
				cp "$f" "$0/$(sha1sum <"$f" | cut -c1-16)"
			done' "$tmp/in" {} +
	done
	before=$(ls "$tmp/in" | wc -l)
	nice -n 19 afl-cmin -t 5000 -i "$tmp/in" -o "$tmp/out" \
		-- "build/afl/$h" >"$tmp.log" 2>&1 ||
		{ tail -20 "$tmp.log"; exit 1; }
	rm -rf "corpus/$h" && mkdir -p "corpus/$h"
	for f in "$tmp/out"/*; do
		cp "$f" "corpus/$h/$(sha1sum <"$f" | cut -c1-16)"
	done
	echo "$h: $before inputs -> $(ls "corpus/$h" | wc -l)" \
	     "($(du -sh "corpus/$h" | cut -f1))"
	rm -rf "$tmp"
done
