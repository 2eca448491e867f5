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
# so that the host can cut PROGRAM.bin out of the disk. From those pages
# (yesterday's swap, as a deployment would have it) zstd --train makes the
# program's dictionary of ZBW_DICT_KIB (32) KiB, which "zstd+dict" and
# "zbewalgo+dict" then load with algorithm_params dict=:
#   ZBW-DICT: prog=P bytes=N max=N id=ID pages=N sec=S
# A configuration whose zram0 cannot be set up (e.g. its dict= refused)
# still gets its ZBW-RP line, with rc=zram and zeros, so that the table
# fails.
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
# zbewalgo's settings per device: which dictionary it loaded.
mount -t debugfs none /sys/kernel/debug 2>/dev/null
# Setup that is no part of any program's time: compiled once per boot.
chroot $R /bin/sh /realprog/run.sh setup "${ZBW_PROGS:-}" || { say "setup failed"; exit 1; }

uptime_cs() { awk '{ sub(/\./, "", $1); print $1 }' /proc/uptime; }
vmstat_of() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# The id a zstd dictionary carries: bytes 4-7, little-endian.
dict_id() {
	od -An -tu4 -j4 -N4 "$1" | tr -d ' '
}

# train_dict P FIRST COUNT: P's dictionary, /tmp/dict-P, from the COUNT pages
# its capture run wrote to /dev/vdb from page FIRST on.
train_dict() {
	local p=$1 t0 n
	rm -f /tmp/dict-"$p"
	[ "$3" -gt 0 ] || { say "$p: no captured pages to train a dictionary on"; return 1; }
	t0=$(uptime_cs)
	if ! dd if=/dev/vdb of=$R/tmp/train.pages bs=4096 skip="$2" count="$3" 2>/tmp/train.log ||
		! chroot $R zstd -q -f --train -B4096 --maxdict=$((${ZBW_DICT_KIB:-32} * 1024)) \
			/tmp/train.pages -o /tmp/train.dict >>/tmp/train.log 2>&1 ||
		! cp $R/tmp/train.dict /tmp/dict-"$p"; then
		sed 's/^/# /' /tmp/train.log | tail -n 5
		say "$p: zstd --train failed"
		rm -f /tmp/dict-"$p"
	fi
	rm -f $R/tmp/train.pages $R/tmp/train.dict
	[ -s /tmp/dict-"$p" ] || return 1
	n=$(($(uptime_cs) - t0))
	echo "ZBW-DICT: prog=$p bytes=$(wc -c </tmp/dict-"$p") max=$((${ZBW_DICT_KIB:-32} * 1024))" \
		"id=$(dict_id /tmp/dict-"$p") pages=$3" \
		"sec=$((n / 100)).$(printf %02d $((n % 100)))"
}

# zram0 for configuration C of program P, swap on it.
zram_up() {
	local d=/tmp/dict-$2
	[ -e $Z ] || cat /sys/class/zram-control/hot_add >/dev/null
	case $1 in
	*+dict) [ -s "$d" ] || { say "$2: no dictionary (the capture run trains it)"; return 1; } ;;
	esac
	case $1 in
	lz4|capture) echo lz4 >$Z/comp_algorithm ;;
	zstd) echo zstd >$Z/comp_algorithm ;;
	zbewalgo) echo zbewalgo >$Z/comp_algorithm ;;
	zbewalgo-1) echo zbewalgo >$Z/comp_algorithm &&
		echo 'algo=zbewalgo level=1' >$Z/algorithm_params ;;
	lz4+zbw) echo lz4 >$Z/comp_algorithm &&
		echo 'algo=zbewalgo priority=1' >$Z/recomp_algorithm ;;
	# zram reads the file when the line is written, the backend takes
	# it at disksize: a refusal fails one of them.
	zstd+dict) echo zstd >$Z/comp_algorithm &&
		echo "algo=zstd dict=$d" >$Z/algorithm_params ;;
	zbewalgo+dict) echo zbewalgo >$Z/comp_algorithm &&
		echo "algo=zbewalgo dict=$d" >$Z/algorithm_params ;;
	*) say "unknown configuration $1"; return 1 ;;
	esac || return 1
	# The capture reads the whole device at every look: keep it small.
	if [ "$1" = capture ]; then
		echo "${ZBW_CAPTURE_ZRAM_SIZE:-256M}" >$Z/disksize || return 1
	else
		echo "${ZBW_ZRAM_SIZE:-1G}" >$Z/disksize || return 1
	fi
	# zbewalgo's debugfs settings name the dictionary the device holds.
	if [ "$1" = zbewalgo+dict ] &&
		! grep -qx "dict $(dict_id "$d")" /sys/kernel/debug/zbewalgo/*/settings 2>/dev/null; then
		say "$2: zbewalgo+dict: no device holds dictionary $(dict_id "$d")"
		return 1
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
	local p=$1 c=$2 lim rc=0 t0 t1 in0 out0 spid rpid='' cpid='' s off0 off1
	eval "lim=\${ZBW_LIMIT_$(echo "$p" | tr a-z- A-Z_):-64}"
	if ! zram_up "$c" "$p"; then
		say "zram setup for $c failed"
		echo "ZBW-RP: prog=$p conf=$c rc=zram limit=$lim wall=0 orig=0 compr=0 mem_used=0" \
			"mem_used_max=0 huge=0 same=0 pswpin=0 pswpout=0 peak=0"
		zram_down
		return 1
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
	mkdir -p $CG/rp
	echo "${lim}M" >$CG/rp/memory.max
	sampler & spid=$!
	[ "$c" != lz4+zbw ] || { recomp_loop & rpid=$!; }
	if [ "$c" = capture ]; then
		off0=$(cat $R/tmp/capture.off 2>/dev/null || echo 0)
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
	if [ "$c" = capture ]; then
		off1=$(cat $R/tmp/capture.off 2>/dev/null || echo 0)
		train_dict "$p" "$off0" $((off1 - off0))
	fi
	return 0
}

say "programs ${ZBW_PROGS:-} configurations ${ZBW_CONFIGS:-}"
for p in $(echo "${ZBW_PROGS:-}" | tr , ' '); do
	for c in $(echo "${ZBW_CONFIGS:-}" | tr , ' '); do
		run_one "$p" "$c"
	done
done
say "done"
echo "ZBW-RESULT: ok"
