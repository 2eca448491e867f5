#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The speed attempts of issue 21 side by side (`make pareto`): each
# variant below is the committed tree (git archive HEAD), optionally with
# other zstd levels inside the steps, measured by `zbewalgo bench` on the
# generated sets and the test data together with the zstd level it is
# held against, in the same run.  pareto.py turns the records into the
# front of each level: ratio against compression and decompression speed,
# relative to zstd, as a table and a plot.
#
# usage: pareto.sh DATA_DIR TESTDATA_DIR OUT_DIR [REPS]
#
# DATA_DIR holds the generated sets (made here with gen-data.py when it
# is missing), TESTDATA_DIR the test data (make testdata).

set -euo pipefail
data=$1
testdata=$2
out=$3
reps=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
work=$repo/build/pareto

# name | zstd levels inside the steps at zbewalgo levels 1 2 3 (the
# shipped ones: -1 3 3) | zbewalgo bench algorithms | table of
# zbewalgo-custom
variants=(
	"shipped|-1 3 3|zbewalgo-1,zbewalgo,zbewalgo-3,zstd-1,zstd-3|"
	"level2-zstd2|-1 2 3|zbewalgo,zstd-3|"
	"level2-zstd1|-1 1 3|zbewalgo,zstd-3|"
	"level1-zstd1|1 3 3|zbewalgo-1,zstd-1|"
	"level1-zstd-3|-3 3 3|zbewalgo-1,zstd-1|"
	"planes-rle-huffman|-1 3 3|zbewalgo-custom,zstd-3|bitshuffle4-rle-huffman zstd bitshuffle8-zstd delta8-bitshuffle8-rle-huffman"
	"rle-huffman-first|-1 3 3|zbewalgo-custom,zstd-3|bitshuffle4-rle-huffman bitshuffle4-zstd zstd bitshuffle8-zstd delta8-bitshuffle8-zstd"
	"zstd-alone|-1 3 3|zbewalgo-custom,zstd-3|zstd"
	"level3-zstd9|-1 3 9|zbewalgo-3,zstd-3|"
)

[ -d "$data" ] || python3 "$here/../gen-data.py" "$data" 4096
mapfile -t sets < <(find "$data" -type f | sort)
mapfile -t files < <(find "$testdata" -type f ! -name '.*' | sort)
[ ${#files[@]} -gt 0 ] || { echo "pareto: no files under $testdata" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work" "$out"
rm -f "$out"/*.csv
commit=$(git -C "$repo" rev-parse --short=12 HEAD)
{
	echo "# commit:    $commit (git archive; uncommitted changes are not measured)"
	echo "# cpu:       $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) online"
	echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run started"
} >"$out/machine.txt"

for v in "${variants[@]}"; do
	IFS='|' read -r name levels algs table <<<"$v"
	src=$work/$(echo "$levels" | tr ' ' '_')
	if [ ! -x "$src/build/zbewalgo" ]; then
		mkdir -p "$src"
		git -C "$repo" archive HEAD | tar -x -C "$src"
		# zstd's level inside the zstd step, for each zbewalgo level
		sed -i "s/^\(static const int zbw_zstd_levels\[ZBEWALGO_MAX_LEVEL\] = \){[^}]*}/\1{ ${levels// /, } }/" \
			"$src/lib/zbewalgo/core/zstd.c"
		grep -q "zbw_zstd_levels\[ZBEWALGO_MAX_LEVEL\] = { ${levels// /, } }" \
			"$src/lib/zbewalgo/core/zstd.c" || { echo "pareto: cannot set levels $levels" >&2; exit 1; }
		make -C "$src" -s build/zbewalgo >/dev/null
	fi
	set -- -a "$algs"
	[ -z "$table" ] || set -- "$@" -c "$table"
	echo "pareto: $name (zstd levels $levels)" >&2
	"$src/build/zbewalgo" bench --drop-same -r "$reps" "$@" \
		--csv="$out/$name-sets.csv" "${sets[@]}" >/dev/null
	"$src/build/zbewalgo" bench --drop-same -r "$reps" "$@" \
		--csv="$out/$name-corpus.csv" "${files[@]}" >/dev/null
done
echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run ended" \
	>>"$out/machine.txt"
# matplotlib is Debian's (python3-matplotlib), as for zbewalgo bench --plot
py=${ZBEWALGO_PYTHON:-python3}
[ -n "${ZBEWALGO_PYTHON:-}" ] || [ ! -x /usr/bin/python3 ] || py=/usr/bin/python3
"$py" "$here/pareto.py" --plot="$out/pareto.png" "$out" >"$out/pareto.txt"
cat "$out/machine.txt" "$out/pareto.txt"
