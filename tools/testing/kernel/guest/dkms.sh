# shellcheck shell=dash
# (busybox sh: local is there)
# Guest side of dkms.sh (busybox sh as /guest.sh) on a stock Debian kernel, with
# /lib/modules/$(uname -r) holding the stock modules the suite needs and the
# DKMS-installed zbewalgo modules (depmod'ed on the host): the suite in KTAP, one
# function per check (lib.sh). ZBW_SUITE (kernel command line) picks the suite:
# zram (default) on Debian 12's 6.1, whose zram takes crypto API algorithms:
# autoload through zram, swap on zram, the distribution tools, zswap; zswap on
# Debian 13's 6.12, whose zram only knows its compiled-in backends: autoload
# through zswap's compressor parameter, the admin guide's zswap block and a
# workload through what it set up. Environment (kernel command line): ZBW_KVER,
# the kernel the modules were built for; ZBW_FILL_MIB, the main swap workload
# (more than the guest's 256 MiB); ZBW_EXAMPLE_MIB, the one run on each
# configuration example and through zswap (MADV_PAGEOUT pushes it out, no
# pressure needed). Debian's zramctl, swapon and mkswap are in /usr/sbin and its
# bash in /bin; busybox sh prefers its own applets, so scripts that need
# Debian's swapon run under bash.
set -u
export PATH=/usr/sbin:/sbin:/bin:/extra
. /extra/lib.sh
FILL=${ZBW_FILL_MIB:-320}
EX=${ZBW_EXAMPLE_MIB:-64}
K=/sys/kernel/zbewalgo
Z=/sys/block/zram0
G=/lib/systemd/system-generators/zram-generator

loaded() { grep -q "^$1 " /proc/modules; }

# swapped NAME DEV (after fill NAME): the device's mm_stat shows compressed pages.
swapped() {
	local st
	st=$(filled_stat "$1" "/sys/block/$2/mm_stat")
	compressed "$st" && echo "mm_stat: $st" && return 0
	echo "mm_stat: ${st:-none}"
	return 1
}

# --- the stock kernel, and our modules as DKMS installed them --------------------------
check_stock_kernel() {
	local kv
	kv=$(uname -r)
	[ "$kv" = "${ZBW_KVER:-}" ] && grep -q 'Debian' /proc/version && [ -f /lib/modules/$kv/modules.dep ] &&
		pass "$kv; DKMS modules: $(cd /lib/modules/$kv && find updates -name '*.ko' | sort | tr '\n' ' ')" ||
		flunk "uname -r $kv, want ${ZBW_KVER:-?}; $(cat /proc/version)"
}

check_modprobe_zram() {
	modprobe zram && loaded zram && [ -d $Z ] &&
		pass "$(cut -d' ' -f1 /proc/modules | tr '\n' ' ')" ||
		flunk "$(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
}

# Nothing of ours is loaded yet: zram asks the crypto API for "zbewalgo", which
# requests module crypto-zbewalgo, the alias of zbewalgo.ko (libzbewalgo.ko first).
check_autoload() {
	local m
	! loaded zbewalgo || flunk "zbewalgo loaded before zram asked for it" || return
	echo zbewalgo >$Z/comp_algorithm && loaded zbewalgo && loaded libzbewalgo && [ -d $K ] &&
		pass "echo zbewalgo > comp_algorithm loaded: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')" &&
		return
	flunk "comp_algorithm: $(cat $Z/comp_algorithm); modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
	# The checks after this one need the modules.
	for m in libzbewalgo zbewalgo; do loaded $m || modprobe $m; done
	return 1
}

# Debian signs its modules but does not enforce signatures: ours (signed with
# DKMS's own key, unknown to this kernel) load and taint the kernel with E.
check_modules_signature() {
	local taint msg
	taint=$(cat /proc/sys/kernel/tainted)
	msg=$(dmesg | grep -m1 'module verification failed' | sed 's/^\[[^]]*\] //')
	[ $((taint & 8192)) != 0 ] && [ -n "$msg" ] && loaded zbewalgo &&
		pass "loaded unverified: tainted=$taint (E$([ $((taint & 4096)) = 0 ] || echo ' O')); $msg" ||
		flunk "tainted=$taint, dmesg: ${msg:-no verification message}"
}

# No testmgr vectors for an out-of-tree module: "passed" means registered and usable.
check_crypto() {
	local l
	l=$(crypto_lines)
	[ -n "$l" ] && ! echo "$l" | grep -q -v -e '^\([^ ]*:passed \)*$' && pass "${l% }" ||
		flunk "/proc/crypto: ${l:-no zbewalgo}"
}

check_comp_algorithm() {
	grep -q '\[zbewalgo\]' $Z/comp_algorithm && pass "$(cat $Z/comp_algorithm)" ||
		flunk "$(cat $Z/comp_algorithm)"
}

# --- swap on zram under memory pressure, every page verified ---------------------------
check_swap_zram() {
	local s rc=0
	echo 1G >$Z/disksize && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 ||
		flunk "disksize/mkswap/swapon failed" || return
	fill zram "$FILL" $Z/mm_stat $K/stats
	s=$(swapped zram zram0) || rc=1
	swapoff /dev/zram0 || { rc=1; s="$s; swapoff failed"; }
	echo 1 >$Z/reset
	info "zbewalgo stats after swap-zram: $(cat $K/stats)"
	DETAIL=$s
	return $rc
}

# --- zramctl (util-linux) ----------------------------------------------------------------
check_zramctl() {
	local dev n row s rc=0
	dev=$(zramctl --find --size 512M --algorithm zbewalgo) && [ -b "$dev" ] ||
		flunk "zramctl --find failed" || return
	n=${dev#/dev/}
	row=$(zramctl --noheadings --output NAME,ALGORITHM,DISKSIZE "$dev" | tr -s ' ')
	info "zramctl --find --size 512M --algorithm zbewalgo -> $dev; zramctl: $row"
	if echo "$row" | grep -q ' zbewalgo ' && grep -q '\[zbewalgo\]' /sys/block/$n/comp_algorithm &&
		mkswap "$dev" >/dev/null && swapon "$dev"; then
		fill zramctl "$EX" /sys/block/$n/mm_stat
		s=$(swapped zramctl "$n") || rc=1
		DETAIL="$dev: $row; $s"
		swapoff "$dev"
	else
		DETAIL="$row; $(cat /sys/block/$n/comp_algorithm)"
		rc=1
	fi
	# util-linux 2.38 removes the device on --reset (hot_remove) as well.
	zramctl --reset "$dev" || { DETAIL="$DETAIL; zramctl --reset $dev failed"; rc=1; }
	return $rc
}

# --- Debian zram-tools: /etc/default/zramswap, ALGO=zbewalgo --------------------------
# As at boot: zram not loaded, zramswap's own modprobe creates zram0 (zramctl
# --reset above removed that device). zramswap runs under Debian's bash.
check_zramswap() {
	local rc=0 sw s
	modprobe -r zram || flunk "modprobe -r zram before zramswap start" || return
	doc_install zramswap-conf || flunk "the guide's /etc/default/zramswap" || return
	/usr/sbin/zramswap start >/tmp/zramswap.out 2>&1 || rc=$?
	sed 's/^/# zramswap start: /' /tmp/zramswap.out
	sw=$(grep '^/dev/zram0' /proc/swaps | tr -s ' \t' ' ')
	[ "$rc" = 0 ] && grep -q '\[zbewalgo\]' $Z/comp_algorithm && [ "$(echo "$sw" | cut -d' ' -f5)" = 100 ] ||
		flunk "exit $rc, $(cat $Z/comp_algorithm), swaps: ${sw:-none}" || return
	fill zramswap "$EX" $Z/mm_stat
	s=$(swapped zramswap zram0) || flunk "$s" || return
	DETAIL="swaps: $sw; $s"
	# stop: swapoff, then modprobe -r zram (our modules stay: nothing needs zram for them).
	/usr/sbin/zramswap stop >/tmp/zramswap.out 2>&1 && ! loaded zram ||
		flunk "zramswap stop: $(cat /tmp/zramswap.out); modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
}

# --- systemd zram-generator: units, then systemd-zram-setup@zram0's command ----------
# No systemd here: the generator writes its units into a directory (it loads zram
# and creates the device itself), --setup-device sets algorithm and size and runs
# systemd-makefs (a stand-in around mkswap), and the swapon of dev-zram0.swap is
# done by hand with the unit's options.
check_zram_generator_units() {
	local rc=0 u=/tmp/gen/dev-zram0.swap
	doc_install zram-generator-conf || flunk "the guide's zram-generator.conf" || return
	rm -rf /tmp/gen && mkdir /tmp/gen
	$G /tmp/gen >/tmp/gen.out 2>&1 || rc=$?
	sed 's/^/# zram-generator: /' /tmp/gen.out
	[ "$rc" = 0 ] && grep -qx 'What=/dev/zram0' $u && grep -qx 'Priority=100' $u &&
		[ -L /tmp/gen/swap.target.wants/dev-zram0.swap ] && [ -d $Z ] &&
		pass "$(cd /tmp/gen && find . -type f -o -type l | sort | tr '\n' ' ')" ||
		flunk "exit $rc; $(ls -R /tmp/gen | tr '\n' ' ')"
}

check_zram_generator_setup() {
	local rc=0 ram ds prio s
	[ -e /tmp/gen/dev-zram0.swap ] || flunk "no units: zram-generator-units failed" || return
	$G --setup-device zram0 >/tmp/gen.out 2>&1 || rc=$?
	sed 's/^/# zram-generator --setup-device zram0: /' /tmp/gen.out
	# The guide's "ram / 2"; the generator computes in whole MiB: allow a few below.
	ram=$(awk '/^MemTotal/ { print $2 * 1024 }' /proc/meminfo)
	ds=$(cat $Z/disksize)
	prio=$(sed -n 's/^Priority=//p' /tmp/gen/dev-zram0.swap)
	[ "$rc" = 0 ] && grep -q '\[zbewalgo\]' $Z/comp_algorithm && [ "$ds" -le $((ram / 2)) ] &&
		[ "$ds" -ge $((ram / 2 - 4 * 1048576)) ] && /usr/sbin/swapon -p "$prio" /dev/zram0 ||
		flunk "exit $rc, $(cat $Z/comp_algorithm), disksize $ds" || return
	fill zram-generator "$EX" $Z/mm_stat
	s=$(swapped zram-generator zram0)
	rc=$?
	swapoff /dev/zram0
	$G --reset-device zram0 >/dev/null 2>&1 && [ "$(cat $Z/disksize)" = 0 ] ||
		flunk "--reset-device: disksize $(cat $Z/disksize)" || return
	DETAIL="$(cat $Z/comp_algorithm), disksize $ds (ram/2 of $ram), swapon -p $prio; $s"
	return $rc
}

# --- zswap, compressor=zbewalgo: the crypto module serves zswap on any kernel -------
# Backed by a zram device with lz4; MADV_PAGEOUT sends the workload through zswap.
check_zswap() {
	local n p=/sys/module/zswap/parameters
	mount -t debugfs debugfs /sys/kernel/debug
	n=$(zram_dev lz4 512M) && mkswap /dev/zram$n >/dev/null && swapon /dev/zram$n &&
		echo zbewalgo >$p/compressor && echo Y >$p/enabled ||
		flunk "setup failed: compressor $(cat $p/compressor)" || return
	zswap_run "$n"
}

# zswap_run N (after the zswap set-up over the swap on /dev/zramN): the
# workload through zswap (fill zswap), then zswap off and the swap gone;
# passes when zswap stored pages.
zswap_run() {
	local n=$1 sp pool p=/sys/module/zswap/parameters dz=/sys/kernel/debug/zswap
	info "zswap: compressor $(cat $p/compressor), zpool $(cat $p/zpool), enabled $(cat $p/enabled)"
	fill zswap "$EX" $dz/stored_pages $dz/pool_total_size $dz/reject_compress_poor
	sp=$(filled_stat zswap $dz/stored_pages)
	pool=$(filled_stat zswap $dz/pool_total_size)
	echo N >$p/enabled
	swapoff /dev/zram$n || flunk "swapoff zram$n" || return
	echo 1 >/sys/block/zram$n/reset
	[ "${sp:-0}" -gt 0 ] 2>/dev/null && pass "stored_pages $sp pool_total_size $pool" ||
		flunk "stored_pages ${sp:-none}"
}

# --- zswap suite (6.12): zram takes no crypto API algorithm there -------------------
# Nothing of ours is loaded yet: zswap asks the crypto API for "zbewalgo"
# (crypto_has_acomp, then its pool's acomp), which requests module
# crypto-zbewalgo. zswap does that when it sets up a pool: at the write to
# compressor once zswap is initialized, else at its first enabling (6.12
# initializes zswap then; Debian boots it disabled). In the guide's order:
# the compressor, then enabled; zswap is disabled again afterwards.
check_autoload_zswap() {
	local m at p=/sys/module/zswap/parameters
	! loaded zbewalgo || flunk "zbewalgo loaded before zswap asked for it" || return
	echo zbewalgo >$p/compressor && at="echo zbewalgo > compressor"
	loaded zbewalgo || { echo Y >$p/enabled && at="$at, then echo Y > enabled,"; }
	if [ "$(cat $p/compressor)" = zbewalgo ] && loaded zbewalgo && loaded libzbewalgo && [ -d $K ]; then
		echo N >$p/enabled
		pass "$at loaded: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
		return
	fi
	flunk "${at:-the write failed}: compressor $(cat $p/compressor), enabled $(cat $p/enabled); modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
	echo N >$p/enabled
	# The checks after this one need the modules.
	for m in libzbewalgo zbewalgo; do loaded $m || modprobe $m; done
	return 1
}

# The guide's zswap block needs "a swap device to write back to": zram
# with lz4, one of its compiled-in backends.
doc_before_zswap() {
	local n
	modprobe zram && n=$(zram_dev lz4 512M) && mkswap /dev/zram$n && swapon /dev/zram$n
}

# The workload through zswap as the guide's block left it (compressor
# zbewalgo, enabled) over doc_before_zswap's swap.
check_zswap_guide() {
	local n p=/sys/module/zswap/parameters
	grep -q ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
	n=$(awk '$1 ~ /^\/dev\/zram/ { print substr($1, 10); exit }' /proc/swaps)
	[ -n "$n" ] && [ "$(cat $p/compressor)" = zbewalgo ] && [ "$(cat $p/enabled)" = Y ] ||
		flunk "not as doc-zswap left it: compressor $(cat $p/compressor), enabled $(cat $p/enabled), swaps: $(awk 'NR > 1 { print $1 }' /proc/swaps | tr '\n' ' ')" ||
		return
	zswap_run "$n"
}

# --- the admin guide's blocks -------------------------------------------------------
. /extra/doc-run.sh
# Uninstalling starts from zram-tools with the guide's ALGO=zbewalgo, once
# zswap let go of zbewalgo (it frees an old compressor from a work item).
doc_before_uninstall_switch() {
	local i=0
	doc_install zramswap-conf || return 1
	while [ "$(awk '$1 == "zbewalgo" { print $3 }' /proc/modules)" != 0 ] && [ $i -lt 20 ]; do
		sleep 1
		i=$((i + 1))
	done
	/usr/sbin/zramswap start && grep -q '\[zbewalgo\]' $Z/comp_algorithm
}
doc_verify_uninstall_switch() {
	grep -q '\[lz4\]' $Z/comp_algorithm && doc_swap zram0 >/dev/null && ! loaded zbewalgo &&
		! loaded libzbewalgo && echo "zramswap on lz4, zbewalgo and libzbewalgo unloaded"
}

# --- splats ---------------------------------------------------------------------------
check_no_splat() {
	local s
	s=$(dmesg-bugs | grep -E 'BUG:|WARNING:|Oops|Call Trace|general protection|INFO: task')
	[ -z "$s" ] && pass "no BUG/WARNING/Oops in dmesg" && return
	dmesg | tail -n 60 | sed 's/^/# /'
	flunk "$(echo "$s" | head -n 3 | tr '\n' '|')"
}

# NAME FUNCTION [ARG...] a line, in order: Debian 12's 6.1.
suite_zram() {
	echo stock-kernel check_stock_kernel
	echo modprobe-zram check_modprobe_zram
	echo autoload check_autoload
	echo modules-signature check_modules_signature
	echo crypto check_crypto
	echo comp-algorithm check_comp_algorithm
	echo swap-zram check_swap_zram
	echo verify-zram verified zram
	echo zramctl check_zramctl
	echo verify-zramctl verified zramctl
	echo zramswap check_zramswap
	echo verify-zramswap verified zramswap
	echo zram-generator-units check_zram_generator_units
	echo zram-generator-setup check_zram_generator_setup
	echo verify-zram-generator verified zram-generator
	echo zswap check_zswap
	echo verify-zswap verified zswap
	doc_suite
	echo no-splat check_no_splat
}

# Debian 13's 6.12: the checks that apply where zram takes no crypto API
# algorithm; the guide's zswap block (doc_suite) sets up what zswap runs on.
suite_zswap() {
	echo stock-kernel check_stock_kernel
	echo autoload-zswap check_autoload_zswap
	echo modules-signature check_modules_signature
	echo crypto check_crypto
	doc_suite
	echo zswap check_zswap_guide
	echo verify-zswap verified zswap
	echo no-splat check_no_splat
}

echo 5 >/proc/sys/kernel/printk
# The kernel runs /sbin/modprobe for request_module(): busybox's, which reads the
# modules.dep and modules.alias that depmod wrote on the host.
mkdir -p /sbin /etc/default /etc/systemd
ln -sf /bin/busybox /sbin/modprobe
info "$(cat /proc/version)"
info "$(grep MemTotal /proc/meminfo | tr -s ' '), $(grep -c ^processor /proc/cpuinfo) CPUs"
ktap_suite "suite_${ZBW_SUITE:-zram}"
doc_clean
info "modules: $(cut -d' ' -f1,3 /proc/modules | tr '\n' ' ')"
info "zbewalgo stats: $(cat $K/stats 2>/dev/null)"
ktap_totals
