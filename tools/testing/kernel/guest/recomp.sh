# shellcheck shell=dash
# (busybox sh: local is there)
# Sourced by guest/zbewalgo.sh: on kernels whose zram has multi-comp (6.12+),
# zbewalgo as zram's secondary algorithm (recomp_algorithm, recompress) and
# zram writeback to a loop device.  recomp_suite lists the checks (lib.sh);
# the sourcing script defines stressed_fill, $K, $D and $FILL.
#
# The data set is RC_PAGES 4 KiB pages of each of the kinds below, in this
# order, RC_N zram pages of each, so a page's index says what it is:
# debugfs block_state (memory tracking) then tells per page whether it is
# huge (h), idle (i), recompressed (r), incompressible (n) or written back
# (w). float pages are stored whole by lz4 and zstd and not by zbewalgo;
# random pages by all of them.
RC_KINDS="float random text int ramp sparse zero"
RC_PAGES=128
RC_N=$((RC_PAGES * 4096 / PSZ))
RC_DATA=/tmp/rc.dat
RC_ERR=/tmp/rc.err

# NAME FUNCTION [ARG...] a line, in order (zbewalgo.sh's suite).
recomp_suite() {
	echo recomp-setup check_recomp_setup
	echo recomp-huge check_recomp_huge
	echo recomp-idle check_recomp_idle
	echo recomp-huge-idle check_recomp_huge_idle
	echo recomp-swap check_recomp_swap
	echo verify-recomp verified recomp
	echo sysfs-stress-recomp stressed recomp
	echo writeback-zbewalgo check_writeback zbewalgo
	echo writeback-recomp check_writeback lz4 zbewalgo
}

# rc_range KIND: "FIRST LAST" page indices of KIND in the data set.
rc_range() {
	local i=0 k
	for k in $RC_KINDS; do
		[ "$k" = "$1" ] && { echo "$((i * RC_N)) $(((i + 1) * RC_N - 1))"; return 0; }
		i=$((i + 1))
	done
	return 1
}

# rc_count N FLAGS [KIND]: pages of zramN (of KIND) whose block_state flags
# have every letter of FLAGS ("h", "hn", ...); "-X" counts pages without X.
rc_count() {
	local lo=0 hi=999999999
	[ -z "${3:-}" ] || set -- "$1" "$2" $(rc_range "$3")
	[ $# -lt 4 ] || { lo=$3; hi=$4; }
	awk -v f="$2" -v lo="$lo" -v hi="$hi" '
		$1 >= lo && $1 <= hi {
			ok = 1
			for (i = 1; i <= length(f); i++) {
				c = substr(f, i, 1)
				if (c == "-") { neg = 1; continue }
				has = index($3, c) > 0
				if (neg ? has : !has) ok = 0
				neg = 0
			}
			n += ok
		}
		END { print n + 0 }' "$D/zram/zram$1/block_state"
}

# rc_stats N: the counters zram has for recompression and writeback.
rc_stats() {
	local d=/sys/block/zram$1
	echo "mm_stat [$(echo $(cat $d/mm_stat))] io_stat [$(echo $(cat $d/io_stat))]" \
		"${2:+bd_stat [$(echo $(cat $d/bd_stat))]}"
}

# rc_write N: the data set written to zramN (direct I/O, so it is in zram).
rc_write() {
	dd if=$RC_DATA of=/dev/zram$1 bs=64k oflag=direct 2>/dev/null
}

# rc_same N: zramN's first pages read back through the block device with
# direct I/O (every page decompressed or read from the backing device) are
# the data set, byte for byte.
rc_same() {
	[ "$(dd if=/dev/zram$1 bs=64k count=$((RC_PAGES * 7 / 16)) iflag=direct 2>/dev/null | sha256sum)" = \
		"$(sha256sum <$RC_DATA)" ]
}

# rc_recomp N ARGS: "echo ARGS > recompress", errors to $RC_ERR.
rc_recomp() {
	local n=$1
	shift
	echo "$*" 2>>$RC_ERR >/sys/block/zram$n/recompress
}

# rc_table: pages compressed by the sysfs table so far (stats' first field).
rc_table() { cut -d' ' -f1 $K/stats; }

# rc_data: the data set, once; recompress's errors from here on.
rc_data() {
	local k
	[ -s $RC_DATA ] && return 0
	: >$RC_ERR
	for k in $RC_KINDS; do zbwmem dump $k $RC_PAGES >>$RC_DATA; done
}

# --- setup: zbewalgo behind lz4 and behind zstd, with and without a level ---
check_recomp_setup() {
	local bad='' p n d
	for p in lz4 zstd; do
		n=$(cat /sys/class/zram-control/hot_add)
		d=/sys/block/zram$n
		if echo $p >$d/comp_algorithm && echo 'algo=zbewalgo priority=1' >$d/recomp_algorithm &&
			echo 'priority=1 level=3' >$d/algorithm_params && echo 16M >$d/disksize; then
			grep -q "\[$p\]" $d/comp_algorithm && grep -q '^#1: .*\[zbewalgo\]' $d/recomp_algorithm ||
				bad="$bad $p:[$(cat $d/comp_algorithm)][$(cat $d/recomp_algorithm)]"
		else
			bad="$bad $p:refused"
		fi
		zram_del "$n"
	done
	# A level zbewalgo does not have fails at disksize, as for the primary.
	n=$(cat /sys/class/zram-control/hot_add)
	d=/sys/block/zram$n
	echo lz4 >$d/comp_algorithm && echo 'algo=zbewalgo priority=1' >$d/recomp_algorithm &&
		echo 'priority=1 level=9' >$d/algorithm_params
	if echo 16M >$d/disksize 2>/dev/null; then bad="$bad level9:accepted"; fi
	zram_del "$n"
	[ -z "$bad" ] && pass "algo=zbewalgo priority=1 behind lz4 and zstd, algorithm_params priority=1 level=3; level 9 refused" ||
		flunk "$bad"
}

# --- behind lz4, the sysfs table: type=huge (max_pages, then all), type=idle ---
# rc_new PRIMARY [LEVEL]: a fresh 16 MiB zram device, zbewalgo at priority
# 1 (with LEVEL, else the sysfs table), the data set written; prints N.
rc_new() {
	local n d
	rc_data || return 1
	n=$(cat /sys/class/zram-control/hot_add) || return 1
	d=/sys/block/zram$n
	if echo "$1" >$d/comp_algorithm && echo 'algo=zbewalgo priority=1' >$d/recomp_algorithm &&
		{ [ -z "${2:-}" ] || echo "priority=1 level=$2" >$d/algorithm_params; } &&
		echo 16M >$d/disksize && rc_write "$n"; then
		echo "$n"
	else
		zram_del "$n"
		return 1
	fi
}

# The lz4 device of recomp-huge, which recomp-idle goes on with.
RC_LZ4=

check_recomp_huge() {
	local bad='' n h0 c0 t0 r1 n1 h1 h2 c2
	RC_LZ4=
	n=$(rc_new lz4) && rc_same "$n" || flunk "lz4 device with recomp_algorithm: setup, write or read failed" || return
	RC_LZ4=$n
	h0=$(rc_count $n h)
	c0=$(zram_stat $n mm_stat 2)
	t0=$(rc_table)
	info "recomp lz4 written: huge $h0 (float $(rc_count $n h float), random $(rc_count $n h random)), $(rc_stats $n)"
	# lz4 stores every float and random page whole.
	[ "$(rc_count $n h float)" = $RC_N ] && [ "$(rc_count $n h random)" = $RC_N ] ||
		bad="$bad lz4-not-huge:$h0"
	# max_pages counts tries: each page tried is either recompressed (r) or
	# marked incompressible (n). Which 16 is zram's business (7.2 picks
	# from the top of its size buckets).
	rc_recomp $n type=huge max_pages=16 || bad="$bad max_pages:refused"
	r1=$(rc_count $n r)
	n1=$(rc_count $n n)
	h1=$(rc_count $n h)
	[ $((r1 + n1)) = 16 ] && [ "$h1" = $((h0 - r1)) ] ||
		bad="$bad max_pages=16:r=$r1,n=$n1,huge=$h1"
	rc_recomp $n type=huge || bad="$bad huge:refused"
	h2=$(rc_count $n h)
	c2=$(zram_stat $n mm_stat 2)
	# Every random page stays as it was: huge, never recompressed, and
	# marked incompressible so that no pass tries it again.
	[ "$(rc_count $n hn-r random)" = $RC_N ] || bad="$bad random:[$(rc_count $n hn-r random)]"
	[ "$(rc_count $n r-h float)" -ge $((RC_N * 3 / 4)) ] || bad="$bad float-r:$(rc_count $n r float)"
	[ "$c2" -lt "$c0" ] || bad="$bad compr:$c0->$c2"
	[ "$(rc_table)" -gt "$t0" ] || bad="$bad not-counted-by-the-table"
	rc_same "$n" || bad="$bad huge:readback"
	info "recomp lz4 type=huge: huge $h0 -> $h2, compr $c0 -> $c2, recompressed $(rc_count $n r), $(rc_stats $n)"
	# Again: nothing left to do, nothing changes.
	rc_recomp $n type=huge || bad="$bad huge2:refused"
	[ "$(zram_stat $n mm_stat 2) $(rc_count $n h) $(rc_count $n r)" = "$c2 $h2 $(rc_count $n r)" ] || bad="$bad huge2:changed"
	[ -z "$bad" ] && pass "lz4 huge $h0 -> $h2 (max_pages=16: $r1 recompressed, $n1 incompressible), random pages kept whole and incompressible, compr $c0 -> $c2, read back exact; $(rc_stats $n)" ||
		flunk "$bad"
}

check_recomp_idle() {
	local bad='' n=$RC_LZ4 thi tmid ri ci r3 c3 r4 c4 c2
	[ -n "$n" ] || flunk "no device: recomp-huge failed to set it up" || return
	c2=$(zram_stat $n mm_stat 2)
	# Idle: everything not touched since "all" was written. threshold= only
	# tries objects at least that large and keeps results below it. With
	# 4 KiB pages lz4 stores text pages in 2000-2200 bytes, int and ramp
	# ones in 950-1300, zbewalgo text in about 1200; with 64 KiB pages
	# 31-32 KiB, 13-18 KiB and 15 KiB. So at 3/8 of a page only text is
	# tried, and it shrinks. The huge ones are done or incompressible.
	thi=$((PSZ * 3000 / 4096))
	tmid=$((PSZ * 3 / 8))
	echo all >/sys/block/zram$n/idle
	ri=$(rc_count $n r)
	rc_recomp $n type=idle threshold=$thi max_pages=64 || bad="$bad idle-$thi:refused"
	ci=$(zram_stat $n mm_stat 2)
	[ "$(rc_count $n r)" = "$ri" ] || bad="$bad threshold=$thi:recompressed-$(($(rc_count $n r) - ri))"
	rc_recomp $n type=idle threshold=$tmid || bad="$bad idle-$tmid:refused"
	r3=$(rc_count $n r)
	c3=$(zram_stat $n mm_stat 2)
	[ "$r3" -gt "$ri" ] && [ "$c3" -lt "$ci" ] || bad="$bad threshold=$tmid:r=$ri->$r3,compr=$ci->$c3"
	[ "$(rc_count $n r text)" -gt 0 ] && [ "$(rc_count $n r int)" = 0 ] && [ "$(rc_count $n r ramp)" = 0 ] ||
		bad="$bad threshold=$tmid:text=$(rc_count $n r text),int=$(rc_count $n r int),ramp=$(rc_count $n r ramp)"
	# Without a threshold the rest of the idle pages; int and ramp pages
	# were not touched, so they are still idle.
	rc_recomp $n type=idle || bad="$bad idle:refused"
	r4=$(rc_count $n r)
	c4=$(zram_stat $n mm_stat 2)
	[ "$(rc_count $n r int)" -gt 0 ] && [ "$c4" -lt "$c3" ] || bad="$bad idle:int=$(rc_count $n r int),compr=$c3->$c4"
	[ "$(rc_count $n r zero)" = 0 ] && [ "$(rc_count $n r random)" = 0 ] || bad="$bad idle:zero-or-random"
	rc_same "$n" || bad="$bad idle:readback"
	[ -z "$bad" ] && pass "lz4: threshold=$thi none, threshold=$tmid $((r3 - ri)) (text only), then $((r4 - r3)) more, compr $c2 -> $c3 -> $c4, read back exact; $(rc_stats $n)" ||
		flunk "$bad"
	zram_del "$n"
	RC_LZ4=
	[ -z "$bad" ]
}

# --- behind zstd, level 3: huge_idle leaves what was touched since "all" ---
check_recomp_huge_idle() {
	local bad='' half=$((RC_N / 2)) n d t0 h0 r0 r1
	n=$(rc_new zstd 3) || flunk "zstd device with recomp_algorithm level 3: setup or write failed" || return
	d=/sys/block/zram$n
	t0=$(rc_table)
	h0=$(rc_count $n h)
	echo all >$d/idle
	# The first half of the float pages written again: no longer idle.
	dd if=$RC_DATA of=/dev/zram$n bs=$PSZ count=$half oflag=direct 2>/dev/null
	rc_recomp $n type=huge_idle priority=1 || bad="$bad huge_idle:refused"
	r0=$(awk -v h=$half '$1 < h && $3 ~ /r/' $D/zram/zram$n/block_state | wc -l)
	r1=$(rc_count $n r float)
	[ "$r0" = 0 ] && [ "$r1" -ge $((half * 3 / 4)) ] || bad="$bad huge_idle:touched=$r0,idle=$r1"
	[ "$(rc_count $n r)" = "$r1" ] || bad="$bad huge_idle:not-float=$(($(rc_count $n r) - r1))"
	# Then huge: zbewalgo level 3 takes the rest of the floats zstd stored whole.
	rc_recomp $n type=huge || bad="$bad huge:refused"
	[ "$(rc_count $n r-h float)" -ge $((RC_N * 3 / 4)) ] || bad="$bad float-r:$(rc_count $n r float)"
	[ "$(rc_count $n hn-r random)" = $RC_N ] || bad="$bad random:[$(rc_count $n hn-r random)]"
	# A level's pages are not the sysfs table's.
	[ "$(rc_table)" = "$t0" ] || bad="$bad level3-counted-by-the-table"
	rc_same "$n" || bad="$bad readback"
	[ -z "$bad" ] && pass "zstd + zbewalgo level 3: huge_idle $r1 pages, none of the $half touched after 'all'; huge: huge $h0 -> $(rc_count $n h), recompressed $(rc_count $n r), read back exact; $(rc_stats $n)" ||
		flunk "$bad"
	zram_del "$n"
	[ -z "$bad" ]
}

# --- swap: recompression passes while the workload writes and faults pages
# and while /sys/kernel/zbewalgo is rewritten ---
# rc_loop N: passes until /tmp/rstop; "passes errors enomem max-recompressed"
# in /tmp/rloop.out. Under memory pressure zram's allocation for a
# recompressed object may fail (-ENOMEM ends that pass): counted apart.
rc_loop() {
	local n=$1 p=0 e=0 m=0 max=0 r c
	# three rounds at least: on a fill that ends within two, the swapped
	# pages are still there for the third
	while [ ! -e /tmp/rstop ] || [ "$p" -lt 3 ]; do
		for c in 'type=huge max_pages=512' 'type=huge_idle' "type=idle threshold=$((PSZ / 4)) max_pages=2048"; do
			: >/tmp/rloop.err
			if ! echo "$c" 2>/tmp/rloop.err >/sys/block/zram$n/recompress; then
				if grep -q 'memory' /tmp/rloop.err; then m=$((m + 1)); else e=$((e + 1)); cat /tmp/rloop.err; fi
			fi
		done
		echo all >/sys/block/zram$n/idle || e=$((e + 1))
		r=$(rc_count $n r)
		[ "$r" -le "$max" ] || max=$r
		p=$((p + 1))
		sleep 1
	done
	echo "$p $e $m $max" >/tmp/rloop.out
}
check_recomp_swap() {
	local z p e m max rpid st
	z=$(cat /sys/class/zram-control/hot_add)
	echo lz4 >/sys/block/zram$z/comp_algorithm &&
		echo 'algo=zbewalgo priority=1' >/sys/block/zram$z/recomp_algorithm &&
		echo 1G >/sys/block/zram$z/disksize && mkswap /dev/zram$z >/dev/null && swapon /dev/zram$z ||
		{ zram_del "$z"; flunk "setup failed"; return; }
	rm -f /tmp/rstop /tmp/rloop.out
	rc_loop "$z" &
	rpid=$!
	stressed_fill recomp "${ZBW_RECOMP_MIB:-$FILL}" /sys/block/zram$z/mm_stat /sys/block/zram$z/io_stat
	touch /tmp/rstop
	wait $rpid
	read -r p e m max </tmp/rloop.out
	st=$(rc_stats $z)
	info "recomp swap: $st, zbewalgo stats $(cat $K/stats)"
	swapoff /dev/zram$z || { zram_del "$z"; flunk "swapoff zram$z"; return; }
	zram_del "$z"
	[ "$p" -gt 0 ] && [ "$e" = 0 ] && [ "$max" -gt 0 ] &&
		pass "$p rounds of huge/huge_idle/idle passes during fill, fault-in and table rewrites; up to $max pages recompressed at once; $m pass(es) ended by -ENOMEM; $st" ||
		flunk "$p rounds, $e errors, $m -ENOMEM, max recompressed ${max:-none}"
}

# --- writeback to a loop device: zbewalgo as the primary and as the secondary ---
# rc_loopdev FILE: a loop device over a fresh 64 MiB FILE, printed.
rc_loopdev() {
	local l
	rm -f "$1"
	truncate -s 64M "$1" || return 1
	for l in /dev/loop0 /dev/loop1 /dev/loop2 /dev/loop3; do
		losetup "$l" "$1" 2>/dev/null && { echo "$l"; return 0; }
	done
	return 1
}
# check_writeback PRIMARY [SECONDARY]: zram with PRIMARY (and SECONDARY at
# priority 1) writes back its huge pages, then its idle ones.
check_writeback() {
	local name=$1 p=$1 s=${2:-} n d l bad='' h r w0 w1 note='' rc=0
	[ -z "$s" ] || name=recomp
	rc_data && l=$(rc_loopdev /tmp/backing-$name.img) || flunk "no loop device" || return
	n=$(cat /sys/class/zram-control/hot_add)
	d=/sys/block/zram$n
	if echo $p >$d/comp_algorithm && { [ -z "$s" ] || echo "algo=$s priority=1" >$d/recomp_algorithm; } &&
		echo "$l" >$d/backing_dev && echo 16M >$d/disksize && rc_write "$n"; then
		if [ -n "$s" ]; then
			rc_recomp $n type=huge || bad="$bad recompress:refused"
			note="recompressed $(rc_count $n r), "
		fi
		# What nothing could compress is left huge: the random pages (and
		# any float page the algorithms could not shrink).
		h=$(rc_count $n h)
		[ "$(rc_count $n h random)" = $RC_N ] || bad="$bad huge:$h,random:$(rc_count $n h random)"
		echo huge >$d/writeback || bad="$bad writeback-huge:refused"
		w0=$(zram_stat $n bd_stat 1)
		[ "$w0" = "$h" ] && [ "$(rc_count $n w random)" = $RC_N ] && [ "$(rc_count $n w)" = "$w0" ] ||
			bad="$bad written:$w0,random-w:$(rc_count $n w random)"
		rc_same "$n" || bad="$bad huge:readback"
		# Then what stayed idle: every stored page but zero-filled ones.
		echo all >$d/idle
		echo idle >$d/writeback || bad="$bad writeback-idle:refused"
		w1=$(zram_stat $n bd_stat 1)
		[ "$w1" -gt "$w0" ] && [ "$(rc_count $n -s-w)" = 0 ] && [ "$(rc_count $n w)" = "$w1" ] ||
			bad="$bad idle:$w0->$w1,left:$(rc_count $n -s-w)"
		r=$(zram_stat $n bd_stat 2)
		rc_same "$n" || bad="$bad idle:readback"
		[ "$(zram_stat $n bd_stat 2)" -gt "$r" ] || bad="$bad read-not-from-backing"
		[ -z "$bad" ] && pass "$p${s:+ + $s}: ${note}written back huge $w0 ($RC_N random), then idle: $w1; read back exact; $(rc_stats $n bd)" ||
			flunk "$bad; $(rc_stats $n bd)" || rc=1
	else
		flunk "setup failed (backing_dev $l)" || rc=1
	fi
	zram_del "$n"
	losetup -d "$l"
	rm -f /tmp/backing-$name.img
	[ -s $RC_ERR ] && info "recompress errors: $(tr '\n' '|' <$RC_ERR)"
	# The suite's last check: the guide's workloads that come next want
	# the memory of the data set.
	[ -z "$s" ] || rm -f $RC_DATA
	return $rc
}
