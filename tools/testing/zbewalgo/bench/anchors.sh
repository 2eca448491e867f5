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
# shellcheck source-path=SCRIPTDIR source=pages.sh
. "$here/pages.sh"
page_groups anchors
page_run anchors \
	"zbewalgo anchors: zbewalgo, zram-zstd-3 and pcodec page by page (anchors.py)" \
	"$venv/bin/python" "$here/anchors.py" -j "${ANCHORS_JOBS:-1}" \
	--max-pages "${ANCHORS_MAX_PAGES:-0}" "$prog" "$out/anchors" "${groups[@]}"
