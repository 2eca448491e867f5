# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=dash
# Guest of realprog.sh (busybox sh, PID 1's child): mounts the Debian rootfs
# (/dev/vda, ext4) and runs each program of ZBW_PROGS (comma-separated) under
# each zram configuration of ZBW_CONFIGS, in the cgroup v2 memory limit
# ZBW_LIMIT_<PROGRAM> (MiB, from the host), with swap on a fresh zram0 per
# run. A sampler reads mm_stat every second and the record keeps the sample
# where zram held the most (orig_data_size), so the ratios are taken while
# the program's pages are out, not after it freed them. One line per run:
#   ZBW-RP: prog=P conf=C rc=N limit=MIB wall=SECONDS orig=B compr=B mem_used=B
#           mem_used_max=B huge=N same=N pswpin=N pswpout=N peak=B
# The configuration "capture" (lz4, not timed for the table) also reads
# /dev/zram0 (ZBW_CAPTURE_ZRAM_SIZE, 256M) every ZBW_CAPTURE_SEC (2) seconds
# and writes each swapped page it has not seen in that slot before to
# /dev/vdb (capture.py), printing
#   ZBW-PAGES: prog=P first=PAGE count=N zero=N
# so that the host can cut PROGRAM.bin out of the disk.
set -u
# The rootfs's programs (merged /usr) inside the chroot, busybox's outside.
export PATH=/bin:/extra:/sbin:/usr/bin:/usr/sbin HOME=/root LC_ALL=C.UTF-8
R=/mnt
Z=/sys/block/zram0
CG=/sys/fs/cgroup
say() { echo "ZBW-RP-LOG: $*"; }

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
# Setup that is no part of any program's time: compiled once per boot.
chroot $R /bin/sh /realprog/run.sh setup "${ZBW_PROGS:-}" || { say "setup failed"; exit 1; }

uptime_cs() { awk '{ sub(/\./, "", $1); print $1 }' /proc/uptime; }
vmstat_of() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# zram0 for configuration C, swap on it.
zram_up() {
	[ -e $Z ] || cat /sys/class/zram-control/hot_add >/dev/null
	case $1 in
	lz4|capture) echo lz4 >$Z/comp_algorithm ;;
	zstd) echo zstd >$Z/comp_algorithm ;;
	zbewalgo) echo zbewalgo >$Z/comp_algorithm ;;
	zbewalgo-1) echo zbewalgo >$Z/comp_algorithm &&
		echo 'algo=zbewalgo level=1' >$Z/algorithm_params ;;
	lz4+zbw) echo lz4 >$Z/comp_algorithm &&
		echo 'algo=zbewalgo priority=1' >$Z/recomp_algorithm ;;
	# Later: zstd and zbewalgo with a dictionary (algorithm_params
	# dict=PATH; zbewalgo does not take one yet).
	*) say "unknown configuration $1"; return 1 ;;
	esac || return 1
	# The capture reads the whole device at every look: keep it small.
	if [ "$1" = capture ]; then
		echo "${ZBW_CAPTURE_ZRAM_SIZE:-256M}" >$Z/disksize || return 1
	else
		echo "${ZBW_ZRAM_SIZE:-1G}" >$Z/disksize || return 1
	fi
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
}

zram_down() {
	swapoff /dev/zram0 2>/dev/null
	echo 1 >$Z/reset
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

run_one() {
	local p=$1 c=$2 lim rc=0 t0 t1 in0 out0 spid rpid='' cpid='' s
	eval "lim=\${ZBW_LIMIT_$(echo "$p" | tr a-z- A-Z_):-64}"
	zram_up "$c" || { say "zram setup for $c failed"; zram_down; return 1; }
	sync
	echo 3 >/proc/sys/vm/drop_caches
	mkdir -p $CG/rp
	echo "${lim}M" >$CG/rp/memory.max
	sampler & spid=$!
	[ "$c" != lz4+zbw ] || { recomp_loop & rpid=$!; }
	if [ "$c" = capture ]; then
		rm -f $R/tmp/capture.stop
		chroot $R python3 /realprog/capture.py "$p" /tmp/capture.stop "${ZBW_CAPTURE_SEC:-2}" \
			"${ZBW_CAPTURE_MIB:-128}" & cpid=$!
	fi
	in0=$(vmstat_of pswpin) out0=$(vmstat_of pswpout)
	t0=$(uptime_cs)
	sh -c "echo \$\$ >$CG/rp/cgroup.procs && exec chroot $R /bin/sh /realprog/run.sh $p" \
		>/tmp/out 2>&1 || rc=$?
	t1=$(uptime_cs)
	kill $spid $rpid 2>/dev/null
	wait $spid $rpid 2>/dev/null
	if [ -n "$cpid" ]; then
		touch $R/tmp/capture.stop
		wait $cpid
	fi
	sed 's/^/# /' /tmp/out | tail -n 5
	# shellcheck disable=SC2046
	set -- $(cat /tmp/peak)
	echo "ZBW-RP: prog=$p conf=$c rc=$rc limit=$lim wall=$(((t1 - t0) / 100)).$(printf %02d $(((t1 - t0) % 100)))" \
		"orig=$1 compr=$2 mem_used=$3 mem_used_max=$5 huge=$8 same=$6" \
		"pswpin=$(($(vmstat_of pswpin) - in0)) pswpout=$(($(vmstat_of pswpout) - out0))" \
		"peak=$(cat $CG/rp/memory.peak 2>/dev/null || echo 0)"
	# What the program left in the cgroup (PostgreSQL's server stops in run.sh).
	for s in $(cat $CG/rp/cgroup.procs); do kill -9 "$s" 2>/dev/null; done
	sleep 1
	rmdir $CG/rp
	zram_down
}

say "programs ${ZBW_PROGS:-} configurations ${ZBW_CONFIGS:-}"
for p in $(echo "${ZBW_PROGS:-}" | tr , ' '); do
	for c in $(echo "${ZBW_CONFIGS:-}" | tr , ' '); do
		run_one "$p" "$c"
	done
done
say "done"
echo "ZBW-RESULT: ok"
