#!/bin/bash
# demo.sh [VERSION]: the in-kernel benchmark, from nothing (default 7.2; 6.1 and
# 6.12 work too). Fetches the source, builds the kernel with zbewalgo (cached,
# the same kernel as zbewalgo-tests.sh), boots it and compares zram with
# zbewalgo, lz4, lzo-rle and zstd in the same boot: every data set written to
# and read back from a fresh zram block device (checksums must match), then
# swap on zram under a memory-hungry workload (every page verified). One zram
# device per data set and algorithm (reset in between), so mm_stat needs no
# deltas, plus one with all sets for the pool as a whole. Prints
# one side-by-side table and writes it to build/kernel-bench/VERSION.{txt,csv}.
# While the guest runs, demo-progress.py prints its records as readable lines
# (set, algorithm, ratio, times); the console log keeps them raw.
# Before zram, zbwbench.ko times each set's pages through lib/zbewalgo,
# lib/lz4 and lib/zstd alone (kbench-table.py adds its table, and
# VERSION-kbench.csv).
# ZBW_SET_KIB: size of each generated data set (2048); ZBW_TESTDATA: the test
# data (the repo's build/testdata, from "make testdata"); ZBW_FILL_MIB: swap
# workload (384 MiB in a 256 MiB guest); ZBW_REPS: reads per set (median, 3);
# ZBW_ALGS: algorithms; ZBW_SWAP=0 skips the swap part. On kernels with zram
# recompression (6.12+) a deployment table follows: lz4, zstd and zbewalgo
# alone, and lz4 or zstd with zbewalgo recompressing huge (and idle) pages
# in a pass after the writes; ZBW_DEPLOY=0 skips it.
# ZBW_DEMO_KERNEL: "test" (default), the debug test kernel of
# zbewalgo-tests.sh (lockdep, kmemleak), or "run", make run's kernel
# (common.sh's run_fragment: no debug options, the one realprog.sh boots,
# so that make run builds one kernel for both halves).
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${1:-7.2}
check_version "$V"
RUN=$CACHE/run/demo-$V
OUT=$REPO/build/kernel-bench
ALGS=${ZBW_ALGS:-zbewalgo lz4 lzo-rle zstd}
FILL=${ZBW_FILL_MIB:-384}
REPS=${ZBW_REPS:-3}
SWAP=${ZBW_SWAP:-1}
DEPLOY=${ZBW_DEPLOY:-1}
TESTDATA=${ZBW_TESTDATA:-$REPO/build/testdata}
# A few real files (Debian packages, tools/testing/zbewalgo/testdata/manifest)
# unlike the generated sets: English text, a shared library, C++ source, a
# float32 geodetic grid, an int16 MRI slice; 1.6 MiB together.
TESTDATA_FILES="doc/policy.txt elf/libgmp.so.10.4.1 src/gtest.cc num/nzgd2kgrid0005.gsb num/s1045.ima"
mkdir -p "$RUN" "$OUT"
progress() { say "[$1/6] $2"; }

progress 1 "fetching linux-source-$V (cached; about 150 MB from Debian the first time)"
"$HERE/fetch.sh" "$V"
progress 2 "building the $V kernel with zbewalgo (cached; about 10 minutes when not)"
case ${ZBW_DEMO_KERNEL:-test} in
test)	OBJ=$(test_kernel "$V")
	KDESC="debug test kernel (lockdep, kmemleak)" ;;
run)	integrated "$V" || die "ZBW_DEMO_KERNEL=run: $V has no zram backends (6.12+)"
	run_fragment >"$RUN/fragment.config"
	BZ=$("$HERE/build.sh" "$V" "$RUN/fragment.config" "" "$REPO")
	OBJ=${BZ%/arch/*/boot/*}
	KDESC="make run's kernel (no debug options; realprog.sh boots it too)" ;;
*)	die "ZBW_DEMO_KERNEL=$ZBW_DEMO_KERNEL: test or run" ;;
esac
multi_comp "$V" || DEPLOY=0

progress 3 "generating the data sets (${ZBW_SET_KIB:-2048} KiB each) and taking test data files"
data=$RUN/data
rm -rf "$data"
mkdir -p "$data"
python3 "$REPO/tools/testing/zbewalgo/gen-data.py" "$data" "${ZBW_SET_KIB:-2048}" >&2
python3 "$REPO/tools/testing/zbewalgo/gen-data.py" --list >"$data/sets.txt"
# Without ZBW_TESTDATA, fetch (cached) what "make testdata" would.
[ -n "${ZBW_TESTDATA:-}" ] || "$REPO/tools/testing/zbewalgo/testdata/fetch.sh" "$TESTDATA"
for f in $TESTDATA_FILES; do
	[ -f "$TESTDATA/$f" ] || die "no $TESTDATA/$f (ZBW_TESTDATA)"
	cp "$TESTDATA/$f" "$data/${f/\//-}"
	echo "${f/\//-}" >>"$data/sets.txt"
done
# Direct I/O and zram's disksize want whole pages: pad the last one with zeros.
while read -r s; do
	[ -f "$data/$s" ] || die "gen-data.py did not write $s"
	sz=$(stat -c %s "$data/$s")
	truncate -s $(((sz + 4095) / 4096 * 4096)) "$data/$s"
done <"$data/sets.txt"
kib=$(du -sk "$data" | cut -f1)
# The sets stay in the guest's memory (initramfs) during the block part.
[ "$kib" -le 49152 ] || die "data sets take ${kib} KiB; the 256 MiB guest wants < 48 MiB (ZBW_SET_KIB)"

progress 4 "building the workload and the initramfs"
gcc -static -O2 -Wall -o "$RUN/zbwmem" "$HERE/zbwmem.c" -lm
gcc -static -O2 -Wall -o "$RUN/zbwblk" "$HERE/zbwblk.c"
# zbwbench.ko times the compressors without zram; kernels with zbewalgo in
# their tree only (6.1 takes it from out-of-tree modules).
if integrated "$V"; then
	mods=("$(zbw_bench_module "$OBJ")/zbwbench.ko")
else
	M=$(zbw_modules "$OBJ")
	mods=("$M/libzbewalgo.ko" "$M/zbewalgo.ko")
fi
"$HERE/initramfs.sh" "$RUN/initramfs.cpio.gz" "$HERE/guest/demo.sh" "$RUN/zbwmem" "$RUN/zbwblk" "${mods[@]}" \
	"$data=/data"

load=$(cut -d' ' -f1-3 /proc/loadavg)
ACCEL=$(qemu_accel "$OBJ/arch/x86/boot/bzImage")
progress 5 "booting $V under qemu (${ACCEL^^}, 256 MiB): $(wc -l <"$data/sets.txt") sets x $(echo $ALGS | wc -w) algorithms$([ "$DEPLOY" = 0 ] || echo ", x 6 deployments")$([ "$SWAP" = 0 ] || echo ", then swap"); about 10 minutes on 2 idle cores, more under load"
say "one line per set and algorithm: compression ratio, write and read time (the raw records are in $RUN/console.log)"
{ ZBW_APPEND="ZBW_FILL_MIB=$FILL ZBW_REPS=$REPS ZBW_SWAP=$SWAP ZBW_DEPLOY=$DEPLOY ZBW_ALGS=${ALGS// /,} ${ZBW_APPEND:-}" \
	"$HERE/boot.sh" "$OBJ/arch/x86/boot/bzImage" "$RUN/initramfs.cpio.gz" \
	"$RUN/console.log" "${ZBW_TIMEOUT:-5400}" || true; } |
	python3 -u "$HERE/demo-progress.py" >&2 || true

progress 6 "results (console log: $RUN/console.log)"
cp "$RUN/console.log" "$OUT/$V-console.log"
swapnote=("swap: not run (ZBW_SWAP=0; make run's real programs swap instead)")
[ "$SWAP" = 0 ] || swapnote=("swap: zbwmem fills $FILL MiB in the guest (swap on zram0, 1 GiB), every page verified;"
	"  mm_stat once all is written (orig is what zram held then, so compare ratios).")
host=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
rc=0
ZBW_DEPLOY=$DEPLOY python3 "$HERE/demo-table.py" "$RUN/console.log" "$OUT/$V" "$V" "$ALGS" "$data/sets.txt" "$SWAP" \
	"qemu $(tr a-z A-Z <"$RUN/console.log.accel" 2>/dev/null || echo '?'), 2 vCPUs, 256 MiB, $KDESC; host: $host," \
	"  load average $load at the boot; $(date -u +%Y-%m-%d)" \
	"block: each set (and then all of them, one after the other) written $REPS times with O_DIRECT to" \
	"  a fresh zram0 of its size, read back $REPS times with O_DIRECT (times: medians of the time in" \
	"  pwrite/pread only), then read with dd after drop_caches: sha256 must match. mm_stat after the" \
	"  last write; default levels. mem_used of a small device includes zsmalloc's partly filled" \
	"  zspages; 'all sets, one zram' is one pool of it all." \
	"${swapnote[@]}" \
	"$([ "$(cat "$RUN/console.log.accel" 2>/dev/null)" = kvm ] && echo "Under KVM the CPU is the host's, shared with whatever else runs there." ||
	   echo "Under TCG the CPU is emulated: times are only comparable with each other, within this run.")" || rc=$?
if integrated "$V"; then
	python3 "$HERE/kbench-table.py" "$RUN/console.log" "$OUT/$V" || rc=$?
fi
say "table: $OUT/$V.txt and $OUT/$V.csv"
[ "$rc" = 0 ] || die "records missing or failed (see $RUN/console.log)"
tr -d '\r' <"$RUN/console.log" | grep -qx 'ZBW-RESULT: ok' || die "the demo did not complete (see $RUN/console.log)"
