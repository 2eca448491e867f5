#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# realprog.sh: real programs, real swap. Boots the 7.2 kernel with zbewalgo
# (no debug options: config/realprog.config) on a Debian bookworm userland
# made from Debian's packages (rootfs.sh, cached), twice:
#
# The capture boot runs each program once in a cgroup v2 memory limit with
# swap on a dm-log-writes target over a plain virtio disk: the whole swap
# stream (every page written, every discard, in order) is logged to a disk
# of its own. The host keeps each log as $ZBW_CACHE/swap-logs/PROGRAM.log
# with PROGRAM.prov (program, limit, kernel, Debian package versions, the
# log's counts, date), cuts every page written, in write order, into
# $ZBW_CACHE/swap-pages/PROGRAM.bin ("zbewalgo bench" reads them; the swap
# header left out) and trains PROGRAM.dict (zstd --train, ZBW_DICT_KIB KiB)
# on an earlier capture's pages when there are some (the previous
# PROGRAM.bin), else on this one's.
#
# The run boot replays each log into a fresh zram device once per
# configuration of ZBW_REPLAY (zbwlog replay: equal work for every
# algorithm), twice for those of ZBW_REPLAY_TWICE (the two must agree), then
# runs each program live with swap on zram per configuration of
# ZBW_CONFIGS (lz4, zstd, zstd+dict, zbewalgo, zbewalgo level 1,
# zbewalgo+dict, lz4 with zbewalgo recompressing), ZBW_LIVE_REPEAT (3)
# rounds of them. Tables:
# build/kernel-bench/realprog-replay.{txt,csv} (per program and
# configuration: peak and last-write mem_used_total and compr_data_size,
# huge pages, read-back latency), realprog-classes.txt (zsmalloc's size
# classes) and realprog.{txt,csv} (the live runs, medians and spreads
# over the rounds, and the bench on the pages after). The replay's
# zbewalgo+tune (a table zbewalgo tune made from the first half of the
# program's pages, $ZBW_SWAP_LOGS/PROGRAM.tune) and zbewalgo+classic (the
# default table and level 3's chains of the classic steps), not in "all",
# also get realprog-optional.{txt,csv}: their peak memory over plain
# zbewalgo's and over zstd-3's of ZBW_RP_REF.
# Knobs: ZBW_PROGS, ZBW_CAPTURE=0 (use the cached logs), ZBW_REPLAY,
# ZBW_REPLAY_TWICE, ZBW_REPLAY_RECOMP, ZBW_REPLAY_KEEP=1 (the committed replay's rows of
# the configurations without zbewalgo not replayed now: realprog-replay-table.py --keep),
# ZBW_LIVE_REPEAT, ZBW_CONFIGS (comma-separated; set and
# empty, ZBW_REPLAY and ZBW_CONFIGS skip the run boot), ZBW_LIMIT_<PROGRAM>
# (MiB), ZBW_RP_SCALE (program sizes, percent), ZBW_SWAP_MIB, ZBW_LOG_MIB,
# ZBW_LOG_FLUSH_MS, ZBW_DICT_KIB, ZBW_RECOMP_SEC, ZBW_ZRAM_SIZE, ZBW_MEM,
# ZBW_TIMEOUT, ZBW_RP_RUN (the run's directory, $ZBW_CACHE/run/realprog),
# ZBW_SWAP_PAGES, ZBW_SWAP_LOGS, ZBW_RP_REF (the records zstd-3's figures
# come from; empty: none) (tools/testing/kernel/README.md).
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=7.2
PROGS=${ZBW_PROGS:-python-heap,numpy-solver,jvm-hashmap,postgres-pgbench,gcc-build,redis-store,r-glm,sklearn-train}
CONFIGS=${ZBW_CONFIGS-lz4,zstd,zstd+dict,zbewalgo,zbewalgo-1,zbewalgo+dict,lz4+zbw}
# The replay's configurations (guest/realprog.sh names them): "all", the
# issue's list, is the default after a capture; with ZBW_CAPTURE=0 (make
# run) there are none unless asked for (make realprog-replay: all).
ALL='lz4,lzo-rle,deflate,zstd-1,zstd-3,zstd-8,lz4+dict,zstd-1+dict,zstd-3+dict,zstd-8+dict,zbewalgo,zbewalgo-1,zbewalgo-2,zbewalgo-3,zbewalgo+dict,zbewalgo-1+dict,zbewalgo-2+dict,zbewalgo-3+dict,lz4>zstd,lz4>zbewalgo'
if [ "${ZBW_CAPTURE:-1}" = 0 ]; then REPLAY=${ZBW_REPLAY-}; else REPLAY=${ZBW_REPLAY-all}; fi
# "all" in the list stands for them
REPLAY=,$REPLAY,
REPLAY=${REPLAY/,all,/,$ALL,}
REPLAY=${REPLAY#,}
REPLAY=${REPLAY%,}
TWICE=${ZBW_REPLAY_TWICE-lz4,zstd-3,zbewalgo,lz4>zbewalgo}
SWAPMIB=${ZBW_SWAP_MIB:-1024}
LOGMIB=${ZBW_LOG_MIB:-3072}
RUN=${ZBW_RP_RUN:-$CACHE/run/realprog}
OUT=$REPO/build/kernel-bench
PAGES=${ZBW_SWAP_PAGES:-$CACHE/swap-pages}
LOGS=${ZBW_SWAP_LOGS:-$CACHE/swap-logs}
# The rootfs: one list for the first five programs, so one image serves any
# selection of them (make run's among them).
# zstd: the CLI (the host trains the dictionaries now; kept for the image's key).
PACKAGES=(python3-numpy python3-scipy postgresql default-jre-headless gcc make
	  libc6-dev libzstd-dev liblz4-dev liblzo2-dev zlib1g-dev zstd)
# The programs that need more (about 700 MB more of image): a selection with
# one of them gets a second image, with all of these, so that make run and
# a fresh machine fetch nothing new.
declare -A EXTRA=([redis-store]=redis-server [r-glm]=r-base-core
		  [sklearn-train]=python3-sklearn [torch-train]=python3-torch)
for p in ${PROGS//,/ }; do
	[ -n "${EXTRA[$p]:-}" ] || continue
	# shellcheck disable=SC2206  # the lists' words
	PACKAGES+=(${EXTRA[*]})
	break
done
# Memory limits (MiB): about half of what each program takes at its peak.
declare -A LIMIT=([python-heap]=32 [numpy-solver]=56 [jvm-hashmap]=40 [gcc-build]=48
		  [postgres-pgbench]=48 [redis-store]=24 [r-glm]=80 [sklearn-train]=64
		  [torch-train]=192)
mkdir -p "$RUN" "$OUT" "$PAGES" "$LOGS"
# One run at a time in RUN (its console logs, disks, records).
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

ACCEL=$(qemu_accel "$BZ")
say "[4/5] initramfs and zbwlog (static)"
# gcc-build's source: zbewalgo's own command-line tool.
(cd "$REPO" && tar -cf "$RUN/zbewalgo-src.tar" Makefile dkms.conf include lib/zbewalgo tools/zbewalgo)
# zbwlog: the guest's (static) and the host's (log info, cut) are one build.
gcc -static -O2 -Wall -o "$RUN/zbwlog" "$HERE/zbwlog.c"
ZBWLOG=$RUN/zbwlog
common="ZBW_PROGS=$PROGS ZBW_RP_SCALE=${ZBW_RP_SCALE:-100}"
for p in ${PROGS//,/ }; do
	v=ZBW_LIMIT_$(echo "$p" | tr a-z- A-Z_)
	common="$common $v=${!v:-${LIMIT[$p]:-64}}"
done
res=$RUN/results.txt
rep=$RUN/replay.txt
cls=$RUN/classes.txt
: >"$res"
: >"$rep"
: >"$cls"
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

# boot NAME INITRAMFS APPEND QEMU_ARGS: one boot, its records into the
# files above as they arrive (each with the host's load then), a progress
# line per record; the program's last lines ("# ") only when its run failed.
boot() {
	local name=$1
	say "booting $V under qemu (${ACCEL^^}, ${ZBW_MEM:-1536M}): $name, load $(cut -d' ' -f1-3 /proc/loadavg)" \
		"(console log: $RUN/console-$name.log)"
	{ ZBW_MEM=${ZBW_MEM:-1536M} ZBW_APPEND="$3 ${ZBW_APPEND:-}" ZBW_QEMU_ARGS="$4" \
		"$HERE/boot.sh" "$BZ" "$2" "$RUN/console-$name.log" "${ZBW_TIMEOUT:-7200}" || true; } |
		{ out=''
		while IFS= read -r line; do
			# Not tr -d: it would buffer, and the load would be the last run's.
			line=${line%$'\r'}
			case $line in
			ZBW-RP:*) line="${line#ZBW-RP: } load=$(cut -d' ' -f1 /proc/loadavg)"
				echo "$line" >>"$res"
				# shellcheck disable=SC2086  # the record's words
				kv $line
				if [ "${r[rc]}" = 0 ] && [ "${r[conf]}" = capture ]; then
					say "  ${r[prog]} capture: wall ${r[wall]} s, swapout ${r[pswpout]} pages, load ${r[load]}"
				elif [ "${r[rc]}" = 0 ]; then
					say "  ${r[prog]} ${r[conf]} #${r[run]:-1}: orig/mem_used $(ratio "${r[orig]}" "${r[mem_used]}")" \
						"($((r[orig] >> 20)) MiB in $((r[mem_used] >> 20)) MiB), wall ${r[wall]} s, load ${r[load]}"
				else
					[ -z "$out" ] || printf '%s' "$out" >&2
					say "  ${r[prog]} ${r[conf]}: FAILED (rc=${r[rc]}), load ${r[load]}"
				fi
				out='' ;;
			ZBW-REPLAY:*) line="${line#ZBW-REPLAY: } load=$(cut -d' ' -f1 /proc/loadavg)"
				echo "$line" >>"$rep"
				# shellcheck disable=SC2086
				kv $line
				if [ "${r[rc]}" = 0 ]; then
					say "  replay ${r[prog]} ${r[conf]} #${r[run]}: peak ${r[peak]}, wall ${r[wall]} s"
				else
					[ -z "$out" ] || printf '%s' "$out" >&2
					say "  replay ${r[prog]} ${r[conf]} #${r[run]}: FAILED (rc=${r[rc]})"
				fi
				out='' ;;
			ZBW-CLASSES:*) echo "${line#ZBW-CLASSES: }" >>"$cls" ;;
			ZBW-LOG:*|ZBW-VERSIONS:*) echo "$line" >>"$RUN/capture.txt"
				say "  ${line#ZBW-}" ;;
			ZBW-RP-LOG:*) say "  ${line#ZBW-RP-LOG: }" ;;
			"# "*) out="$out$line"$'\n' ;;
			esac
		done; }
	tr -d '\r' <"$RUN/console-$name.log" | grep -qx 'ZBW-RESULT: ok' ||
		die "the guest did not finish (console log: $RUN/console-$name.log)"
}

# ---- capture: each program's swap stream, logged ----------------------------
if [ "${ZBW_CAPTURE:-1}" != 0 ]; then
	"$HERE/initramfs.sh" "$RUN/initramfs-capture.cpio.gz" "$HERE/guest/realprog.sh" \
		"$HERE/realprog=/extra/realprog" "$RUN/zbewalgo-src.tar=/extra/realprog/zbewalgo-src.tar" "$ZBWLOG"
	swap=$RUN/swap.img
	rm -f "$swap" "$RUN"/log-*.img "$RUN/capture.txt"
	truncate -s "${SWAPMIB}M" "$swap"
	qargs="-drive file=$IMG,if=virtio,format=raw,snapshot=on -drive file=$swap,if=virtio,format=raw,discard=unmap"
	for p in ${PROGS//,/ }; do
		truncate -s "${LOGMIB}M" "$RUN/log-$p.img"
		qargs="$qargs -drive file=$RUN/log-$p.img,if=virtio,format=raw"
	done
	say "[5/5] capture: ${PROGS//,/, } with swap on dm-log-writes (${SWAPMIB} MiB, logs up to ${LOGMIB} MiB each)"
	boot capture "$RUN/initramfs-capture.cpio.gz" "ZBW_PHASE=capture $common" "$qargs"
	vers=$(tr -d '\r' <"$RUN/console-capture.log" | sed -n 's/^ZBW-VERSIONS: //p' | head -n 1)
	for p in ${PROGS//,/ }; do
		st=$(sed -n "s/^ZBW-LOG: prog=$p .*status=//p" "$RUN/capture.txt")
		case $st in
		''|*logging_disabled*) die "$p: the log is incomplete (status '$st'; console log: $RUN/console-capture.log)" ;;
		esac
		info=$("$ZBWLOG" info "$RUN/log-$p.img" | tail -n 1)
		# shellcheck disable=SC2086
		kv $info
		# The target counted its entries before its closing mark.
		[ "${r[entries]}" -ge "${st%%,*}" ] || die "$p: the log has ${r[entries]} entries, the target logged ${st%%,*}"
		head -c "${r[bytes]}" "$RUN/log-$p.img" >"$LOGS/$p.log.tmp"
		mv "$LOGS/$p.log.tmp" "$LOGS/$p.log"
		rm -f "$RUN/log-$p.img"
		# The previous pages (an earlier capture; with ZBW_SWAP_PAGES
		# elsewhere, those of the cache's) train the dictionary.
		old=0
		if [ -s "$PAGES/$p.bin" ]; then
			old=$(($(stat -c %s "$PAGES/$p.bin") / 4096))
			mv "$PAGES/$p.bin" "$RUN/$p.old.bin"
		elif [ -s "$CACHE/swap-pages/$p.bin" ]; then
			old=$(($(stat -c %s "$CACHE/swap-pages/$p.bin") / 4096))
			cp "$CACHE/swap-pages/$p.bin" "$RUN/$p.old.bin"
		fi
		cut=$("$ZBWLOG" cut "$LOGS/$p.log" "$PAGES/$p.bin" 1)
		if [ -s "$RUN/$p.old.bin" ]; then
			src="an earlier capture's $old pages"
			train=$RUN/$p.old.bin
		else
			src="this capture's pages (no earlier capture)"
			train=$PAGES/$p.bin
		fi
		t0=$SECONDS
		nice -n 10 zstd -q -f --train -B4096 --maxdict=$((${ZBW_DICT_KIB:-32} * 1024)) "$train" -o "$LOGS/$p.dict" ||
			die "$p: zstd --train failed"
		rm -f "$RUN/$p.old.bin"
		lim=ZBW_LIMIT_$(echo "$p" | tr a-z- A-Z_)
		cat >"$LOGS/$p.prov" <<-PROV
		program=$p
		memory.max=${!lim:-${LIMIT[$p]:-64}}M
		scale=${ZBW_RP_SCALE:-100}
		swap_device=${SWAPMIB}M
		date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
		tree=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo ?)
		versions=$vers
		log=$info
		cut=$cut
		dict=$(stat -c %s "$LOGS/$p.dict") bytes, zstd --train -B4096, on $src
		PROV
		# shellcheck disable=SC2086
		kv $cut
		say "  $p: its log holds ${r[pages]} pages written (${r[zero]} zero), cut to $PAGES/$p.bin" \
			"(the pages there before: $old); dictionary on $src ($((SECONDS - t0)) s)"
	done
fi

# ---- the tables of the +tune and +classic configurations ---------------------
# tune_table P: $LOGS/P.tune, the algorithm_params keys (zbewalgo.table=,
# early_abort_size, max_output_size) that zbewalgo tune --lean --drop-same
# recommends on the first half of the pages P's log wrote, in write order
# (zbwlog cut; not $PAGES/P.bin, which may hold another capture's pages):
# the replay writes the whole log, so its second half is pages the tuner
# never saw. --lean: without the classic steps, which +classic measures.
# Kept beside the log (a comment line says how it was made) and made
# again only when the log is newer: the tuner times the chains, so its
# choice can differ from one run to the next.
tune_table() {
	local p=$1 f=$LOGS/$1.tune n t0=$SECONDS
	if [ -s "$f" ] && [ "$f" -nt "$LOGS/$p.log" ]; then return 0; fi
	"$ZBWLOG" cut "$LOGS/$p.log" "$RUN/$p.cut.bin" 1 >/dev/null || die "$p: zbwlog cut failed"
	n=$(($(stat -c %s "$RUN/$p.cut.bin") / 4096))
	head -c $((n / 2 * 4096)) "$RUN/$p.cut.bin" >"$RUN/$p.half.bin"
	rm -f "$RUN/$p.cut.bin"
	nice -n 10 "$REPO/build/zbewalgo" tune --lean --drop-same --json="$RUN/$p.tune.json" \
		"$RUN/$p.half.bin" >"$RUN/$p.tune.txt" || die "$p: zbewalgo tune failed ($RUN/$p.tune.txt)"
	rm -f "$RUN/$p.half.bin"
	python3 - "$RUN/$p.tune.json" "$p" "$((n / 2))" "$n" "$(date -u +%Y-%m-%d)" \
		"$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo ?)" >"$f.tmp" <<-'PY'
	import json, sys
	j = json.load(open(sys.argv[1]))
	r = j["recommendation"]
	hold = {x["name"]: x["holdout"]["ratio"] for x in j["results"] if x.get("holdout")}
	print("# zbewalgo tune --lean --drop-same on pages 1-%s of %s of %s.log's (zbwlog cut,"
	      " write order), %s, tree %s; hold-out ratio %.3f, the default table's %.3f"
	      % (sys.argv[3], sys.argv[4], sys.argv[2], sys.argv[5], sys.argv[6],
	         hold.get("recommended", 0), hold.get("default", 0)))
	print("zbewalgo.table=%s zbewalgo.early_abort_size=%d zbewalgo.max_output_size=%d"
	      % (";".join(r["table"].split()), r["early_abort_size"], r["max_output_size"]))
	PY
	mv "$f.tmp" "$f"
	say "  $p: tuned on $((n / 2)) of its $n pages ($((SECONDS - t0)) s): $(grep -v '^#' "$f")"
}

# classic_table FILE: the default table and the chains of level 3 that name a
# step of CONFIG_ZBEWALGO_CLASSIC_STEPS (the 2018 design's, steps.h), as
# zbewalgo.table=: what the classic steps add to the default preset.
classic_table() {
	local re
	re=$(sed -n 's/^ZBW_STEP([A-Z0-9_]*, \([a-z0-9]*\), [0-9]*, classic)$/\1/p' \
		"$REPO/lib/zbewalgo/core/steps.h" | paste -sd'|')
	[ -n "$re" ] || die "no classic steps in $REPO/lib/zbewalgo/core/steps.h"
	{ "$REPO/build/zbewalgo" table
	  "$REPO/build/zbewalgo" -l 3 table | grep -E "(^|-)($re)(-|\$)"
	} | awk '!seen[$0]++' | paste -sd';' | sed 's/^/zbewalgo.table=/' >"$1"
}

# ---- run: the replays, then the live runs -----------------------------------
if [ -n "$REPLAY$CONFIGS" ]; then
	extra=()
	case ,$REPLAY,$CONFIGS, in
	*+tune[,+]*|*+classic[,+]*)
		make -s -C "$REPO" deps build/zbewalgo >&2
		rm -f "$RUN/classic.table"
		say "tables for +tune and +classic (zbewalgo tune --lean --drop-same, cached beside the logs)" ;;
	esac
	case ,$REPLAY,$CONFIGS, in
	*+classic[,+]*)
		classic_table "$RUN/classic.table"
		extra+=("$RUN/classic.table=/extra/tables/classic.table")
		say "  classic: $(cat "$RUN/classic.table")" ;;
	esac
	qargs="-drive file=$IMG,if=virtio,format=raw,snapshot=on"
	disks=''
	set -- b c d e f g h i j k l m n o p q r s t u v w x y z
	for p in ${PROGS//,/ }; do
		[ -f "$LOGS/$p.dict" ] && extra+=("$LOGS/$p.dict=/extra/dicts/$p.dict")
		case ,$REPLAY,$CONFIGS, in
		*+tune[,+]*) tune_table "$p"
			extra+=("$LOGS/$p.tune=/extra/tables/$p.tune") ;;
		esac
		[ -n "$REPLAY" ] && [ -s "$LOGS/$p.log" ] || continue
		qargs="$qargs -drive file=$LOGS/$p.log,if=virtio,format=raw,readonly=on"
		disks="$disks${disks:+,}$p:vd$1"
		shift
	done
	[ -z "$REPLAY" ] || [ -n "$disks" ] || die "no logs in $LOGS to replay (the capture makes them)"
	"$HERE/initramfs.sh" "$RUN/initramfs-run.cpio.gz" "$HERE/guest/realprog.sh" \
		"$HERE/realprog=/extra/realprog" "$RUN/zbewalgo-src.tar=/extra/realprog/zbewalgo-src.tar" "$ZBWLOG" \
		"${extra[@]}"
	append="ZBW_PHASE=run $common ZBW_CONFIGS=$CONFIGS ZBW_REPLAY=$REPLAY ZBW_REPLAY_TWICE=$TWICE"
	append="$append ZBW_LOGDISKS=$disks ZBW_SWAP_SIZE=${SWAPMIB}M"
	# The guest's own knobs, when set here.
	append="$append ZBW_LIVE_REPEAT=${ZBW_LIVE_REPEAT:-3}"
	for v in ZBW_RECOMP_SEC ZBW_ZRAM_SIZE ZBW_REPLAY_RECOMP ZBW_REPLAY_SAMPLE; do
		[ -z "${!v:-}" ] || append="$append $v=${!v}"
	done
	for p in ${PROGS//,/ }; do
		[ -f "$LOGS/$p.dict" ] || continue
		echo "kind=dict prog=$p bytes=$(stat -c %s "$LOGS/$p.dict")" \
			"id=$(od -An -tu4 -j4 -N4 "$LOGS/$p.dict" | tr -d ' ')" \
			"src=$(sed -n 's/^dict=.* on //p' "$LOGS/$p.prov" 2>/dev/null | tr ' ' _)" >>"$res"
	done
	say "[5/5] replays (${REPLAY:-none}) of ${disks:-no logs}, then live runs (${CONFIGS:-none})"
	boot run "$RUN/initramfs-run.cpio.gz" "$append" "$qargs"
fi

stamp="realprog on $(date -u +%Y-%m-%d), tree $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo ?): qemu ${ACCEL^^}, 2 vCPUs, ${ZBW_MEM:-1536M}"
rc=0
if [ -s "$rep" ]; then
	echo "$stamp" >"$OUT/realprog-replay.txt"
	keep=()
	if [ "${ZBW_REPLAY_KEEP:-0}" = 1 ]; then
		old=$REPO/tools/testing/zbewalgo/bench/results/realprog-replay
		keep=(--keep "$old.csv" "$(sed -n '1s/.*, tree \([^:]*\):.*/\1/p' "$old.txt")")
	fi
	python3 "$HERE/realprog-replay-table.py" "${keep[@]}" "$rep" "$OUT/realprog-replay.csv" "$LOGS" \
		>>"$OUT/realprog-replay.txt" || rc=$?
	python3 "$HERE/realprog-replay-table.py" --classes "$cls" >"$OUT/realprog-classes.txt" || rc=$?
	cat "$OUT/realprog-replay.txt"
	say "replay table: $OUT/realprog-replay.txt (records: .csv), size classes: $OUT/realprog-classes.txt"
	# The optional parts (+tune, +classic) against plain zbewalgo of this
	# run and zstd-3 of ZBW_RP_REF (the committed replay of the same logs),
	# then the tables they had.
	case ,$REPLAY, in
	*+tune[,+]*|*+classic[,+]*)
		ref=${ZBW_RP_REF-$REPO/tools/testing/zbewalgo/bench/results/realprog-replay.csv}
		[ -z "$ref" ] || [ -s "$ref" ] || ref=''
		cl=()
		[ ! -s "$RUN/classic.table" ] || cl=(--classic "$RUN/classic.table")
		{ echo "$stamp"
		  python3 "$HERE/realprog-replay-table.py" --optional "$rep" "$OUT/realprog-optional.csv" \
			${ref:+"$ref"} --tables "$LOGS" "${cl[@]}" || rc=$?
		} >"$OUT/realprog-optional.txt"
		cat "$OUT/realprog-optional.txt"
		say "optional parts' table: $OUT/realprog-optional.txt (.csv)" ;;
	esac
fi

# The captured pages as zbewalgo bench inputs: into the file, after the table.
say "zbewalgo bench on the pages the programs swapped ($PAGES/PROGRAM.bin)"
make -s -C "$REPO" deps build/zbewalgo >&2
for p in ${PROGS//,/ }; do
	[ -s "$PAGES/$p.bin" ] || continue
	echo
	echo "zbewalgo bench on the pages $p wrote to swap, in write order ($PAGES/$p.bin):"
	"$REPO/build/zbewalgo" bench -r 1 -a zbewalgo,zbewalgo-1,lz4,zstd-1,zstd-3 "$PAGES/$p.bin"
done >"$RUN/bench.txt"

# The table on stdout and in the file, the bench tables in the file only.
echo "$stamp" >"$OUT/realprog.txt"
python3 "$HERE/realprog-table.py" "$res" "$OUT/realprog.csv" >>"$OUT/realprog.txt" || rc=$?
cat "$OUT/realprog.txt"
cat "$RUN/bench.txt" >>"$OUT/realprog.txt"
say "table: $OUT/realprog.txt (then zbewalgo bench on each program's pages), records: $OUT/realprog.csv"
[ "$rc" = 0 ] || die "some runs failed, or replays disagree (see the tables and the console logs in $RUN)"
