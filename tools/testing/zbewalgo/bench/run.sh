#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The whole user-space benchmark (`make bench`): generates the data sets,
# runs `zbewalgo bench` on them, on the test data (real files from Debian
# packages, `make testdata`), on the optional extra corpora and on the pages
# real programs swapped (`make realprog`, table "realswap"), and writes
# tables (txt, csv, json), plots (png), a note of the machine, the pages
# each chain won (wins.txt) and, for the sets and the test data, the
# figures of the speed targets (targets.txt).
# See README.md in this directory.
#
# usage: run.sh ZBEWALGO_TOOL DATA_DIR TESTDATA_DIR OUT_DIR [SIZE_KIB [REPS
#               [EXTRA_CORPUS_DIR]]]
#
# The test data goes to the table "corpus"; EXTRA_CORPUS_DIR (make bench
# gives build/corpus when ZBW_EXTRA_CORPUS is set) to "extra-corpus".

set -euo pipefail
tool=$1
data=$2
testdata=$3
out=$4
size=${5:-4096}
reps=${6:-5}
extra=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
gen=$here/../gen-data.py

mkdir -p "$out"
echo "bench: generating data sets ($size KiB each) in $data" >&2
rm -rf "$data"
python3 "$gen" "$data" "$size"

# tree_id and machine WHEN: the note of the machine.
# shellcheck source-path=SCRIPTDIR source=machine.sh
. "$here/machine.sh"

run() {	# run NAME FILE...: one bench run, all outputs under $out/NAME.*
	local name=$1; shift
	echo "bench: $name ($# files)" >&2
	{
		echo "# zbewalgo bench results: $name"
		machine started
	} >"$out/$name.txt.tmp"
	"$tool" bench --drop-same -r "$reps" -v --csv="$out/$name.csv" \
		--json="$out/$name.json" --plot="$out/$name.png" "$@" \
		>>"$out/$name.txt.tmp"
	echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run ended" \
		>>"$out/$name.txt.tmp"
	mv "$out/$name.txt.tmp" "$out/$name.txt"
}

machine started >"$out/machine.txt"
mapfile -t sets < <(find "$data" -type f | sort)
run sets "${sets[@]}"
mapfile -t files < <(find "$testdata" -type f ! -name '.*' | sort)
[ ${#files[@]} -gt 0 ] || { echo "bench: no files under $testdata" >&2; exit 1; }
run corpus "${files[@]}"
if [ -n "$extra" ]; then
	mapfile -t files < <(find "$extra" -type f ! -name '.*' | sort)
	[ ${#files[@]} -gt 0 ] || { echo "bench: no files under $extra" >&2; exit 1; }
	run extra-corpus "${files[@]}"
else
	# An old extra-corpus table would pass for one of this run.
	rm -f "$out"/extra-corpus.{txt,csv,json,png}
	echo "bench: skipped: the extra corpora (set ZBW_EXTRA_CORPUS=DIR to include them)" >&2
fi
# The pages real programs swapped out (make realprog captures them).
swap=${ZBW_CACHE:-/var/cache/zbewalgo}/swap-pages
mapfile -t files < <(find "$swap" -name '*.bin' -type f 2>/dev/null | sort)
if [ ${#files[@]} -gt 0 ]; then
	run realswap "${files[@]}"
else
	rm -f "$out"/realswap.{txt,csv,json,png}
	echo "bench: skipped: real programs' swap (make realprog captures it into $swap)" >&2
fi
echo "bench: the chains that won the pages" >&2
{
	echo "# zbewalgo bench: pages each chain of the default table won (wins.sh)"
	"$here/wins.sh" "$tool" "${sets[@]}"
	mapfile -t files < <(find "$testdata" -type f ! -name '.*' | sort)
	"$here/wins.sh" "$tool" "${files[@]}" | tail -n +2
	mapfile -t files < <(find "$swap" -name '*.bin' -type f 2>/dev/null | sort)
	[ ${#files[@]} -eq 0 ] || "$here/wins.sh" "$tool" "${files[@]}" | tail -n +2
} >"$out/wins.txt"
echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run ended" \
	>>"$out/machine.txt"
{
	echo "# zbewalgo bench: each level against the speed targets (targets.py)"
	# the pcodec anchor and the num pages' decompression, when make
	# anchors and make numdec have written them (not rerun here)
	extra=()
	for f in anchors numdec; do
		[ -f "$out/$f.csv" ] && extra+=("$out/$f.csv")
	done
	python3 "$here/targets.py" "$out/sets.csv" "$out/corpus.csv" \
		"${extra[@]}"
} >"$out/targets.txt"
echo "bench: results in $out: $(cd "$out" && echo *)" >&2
