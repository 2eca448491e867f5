#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The user-space benchmark as arm64 code (`make bench-arm64`): the tool
# cross-built for arm64, statically against Debian's arm64 zstd, lz4, lzo2
# and zlib, runs `zbewalgo bench` under qemu-aarch64 in user mode (TCG), so
# that zbewalgo, lz4 and zstd are all arm64 code in the same emulated run.
# Every time is emulated: only the ratios of times within the run mean
# anything (relspeed.py sums them up as geometric means).  The inputs are
# those of `make bench`: the generated data sets and the pages real programs
# swapped (realswap), when $ZBW_CACHE/swap-pages holds them.  The host's
# own build then measures the same inputs with the same options, as a
# reference and to check that both builds write the same bytes.
#
# usage: arm64.sh RUNNER TOOL SYSROOT_DIR DATA_DIR OUT_FILE REPS ALGORITHMS
#                 [SWAP_PAGES [NATIVE_TOOL]]
#
# RUNNER runs TOOL (e.g. "qemu-aarch64-static -cpu cortex-a57");
# SYSROOT_DIR is cross-sysroot.sh's (its debs/ name the library versions);
# DATA_DIR holds the generated sets (gen-data.py); OUT_FILE gets the tables,
# the note of the machine and the summary; the records (csv) go next to
# TOOL, under bench/ (not into the results: render.py reads every csv
# there).  SWAP_PAGES > 0 measures at most that many pages of each swap
# file, an even sample (every n-th page); 0 takes them all.  CC and CFLAGS
# name the cross compiler for the note.

set -euo pipefail
usage="usage: arm64.sh RUNNER TOOL SYSROOT_DIR DATA_DIR OUT_FILE REPS ALGORITHMS [SWAP_PAGES [NATIVE_TOOL]]"
[ $# -ge 7 ] || { echo "$usage" >&2; exit 2; }
read -ra runner <<<"$1"
tool=$2
sysroot=$3
data=$4
outfile=$5
reps=$6
algs=$7
swap_pages=${8:-0}
native=${9:-}
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$(dirname "$outfile")" && pwd)
work=$(dirname "$tool")/bench
swap=${ZBW_CACHE:-/var/cache/zbewalgo}/swap-pages
start=$SECONDS

# tree_id and machine WHEN: the note of the machine.
# shellcheck source-path=SCRIPTDIR source=machine.sh
. "$here/machine.sh"
# The arm64 libraries linked, by their .deb names (libzstd-dev_1.5.4+dfsg2-5_arm64.deb).
libraries="arm64, static: $(cd "$sysroot/debs" && printf '%s\n' *.deb |
	sed 's/%3a/:/; s/_\([^_]*\)_[^_]*\.deb$/ \1/' | paste -sd, - | sed 's/,/, /g')"

rm -rf "$work"
mkdir -p "$work/emulated" "$work/native" "$work/realswap"
mapfile -t sets < <(find "$data" -type f | sort)
[ ${#sets[@]} -gt 0 ] || { echo "bench-arm64: no data sets in $data" >&2; exit 1; }
mapfile -t swapfiles < <(find "$swap" -name '*.bin' -type f 2>/dev/null | sort)
# An even sample of each swap file: every n-th page, at most $swap_pages.
swapin=()
for f in "${swapfiles[@]}"; do
	if [ "$swap_pages" -gt 0 ]; then
		python3 - "$f" "$work/realswap/${f##*/}" "$swap_pages" <<-'EOF'
		import sys
		src, dst, most = sys.argv[1], sys.argv[2], int(sys.argv[3])
		data = open(src, 'rb').read()
		pages = [data[i:i + 4096] for i in range(0, len(data), 4096)]
		step = -(-len(pages) // most)
		open(dst, 'wb').write(b''.join(pages[::step]))
		EOF
		swapin+=("$work/realswap/${f##*/}")
	else
		swapin+=("$f")
	fi
done

# bench RUNDIR NAME FILE... (the command in $cmd): one table.
bench() {
	local dir=$1 name=$2; shift 2
	echo "bench-arm64: $dir/$name: $# files" >&2
	"${cmd[@]}" bench --drop-same -r "$reps" -a "$algs" -v \
		--csv="$work/$dir/$name.csv" "$@"
}

{
	echo "# zbewalgo bench results: arm64, EMULATED"
	echo "# qemu-aarch64 user-mode emulation (TCG) on the x86_64 host below: the"
	echo "#   tool, lz4 and zstd all run as arm64 code in this one emulated run, so"
	echo "#   every time and MiB/s figure is emulated, not an arm64 CPU's.  Only"
	echo "#   ratios of times within this run mean anything (the summary at the end)."
	echo "#   The ratio columns are those of x86_64: same code, same bytes (checked"
	echo "#   against the host's build at the end)."
	echo "# emulator:  $("${runner[0]}" --version | head -1), run as: ${runner[*]}"
	echo "# options:   zbewalgo bench --drop-same -r $reps -a $algs"
	echo "#            (make bench: -r 5 and every algorithm)"
	echo "# inputs:    sets: the ${#sets[@]} generated data sets of make bench ($data)"
	if [ ${#swapin[@]} -eq 0 ]; then
		echo "#            realswap: skipped, no pages in $swap (make realprog)"
	elif [ "$swap_pages" -gt 0 ]; then
		echo "#            realswap: the ${#swapin[@]} swap files of make realprog ($swap),"
		echo "#            at most $swap_pages pages of each, every n-th page (make bench: all)"
	else
		echo "#            realswap: the ${#swapin[@]} swap files of make realprog ($swap), all pages"
	fi
	machine started
	echo
	cmd=("${runner[@]}" "$tool")
	echo "== table sets =="
	bench emulated sets "${sets[@]}"
	if [ ${#swapin[@]} -gt 0 ]; then
		echo
		echo "== table realswap =="
		bench emulated realswap "${swapin[@]}"
	fi
	echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run ended"
	echo "# emulated run: $((SECONDS - start)) s of wall clock"
	echo
	label="arm64 under qemu-aarch64 (TCG, emulated times), all in this run"
	if [ -n "$native" ]; then
		cmd=("$native")
		bench native sets "${sets[@]}" >/dev/null
		[ ${#swapin[@]} -eq 0 ] || bench native realswap "${swapin[@]}" >/dev/null
		python3 "$here/relspeed.py" --label "$label" --native "$work/native" \
			"$work/emulated"
	else
		python3 "$here/relspeed.py" --label "$label" "$work/emulated"
	fi
} >"$outfile.tmp"
mv "$outfile.tmp" "$outfile"
echo "bench-arm64: $outfile in $((SECONDS - start)) s" >&2
