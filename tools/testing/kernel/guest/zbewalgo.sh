# shellcheck shell=dash
# (busybox sh: local is there)
# Guest side of zbewalgo-tests.sh (busybox sh as /guest.sh): the suite in
# KTAP, one function per check (lib.sh).  The host decides which checks must
# be there.  Environment (kernel command line): ZBW_FILL_MIB, the swap
# workload's size (more than the guest's memory); ZBW_INTEGRATED=1 when
# zbewalgo was built into the tree (6.12+): testmgr has its vectors, zram
# its preset levels, and zswap runs; ZBW_MULTI_COMP=1 when zram has
# recompression and writeback (guest/recomp.sh); ZBW_ZRAM_RETRY=1 when the
# tree's zram compresses a page again after its sleeping allocation (up to
# 6.12: zram-retry requires that slow path to have run); ZBW_RETRY_MIB and
# ZBW_RETRY_ROUNDS size zram-retry's writes, ZBW_RETRY_PROCS (4) its
# writers, process i on CPU i modulo the CPUs; ZBW_ONLY=NAME,NAME... runs only
# the checks named (to iterate on one; the host then requires only those).
set -u
. /extra/lib.sh
FILL=${ZBW_FILL_MIB:-384}
INTEGRATED=${ZBW_INTEGRATED:-0}
MULTI_COMP=${ZBW_MULTI_COMP:-0}
K=/sys/kernel/zbewalgo
D=/sys/kernel/debug
Z=/sys/block/zram0
P=/sys/module/zswap/parameters

# Splats anywhere in the log so far (see dmesg-bugs); any lockdep report also
# turns debug_locks off.
splats() {
	dmesg-bugs | grep -E 'BUG:|WARNING:|Oops|Call Trace|possible (circular|recursive) locking|lock(dep| debugging) .*(off|disabled)|inconsistent lock state|suspicious RCU usage|INFO: task'
	grep -q 'debug_locks: *1$' /proc/lockdep_stats || echo "debug_locks is off"
}

# The table and thresholds rewritten as fast as a shell can, until /tmp/stop;
# then the thresholds it found are back.  Its count in /tmp/stress-NAME.
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
	echo "$n $err" >/tmp/stress-$1
}

# stressed_fill NAME MIB STATFILE...: fill NAME with stress beside it.
stressed_fill() {
	local spid
	rm -f /tmp/stop /tmp/stress-$1
	stress "$1" &
	spid=$!
	fill "$@"
	touch /tmp/stop
	wait $spid
}

# stressed NAME (a check): the sysfs writes beside fill NAME all succeeded.
stressed() {
	local n=0 err=0
	[ -e /tmp/stress-$1 ] || flunk "no sysfs writer ran" || return
	read -r n err </tmp/stress-$1
	[ "$n" -gt 0 ] && [ "$err" = 0 ] &&
		pass "$n rounds of table/threshold writes, $err errors" ||
		flunk "$n rounds, $err write errors"
}

# --- modules and crypto self-test ---------------------------------------------------
# Out-of-tree modules (6.1) and the crypto glue as a module (6.12+) are in /extra.
MODS=
[ -e /extra/libzbewalgo.ko ] && MODS=libzbewalgo
[ -e /extra/zbewalgo.ko ] && MODS="${MODS:+$MODS }zbewalgo"

check_modules_load() {
	local m err=''
	for m in $MODS; do insmod /extra/$m.ko || err="$err $m"; done
	dmesg | grep -i 'alg.*zbewalgo' | sed 's/^/# dmesg: /'
	[ -z "$err" ] && [ -d $K ] &&
		pass "${MODS:-none}; /proc/modules: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')" ||
		flunk "insmod failed:${err:-} or no $K"
}

# Without testmgr vectors "passed" only means registered: integrated trees have them.
check_crypto() {
	local l
	l=$(crypto_lines)
	if [ "$INTEGRATED" = 1 ] && dmesg | grep -q 'No test for zbewalgo'; then
		flunk "testmgr has no vectors for zbewalgo"
	elif [ -n "$l" ] && ! echo "$l" | grep -q -v -e '^\([^ ]*:passed \)*$'; then
		pass "${l% }"
	else
		flunk "/proc/crypto: ${l:-no zbewalgo}"
	fi
}

check_comp_algorithm() {
	echo zbewalgo >$Z/comp_algorithm && grep -q '\[zbewalgo\]' $Z/comp_algorithm &&
		pass "$(cat $Z/comp_algorithm)" || flunk "$(cat $Z/comp_algorithm)"
}

# --- bad sysfs input: rejected, table and thresholds intact ---------------------------
# N distinct combinations of cheap steps, shortest first.  A table holds at
# most 64 steps in all (ZBEWALGO_MAX_TABLE_STEPS): the first 33 have
# 5 + 2 * 25 + 3 * 3 = 64 steps, the first 34 have 67.  It also costs at
# most ZBEWALGO_MAX_TABLE_COST: three BWTs are too many.
combs() {
	local s="rle jbe jbe2 delta4 sieve4" a b c d
	{ for a in $s; do echo $a; done
	  for a in $s; do for b in $s; do echo $a-$b; done; done
	  for a in $s; do for b in $s; do for c in $s; do echo $a-$b-$c; done; done; done
	  for a in $s; do for b in $s; do for c in $s; do for d in $s; do echo $a-$b-$c-$d
	  done; done; done; done; } | head -n "$1" | tr '\n' ' '
}

check_sysfs_bad_input() {
	local long bad='' before after w f
	long=$(head -c 6000 /dev/zero | tr '\0' 'x')
	# The largest table is accepted, and its files stay readable (one page each).
	echo "set $(combs 33)" >$K/combinations && [ "$(grep -c . $K/combinations)" -eq 33 ] &&
		cat $K/wins $K/stats >/dev/null || bad="$bad [a table of 64 steps refused]"
	echo 'set bwt-mtf-huffman' >$K/combinations || bad="$bad set-one"
	before=$(cat $K/combinations $K/early_abort_size $K/max_output_size)
	for w in 'set nosuchstep' 'set bwt-mtf-rle-huffman-jbe-rle-mtf-huffman' '' 'set' 'set  ' \
		"set $long" "add $long" "set $(combs 34)" "set $(combs 257)" "set rle rle" 'add bwt-mtf-huffman' 'remove bwt-mtf-huffman' \
		'remove jbe-huffman' 'frobnicate bwt' 'reset now' 'set bwt--mtf' 'set -bwt' \
		'set bwt-mtf bwt-rle bwt-huffman'; do
		if echo "$w" >$K/combinations 2>/dev/null; then bad="$bad [combinations:$(echo "$w" | cut -c1-40)]"; fi
	done
	for f in early_abort_size max_output_size; do
		for w in abc -1 99999999 65541 '' 12abc "$long"; do
			if echo "$w" >$K/$f 2>/dev/null; then bad="$bad [$f:$(echo "$w" | cut -c1-20)]"; fi
		done
	done
	# early_abort_size stays below max_output_size: 0 would store every page.
	for w in 0 "$(cat $K/early_abort_size)"; do
		if echo "$w" >$K/max_output_size 2>/dev/null; then bad="$bad [max_output_size:$w]"; fi
	done
	if echo "$(cat $K/max_output_size)" >$K/early_abort_size 2>/dev/null; then
		bad="$bad [early_abort_size:max_output_size]"
	fi
	after=$(cat $K/combinations $K/early_abort_size $K/max_output_size)
	[ "$before" = "$after" ] || bad="$bad changed:[$after]"
	echo reset >$K/combinations || bad="$bad reset"
	[ -z "$bad" ] && pass "all rejected, table intact" || flunk "accepted or changed:$bad"
}

# --- ext2 on zram: a data set survives the page cache being dropped -----------------
# data_set: 8 MiB of zbwmem's files in /tmp/data, their sums in /tmp/sums.
data_set() {
	rm -rf /tmp/data
	mkdir -p /mnt /tmp/data
	zbwmem files /tmp/data 8 >/dev/null
	(cd /tmp/data && sha256sum *.dat) >/tmp/sums
}

check_ext2_zram() {
	local n st r=fail detail=''
	data_set
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
	rm -rf /tmp/data
	[ "$r" = ok ] && pass "$detail" || flunk "${detail:-zram/mke2fs/mount failed}"
}

# --- preset levels (zram backends only): each round-trips, an unknown one is refused ---
# The global stats and wins describe the sysfs table: a preset's pages are in
# neither. Nothing else compresses with zbewalgo meanwhile.
wins_sum() { awk '{ n += $1 } END { print n + 0 }' $K/wins; }

check_zram_levels() {
	local bad='' stats0 stats1 l n
	[ -e $Z/algorithm_params ] || flunk "no $Z/algorithm_params" || return
	data_set
	stats0="$(cut -d' ' -f1 $K/stats) $(wins_sum)"
	for l in 1 2 3; do
		if n=$(zram_dev zbewalgo 32M "algo=zbewalgo level=$l"); then
			# Set up: parameters are refused (6.12 through zram-busy).
			if echo "algo=zbewalgo level=9" >/sys/block/zram$n/algorithm_params 2>/dev/null; then
				bad="$bad level$l:params-after-disksize-accepted"
			fi
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
	rm -rf /tmp/data
	[ -z "$bad" ] &&
		pass "1 2 3 round-trip, not in stats/wins; 9 0 -1 refused; none = sysfs table; params before comp_algorithm or after disksize refused" ||
		flunk "$bad"
}

# --- zram's huge class: zbewalgo keeps every page that zram would keep -------------
# Pages of about 81% random bytes compress to about 3320 of 4096 bytes: below
# zsmalloc's huge class (3625 since 6.3), above the 3264 zbewalgo used to
# store pages from.  None may come out huge; random pages all do.
check_zram_huge() {
	local n i r=$((PSZ * 3300 / 4096)) huge compr bad=''
	rm -f /tmp/hp
	for i in $(seq 64); do
		head -c $r /dev/urandom
		head -c $((PSZ - r)) /dev/zero
	done >/tmp/hp
	head -c $((64 * PSZ)) /dev/urandom >>/tmp/hp
	n=$(zram_dev zbewalgo 16M) || flunk "zram setup failed" || return
	dd if=/tmp/hp of=/dev/zram$n bs=$PSZ count=64 conv=fsync 2>/dev/null
	huge=$(zram_stat "$n" mm_stat 8)
	compr=$(zram_stat "$n" mm_stat 2)
	[ "$huge" = 0 ] || bad="$bad $huge-of-64-compressible-pages-huge"
	[ "$compr" -lt $((64 * PSZ * 3625 / 4096)) ] || bad="$bad compr:$compr"
	dd if=/tmp/hp of=/dev/zram$n bs=$PSZ skip=64 seek=64 count=64 conv=fsync 2>/dev/null
	blockdev --flushbufs /dev/zram$n
	[ "$(zram_stat "$n" mm_stat 8)" = 64 ] || bad="$bad random:$(zram_stat "$n" mm_stat 8)-huge"
	cmp -n $((128 * PSZ)) /tmp/hp /dev/zram$n 2>/dev/null || bad="$bad mismatch"
	info "threshold $(cat $K/max_output_size), mm_stat: $(cat /sys/block/zram$n/mm_stat)"
	zram_del "$n"
	rm -f /tmp/hp
	[ -z "$bad" ] && pass "64 pages of ~81% entropy kept compressed ($compr bytes), 64 random ones huge" ||
		flunk "$bad"
}

# --- per-device settings: the zbewalgo.* keys of algorithm_params -------------------
# A has a table and max_output_size of its own; B level 1 with another
# table and early_abort_size; C is lz4 with zbewalgo recompressing at
# priority 1 with a third table; S takes the shared settings.  A is written
# alone, then again beside B and C while the shared settings are rewritten
# and C recompresses: every device reads back as written, A's second write
# takes the bytes its first took (nothing of the others reaches it), and A,
# B and S differ (each used its own table).  Bad keys fail at disksize.
DV_DATA=/tmp/dv.dat

# dv_write N: the data set to zramN with direct I/O; prints compr_data_size.
dv_write() {
	dd if=$DV_DATA of=/dev/zram$1 bs=64k oflag=direct 2>/dev/null &&
		zram_stat "$1" mm_stat 2
}

# dv_same N: zramN holds the data set.
dv_same() {
	[ "$(dd if=/dev/zram$1 bs=64k count=$((DV_KIB / 64)) iflag=direct 2>/dev/null | sha256sum)" = \
		"$(sha256sum <$DV_DATA)" ]
}

# Dictionaries for zram's dict=, trained in the guest on pages of one kind
# each (not the data set's pages: zbwmem's pages of a kind differ by their
# index), and files that are not zstd dictionaries.
DICT_DIR=/tmp/dicts
make_dicts() {
	[ -s $DICT_DIR/int.dict ] && return
	mkdir -p $DICT_DIR
	for k in text int; do
		zbwmem dump $k 1024 | tail -c $((512 * PSZ)) >$DICT_DIR/$k.pages &&
			/src/build/zbewalgo train-dict -p "$PSZ" -s 16384 -o $DICT_DIR/$k.dict \
				$DICT_DIR/$k.pages >/dev/null || return 1
	done
	head -c 16384 /dev/urandom >$DICT_DIR/random.dict
	# raw content, which zstd would take: its frames name no dictionary
	head -c 16384 $DICT_DIR/text.pages >$DICT_DIR/raw.dict
}

# dbg_dir LINE...: the debugfs directory (zbewalgo/N) of the device set up
# last whose settings hold every LINE.
dbg_dir() {
	local n l ok found=''
	for n in $(ls $D/zbewalgo 2>/dev/null | sort -n); do
		ok=1
		for l in "$@"; do grep -qxF -- "$l" $D/zbewalgo/$n/settings || ok=0; done
		[ $ok = 0 ] || found=$D/zbewalgo/$n
	done
	echo "$found"
}

# dbg_pages DIR: the pages its stats count, when some are counted and the
# stored ones and the wins add up to them; nothing otherwise.
dbg_pages() {
	local p t st w
	read -r p t st <"$1/stats" || return 1
	w=$(awk '{ s += $1 } END { print s + 0 }' "$1/wins")
	[ "$p" -gt 0 ] && [ $((st + w)) = "$p" ] && echo "$p"
}

# The id a zstd dictionary's pages carry: bytes 4-7, little-endian.
dict_id() {
	od -An -tu4 -j4 -N4 "$1" | tr -d ' '
}

check_zram_devices() {
	local a b c s t n w k ca0 ca1 cs ct cb cc0 cc1 bad='' spid pa pb
	local da db dc ds dt pages=
	[ -s $DV_DATA ] || for k in float text int sparse; do zbwmem dump $k 256 >>$DV_DATA; done
	DV_KIB=$(($(wc -c <$DV_DATA) / 1024))
	make_dicts || flunk "train-dict failed" || return
	for w in zbewalgo.table=nosuchstep 'zbewalgo.table="rle rle"' zbewalgo.max_output_size=-5 \
		'zbewalgo.early_abort_size=4000 zbewalgo.max_output_size=3000' \
		zbewalgo.max_output_size=70000 zbewalgo.early_abort_size=abc \
		zbewalgo.frobnicate=1 zbewalgo.Table=zstd 'zbewalgo.table="delta4-zstd' \
		dict=$DICT_DIR/random.dict dict=$DICT_DIR/raw.dict; do
		n=$(cat /sys/class/zram-control/hot_add)
		echo zbewalgo >/sys/block/zram$n/comp_algorithm
		if echo "algo=zbewalgo $w" >/sys/block/zram$n/algorithm_params 2>/dev/null &&
			echo 16M >/sys/block/zram$n/disksize 2>/dev/null; then
			bad="$bad [$w]:accepted"
		fi
		zram_del "$n"
	done
	# Where deflate's keys and zbewalgo's share struct zcomp_params' union
	# (7.x), a device takes its own algorithm's only.
	case $(uname -r) in
	6.*) ;;
	*)
		for w in 'lz4 zbewalgo.table=zstd' 'lz4 zbewalgo.early_abort_size=100' \
			'zbewalgo deflate.winbits=12'; do
			n=$(cat /sys/class/zram-control/hot_add)
			echo "${w%% *}" >/sys/block/zram$n/comp_algorithm
			! echo "${w#* }" >/sys/block/zram$n/algorithm_params 2>/dev/null ||
				bad="$bad [$w]:accepted"
			zram_del "$n"
		done
		;;
	esac
	# A and B: tables, thresholds and dictionaries of their own; T: A
	# without its dictionary; S: the shared settings.
	a=$(zram_dev zbewalgo 16M "algo=zbewalgo zbewalgo.table=\"zstd delta4-zstd\" zbewalgo.max_output_size=3000 dict=$DICT_DIR/text.dict") &&
		t=$(zram_dev zbewalgo 16M 'algo=zbewalgo zbewalgo.table="zstd delta4-zstd" zbewalgo.max_output_size=3000') &&
		s=$(zram_dev zbewalgo 16M) &&
		b=$(zram_dev zbewalgo 16M "algo=zbewalgo level=1 zbewalgo.table=\"rle zstd bitshuffle4-zstd\" zbewalgo.early_abort_size=256 dict=$DICT_DIR/int.dict") ||
		flunk "setup failed:$bad" || return
	c=$(cat /sys/class/zram-control/hot_add)
	echo lz4 >/sys/block/zram$c/comp_algorithm &&
		echo 'algo=zbewalgo priority=1' >/sys/block/zram$c/recomp_algorithm &&
		echo 'priority=1 zbewalgo.table=bwt-mtf-huffman' >/sys/block/zram$c/algorithm_params &&
		echo 16M >/sys/block/zram$c/disksize || bad="$bad C:setup"
	ca0=$(dv_write "$a")
	ct=$(dv_write "$t")
	cs=$(dv_write "$s")
	rm -f /tmp/stop /tmp/stress-dv
	stress dv &
	spid=$!
	dv_write "$a" >/tmp/dv.a &
	pa=$!
	dv_write "$b" >/tmp/dv.b &
	pb=$!
	cc0=$(dv_write "$c")
	echo all >/sys/block/zram$c/idle
	echo type=idle >/sys/block/zram$c/recompress || bad="$bad C:recompress"
	cc1=$(zram_stat "$c" mm_stat 2)
	wait $pa $pb
	touch /tmp/stop
	wait $spid
	ca1=$(cat /tmp/dv.a)
	cb=$(cat /tmp/dv.b)
	for n in $a $b $c $s $t; do dv_same "$n" || bad="$bad zram$n:mismatch"; done
	[ "$ca1" = "$ca0" ] || bad="$bad A:$ca0->$ca1"
	[ "$ca0" != "$cs" ] && [ "$cb" != "$cs" ] && [ "$ca0" != "$cb" ] || bad="$bad same-output:A=$ca0,B=$cb,S=$cs"
	[ "$ca0" -lt "$ct" ] || bad="$bad dict:A=$ca0,without=$ct"
	[ "$cc1" -lt "$cc0" ] || bad="$bad C:recompressed-$cc0->$cc1"
	info "compr_data_size of ${DV_KIB} KiB: A $ca0 (again $ca1, without its dictionary $ct), B $cb, S $cs, C lz4 $cc0, recompressed $cc1"
	# Each device's own statistics in debugfs, told apart by settings.
	da=$(dbg_dir "max_output_size 3000" "dict $(dict_id $DICT_DIR/text.dict)" delta4-zstd)
	dt=$(dbg_dir "max_output_size 3000" "dict none" delta4-zstd)
	db=$(dbg_dir "level 1" "early_abort_size 256" "dict $(dict_id $DICT_DIR/int.dict)" rle)
	ds=$(dbg_dir "level 0" "dict none" "max_output_size $(cat $K/max_output_size)" bitshuffle8-zstd)
	dc=$(dbg_dir bwt-mtf-huffman)
	for k in A:$da B:$db C:$dc S:$ds T:$dt; do
		n=$(dbg_pages "${k#*:}") || n=
		[ -n "$n" ] || bad="$bad debugfs-${k%%:*}:[${k#*:}:$(cat ${k#*:}/stats 2>/dev/null)]"
		pages="$pages ${k%%:*} $n pages ($(grep stream_bytes ${k#*:}/settings 2>/dev/null))"
	done
	info "debugfs zbewalgo/N:$pages"
	for n in $a $b $c $s $t; do zram_del "$n"; done
	for k in $da $db $dc $ds $dt; do [ ! -e "$k" ] || bad="$bad $k:kept"; done
	[ -z "$bad" ] && pass "A again under load: $ca1 = $ca0 bytes (without its dict= $ct); A $ca0, B $cb, shared $cs; C recompressed $cc0 -> $cc1; bad keys and dictionaries refused; per device:$pages" ||
		flunk "$bad"
}

# --- zram's slow path: a page compressed twice ---------------------------------------
# Up to 6.12, when zram's non-sleeping zs_malloc() fails it puts the stream,
# allocates again with GFP_NOIO (counted in debug_stat's writestall) and
# compresses the page a second time, perhaps on the other CPU's stream and
# with other settings, into an object sized for the first result.  failslab
# forces that path: only the writers' own (task-filter) non-sleeping
# (ignore-gfp-wait) slab allocations fail, the rest of the guest allocates
# as usual.  Writers pinned to both CPUs, the table and thresholds
# rewritten beside them; two writers a CPU, so that while one waits in
# the slow path the other moves that CPU's stream on (zbewalgo starts
# with the chain that won last).  Every page must read back as written, with no
# splat.  An oops (a copy past the object breaks zsmalloc's free lists)
# panics the guest, so the host sees the check missing.
F=$D/failslab
RETRY_MIB=${ZBW_RETRY_MIB:-16}
RETRY_ROUNDS=${ZBW_RETRY_ROUNDS:-6}
RETRY_PROCS=${ZBW_RETRY_PROCS:-4}

# failslab PROBABILITY: failslab for tasks with make-it-fail, non-sleeping
# allocations only; 0 turns it off.
failslab() {
	echo Y >$F/task-filter && echo Y >$F/ignore-gfp-wait && echo 0 >$F/verbose &&
		echo 1 >$F/interval && echo 0 >$F/space &&
		{ echo -1 >$F/times 2>/dev/null || echo 1000000000 >$F/times; } &&
		echo "$1" >$F/probability
}

# retry_log SHOWN: prints zbwmem's lines past the first SHOWN as
# diagnostics (to stderr, the console), then the count shown (stdout).
retry_log() {
	local all
	all=$(grep -c '' /tmp/retry.log)
	tail -n +$(($1 + 1)) /tmp/retry.log | head -n $((all - $1)) | sed 's/^/# /' >&2
	echo "$all"
}

check_zram_retry() {
	local n rc=0 spid wpid i=0 t0 s0 new st ws v sn=0 serr shown=0 bad=''
	[ -d $F ] || flunk "no $F (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)" || return
	n=$(zram_dev zbewalgo $((RETRY_MIB + 4))M) || flunk "zram setup failed" || return
	s0=$(splats | wc -l)
	rm -f /tmp/stop /tmp/stress-retry
	stress retry &
	spid=$!
	failslab 20 || bad="$bad failslab-setup"
	info "zram-retry: panic_on_oops=1 until the writers are done"
	echo 1 >/proc/sys/kernel/panic_on_oops
	# make-it-fail is inherited by the writers zbwmem forks.
	t0=$(date +%s)
	(echo 1 >/proc/self/make-it-fail && exec zbwmem blk /dev/zram$n "$RETRY_MIB" "$RETRY_PROCS" \
		"$RETRY_ROUNDS" /sys/block/zram$n/debug_stat) >/tmp/retry.log 2>&1 &
	wpid=$!
	# Its lines as they come (an oops may end the guest before it does); a
	# writer stuck in the kernel never returns: give up after 15 minutes.
	while kill -0 $wpid 2>/dev/null && [ $i -lt 900 ]; do
		sleep 1
		i=$((i + 1))
		shown=$(retry_log "$shown")
	done
	if kill -0 $wpid 2>/dev/null; then
		bad="$bad writers-hung-${i}s"
	else
		wait $wpid || rc=$?
	fi
	t0=$(($(date +%s) - t0))
	failslab 0
	echo 0 >/proc/sys/kernel/panic_on_oops
	touch /tmp/stop
	wait $spid
	retry_log "$shown" >/dev/null
	v=$(grep '^zbwmem: blk verified=' /tmp/retry.log)
	st=$(cat /sys/block/zram$n/mm_stat)
	ws=$(awk 'NR == 2 { print $1 }' /sys/block/zram$n/debug_stat)
	info "zram-retry: debug_stat writestall ${ws:-none}, mm_stat $st"
	[ "$rc" = 0 ] && echo "$v" | grep -q ' mismatched=0 readerr=0 writeerr=0 ' ||
		bad="$bad exit-$rc:[${v#zbwmem: }]"
	if [ "${ZBW_ZRAM_RETRY:-0}" = 1 ] && ! [ "${ws:-0}" -gt 0 ] 2>/dev/null; then
		bad="$bad writestall-${ws:-none}:slow-path-not-run"
	fi
	[ -e /tmp/stress-retry ] && read -r sn serr </tmp/stress-retry && [ "$sn" -gt 0 ] && [ "$serr" = 0 ] ||
		bad="$bad sysfs-writer:[$(cat /tmp/stress-retry 2>/dev/null)]"
	new=$(splats | tail -n +$((s0 + 1)))
	[ -z "$new" ] || bad="$bad splat:[$(echo "$new" | head -n 3 | tr '\n' '|')]"
	zram_del "$n"
	[ -z "$bad" ] &&
		pass "${v#zbwmem: blk }, writestall $ws, $sn table/threshold rounds, ${t0}s" ||
		flunk "$bad; writestall ${ws:-none}"
}

# --- kmemleak ------------------------------------------------------------------------
# Fails on a leak of ours, and when kmemleak cannot scan (it switches itself
# off when its object pool runs dry, which the swap phases' memory pressure
# does: then a "no leaks" would mean nothing).
kmemleak_off() {
	dmesg | grep -qE 'kmemleak: (Cannot allocate a kmemleak_object|Memory pool empty)|Kernel memory leak detector disabled'
}

# check_kmemleak WHEN...: two scans.
check_kmemleak() {
	local all ours
	[ -e $D/kmemleak ] || flunk "no $D/kmemleak" || return
	! kmemleak_off || flunk "kmemleak switched itself off: $(dmesg | grep -m1 kmemleak)" || return
	# Objects younger than 5 s are not reported; two scans settle the grey ones.
	sleep 6
	echo scan >$D/kmemleak || flunk "scan refused" || return
	sleep 6
	echo scan >$D/kmemleak || flunk "scan refused" || return
	cat $D/kmemleak >/tmp/leaks
	all=$(grep -c '^unreferenced object' /tmp/leaks)
	# A backtrace frame without a symbol is in an unloaded module: ours.
	ours=$(awk '/^unreferenced object/ { if (m) n++; m = 0 }
		/zbewalgo|zram|zcomp|zswap|crypto|scomp|acomp|0xffffffffc0/ { m = 1 }
		END { if (m) n++; print n + 0 }' /tmp/leaks)
	[ "$ours" = 0 ] && pass "no leaks of ours ($all unrelated), $*" && return
	sed 's/^/# /' /tmp/leaks
	flunk "$ours leak(s) of ours"
}

# The check after the swap phases and the module reload, when kmemleak
# survived them (it usually does not: its 16000-object pool runs dry under
# the swap workloads).
check_kmemleak_final() {
	if kmemleak_off; then
		skip "kmemleak switched itself off under the swap workloads"
		return
	fi
	check_kmemleak "after swap, zswap and module reload"
}

# --- swap on zram under memory pressure, table rewritten all along --------------------
check_swap_zram() {
	local st orig
	echo 1G >$Z/disksize && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 ||
		flunk "disksize/mkswap/swapon failed" || return
	stressed_fill zram "$FILL" $Z/mm_stat $K/stats
	st=$(filled_stat zram $Z/mm_stat)
	swapoff /dev/zram0 || flunk "swapoff zram0" || return
	echo 1 >$Z/reset
	# An eighth of the fill at least must have gone to zram (x86_64
	# guests swap out 60-70% of it; a guest with memory to spare, none).
	orig=$(echo "${st:-0}" | cut -d' ' -f1)
	compressed "$st" && [ "$orig" -ge $((FILL << 17)) ] && pass "mm_stat: $st" ||
		flunk "mm_stat: ${st:-none}; wanted at least $((FILL / 8)) MiB swapped out"
}

# --- zswap with compressor=zbewalgo, backed by zram with lz4 ---------------------------
check_zswap() {
	local n sp pool
	[ -e $P/zpool ] && echo zsmalloc >$P/zpool
	echo 50 >$P/max_pool_percent
	n=$(zram_dev lz4 1G) && mkswap /dev/zram$n >/dev/null && swapon /dev/zram$n &&
		echo zbewalgo >$P/compressor && echo Y >$P/enabled ||
		flunk "setup failed: compressor $(cat $P/compressor)" || return
	info "zswap: compressor $(cat $P/compressor) enabled $(cat $P/enabled)"
	stressed_fill zswap "${ZBW_ZSWAP_MIB:-$FILL}" $D/zswap/stored_pages $D/zswap/pool_total_size \
		$D/zswap/written_back_pages $D/zswap/reject_compress_poor
	sp=$(filled_stat zswap $D/zswap/stored_pages)
	pool=$(filled_stat zswap $D/zswap/pool_total_size)
	echo N >$P/enabled
	# Another compressor frees zbewalgo's pool, so the module can go.
	echo lz4 >$P/compressor
	swapoff /dev/zram$n || flunk "swapoff zram$n" || return
	zram_del "$n"
	[ "${sp:-0}" -gt 0 ] 2>/dev/null && pass "stored_pages $sp pool_total_size $pool" ||
		flunk "stored_pages ${sp:-none}"
}

# --- module unload and reload -------------------------------------------------------
check_module_reload() {
	local rev='' err='' m i n
	for m in $MODS; do rev="$m${rev:+ $rev}"; done
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
		[ "$(sha256sum </tmp/all)" = "$(head -c "$(stat -c %s /tmp/all)" /dev/zram$n | sha256sum)" ] ||
			err="$err round-trip-after-reload"
		zram_del "$n"
	else
		err="$err zram-after-reload"
	fi
	rm -f /tmp/all
	[ -z "$err" ] && pass "$rev unloaded, $MODS loaded again, zram round trip ok" || flunk "$err"
}

# --- crypto self-tests under the live settings (6.12+) -------------------------------
# testmgr tests the algorithm whenever the crypto module registers it, with
# whatever /sys/kernel/zbewalgo holds then.  Under a table that cannot
# compress its 512-byte vectors (rle alone) and thresholds that store
# everything above 64 bytes, the vectors must still round-trip: reload the
# crypto module, no testmgr failure in dmesg, every entry passed, and zswap
# can select the algorithm.  The defaults are back afterwards.
check_selftest_settings() {
	local err='' i l ea mo
	ea=$(cat $K/early_abort_size)
	mo=$(cat $K/max_output_size)
	# zswap and the crypto API compress with the shared settings (no
	# second search): the self-test runs under them and must pass.
	echo 'set zstd' >$K/combinations && echo 0 >$K/early_abort_size &&
		echo 3000 >$K/max_output_size || err="$err sysfs-writes"
	i=0
	until rmmod zbewalgo 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 20 ] || { err="$err rmmod"; break; }
		sleep 1
	done
	echo "zbw-selftest-settings: $(cat $K/combinations | tr '\n' ' ')" >/dev/kmsg
	insmod /extra/zbewalgo.ko || err="$err insmod"
	# 7.x tests a new algorithm asynchronously: wait for its verdict.
	i=0
	while l=$(crypto_lines); echo "$l" | grep -q -e ':unknown' -e '^$'; do
		i=$((i + 1))
		[ $i -lt 20 ] || break
		sleep 1
	done
	info "/proc/crypto: $l"
	dmesg | sed -n '/zbw-selftest-settings:/,$p' | grep -e 'alg:' -e 'zbewalgo' |
		sed 's/^/# dmesg: /'
	dmesg | sed -n '/zbw-selftest-settings:/,$p' | grep -q -e 'alg: .*zbewalgo' -e 'self-tests for zbewalgo' &&
		err="$err testmgr-failure-in-dmesg"
	[ -n "$l" ] && ! echo "$l" | grep -q -v -e '^\([^ ]*:passed \)*$' ||
		err="$err not-passed:${l:-none}"
	if echo zbewalgo >$P/compressor && grep -qx zbewalgo $P/compressor; then
		echo lz4 >$P/compressor
	else
		err="$err zswap-cannot-select:$(cat $P/compressor)"
	fi
	echo reset >$K/combinations
	echo "$ea" >$K/early_abort_size
	echo "$mo" >$K/max_output_size
	[ -z "$err" ] && pass "table 'set zstd', thresholds 0/3000: ${l% }; zswap selects zbewalgo" ||
		flunk "$err"
}

# --- splats ---------------------------------------------------------------------------
check_no_splat() {
	local s
	s=$(splats)
	[ -z "$s" ] && pass "no BUG/WARNING/Oops/lockdep report, debug_locks 1" && return
	dmesg | tail -n 80 | sed 's/^/# /'
	flunk "$(echo "$s" | head -n 3 | tr '\n' '|')"
}

# --- the suite --------------------------------------------------------------------
# recomp.sh: zbewalgo as zram's secondary algorithm, and writeback
# (multi-comp, 6.12+); doc-run.sh: the admin guide's blocks (doc_blocks,
# doc_block), on the modules as modprobe finds them.
. /extra/recomp.sh
. /extra/doc-run.sh

# NAME FUNCTION [ARG...] a line, in order.
suite() {
	echo modules-load check_modules_load
	echo crypto-selftest check_crypto
	echo comp-algorithm check_comp_algorithm
	echo sysfs-bad-input check_sysfs_bad_input
	echo ext2-zram check_ext2_zram
	[ "$INTEGRATED" = 0 ] || echo zram-levels check_zram_levels
	[ "$INTEGRATED" = 0 ] || echo zram-huge check_zram_huge
	[ "$MULTI_COMP" = 0 ] || echo zram-devices check_zram_devices
	# Before the memory pressure: module load, self-tests, sysfs, zram, ext2, levels.
	echo kmemleak check_kmemleak after module load, self-tests, sysfs writes, ext2 and levels
	# After kmemleak's scans: failing allocations draw on its object pool.
	echo zram-retry check_zram_retry
	echo swap-zram check_swap_zram
	echo verify-zram verified zram
	echo sysfs-stress stressed zram
	if [ "$INTEGRATED" = 1 ]; then
		echo zswap check_zswap
		echo verify-zswap verified zswap
		echo sysfs-stress-zswap stressed zswap
	fi
	[ "$MULTI_COMP" = 0 ] || recomp_suite
	if [ -n "$MODS" ]; then
		echo module-reload check_module_reload
		echo crypto-selftest-reload check_crypto
	fi
	[ "$INTEGRATED" = 0 ] || echo crypto-selftest-settings check_selftest_settings
	doc_suite
	echo kmemleak-final check_kmemleak_final
	echo no-splat check_no_splat
}

# Keep info messages off the console (they split our lines); warnings still show.
echo 5 >/proc/sys/kernel/printk
mount -t debugfs debugfs $D
# Reports from boot are not ours: only leaks from here on count.
echo clear >$D/kmemleak 2>/dev/null
# /lib/modules holds modules.builtin and our modules, depmod'ed on the host;
# the kernel's request_module() and the guide's modprobe use busybox's.
mkdir -p /sbin
ln -sf /bin/busybox /sbin/modprobe
info "kernel $(uname -r), $(grep MemTotal /proc/meminfo | tr -s ' '), $(grep -c ^processor /proc/cpuinfo) CPUs"
# only_suite: the suite, or with ZBW_ONLY the checks it names.
only_suite() {
	if [ -z "${ZBW_ONLY:-}" ]; then
		suite
	else
		suite | awk -v only=",$ZBW_ONLY," 'index(only, "," $1 ",")'
	fi
}
ktap_suite only_suite
doc_clean
info "zbewalgo stats: $(cat $K/stats 2>/dev/null)"
ktap_totals
