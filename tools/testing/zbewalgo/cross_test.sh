#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-architecture check of the command-line tool: the same files give
# the same compressed bytes on both machines, and each machine decodes
# what the other wrote.
#
# usage: cross_test.sh [-n NAME] RUNNER TOOL REF_TOOL DATA_DIR...
#
# TOOL is a build for another architecture, run through RUNNER (e.g.
# qemu-s390x-static for a static s390x build); REF_TOOL is the native
# build.  NAME names the two builds in the output instead of their
# architectures (same-output.sh compares two native builds).  Every file
# below the DATA_DIRs is compressed by both at levels 1, 2 and 3 (and at
# level 2 with 64 KiB pages); the two outputs must be identical, REF_TOOL
# must decode TOOL's and TOOL must decode REF_TOOL's, both to the original
# file.  One line per level.

set -eu
name=
if [ "${1:-}" = -n ]; then
	name=${2:-}
	shift 2
fi
[ $# -ge 4 ] || {
	echo "usage: cross_test.sh [-n NAME] RUNNER TOOL REF_TOOL DATA_DIR..." >&2
	exit 2
}
read -r -a runner <<<"$1"
tool=$2
ref=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -d '' files < <(find "$@" -type f ! -name '.*' -print0 | sort -z)
[ ${#files[@]} -gt 0 ] || { echo "no data files under $*" >&2; exit 2; }
# e.g. "IBM S/390 (big endian) and x86_64"
arch=$name
if [ -z "$arch" ]; then
	arch="$(readelf -h "$tool" | sed -n 's/^ *Machine: *//p') ($(readelf -h "$tool" |
		sed -n 's/^ *Data: *2.s complement, *//p')) and $(uname -m)"
fi
passed=0
failed=0

for opts in "-l 1" "-l 2" "-l 3" "-l 2 -p 65536"; do
	read -r -a o <<<"$opts"
	bad=()
	bytes=0
	for f in "${files[@]}"; do
		n=${f#"$1"/}
		# the tools keep an existing OUT (-f, which older tools lack)
		rm -f "$tmp/t" "$tmp/r" "$tmp/d"
		if ! "${runner[@]}" "$tool" "${o[@]}" compress "$f" "$tmp/t" 2>"$tmp/err" ||
		   ! "$ref" "${o[@]}" compress "$f" "$tmp/r" 2>>"$tmp/err"; then
			bad+=("$n: compress failed: $(head -c 200 "$tmp/err")")
		elif ! cmp -s "$tmp/t" "$tmp/r"; then
			bad+=("$n: compressed bytes differ ($(stat -c %s "$tmp/t") and $(stat -c %s "$tmp/r") bytes)")
		elif ! "$ref" decompress "$tmp/t" "$tmp/d" 2>"$tmp/err" ||
		     ! cmp -s "$f" "$tmp/d"; then
			bad+=("$n: the native tool does not decode the other's output")
		elif ! rm "$tmp/d" ||
		     ! "${runner[@]}" "$tool" decompress "$tmp/r" "$tmp/d" 2>"$tmp/err" ||
		     ! cmp -s "$f" "$tmp/d"; then
			bad+=("$n: the other tool does not decode the native output")
		else
			bytes=$((bytes + $(stat -c %s "$f")))
		fi
	done
	if [ ${#bad[@]} -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok - cross $opts: ${#files[@]} files ($((bytes / 1024)) KiB), $arch write the same bytes and decode each other's"
	else
		failed=$((failed + 1))
		echo "not ok - cross $opts: ${#bad[@]} of ${#files[@]} files"
		printf '#   %s\n' "${bad[@]}"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
