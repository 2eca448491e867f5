# Guest side of dkms.sh (busybox sh as /guest.sh) on Debian's stock 6.1 kernel, with
# /lib/modules/$(uname -r) holding the stock zram modules and the DKMS-installed
# zbewalgo modules (depmod'ed on the host). One line per check:
#   ZBW-CHECK: NAME ok|FAIL DETAILS
# and "ZBW-RESULT: ok" at the end only if every check passed. Environment (kernel
# command line): ZBW_KVER, the kernel the modules were built for; ZBW_FILL_MIB, the
# main swap workload (more than the guest's 256 MiB); ZBW_EXAMPLE_MIB, the one run
# on each configuration example (MADV_PAGEOUT pushes it out, no pressure needed).
# Debian's zramctl, swapon and mkswap are in /usr/sbin and its bash in /bin; busybox
# sh prefers its own applets, so scripts that need Debian's swapon run under bash.
set -u
export PATH=/usr/sbin:/sbin:/bin:/extra
FILL=${ZBW_FILL_MIB:-320}
EX=${ZBW_EXAMPLE_MIB:-64}
K=/sys/kernel/zbewalgo
Z=/sys/block/zram0
FAILED=0

ok() { echo "ZBW-CHECK: $1 ok${2:+ $2}"; }
fail() { echo "ZBW-CHECK: $1 FAIL ${2:-}"; FAILED=1; }
info() { echo "ZBW-INFO: $*"; }

# mm_stat fields 1 and 2: orig_data_size > compr_data_size > 0.
compressed() {
	set -- $1
	[ "$#" -ge 3 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$2" -lt "$1" ]
}

loaded() { grep -q "^$1 " /proc/modules; }

# fill NAME MIB STATFILE...: the verify workload (every page checked after it was
# swapped out), its log in /tmp/NAME.log; prints the last mm_stat it saw.
fill() {
	local name=$1 mib=$2 rc=0 v
	shift 2
	zbwmem fill "$mib" 2 1 "$@" >/tmp/$name.log 2>&1 || rc=$?
	cat /tmp/$name.log >&2
	v=$(grep '^zbwmem: verified=' /tmp/$name.log)
	if [ "$rc" = 0 ] && echo "$v" | grep -q ' mismatched=0 '; then
		ok "verify-$name" "${v#zbwmem: }"
	else
		fail "verify-$name" "exit $rc: ${v:-no result}"
	fi
}

# swapped NAME DEV: after fill, the device's mm_stat shows compressed pages.
swapped() {
	local st
	st=$(grep "stat /sys/block/$2/mm_stat" /tmp/$1.log | sed 's/.*: //')
	compressed "$st" && echo "mm_stat: $st" && return 0
	echo "mm_stat: ${st:-none}"
	return 1
}

# The admin guide's blocks (doc-run.sh): config files now, commands at the end.
. /extra/doc-run.sh

echo 5 >/proc/sys/kernel/printk
info "$(cat /proc/version)"
info "$(grep MemTotal /proc/meminfo | tr -s ' '), $(grep -c ^processor /proc/cpuinfo) CPUs"
# The kernel runs /sbin/modprobe for request_module(): busybox's, which reads the
# modules.dep and modules.alias that depmod wrote on the host.
mkdir -p /sbin /etc/default /etc/systemd
ln -sf /bin/busybox /sbin/modprobe

# --- the stock kernel, and our modules as DKMS installed them --------------------------
KV=$(uname -r)
if [ "$KV" = "${ZBW_KVER:-}" ] && grep -q 'Debian' /proc/version && [ -f /lib/modules/$KV/modules.dep ]; then
	ok stock-kernel "$KV; DKMS modules: $(cd /lib/modules/$KV && find updates -name '*.ko' | sort | tr '\n' ' ')"
else
	fail stock-kernel "uname -r $KV, want ${ZBW_KVER:-?}; $(cat /proc/version)"
fi

if modprobe zram && loaded zram && [ -d $Z ]; then
	ok modprobe-zram "$(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
else
	fail modprobe-zram "$(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
fi

# Nothing of ours is loaded yet: zram asks the crypto API for "zbewalgo", which
# requests module crypto-zbewalgo, the alias of zbewalgo.ko (libzbewalgo.ko first).
loaded zbewalgo && fail autoload "zbewalgo loaded before zram asked for it"
if echo zbewalgo >$Z/comp_algorithm && loaded zbewalgo && loaded libzbewalgo && [ -d $K ]; then
	ok autoload "echo zbewalgo > comp_algorithm loaded: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
else
	fail autoload "comp_algorithm: $(cat $Z/comp_algorithm); modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
	for m in libzbewalgo zbewalgo; do loaded $m || modprobe $m; done
fi

# Debian signs its modules but does not enforce signatures: ours (signed with
# DKMS's own key, unknown to this kernel) load and taint the kernel with E.
taint=$(cat /proc/sys/kernel/tainted)
msg=$(dmesg | grep -m1 'module verification failed' | sed 's/^\[[^]]*\] //')
if [ $((taint & 8192)) != 0 ] && [ -n "$msg" ] && loaded zbewalgo; then
	ok modules-signature "loaded unverified: tainted=$taint (E$([ $((taint & 4096)) = 0 ] || echo ' O')); $msg"
else
	fail modules-signature "tainted=$taint, dmesg: ${msg:-no verification message}"
fi

# No testmgr vectors for an out-of-tree module: "passed" means registered and usable.
l=$(awk '/^name/ { n = $3 } /^driver/ { d = $3 } /^type/ { t = $3 } /^selftest/ { s = $3 }
	/^$/ { if (n == "zbewalgo") printf "%s(%s):%s ", d, t, s; n = "" }
	END { if (n == "zbewalgo") printf "%s(%s):%s ", d, t, s }' /proc/crypto)
if [ -n "$l" ] && ! echo "$l" | grep -q -v -e '^\([^ ]*:passed \)*$'; then ok crypto "$l"
else fail crypto "/proc/crypto: ${l:-no zbewalgo}"; fi

if grep -q '\[zbewalgo\]' $Z/comp_algorithm; then ok comp-algorithm "$(cat $Z/comp_algorithm)"
else fail comp-algorithm "$(cat $Z/comp_algorithm)"; fi

# --- swap on zram under memory pressure, every page verified ---------------------------
if echo 1G >$Z/disksize && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0; then
	fill zram "$FILL" $Z/mm_stat $K/stats
	s=$(swapped zram zram0) && ok swap-zram "$s" || fail swap-zram "$s"
	swapoff /dev/zram0 || fail swapoff zram0
else
	fail swap-zram "disksize/mkswap/swapon failed"
fi
echo 1 >$Z/reset
info "zbewalgo stats after swap-zram: $(cat $K/stats)"

# --- zramctl (util-linux) ----------------------------------------------------------------
if dev=$(zramctl --find --size 512M --algorithm zbewalgo) && [ -b "$dev" ]; then
	n=${dev#/dev/}
	row=$(zramctl --noheadings --output NAME,ALGORITHM,DISKSIZE "$dev" | tr -s ' ')
	info "zramctl --find --size 512M --algorithm zbewalgo -> $dev; zramctl: $row"
	if echo "$row" | grep -q ' zbewalgo ' && grep -q '\[zbewalgo\]' /sys/block/$n/comp_algorithm &&
		mkswap "$dev" >/dev/null && swapon "$dev"; then
		fill zramctl "$EX" /sys/block/$n/mm_stat
		s=$(swapped zramctl "$n") && ok zramctl "$dev: $row; $s" || fail zramctl "$row; $s"
		swapoff "$dev"
	else
		fail zramctl "$row; $(cat /sys/block/$n/comp_algorithm)"
	fi
	# util-linux 2.38 removes the device on --reset (hot_remove) as well.
	zramctl --reset "$dev" || fail zramctl-reset "$dev"
else
	fail zramctl "zramctl --find failed"
fi

# --- Debian zram-tools: /etc/default/zramswap, ALGO=zbewalgo --------------------------
# As at boot: zram not loaded, zramswap's own modprobe creates zram0 (zramctl
# --reset above removed that device). zramswap runs under Debian's bash.
modprobe -r zram || fail zramswap "modprobe -r zram before zramswap start"
doc_install zramswap-conf || fail zramswap "the guide's /etc/default/zramswap"
/usr/sbin/zramswap start >/tmp/zramswap.out 2>&1
rc=$?
sed 's/^/ZBW-INFO: zramswap start: /' /tmp/zramswap.out
sw=$(grep '^/dev/zram0' /proc/swaps | tr -s ' \t' ' ')
if [ "$rc" = 0 ] && grep -q '\[zbewalgo\]' $Z/comp_algorithm && [ "$(echo "$sw" | cut -d' ' -f5)" = 100 ]; then
	fill zramswap "$EX" $Z/mm_stat
	s=$(swapped zramswap zram0) && ok zramswap "swaps: $sw; $s" || fail zramswap "$s"
else
	fail zramswap "exit $rc, $(cat $Z/comp_algorithm), swaps: ${sw:-none}"
fi
# stop: swapoff, then modprobe -r zram (our modules stay: nothing needs zram for them).
/usr/sbin/zramswap stop >/tmp/zramswap.out 2>&1 && ! loaded zram ||
	fail zramswap-stop "$(cat /tmp/zramswap.out); modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"

# --- systemd zram-generator: units, then systemd-zram-setup@zram0's command ----------
# No systemd here: the generator writes its units into a directory (it loads zram
# and creates the device itself), --setup-device sets algorithm and size and runs
# systemd-makefs (a stand-in around mkswap), and the swapon of dev-zram0.swap is
# done by hand with the unit's options.
doc_install zram-generator-conf || fail zram-generator-units "the guide's zram-generator.conf"
G=/lib/systemd/system-generators/zram-generator
rm -rf /tmp/gen && mkdir /tmp/gen
$G /tmp/gen >/tmp/gen.out 2>&1
rc=$?
sed 's/^/ZBW-INFO: zram-generator: /' /tmp/gen.out
u=/tmp/gen/dev-zram0.swap
if [ "$rc" = 0 ] && grep -qx 'What=/dev/zram0' $u && grep -qx 'Priority=100' $u &&
	[ -L /tmp/gen/swap.target.wants/dev-zram0.swap ] && [ -d $Z ]; then
	ok zram-generator-units "$(cd /tmp/gen && find . -type f -o -type l | sort | tr '\n' ' ')"
else
	fail zram-generator-units "exit $rc; $(ls -R /tmp/gen | tr '\n' ' ')"
fi
$G --setup-device zram0 >/tmp/gen.out 2>&1
rc=$?
sed 's/^/ZBW-INFO: zram-generator --setup-device zram0: /' /tmp/gen.out
# The guide's "ram / 2"; the generator computes in whole MiB: allow a few below.
ram=$(awk '/^MemTotal/ { print $2 * 1024 }' /proc/meminfo)
ds=$(cat $Z/disksize)
prio=$(sed -n 's/^Priority=//p' $u)
if [ "$rc" = 0 ] && grep -q '\[zbewalgo\]' $Z/comp_algorithm && [ "$ds" -le $((ram / 2)) ] &&
	[ "$ds" -ge $((ram / 2 - 4 * 1048576)) ] &&
	/usr/sbin/swapon -p "$prio" /dev/zram0; then
	ok zram-generator-setup "$(cat $Z/comp_algorithm), disksize $ds (ram/2 of $ram), swapon -p $prio"
	fill zram-generator "$EX" $Z/mm_stat
	s=$(swapped zram-generator zram0) && info "zram-generator swap $s" || fail zram-generator-swap "$s"
	swapoff /dev/zram0
else
	fail zram-generator-setup "exit $rc, $(cat $Z/comp_algorithm), disksize $ds"
fi
$G --reset-device zram0 >/dev/null 2>&1 && [ "$(cat $Z/disksize)" = 0 ] || fail zram-generator-reset "disksize $(cat $Z/disksize)"

# --- zswap, compressor=zbewalgo: the crypto module serves zswap on any kernel -------
# Backed by a zram device with lz4; MADV_PAGEOUT sends the workload through zswap.
P=/sys/module/zswap/parameters
DZ=/sys/kernel/debug/zswap
mount -t debugfs debugfs /sys/kernel/debug
if n=$(cat /sys/class/zram-control/hot_add) && echo lz4 >/sys/block/zram$n/comp_algorithm &&
	echo 512M >/sys/block/zram$n/disksize && mkswap /dev/zram$n >/dev/null &&
	swapon /dev/zram$n && echo zbewalgo >$P/compressor && echo Y >$P/enabled; then
	info "zswap: compressor $(cat $P/compressor), zpool $(cat $P/zpool), enabled $(cat $P/enabled)"
	fill zswap "$EX" $DZ/stored_pages $DZ/pool_total_size $DZ/reject_compress_poor
	sp=$(grep "stat $DZ/stored_pages" /tmp/zswap.log | sed 's/.*: //')
	pool=$(grep "stat $DZ/pool_total_size" /tmp/zswap.log | sed 's/.*: //')
	[ "${sp:-0}" -gt 0 ] 2>/dev/null && ok zswap "stored_pages $sp pool_total_size $pool" ||
		fail zswap "stored_pages ${sp:-none}"
	echo N >$P/enabled
	swapoff /dev/zram$n || fail swapoff "zram$n (zswap)"
	echo 1 >/sys/block/zram$n/reset
else
	fail zswap "setup failed: compressor $(cat $P/compressor)"
fi

# --- the admin guide's blocks -------------------------------------------------------
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
doc_run
doc_clean

# --- splats ---------------------------------------------------------------------------
s=$(dmesg-bugs | grep -E 'BUG:|WARNING:|Oops|Call Trace|general protection|INFO: task')
if [ -z "$s" ]; then ok no-splat "no BUG/WARNING/Oops in dmesg"
else fail no-splat "$(echo "$s" | head -n 3 | tr '\n' '|')"; dmesg | tail -n 60; fi

info "modules: $(cut -d' ' -f1,3 /proc/modules | tr '\n' ' ')"
info "zbewalgo stats: $(cat $K/stats 2>/dev/null)"
[ "$FAILED" = 0 ] && echo "ZBW-RESULT: ok" || echo "ZBW-RESULT: FAIL"
