# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=dash
# Guest of realprog.sh (busybox sh, PID 1's child): mounts the Debian rootfs
# (/dev/vda, ext4) and, per ZBW_PHASE, captures or replays and runs.
#
# ZBW_PHASE=capture: each program of ZBW_PROGS (comma-separated) runs once in
# its cgroup v2 memory limit ZBW_LIMIT_<PROGRAM> (MiB, from the host) with
# swap on a dm-log-writes target (zbwlog create) over /dev/vdb, a plain
# disk, logging to the program's own disk (/dev/vdc, vdd, ... in ZBW_PROGS's
# order): every page written to swap and every discard (swapon -d: a
# cluster of slots freed, and the whole device at swapon), in order. A
# flush every ZBW_LOG_FLUSH_MS (100) ms makes the target log what has
# completed (it logs writes at flushes only, keeping their data in memory
# until then). Per program:
#   ZBW-RP: prog=P conf=capture rc=N ... (zram fields 0: no zram here)
#   ZBW-LOG: prog=P disk=vdX status=ENTRIES,LAST_SECTOR[,logging_disabled]
# and once ZBW-VERSIONS: the Debian packages the programs come from.
#
# ZBW_PHASE=run: first the replays. ZBW_LOGDISKS=P:vdX,... names the disk
# holding program P's log (read-only); for each configuration of
# ZBW_REPLAY a fresh zram0 of ZBW_SWAP_SIZE (the capture's swap device)
# gets the log written into it by zbwlog replay (writes with O_DIRECT at
# their offsets, discards as BLKDISCARD, in log order; configurations with
# a secondary algorithm recompress every ZBW_REPLAY_RECOMP (2048) pages
# written); those of ZBW_REPLAY_TWICE are replayed a second time, so that
# the host can hold the two results side by side:
#   ZBW-REPLAY: prog=P conf=C run=N rc=N KEY=VALUE... (zbwlog's line)
#   ZBW-CLASSES: prog=P conf=C | LINE   (zsmalloc's classes, first run)
# Configuration names: ALG[-LEVEL][+dict] (lz4, lzo-rle, zstd-3, deflate,
# zbewalgo-1+dict, ...: ALG without a level is the backend's default, for
# zbewalgo the sysfs table) or PRIMARY>SECONDARY (lz4>zstd: recompression
# with SECONDARY at priority 1). +dict loads ZBW_DICT_DIR/P.dict
# (/extra/dicts, trained by the host) with algorithm_params dict=. Last,
# zbewalgo's +tune or +classic adds the algorithm_params keys of
# ZBW_TABLE_DIR/P.tune (/extra/tables: the table and thresholds zbewalgo
# tune made on the host from P's pages) or of ZBW_TABLE_DIR/classic.table
# (the default table and level 3's chains of the classic steps).
#
# Then the live runs: each program under each configuration of ZBW_CONFIGS,
# with swap on a fresh zram0 per run (the names above, and lz4+zbw: lz4 with
# zbewalgo recompressing huge and idle pages every ZBW_RECOMP_SEC seconds).
# A sampler reads mm_stat every second and the record keeps the sample
# where zram held the most (orig_data_size), so the ratios are taken while
# the program's pages are out, not after it freed them. ZBW_LIVE_REPEAT (1)
# rounds of all runs, N the round. One line per run:
#   ZBW-RP: prog=P conf=C run=N rc=N limit=MIB wall=SECONDS orig=B compr=B mem_used=B
#           mem_used_max=B huge=N same=N pswpin=N pswpout=N peak=B
# A configuration whose zram0 cannot be set up (e.g. its dict= refused)
# still gets its line, with rc=zram and zeros, so that the table fails.
set -u
# The rootfs's programs (merged /usr) inside the chroot, busybox's outside.
export PATH=/bin:/extra:/sbin:/usr/bin:/usr/sbin HOME=/root LC_ALL=C.UTF-8
R=/mnt
Z=/sys/block/zram0
CG=/sys/fs/cgroup
say() { echo "ZBW-RP-LOG: $*"; }

# Kernel messages below warnings (zram's "detected capacity change" at
# every reset) off the console: they land in the middle of the records.
dmesg -n 5
mkdir -p $R
mount -t ext4 /dev/vda $R || { say "cannot mount /dev/vda"; exit 1; }
for d in proc sys dev; do mount --bind /$d $R/$d; done
mount -t tmpfs -o size=512m tmpfs $R/tmp
mkdir -p $R/dev/shm && mount -t tmpfs tmpfs $R/dev/shm
mount -t tmpfs tmpfs $R/run
mkdir -p $R/run/postgresql
cp -a /extra/realprog/. $R/realprog/
mount -t cgroup2 none $CG
mount -t cgroup2 none $R/sys/fs/cgroup 2>/dev/null || true
echo +memory >$CG/cgroup.subtree_control
# zbewalgo's settings per device: which dictionary it loaded.
mount -t debugfs none /sys/kernel/debug 2>/dev/null
# Setup that is no part of any program's time: compiled once per boot
# (not for replays alone).
# The JVM compiling HeapMap.java now and then faults under TCG (SIGSEGV in
# its JIT's code, OpenJDK 17.0.19): setup can be repeated, three tries.
if [ "${ZBW_PHASE:-run}" = capture ] || [ -n "${ZBW_CONFIGS:-}" ]; then
	try=1
	until chroot $R /bin/sh /realprog/run.sh setup "${ZBW_PROGS:-}"; do
		[ $try -lt 3 ] || { say "setup failed"; exit 1; }
		say "setup failed (try $try of 3), again"
		try=$((try + 1))
	done
fi

uptime_cs() { awk '{ sub(/\./, "", $1); print $1 }' /proc/uptime; }
vmstat_of() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# The id a zstd dictionary carries: bytes 4-7, little-endian.
dict_id() {
	od -An -tu4 -j4 -N4 "$1" | tr -d ' '
}

# zram_conf C P: zram0's algorithms for configuration C of program P (the
# names above), before disksize.
zram_conf() {
	local c=$1 a l='' d='' sec='' t='' k=''
	[ -e $Z ] || cat /sys/class/zram-control/hot_add >/dev/null
	case $c in
	lz4+zbw) c='lz4>zbewalgo' ;;
	esac
	case $c in
	*'>'*) sec=${c#*>} c=${c%%>*} ;;
	esac
	case $c in
	*+tune) t=${ZBW_TABLE_DIR:-/extra/tables}/$2.tune c=${c%+tune} ;;
	*+classic) t=${ZBW_TABLE_DIR:-/extra/tables}/classic.table c=${c%+classic} ;;
	esac
	if [ -n "$t" ]; then
		k=$(grep -v '^#' "$t" 2>/dev/null)
		[ -n "$k" ] || { say "$2: no table $t (the host makes it)"; return 1; }
	fi
	case $c in
	*+dict) d=${ZBW_DICT_DIR:-/extra/dicts}/$2.dict c=${c%+dict}
		[ -s "$d" ] || { say "$2: no dictionary $d (the host trains it)"; return 1; } ;;
	esac
	a=$c
	case $c in
	lzo-rle) ;;
	*-[0-9]*) a=${c%-*} l=${c##*-} ;;
	esac
	echo "$a" >$Z/comp_algorithm || return 1
	# zram reads the dictionary when the line is written, the backend takes
	# it at disksize: a refusal fails one of them.
	if [ -n "$l$d$k" ]; then
		echo "algo=$a${l:+ level=$l}${d:+ dict=$d}${k:+ $k}" >$Z/algorithm_params || return 1
	fi
	[ -z "$sec" ] || echo "algo=$sec priority=1" >$Z/recomp_algorithm || return 1
	echo "$d" >/tmp/zram-dict
	echo "$k" >/tmp/zram-keys
}

# The settings file (debugfs) of a zbewalgo device that holds the
# dictionary with id $1 ("none": none), the combinations $2 (one a line;
# empty: any) and the thresholds $3 (KEY=VALUE words).
zbw_settings() {
	local f t ok
	for f in /sys/kernel/debug/zbewalgo/*/settings; do
		[ -f "$f" ] && grep -qx "dict $1" "$f" || continue
		[ -z "$2" ] || [ "$(sed '1,/^combinations$/d' "$f")" = "$2" ] || continue
		ok=1
		for t in $3; do grep -qx "${t%%=*} ${t#*=}" "$f" || ok=0; done
		[ $ok = 1 ] || continue
		echo "$f"
		return 0
	done
	return 1
}

# After disksize: zbewalgo's debugfs settings name the dictionary, and
# hold the table and thresholds, that the device was given.
zram_check() {
	local d k w id=none tab='' thr=''
	d=$(cat /tmp/zram-dict) k=$(cat /tmp/zram-keys)
	case $1 in zbewalgo*) ;; *) return 0 ;; esac
	[ -n "$d$k" ] || return 0
	[ -z "$d" ] || id=$(dict_id "$d")
	for w in $k; do
		case $w in
		zbewalgo.table=*) tab=$(echo "${w#*=}" | tr ';' '\n') ;;
		zbewalgo.*=*) thr="$thr ${w#zbewalgo.}" ;;
		esac
	done
	zbw_settings "$id" "$tab" "$thr" >/dev/null && return 0
	say "$2: $1: no zbewalgo device has dict $id${k:+ and $k} (debugfs settings)"
	return 1
}

# zram0 for configuration C of program P, swap on it.
zram_up() {
	zram_conf "$1" "$2" &&
		echo "${ZBW_ZRAM_SIZE:-1G}" >$Z/disksize &&
		zram_check "$1" "$2" &&
		mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
}

zram_down() {
	swapoff /dev/zram0 2>/dev/null
	echo 1 >$Z/reset
}

# The capture's swap: a log-writes target over /dev/vdb logging to $1
# (/dev/vdX), both non-rotational as zram is (the swap allocator's choices
# depend on it), swapped on with discards, and the flushing loop.
LW=swaplog
log_up() {
	local dev
	echo 0 >/sys/block/vdb/queue/rotational
	dev=$(zbwlog create $LW /dev/vdb "$1") || return 1
	echo "$dev" >/tmp/lw-dev
	echo 0 >/sys/block/"${dev#/dev/}"/queue/rotational
	mkswap "$dev" >/dev/null && zbwlog mark $LW mkswap && swapon -d "$dev" || return 1
	rm -f /tmp/lw-stop
	zbwlog flush "$dev" "${ZBW_LOG_FLUSH_MS:-100}" /tmp/lw-stop &
	echo $! >/tmp/lw-flush
}

# Ends the log: swap off, the last flush, the target removed (it logs what
# is pending and a closing mark, and updates the log's super block). Its
# status ("ENTRIES,LAST_SECTOR[,logging_disabled]") into /tmp/lw-status.
# Not in a subshell: it waits for the flushing loop, which holds the device.
log_down() {
	local dev
	dev=$(cat /tmp/lw-dev)
	swapoff "$dev" 2>/dev/null
	touch /tmp/lw-stop
	wait "$(cat /tmp/lw-flush)"
	zbwlog mark $LW end
	zbwlog status $LW | tr ' ' , >/tmp/lw-status
	zbwlog remove $LW || say "zbwlog remove $LW failed"
}

# The deployment of "lz4+zbw": every ZBW_RECOMP_SEC seconds zbewalgo
# recompresses what lz4 stored whole and what was not touched since the
# last round (marked idle then).
recomp_loop() {
	while sleep "${ZBW_RECOMP_SEC:-10}"; do
		echo type=huge >$Z/recompress 2>/dev/null
		echo type=idle >$Z/recompress 2>/dev/null
		echo all >$Z/idle 2>/dev/null
	done
}

# Keeps the mm_stat line with the largest orig_data_size in /tmp/peak.
sampler() {
	echo "0 0 0 0 0 0 0 0 0" >/tmp/peak
	while :; do
		read -r s <$Z/mm_stat
		# shellcheck disable=SC2086
		set -- $s
		read -r p </tmp/peak
		[ "$1" -le "${p%% *}" ] || echo "$s" >/tmp/peak
		sleep 1
	done
}

# run_one P C [LOGDISK [RUN]]: program P under configuration C (capture:
# swap on the log-writes target logging to LOGDISK), the RUNth time (1).
run_one() {
	local p=$1 c=$2 disk=${3:-} n=${4:-1} lim rc=0 t0 t1 in0 out0 spid='' rpid='' s
	eval "lim=\${ZBW_LIMIT_$(echo "$p" | tr a-z- A-Z_):-64}"
	echo "0 0 0 0 0 0 0 0 0" >/tmp/peak
	if [ "$c" = capture ]; then
		if ! log_up "/dev/$disk"; then
			say "the log-writes swap for $p failed"
			echo "ZBW-RP: prog=$p conf=$c run=$n rc=log limit=$lim wall=0 orig=0 compr=0 mem_used=0" \
				"mem_used_max=0 huge=0 same=0 pswpin=0 pswpout=0 peak=0"
			zbwlog remove $LW 2>/dev/null
			return 1
		fi
	elif ! zram_up "$c" "$p"; then
		say "zram setup for $c failed"
		echo "ZBW-RP: prog=$p conf=$c run=$n rc=zram limit=$lim wall=0 orig=0 compr=0 mem_used=0" \
			"mem_used_max=0 huge=0 same=0 pswpin=0 pswpout=0 peak=0"
		zram_down
		return 1
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
	mkdir -p $CG/rp
	echo "${lim}M" >$CG/rp/memory.max
	[ "$c" = capture ] || { sampler & spid=$!; }
	[ "$c" != lz4+zbw ] || { recomp_loop & rpid=$!; }
	in0=$(vmstat_of pswpin) out0=$(vmstat_of pswpout)
	t0=$(uptime_cs)
	sh -c "echo \$\$ >$CG/rp/cgroup.procs && exec chroot $R /bin/sh /realprog/run.sh $p" \
		>/tmp/out 2>&1 || rc=$?
	t1=$(uptime_cs)
	# shellcheck disable=SC2086
	[ -z "$spid$rpid" ] || { kill $spid $rpid 2>/dev/null; wait $spid $rpid 2>/dev/null; }
	sed 's/^/# /' /tmp/out | tail -n 5
	# shellcheck disable=SC2046
	set -- $(cat /tmp/peak)
	echo "ZBW-RP: prog=$p conf=$c run=$n rc=$rc limit=$lim wall=$(((t1 - t0) / 100)).$(printf %02d $(((t1 - t0) % 100)))" \
		"orig=$1 compr=$2 mem_used=$3 mem_used_max=$5 huge=$8 same=$6" \
		"pswpin=$(($(vmstat_of pswpin) - in0)) pswpout=$(($(vmstat_of pswpout) - out0))" \
		"peak=$(cat $CG/rp/memory.peak 2>/dev/null || echo 0)"
	# What the program left in the cgroup (PostgreSQL's server stops in run.sh).
	for s in $(cat $CG/rp/cgroup.procs); do kill -9 "$s" 2>/dev/null; done
	sleep 1
	rmdir $CG/rp
	if [ "$c" = capture ]; then
		log_down
		echo "ZBW-LOG: prog=$p disk=$disk status=$(cat /tmp/lw-status)"
	else
		zram_down
	fi
	return 0
}

# replay_one P C N DISK: P's log (on DISK) into a fresh zram0 under
# configuration C, the Nth time.
replay_one() {
	local p=$1 c=$2 n=$3 r='' rc=0 out t0 t1
	case $c in *'>'*) r="-r ${ZBW_REPLAY_RECOMP:-2048}" ;; esac
	if ! zram_conf "$c" "$p" || ! echo "${ZBW_SWAP_SIZE:-1G}" >$Z/disksize ||
		! zram_check "$c" "$p"; then
		echo "ZBW-REPLAY: prog=$p conf=$c run=$n rc=zram"
		echo 1 >$Z/reset
		return 1
	fi
	rm -f /tmp/classes
	t0=$(uptime_cs)
	# shellcheck disable=SC2086
	out=$(zbwlog replay "/dev/$4" /dev/zram0 -s "${ZBW_REPLAY_SAMPLE:-64}" $r -c /tmp/classes -v 2>/tmp/replay.err) || rc=$?
	t1=$(uptime_cs)
	sed 's/^/# /' /tmp/replay.err | tail -n 5
	echo "ZBW-REPLAY: prog=$p conf=$c run=$n rc=$rc ${out#zbwlog-replay: }" \
		"wall=$(((t1 - t0) / 100)).$(printf %02d $(((t1 - t0) % 100)))"
	# The classes that hold objects, spaces squeezed: the serial console is
	# slow under TCG.
	[ "$n" != 1 ] || [ ! -s /tmp/classes ] ||
		awk -v h="ZBW-CLASSES: prog=$p conf=$c |" '$1 == "class" || $1 == "Total" || (NF == 18 && $14 > 0) {
			$1 = $1; print h, $0 }' /tmp/classes
	echo 1 >$Z/reset
}

if [ "${ZBW_PHASE:-run}" = capture ]; then
	say "capture: programs ${ZBW_PROGS:-}"
	# Swap-in reads one page, no readahead, as zram mostly does (a page
	# mapped once is read past the swap cache): closer to zram's stream.
	echo 0 >/proc/sys/vm/page-cluster
	# shellcheck disable=SC2016
	echo "ZBW-VERSIONS: kernel=$(uname -r) $(chroot $R dpkg-query -W -f '${Package}=${Version} ' \
		python3 python3-numpy python3-scipy default-jre-headless openjdk-17-jre-headless \
		postgresql-15 gcc-12 make libc6 redis-server r-base-core python3-torch python3-sklearn \
		2>/dev/null)"
	set -- b c d e f g h i j k l m n o p q r s t u v w x y z
	for p in $(echo "${ZBW_PROGS:-}" | tr , ' '); do
		shift
		run_one "$p" capture "vd$1"
	done
else
	say "replay: logs ${ZBW_LOGDISKS:-} configurations ${ZBW_REPLAY:-}"
	for pd in $(echo "${ZBW_LOGDISKS:-}" | tr , ' '); do
		for c in $(echo "${ZBW_REPLAY:-}" | tr , ' '); do
			replay_one "${pd%%:*}" "$c" 1 "${pd#*:}"
			case ,${ZBW_REPLAY_TWICE:-}, in
			*,"$c",*) replay_one "${pd%%:*}" "$c" 2 "${pd#*:}" ;;
			esac
		done
	done
	say "live: programs ${ZBW_PROGS:-} configurations ${ZBW_CONFIGS:-}, ${ZBW_LIVE_REPEAT:-1} times"
	# Round after round: a change of the host's load in the middle lands
	# on every configuration alike, and a cut-short run has whole rounds.
	k=0
	while [ $k -lt "${ZBW_LIVE_REPEAT:-1}" ]; do
		k=$((k + 1))
		for p in $(echo "${ZBW_PROGS:-}" | tr , ' '); do
			for c in $(echo "${ZBW_CONFIGS:-}" | tr , ' '); do
				run_one "$p" "$c" "" "$k"
			done
		done
	done
fi
say "done"
echo "ZBW-RESULT: ok"
