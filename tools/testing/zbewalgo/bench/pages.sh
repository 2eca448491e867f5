# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the page-by-page runs share, sourced by anchors.sh (make anchors)
# and numdec.sh (make numdec): their inputs and the note of the machine
# around their text results.  The sourcing script sets $here (this
# directory), $out, $data, $testdata and $size.
# shellcheck disable=SC2154  # the sourcing script's variables

# shellcheck source-path=SCRIPTDIR source=machine.sh
. "$here/machine.sh"

# page_groups NAME: the generated sets, made again in $data ($size KiB
# each), the test data and, when make realprog has cut some, the captured
# swap's pages, as groups (GROUP=FILE,FILE...) in the array groups;
# swapnote says which swap pages there were.
page_groups() {
	local swap=${ZBW_CACHE:-/var/cache/zbewalgo}/swap-pages
	local -a sets files swapped
	join() { local IFS=,; echo "$*"; }

	echo "$1: generating data sets ($size KiB each) in $data" >&2
	rm -rf "$data"
	python3 "$here/../gen-data.py" "$data" "$size"
	mapfile -t sets < <(find "$data" -type f | sort)
	mapfile -t files < <(find "$testdata" -type f ! -name '.*' | sort)
	[ ${#files[@]} -gt 0 ] || { echo "$1: no files under $testdata" >&2; exit 1; }
	groups=("sets=$(join "${sets[@]}")" "testdata=$(join "${files[@]}")")
	mapfile -t swapped < <(find "$swap" -name '*.bin' -type f 2>/dev/null | sort)
	if [ ${#swapped[@]} -gt 0 ]; then
		groups+=("realswap=$(join "${swapped[@]}")")
		swapnote="${#swapped[@]} files in $swap"
	else
		swapnote="skipped: no $swap/*.bin (make realprog captures it)"
		echo "$1: realswap $swapnote" >&2
	fi
}

# page_run NAME TITLE CMD...: runs CMD, which writes $out/NAME.txt (and
# its CSV), and puts the note of the machine (TITLE first) before the text
# and the load at the end after it.
page_run() {
	local name=$1 title=$2

	shift 2
	{
		echo "# $title"
		machine started
		echo "# realswap:  $swapnote"
	} >"$out/$name.note.tmp"
	"$@"
	{
		cat "$out/$name.note.tmp" "$out/$name.txt"
		echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run ended"
	} >"$out/$name.txt.tmp"
	rm -f "$out/$name.note.tmp"
	mv "$out/$name.txt.tmp" "$out/$name.txt"
	echo "$name: results in $out/$name.txt and $name.csv" >&2
}
