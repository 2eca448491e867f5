#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The optional Calgary and Canterbury corpora (`make corpus`).  They are
# not in Debian and the tests do not need them; given, the tests, the
# fuzz seeds and the benchmark take them too, and huffman-tables needs
# them (its tables were made from them).
#
# usage: extra-corpus.sh DIR OUTDIR
#
# DIR holds, at its top or one level down, calgary.tar.gz and
# cantrbry.tar.gz (as distributed), or the unpacked directories calgary/
# and canterbury/.  Each goes to OUTDIR/calgary and OUTDIR/canterbury;
# a second run with the same sources does nothing.

set -euo pipefail
die() { echo "corpus: ERROR: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: extra-corpus.sh DIR OUTDIR"
src=$1 out=$2
[ -d "$src" ] || die "ZBW_EXTRA_CORPUS=$src is not a directory"
src=$(cd "$src" && pwd)

# find_source NAME TARBALL-GLOB: a tarball or an unpacked directory
find_source() {
	local t
	t=$(find "$src" -maxdepth 2 -type f -name "$2" | sort | head -1)
	if [ -n "$t" ]; then
		echo "$t"
	elif [ -d "$src/$1" ] && [ -n "$(find "$src/$1" -maxdepth 1 -type f ! -name '.*')" ]; then
		echo "$src/$1"
	fi
}

declare -A from
from[calgary]=$(find_source calgary 'calgary*.tar.gz')
from[canterbury]=$(find_source canterbury 'cantrbry*.tar.gz')
[ -n "${from[calgary]}${from[canterbury]}" ] ||
	die "no calgary.tar.gz, cantrbry.tar.gz, calgary/ or canterbury/ under $src"

stamp=$(for n in calgary canterbury; do
	[ -z "${from[$n]}" ] || find "${from[$n]}" -type f -printf '%p %s %T@\n' | sort
done)
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ]; then
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
for n in calgary canterbury; do
	f=${from[$n]}
	if [ -z "$f" ]; then
		echo "corpus: no $n corpus under $src: left out" >&2
		continue
	fi
	mkdir "$out/$n"
	if [ -d "$f" ]; then
		find "$f" -maxdepth 1 -type f ! -name '.*' -exec cp -t "$out/$n" {} +
	else
		tar -xzf "$f" -C "$out/$n"
	fi
	echo "corpus: $n: $(find "$out/$n" -type f | wc -l) files from $f" >&2
done
echo "$stamp" >"$out/.stamp"
