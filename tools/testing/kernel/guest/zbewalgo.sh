# Guest side of zbewalgo-tests.sh (busybox sh as /guest.sh). One line per check:
#   ZBW-CHECK: NAME ok|FAIL DETAILS
# and "ZBW-RESULT: ok" at the end only if every check passed. The host decides
# which checks must be there. Environment (kernel command line): ZBW_FILL_MIB, the
# swap workload's size (more than the guest's memory); ZBW_INTEGRATED=1 when
# zbewalgo was built into the tree (6.12+): testmgr has its vectors, and zswap runs;
# ZBW_MULTI_COMP=1 when zram has recompression and writeback (guest/recomp.sh).
set -u
FILL=${ZBW_FILL_MIB:-384}
INTEGRATED=${ZBW_INTEGRATED:-0}
K=/sys/kernel/zbewalgo
D=/sys/kernel/debug
# The kernel's page size: sizes below that are fractions of a page scale
# with it (arm64 guests may have 64 KiB pages); zbwmem's pages stay 4 KiB.
PSZ=$(zbwmem pagesize)
FAILED=0

ok() { echo "ZBW-CHECK: $1 ok${2:+ $2}"; }
fail() { echo "ZBW-CHECK: $1 FAIL ${2:-}"; FAILED=1; }
info() { echo "ZBW-INFO: $*"; }

# Splats anywhere in the log so far (see dmesg-bugs); any lockdep report also
# turns debug_locks off.
splats() {
	dmesg-bugs | grep -E 'BUG:|WARNING:|Oops|Call Trace|possible (circular|recursive) locking|lock(dep| debugging) .*(off|disabled)|inconsistent lock state|suspicious RCU usage|INFO: task'
	grep -q 'debug_locks: *1$' /proc/lockdep_stats || echo "debug_locks is off"
}

# zram_dev ALGO SIZE [PARAMS]: a fresh zram device, prints its number.
zram_dev() {
	local n
	n=$(cat /sys/class/zram-control/hot_add) || return 1
	echo "$1" >/sys/block/zram$n/comp_algorithm || return 1
	[ -z "${3:-}" ] || echo "$3" >/sys/block/zram$n/algorithm_params || return 1
	echo "$2" >/sys/block/zram$n/disksize || return 1
	echo "$n"
}

zram_del() {
	echo 1 >/sys/block/zram$1/reset && echo "$1" >/sys/class/zram-control/hot_remove
}

# mm_stat fields 1 and 2: orig_data_size > compr_data_size > 0.
compressed() {
	set -- $1
	[ "$#" -ge 3 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$2" -lt "$1" ]
}

# Lines of /proc/crypto for zbewalgo: "driver(type):selftest ...".
crypto_lines() {
	awk '/^name/ { n = $3 } /^driver/ { d = $3 } /^type/ { t = $3 }
	     /^selftest/ { s = $3 }
	     /^$/ { if (n == "zbewalgo") printf "%s(%s):%s ", d, t, s; n = "" }
	     END { if (n == "zbewalgo") printf "%s(%s):%s ", d, t, s }' /proc/crypto
}

# Without testmgr vectors "passed" only means registered: integrated trees have them.
check_crypto() {
	local l
	l=$(crypto_lines)
	if [ "$INTEGRATED" = 1 ] && dmesg | grep -q 'No test for zbewalgo'; then
		fail "$1" "testmgr has no vectors for zbewalgo"
	elif [ -n "$l" ] && ! echo "$l" | grep -q -v -e '^\([^ ]*:passed \)*$'; then
		ok "$1" "$l"
	else
		fail "$1" "/proc/crypto: ${l:-no zbewalgo}"
	fi
}

# fill NAME MIB STATFILE...: the verify workload, its log in /tmp/NAME.log.
fill() {
	local name=$1 mib=$2 rc=0
	shift 2
	zbwmem fill "$mib" 2 1 "$@" >/tmp/$name.log 2>&1 || rc=$?
	cat /tmp/$name.log
	local v
	v=$(grep '^zbwmem: verified=' /tmp/$name.log)
	if [ "$rc" = 0 ] && echo "$v" | grep -q ' mismatched=0 '; then
		ok "verify-$name" "${v#zbwmem: }"
	else
		fail "verify-$name" "exit $rc: ${v:-no result}"
	fi
}

# The table and thresholds rewritten as fast as a shell can, until /tmp/stop;
# then the thresholds it found are back.
stress() {
	local n=0 err=0 ea mo
	ea=$(cat $K/early_abort_size)
	mo=$(cat $K/max_output_size)
	while [ ! -e /tmp/stop ]; do
		for c in 'set bwt-mtf-huffman bitshuffle4-rle-huffman' \
			'add bitshuffle8-rle-huffman,jbe-huffman' 'remove bwt-mtf-huffman' \
			'set bewalgo2-bitshuffle4-jbe-rle;bwt-mtf-jbe2-huffman' reset; do
			echo "$c" >$K/combinations || err=$((err + 1))
		done
		echo $((n % 7 * 300 * PSZ / 4096)) >$K/early_abort_size || err=$((err + 1))
		echo $((PSZ - n % 5 * 400 * PSZ / 4096)) >$K/max_output_size || err=$((err + 1))
		cat $K/stats $K/wins >/dev/null || err=$((err + 1))
		n=$((n + 1))
		# Leave the workload most of the CPU: changes at 10-20 per second are plenty.
		usleep 20000
	done
	echo reset >$K/combinations
	echo "$ea" >$K/early_abort_size
	echo "$mo" >$K/max_output_size
	echo "$n $err" >/tmp/stress.out
}

stress_start() {
	rm -f /tmp/stop /tmp/stress.out
	stress &
	SPID=$!
}

stress_stop() {
	local n=0 err=0
	touch /tmp/stop
	wait $SPID
	read -r n err </tmp/stress.out
	[ "$n" -gt 0 ] && [ "$err" = 0 ] && ok "$1" "$n rounds of table/threshold writes, $err errors" ||
		fail "$1" "$n rounds, $err write errors"
}

# Keep info messages off the console (they split our lines); warnings still show.
echo 5 >/proc/sys/kernel/printk
info "kernel $(uname -r), $(grep MemTotal /proc/meminfo | tr -s ' '), $(grep -c ^processor /proc/cpuinfo) CPUs"
mount -t debugfs debugfs $D
# Reports from boot are not ours: only leaks from here on count.
echo clear >$D/kmemleak 2>/dev/null
# Out-of-tree modules (6.1) and the crypto glue as a module (6.12+) are in /extra.
MODS=
[ -e /extra/libzbewalgo.ko ] && MODS=libzbewalgo
[ -e /extra/zbewalgo.ko ] && MODS="${MODS:+$MODS }zbewalgo"

# --- kmemleak ------------------------------------------------------------------------
# kmemleak_check NAME: two scans; fail on a leak of ours, and fail when kmemleak
# cannot scan (it switches itself off when its object pool runs dry, which the
# swap phases' memory pressure does: then a "no leaks" would mean nothing).
kmemleak_off() {
	dmesg | grep -qE 'kmemleak: (Cannot allocate a kmemleak_object|Memory pool empty)|Kernel memory leak detector disabled'
}
kmemleak_check() {
	local all ours
	[ -e $D/kmemleak ] || { fail "$1" "no $D/kmemleak"; return; }
	kmemleak_off && { fail "$1" "kmemleak switched itself off: $(dmesg | grep -m1 kmemleak)"; return; }
	# Objects younger than 5 s are not reported; two scans settle the grey ones.
	sleep 6
	echo scan >$D/kmemleak || { fail "$1" "scan refused"; return; }
	sleep 6
	echo scan >$D/kmemleak || { fail "$1" "scan refused"; return; }
	cat $D/kmemleak >/tmp/leaks
	all=$(grep -c '^unreferenced object' /tmp/leaks)
	# A backtrace frame without a symbol is in an unloaded module: ours.
	ours=$(awk '/^unreferenced object/ { if (m) n++; m = 0 }
		/zbewalgo|zram|zcomp|zswap|crypto|scomp|acomp|0xffffffffc0/ { m = 1 }
		END { if (m) n++; print n + 0 }' /tmp/leaks)
	if [ "$ours" = 0 ]; then ok "$1" "no leaks of ours ($all unrelated), $2"
	else fail "$1" "$ours leak(s) of ours"; cat /tmp/leaks; fi
}

# --- modules and crypto self-test ---------------------------------------------------
err=
for m in $MODS; do insmod /extra/$m.ko || err="$err $m"; done
if [ -z "$err" ] && [ -d $K ]; then ok modules-load "${MODS:-none}; /proc/modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
else fail modules-load "insmod failed:${err:-} or no $K"; fi
dmesg | grep -i 'alg.*zbewalgo' | sed 's/^/ZBW-INFO: dmesg: /'
check_crypto crypto-selftest

# --- comp_algorithm -----------------------------------------------------------------
Z=/sys/block/zram0
if echo zbewalgo >$Z/comp_algorithm && grep -q '\[zbewalgo\]' $Z/comp_algorithm; then
	ok comp-algorithm "$(cat $Z/comp_algorithm)"
else
	fail comp-algorithm "$(cat $Z/comp_algorithm)"
fi

# --- bad sysfs input: rejected, table and thresholds intact ---------------------------
long=$(head -c 6000 /dev/zero | tr '\0' 'x')
# N distinct combinations, shortest first.  A table holds at most 256
# combinations and 64 steps in all (ZBEWALGO_MAX_TABLE_STEPS): the first
# 33 have 5 + 2 * 25 + 3 * 3 = 64 steps, the first 34 have 67.
combs() {
	local s="bwt mtf jbe rle jbe2" a b c d
	{ for a in $s; do echo $a; done
	  for a in $s; do for b in $s; do echo $a-$b; done; done
	  for a in $s; do for b in $s; do for c in $s; do echo $a-$b-$c; done; done; done
	  for a in $s; do for b in $s; do for c in $s; do for d in $s; do echo $a-$b-$c-$d
	  done; done; done; done; } | head -n "$1" | tr '\n' ' '
}
bad=
# The largest table is accepted, and its files stay readable (one page each).
echo "set $(combs 33)" >$K/combinations && [ "$(grep -c . $K/combinations)" -eq 33 ] &&
	cat $K/wins $K/stats >/dev/null || bad="$bad [a table of 64 steps refused]"
echo 'set bwt-mtf-huffman' >$K/combinations || bad="$bad set-one"
before=$(cat $K/combinations $K/early_abort_size $K/max_output_size)
for w in 'set nosuchstep' 'set bwt-mtf-rle-huffman-jbe-rle-mtf-huffman' '' 'set' 'set  ' \
	"set $long" "add $long" "set $(combs 34)" "set $(combs 257)" "set rle rle" 'add bwt-mtf-huffman' 'remove bwt-mtf-huffman' \
	'remove jbe-huffman' 'frobnicate bwt' 'reset now' 'set bwt--mtf' 'set -bwt'; do
	if echo "$w" >$K/combinations 2>/dev/null; then bad="$bad [combinations:$(echo "$w" | cut -c1-40)]"; fi
done
for f in early_abort_size max_output_size; do
	for w in abc -1 99999999 65541 '' 12abc "$long"; do
		if echo "$w" >$K/$f 2>/dev/null; then bad="$bad [$f:$(echo "$w" | cut -c1-20)]"; fi
	done
done
after=$(cat $K/combinations $K/early_abort_size $K/max_output_size)
[ "$before" = "$after" ] || bad="$bad changed:[$after]"
echo reset >$K/combinations || bad="$bad reset"
if [ -z "$bad" ]; then ok sysfs-bad-input "all rejected, table intact"
else fail sysfs-bad-input "accepted or changed:$bad"; fi

# --- ext2 on zram: a data set survives the page cache being dropped -----------------
mkdir -p /mnt /tmp/data
zbwmem files /tmp/data 8 >/dev/null
(cd /tmp/data && sha256sum *.dat) >/tmp/sums
r=fail detail=
if n=$(zram_dev zbewalgo 64M) && mke2fs -q -b 4096 /dev/zram$n && mount -t ext2 /dev/zram$n /mnt; then
	cp /tmp/data/*.dat /mnt/ && sync
	echo 3 >/proc/sys/vm/drop_caches
	st=$(cat /sys/block/zram$n/mm_stat)
	if (cd /mnt && sha256sum -c /tmp/sums >/dev/null) && zbwmem check /mnt 8 >/tmp/check.log &&
		compressed "$st"; then
		r=ok
	fi
	detail="$(tail -n 1 /tmp/check.log) mm_stat: $st"
	umount /mnt
	zram_del "$n"
fi
[ "$r" = ok ] && ok ext2-zram "$detail" || fail ext2-zram "${detail:-zram/mke2fs/mount failed}"

# --- preset levels (zram backends only): each round-trips, an unknown one is refused ---
# The global stats and wins describe the sysfs table: a preset's pages are in
# neither. Nothing else compresses with zbewalgo meanwhile.
wins_sum() { awk '{ n += $1 } END { print n + 0 }' $K/wins; }
if [ -e $Z/algorithm_params ]; then
	bad=
	stats0="$(cut -d' ' -f1 $K/stats) $(wins_sum)"
	for l in 1 2 3; do
		if n=$(zram_dev zbewalgo 32M "algo=zbewalgo level=$l"); then
			cat /tmp/data/*.dat | dd of=/dev/zram$n bs=1M conv=fsync 2>/dev/null
			blockdev --flushbufs /dev/zram$n
			[ "$(cat /tmp/data/*.dat | sha256sum)" = "$(head -c 8388608 /dev/zram$n | sha256sum)" ] ||
				bad="$bad level$l:mismatch"
			info "level $l mm_stat: $(cat /sys/block/zram$n/mm_stat)"
			zram_del "$n"
		else
			bad="$bad level$l:setup"
		fi
	done
	stats1="$(cut -d' ' -f1 $K/stats) $(wins_sum)"
	[ "$stats0" = "$stats1" ] || bad="$bad stats/wins-counted-presets:[$stats0]->[$stats1]"
	# Only 1-3 are levels: 0 and negative ones fail at disksize like 9.
	for l in 9 0 -1; do
		n=$(cat /sys/class/zram-control/hot_add)
		echo zbewalgo >/sys/block/zram$n/comp_algorithm
		echo "algo=zbewalgo level=$l" >/sys/block/zram$n/algorithm_params
		if echo 16M >/sys/block/zram$n/disksize 2>/dev/null; then bad="$bad level$l:accepted"; fi
		zram_del "$n"
	done
	# No level= at all is zram's "not set": the sysfs table, and it counts.
	if n=$(zram_dev zbewalgo 16M "algo=zbewalgo"); then
		head -c 1048576 "/tmp/data/$(ls /tmp/data | head -n 1)" >/dev/zram$n
		blockdev --flushbufs /dev/zram$n
		[ "$(cut -d' ' -f1 $K/stats)" -gt "${stats1%% *}" ] || bad="$bad no-level:not-counted"
		zram_del "$n"
	else
		bad="$bad no-level:setup"
	fi
	# algorithm_params names an algorithm the device already has: before
	# comp_algorithm is zbewalgo, algo=zbewalgo is refused (the guide says so).
	n=$(cat /sys/class/zram-control/hot_add)
	if echo "algo=zbewalgo level=1" >/sys/block/zram$n/algorithm_params 2>/dev/null; then
		bad="$bad params-before-comp_algorithm:accepted"
	fi
	zram_del "$n"
	[ -z "$bad" ] && ok zram-levels "1 2 3 round-trip, not in stats/wins; 9 0 -1 refused; none = sysfs table; params before comp_algorithm refused" ||
		fail zram-levels "$bad"
fi
rm -rf /tmp/data

# --- kmemleak before the memory pressure: module load, self-tests, sysfs, zram, ext2 ---
kmemleak_check kmemleak "after module load, self-tests, sysfs writes, ext2 and levels"

# --- swap on zram under memory pressure, table rewritten all along --------------------
if echo 1G >$Z/disksize && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0; then
	stress_start
	fill zram "$FILL" $Z/mm_stat $K/stats
	stress_stop sysfs-stress
	st=$(grep "stat $Z/mm_stat" /tmp/zram.log | sed 's/.*: //')
	# An eighth of the fill at least must have gone to zram (x86_64
	# guests swap out 60-70% of it; a guest with memory to spare, none).
	orig=$(echo ${st:-0} | cut -d' ' -f1)
	compressed "$st" && [ "$orig" -ge $((FILL << 17)) ] &&
		ok swap-zram "mm_stat: $st" ||
		fail swap-zram "mm_stat: ${st:-none}; wanted at least $((FILL / 8)) MiB swapped out"
	swapoff /dev/zram0 || fail swapoff "zram0"
else
	fail swap-zram "disksize/mkswap/swapon failed"
fi
echo 1 >$Z/reset

# --- zswap with compressor=zbewalgo, backed by zram with lz4 ---------------------------
P=/sys/module/zswap/parameters
if [ "$INTEGRATED" = 1 ]; then
	[ -e $P/zpool ] && echo zsmalloc >$P/zpool
	echo 50 >$P/max_pool_percent
	if n=$(zram_dev lz4 1G) && mkswap /dev/zram$n >/dev/null && swapon /dev/zram$n &&
		echo zbewalgo >$P/compressor && echo Y >$P/enabled; then
		info "zswap: compressor $(cat $P/compressor) enabled $(cat $P/enabled)"
		stress_start
		fill zswap "${ZBW_ZSWAP_MIB:-$FILL}" $D/zswap/stored_pages $D/zswap/pool_total_size \
			$D/zswap/written_back_pages $D/zswap/reject_compress_poor
		stress_stop sysfs-stress-zswap
		sp=$(grep 'stat .*stored_pages' /tmp/zswap.log | sed 's/.*: //')
		pool=$(grep 'stat .*pool_total_size' /tmp/zswap.log | sed 's/.*: //')
		[ "${sp:-0}" -gt 0 ] 2>/dev/null && ok zswap "stored_pages $sp pool_total_size $pool" ||
			fail zswap "stored_pages ${sp:-none}"
		echo N >$P/enabled
		# Another compressor frees zbewalgo's pool, so the module can go.
		echo lz4 >$P/compressor
		swapoff /dev/zram$n || fail swapoff "zram$n (zswap)"
		zram_del "$n"
	else
		fail zswap "setup failed: compressor $(cat $P/compressor)"
	fi
fi

# --- zbewalgo as zram's secondary algorithm, and writeback (multi-comp, 6.12+) ---
if [ "${ZBW_MULTI_COMP:-0}" = 1 ]; then
	if [ -e $Z/recomp_algorithm ] && [ -e $Z/writeback ] && [ -e $D/zram ]; then
		. /extra/recomp.sh
	else
		fail recomp-setup "no recomp_algorithm, writeback or debugfs zram in this kernel"
	fi
fi

# --- module unload and reload -------------------------------------------------------
if [ -n "$MODS" ]; then
	rev=
	for m in $MODS; do rev="$m${rev:+ $rev}"; done
	err=
	for m in $rev; do
		# zswap frees a pool from a work item: give it a moment.
		i=0
		until rmmod $m 2>/dev/null; do
			i=$((i + 1))
			[ $i -lt 20 ] || { err="$err rmmod:$m"; break; }
			sleep 1
		done
	done
	crypto_lines | grep -q . && err="$err still-in-/proc/crypto"
	[ -z "$err" ] && [ -e /extra/libzbewalgo.ko ] && [ -d $K ] && err="$err $K-still-there"
	for m in $MODS; do insmod /extra/$m.ko || err="$err insmod:$m"; done
	# The reloaded code works: a zram round trip through it.
	head -c 8388608 /dev/urandom >/tmp/r
	zbwmem files /tmp 8 >/dev/null && cat /tmp/*.dat /tmp/r >/tmp/all && rm /tmp/*.dat /tmp/r
	if n=$(zram_dev zbewalgo 32M); then
		dd if=/tmp/all of=/dev/zram$n bs=1M conv=fsync 2>/dev/null
		blockdev --flushbufs /dev/zram$n
		[ "$(sha256sum </tmp/all)" = "$(head -c $(stat -c %s /tmp/all) /dev/zram$n | sha256sum)" ] ||
			err="$err round-trip-after-reload"
		zram_del "$n"
	else
		err="$err zram-after-reload"
	fi
	rm -f /tmp/all
	[ -z "$err" ] && ok module-reload "$rev unloaded, $MODS loaded again, zram round trip ok" ||
		fail module-reload "$err"
	check_crypto crypto-selftest-reload
fi

# --- the admin guide's blocks (doc-run.sh), on the modules as modprobe finds them ----
# /lib/modules holds modules.builtin and our modules, depmod'ed on the host;
# the kernel's request_module() and the guide's modprobe use busybox's.
mkdir -p /sbin
ln -sf /bin/busybox /sbin/modprobe
. /extra/doc-run.sh
doc_run
doc_clean

# --- kmemleak after everything, if it survived the memory pressure -------------------
# The required check ran before the swap phases; a second one here covers them
# and the module reload when kmemleak is still on (it usually is not: its
# 16000-object pool runs dry under the swap workload).
if kmemleak_off; then
	info "kmemleak: switched itself off during the swap phases; no final scan"
else
	kmemleak_check kmemleak-final "after swap, zswap and module reload"
fi

# --- splats ---------------------------------------------------------------------------
s=$(splats)
if [ -z "$s" ]; then ok no-splat "no BUG/WARNING/Oops/lockdep report, debug_locks 1"
else fail no-splat "$(echo "$s" | head -n 3 | tr '\n' '|')"; dmesg | tail -n 80; fi
n=$(dmesg | grep -c 'page allocation failure:' || true)
[ "$n" = 0 ] || info "warn_alloc: $n allocation failure report(s) under memory pressure (a trace through zbewalgo is a splat)"

info "zbewalgo stats: $(cat $K/stats 2>/dev/null)"
[ "$FAILED" = 0 ] && echo "ZBW-RESULT: ok" || echo "ZBW-RESULT: FAIL"
