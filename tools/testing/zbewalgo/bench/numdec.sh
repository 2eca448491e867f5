#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Decompression of the pages zbewalgo's num steps wrote, against zstd-3 as
# zram calls it on the same pages (`make numdec`): zbewalgo_pagesizes -t
# on the generated sets, the test data and the captured real swap, into
# OUT_DIR/numdec.{txt,csv} (numdec.py).  One file at a time: the times are
# what the machine gave, the ratios what compares.
#
# usage: numdec.sh PAGESIZES DATA_DIR TESTDATA_DIR OUT_DIR [SIZE_KIB]
set -euo pipefail
prog=$1
data=$2
testdata=$3
out=$4
size=${5:-4096}
here=$(cd "$(dirname "$0")" && pwd)
swap=${ZBW_CACHE:-/var/cache/zbewalgo}/swap-pages

mkdir -p "$out"
python3 "$here/../gen-data.py" "$data" "$size" >/dev/null
join() { local IFS=,; echo "$*"; }
mapfile -t sets < <(find "$data" -type f | sort)
mapfile -t files < <(find "$testdata" -type f ! -name '.*' | sort)
mapfile -t swapped < <(find "$swap" -name '*.bin' -type f 2>/dev/null | sort)
groups=("sets=$(join "${sets[@]}")" "testdata=$(join "${files[@]}")")
[ ${#swapped[@]} -eq 0 ] || groups+=("realswap=$(join "${swapped[@]}")")

# shellcheck source-path=SCRIPTDIR source=machine.sh
. "$here/machine.sh"
{
	echo "# zbewalgo numdec: num pages' decompression against zram-zstd-3 (numdec.py)"
	machine started
	echo "# realswap:  ${#swapped[@]} files in $swap"
} >"$out/numdec.note.tmp"
python3 "$here/numdec.py" "$prog" "$out/numdec" "${groups[@]}"
{
	cat "$out/numdec.note.tmp" "$out/numdec.txt"
	echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run ended"
} >"$out/numdec.txt.tmp"
rm -f "$out/numdec.note.tmp"
mv "$out/numdec.txt.tmp" "$out/numdec.txt"
echo "numdec: results in $out/numdec.txt and numdec.csv" >&2
