#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pcodec anchor of issue 44 (`make anchors`): zbewalgo's default
# level, zstd-3 as zram calls it and pcodec (PyPI) page by page on the
# generated sets, the test data and the captured real swap, with the
# ideal per-page chooser of zbewalgo and pcodec; tables into
# OUT_DIR/anchors.{txt,csv} (anchors.py, README.md in this directory).
#
# usage: anchors.sh PAGESIZES DATA_DIR TESTDATA_DIR OUT_DIR [SIZE_KIB]
#
# pcodec comes from PyPI into a venv of Debian's python3 under
# $ZBW_CACHE (default /var/cache/zbewalgo)/pcodec-venv, made once;
# PCODEC_VERSION pins it (default 1.1.0, the version the issue measured).
# ANCHORS_JOBS (default 1) files at a time; ANCHORS_MAX_PAGES (default 0:
# all) measures at most that many evenly spaced distinct pages per file.

set -euo pipefail
prog=$1
data=$2
testdata=$3
out=$4
size=${5:-4096}
here=$(cd "$(dirname "$0")" && pwd)
cache=${ZBW_CACHE:-/var/cache/zbewalgo}
venv=$cache/pcodec-venv
version=${PCODEC_VERSION:-1.1.0}

if ! "$venv/bin/python" -c "import pcodec, sys; sys.exit(pcodec.__version__ != '$version')" 2>/dev/null; then
	echo "anchors: installing pcodec $version from PyPI into $venv" >&2
	/usr/bin/python3 -m venv "$venv"
	"$venv/bin/pip" install -q "pcodec==$version"
fi

mkdir -p "$out"
echo "anchors: generating data sets ($size KiB each) in $data" >&2
rm -rf "$data"
python3 "$here/../gen-data.py" "$data" "$size"

join() { local IFS=,; echo "$*"; }
mapfile -t sets < <(find "$data" -type f | sort)
mapfile -t files < <(find "$testdata" -type f ! -name '.*' | sort)
[ ${#files[@]} -gt 0 ] || { echo "anchors: no files under $testdata" >&2; exit 1; }
groups=("sets=$(join "${sets[@]}")" "testdata=$(join "${files[@]}")")
swap=$cache/swap-pages
mapfile -t swapped < <(find "$swap" -name '*.bin' -type f 2>/dev/null | sort)
if [ ${#swapped[@]} -gt 0 ]; then
	groups+=("realswap=$(join "${swapped[@]}")")
	swapnote="${#swapped[@]} files in $swap"
else
	swapnote="skipped: no $swap/*.bin (make realprog captures it)"
	echo "anchors: realswap $swapnote" >&2
fi

# tree_id and machine: the note of the machine, as make bench writes it.
# shellcheck source-path=SCRIPTDIR source=machine.sh
. "$here/machine.sh"
{
	echo "# zbewalgo anchors: zbewalgo, zram-zstd-3 and pcodec page by page (anchors.py)"
	machine started
	echo "# realswap:  $swapnote"
} >"$out/anchors.note.tmp"
"$venv/bin/python" "$here/anchors.py" -j "${ANCHORS_JOBS:-1}" \
	--max-pages "${ANCHORS_MAX_PAGES:-0}" "$prog" "$out/anchors" "${groups[@]}"
{
	cat "$out/anchors.note.tmp" "$out/anchors.txt"
	echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run ended"
} >"$out/anchors.txt.tmp"
rm -f "$out/anchors.note.tmp"
mv "$out/anchors.txt.tmp" "$out/anchors.txt"
echo "anchors: results in $out/anchors.txt and anchors.csv" >&2
