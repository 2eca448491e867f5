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

mkdir -p "$out"
# shellcheck source-path=SCRIPTDIR source=pages.sh
. "$here/pages.sh"
page_groups numdec
page_run numdec \
	"zbewalgo numdec: num pages' decompression against zram-zstd-3 (numdec.py)" \
	python3 "$here/numdec.py" "$prog" "$out/numdec" "${groups[@]}"
