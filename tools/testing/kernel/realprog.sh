#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# realprog.sh: real programs, real swap. Boots the 7.2 kernel with zbewalgo
# (no debug options: config/realprog.config) on a Debian bookworm userland
# made from Debian's packages (rootfs.sh, cached) and runs each program in a
# cgroup v2 memory limit with swap on zram, once per zram configuration:
# lz4, zstd, zstd with a dictionary, zbewalgo, zbewalgo level 1, zbewalgo
# with a dictionary, and lz4 with zbewalgo recompressing huge and idle
# pages. Prints one line per run (ratio, memory, wall time, the host's
# load) and at the end a table per program with zram's mm_stat at its
# fullest and the pages stored whole (build/kernel-bench/realprog.{txt,csv}).
# A "capture" run per program (lz4) comes first: it copies the pages the
# program swapped into $ZBW_CACHE/swap-pages/PROGRAM.bin, which "zbewalgo
# bench" then reads, and the guest trains the program's dictionary on them
# (zstd --train, ZBW_DICT_KIB KiB) for the later runs of that boot.
# Knobs: ZBW_PROGS, ZBW_CONFIGS (comma-separated), ZBW_LIMIT_<PROGRAM> (MiB),
# ZBW_RP_SCALE (program sizes, percent), ZBW_CAPTURE=0, ZBW_CAPTURE_MIB,
# ZBW_CAPTURE_SEC, ZBW_CAPTURE_ZRAM_SIZE, ZBW_DICT_KIB, ZBW_RECOMP_SEC,
# ZBW_ZRAM_SIZE, ZBW_MEM, ZBW_TIMEOUT (tools/testing/kernel/README.md),
# ZBW_RP_RUN (the run's directory, $ZBW_CACHE/run/realprog).
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=7.2
PROGS=${ZBW_PROGS:-python-heap,numpy-solver,jvm-hashmap,postgres-pgbench,gcc-build}
# Set and empty, ZBW_CONFIGS leaves the capture runs alone.
CONFIGS=${ZBW_CONFIGS-lz4,zstd,zstd+dict,zbewalgo,zbewalgo-1,zbewalgo+dict,lz4+zbw}
# The dictionaries are trained on the capture run's pages.
case ,$CONFIGS, in *+dict,*)
	[ "${ZBW_CAPTURE:-1}" != 0 ] || die "ZBW_CAPTURE=0: $CONFIGS has +dict configurations, trained on the capture run";;
esac
[ "${ZBW_CAPTURE:-1}" = 0 ] || CONFIGS=capture${CONFIGS:+,$CONFIGS}
CAPMIB=${ZBW_CAPTURE_MIB:-128}
RUN=${ZBW_RP_RUN:-$CACHE/run/realprog}
OUT=$REPO/build/kernel-bench
PAGES=$CACHE/swap-pages
# The rootfs: one list for all programs, so one image serves any selection.
# zstd: the CLI trains each program's dictionary in the guest (zstd --train).
PACKAGES=(python3-numpy python3-scipy postgresql default-jre-headless gcc make
	  libc6-dev libzstd-dev liblz4-dev liblzo2-dev zlib1g-dev zstd)
# Memory limits (MiB): about half of what each program takes at its peak.
declare -A LIMIT=([python-heap]=32 [numpy-solver]=56 [jvm-hashmap]=40 [gcc-build]=48
		  [postgres-pgbench]=48)
mkdir -p "$RUN" "$OUT" "$PAGES"
# One run at a time in RUN (its console log, capture disk, results).
exec 9>"$RUN.lock"
flock -n 9 || { say "waiting for another run in $RUN"; flock 9; }

say "[1/5] kernel source and host tools (fetch.sh $V)"
"$HERE/fetch.sh" "$V"
say "[2/5] the $V kernel with zbewalgo for real programs (cached; 10-15 minutes when not)"
frag=$RUN/fragment.config
cat "$HERE/config/zbewalgo.config" "$HERE/config/zram-recomp.config" "$HERE/config/realprog.config" >"$frag"
BZ=$(nice -n 10 "$HERE/build.sh" "$V" "$frag" "" "$REPO")
say "[3/5] the Debian rootfs (cached; a few minutes and about 250 MB of packages when not)"
IMG=$(nice -n 10 "$HERE/rootfs.sh" "${PACKAGES[@]}")

say "[4/5] initramfs and the capture disk"
# gcc-build's source: zbewalgo's own command-line tool.
(cd "$REPO" && tar -cf "$RUN/zbewalgo-src.tar" Makefile dkms.conf include lib/zbewalgo tools/zbewalgo)
"$HERE/initramfs.sh" "$RUN/initramfs.cpio.gz" "$HERE/guest/realprog.sh" "$HERE/realprog=/extra/realprog" \
	"$RUN/zbewalgo-src.tar=/extra/realprog/zbewalgo-src.tar"
cap=$RUN/capture.img
rm -f "$cap"
nprogs=$(echo "$PROGS" | tr , '\n' | grep -c .)
truncate -s $(((CAPMIB * nprogs + 64) * 1024 * 1024)) "$cap"
append="ZBW_PROGS=$PROGS ZBW_CONFIGS=$CONFIGS ZBW_CAPTURE_MIB=$CAPMIB ZBW_RP_SCALE=${ZBW_RP_SCALE:-100}"
# The guest's own knobs, when set here.
for v in ZBW_RECOMP_SEC ZBW_ZRAM_SIZE ZBW_CAPTURE_SEC ZBW_CAPTURE_ZRAM_SIZE ZBW_DICT_KIB; do
	[ -z "${!v:-}" ] || append="$append $v=${!v}"
done
for p in ${PROGS//,/ }; do
	v=ZBW_LIMIT_$(echo "$p" | tr a-z- A-Z_)
	append="$append $v=${!v:-${LIMIT[$p]:-64}}"
done

load0=$(cut -d' ' -f1-3 /proc/loadavg)
nruns=$((nprogs * $(echo "$CONFIGS" | tr , '\n' | grep -c .)))
ACCEL=$(qemu_accel "$BZ")
say "[5/5] booting $V under qemu (${ACCEL^^}, ${ZBW_MEM:-1536M}): $nruns runs, load $load0;" \
	"about 40 minutes on 2 cores, more under load (console log: $RUN/console.log)"
say "one line per run: program, configuration, orig/mem_used (zram at its fullest), wall time, host load"
res=$RUN/results.txt
: >"$res"
# The KEY=VALUE words of a record into r[KEY].
declare -A r
kv() {
	local w
	r=()
	for w in "$@"; do r[${w%%=*}]=${w#*=}; done
}
# X/Y with two decimals.
ratio() {
	if [ "$2" -gt 0 ]; then printf %d.%02d $(($1 / $2)) $(($1 * 100 / $2 % 100)); else echo -; fi
}
# Each result line gets the host's load average when it arrives; the
# program's last lines ("# ") are shown only when its run failed.
{ ZBW_MEM=${ZBW_MEM:-1536M} ZBW_APPEND="$append ${ZBW_APPEND:-}" \
	ZBW_QEMU_ARGS="-drive file=$IMG,if=virtio,format=raw,snapshot=on -drive file=$cap,if=virtio,format=raw" \
	"$HERE/boot.sh" "$BZ" "$RUN/initramfs.cpio.gz" "$RUN/console.log" "${ZBW_TIMEOUT:-7200}" || true; } |
	{ out=''
	while IFS= read -r line; do
		# Not tr -d: it would buffer, and the load would be the last run's.
		line=${line%$'\r'}
		case $line in
		ZBW-RP:*) line="${line#ZBW-RP: } load=$(cut -d' ' -f1 /proc/loadavg)"
			echo "$line" >>"$res"
			# shellcheck disable=SC2086  # the record's words
			kv $line
			if [ "${r[rc]}" = 0 ]; then
				say "  ${r[prog]} ${r[conf]}: orig/mem_used $(ratio "${r[orig]}" "${r[mem_used]}")" \
					"($((r[orig] >> 20)) MiB in $((r[mem_used] >> 20)) MiB), wall ${r[wall]} s, load ${r[load]}"
			else
				[ -z "$out" ] || printf '%s' "$out" >&2
				say "  ${r[prog]} ${r[conf]}: FAILED (rc=${r[rc]}), load ${r[load]}"
			fi
			out='' ;;
		ZBW-DICT:*) line=${line#ZBW-DICT: }
			echo "kind=dict $line" >>"$res"
			# shellcheck disable=SC2086
			kv $line
			say "  ${r[prog]}: a ${r[bytes]}-byte dictionary from its ${r[pages]} captured pages (zstd --train, ${r[sec]} s)" ;;
		ZBW-PAGES:*) line=${line#ZBW-PAGES: }
			# shellcheck disable=SC2086
			kv $line
			say "  ${r[prog]}: captured ${r[count]} pages ($((r[count] / 256)) MiB) that it swapped" ;;
		ZBW-RP-LOG:*) say "  ${line#ZBW-RP-LOG: }" ;;
		"# "*) out="$out$line"$'\n' ;;
		esac
	done; }

tr -d '\r' <"$RUN/console.log" | grep -qx 'ZBW-RESULT: ok' ||
	die "the guest did not finish (console log: $RUN/console.log)"

# The captured pages: each program's run of /dev/vdb.
while read -r _ p f c _; do
	p=${p#prog=} f=${f#first=} c=${c#count=}
	dd if="$cap" of="$PAGES/$p.bin" bs=4096 skip="$f" count="$c" status=none
done < <(tr -d '\r' <"$RUN/console.log" | grep '^ZBW-PAGES: ')

# The captured pages as zbewalgo bench inputs: into the file, after the table.
say "zbewalgo bench on the captured pages ($PAGES/PROGRAM.bin)"
make -s -C "$REPO" deps build/zbewalgo >&2
for p in ${PROGS//,/ }; do
	[ -s "$PAGES/$p.bin" ] || continue
	echo
	echo "zbewalgo bench on the pages $p swapped ($PAGES/$p.bin):"
	"$REPO/build/zbewalgo" bench -r 1 -a zbewalgo,zbewalgo-1,lz4,zstd-1,zstd-3 "$PAGES/$p.bin"
done >"$RUN/bench.txt"

# The table on stdout and in the file, the bench tables in the file only.
rc=0
echo "realprog on $(date -u +%Y-%m-%d), tree $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo ?):" \
	"qemu ${ACCEL^^}, 2 vCPUs, ${ZBW_MEM:-1536M}; host load $load0 at the boot, 'load' at each run's end" >"$OUT/realprog.txt"
python3 "$HERE/realprog-table.py" "$res" "$OUT/realprog.csv" >>"$OUT/realprog.txt" || rc=$?
cat "$OUT/realprog.txt"
cat "$RUN/bench.txt" >>"$OUT/realprog.txt"
say "table: $OUT/realprog.txt (then zbewalgo bench on each program's captured pages), records: $OUT/realprog.csv"
[ "$rc" = 0 ] || die "some runs failed (see the table and $RUN/console.log)"
