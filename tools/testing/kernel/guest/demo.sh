# Guest side of demo.sh (busybox sh as /guest.sh): the in-kernel benchmark.
# For each algorithm in ZBW_ALGS (zbewalgo lz4 lzo-rle zstd):
#  - block device: every data set in /data/sets.txt, and then all of them in
#    one go, is written ZBW_REPS times to a fresh zram0 sized to it (zbwblk,
#    O_DIRECT, so the write time is the compression), read back ZBW_REPS
#    times (O_DIRECT: every read decompresses) and once more with dd after
#    drop_caches for its sha256, which must match;
#  - swap (unless ZBW_SWAP=0): swap on zram0, zbwmem fills ZBW_FILL_MIB MiB in a
#    guest with less memory and verifies every page. The data sets are deleted
#    first so that this part runs in the same memory as without them.
# Lines for the host: "ZBW-DEMO: progress", "ZBW-REC: record", "ZBW-RESULT: ok",
# "ZBW-KBENCH: line of zbwbench.ko".
# ZBW-REC: KIND SET ALG ORIG COMPR MEM_USED HUGE SAME WRITE_MS READ_MS CHECK
# (bytes and pages from mm_stat; ms; CHECK is ok or FAIL).
set -u
FILL=${ZBW_FILL_MIB:-384}
# The kernel command line has no spaces in values: the host separates with commas.
ALGS=$(echo "${ZBW_ALGS:-zbewalgo lz4 lzo-rle zstd}" | tr , ' ')
REPS=${ZBW_REPS:-3}
Z=/sys/block/zram0
D=/data
result=ok
echo "ZBW-DEMO: kernel $(uname -r), $(grep MemTotal /proc/meminfo | tr -s ' ')," \
	"$(wc -l <$D/sets.txt) data sets ($(du -sk $D | cut -f1) KiB), swap workload ${FILL} MiB"
# 6.1 takes zbewalgo from the out-of-tree modules; 6.12+ has it built in.
for m in libzbewalgo zbewalgo; do [ ! -e /extra/$m.ko ] || insmod /extra/$m.ko; done
echo "ZBW-DEMO: comp_algorithm offers: $(cat $Z/comp_algorithm)"
# Kernel messages (zram's capacity changes) would land inside the records.
echo 1 >/proc/sys/kernel/printk
# zbewalgo's zram backend (6.12+) counts each device's pages in debugfs.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
ZD=/sys/kernel/debug/zbewalgo
HUGE_SETS=0

# Median of the arguments.
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The milliseconds of zbwblk's "... in N ms" line.
ms() { sed -n 's/.* in \([0-9.]*\) ms$/\1/p'; }

# readback NAME SET SUM: zram0, read with dd after drop_caches, must have
# the sha256 SUM of what was written.
readback() {
	local back
	sync
	echo 3 >/proc/sys/vm/drop_caches
	back=$(dd if=/dev/zram0 bs=1M iflag=direct 2>/dev/null | sha256sum | cut -d' ' -f1)
	[ "$3" = "$back" ] && return 0
	echo "ZBW-DEMO: $1: $2 read back differs ($back, written $3)"
	return 1
}

# zram_setup ALG SIZE: a fresh zram0 of SIZE bytes compressing with ALG.
zram_setup() {
	echo 1 >$Z/reset && echo "$1" >$Z/comp_algorithm && echo "$2" >$Z/disksize
}

# huge_check SET HUGE: with zbewalgo's zram backend, the device's pages
# counted huge (HUGE, mm_stat) are exactly those zbewalgo stored whole (its
# statistics in debugfs, for the one device there is): none that it
# compressed below zram's huge class.  The crypto API path (6.1) has no
# such statistics.
huge_check() {
	local n stored
	[ -d $ZD ] || return 0
	n=$(ls $ZD | sort -n | tail -n 1)
	stored=$(cut -d' ' -f3 "$ZD/$n/stats" 2>/dev/null)
	if [ "$stored" = "$2" ]; then
		HUGE_SETS=$((HUGE_SETS + 1))
		return 0
	fi
	echo "ZBW-DEMO: zbewalgo: $1: $2 pages counted huge, ${stored:-no statistics} stored whole by zbewalgo"
	return 1
}

# blk ALG SET FILE...: FILEs, one after the other, through a fresh zram0 of
# their size, written REPS times (a reset before each) and read REPS times;
# prints the record with the medians and mm_stat after the last write. zbwblk
# times only its pwrite()/pread() calls; dd does the checksum read.
blk() {
	local a=$1 s=$2 size w r ws rs i check=ok files
	shift 2
	files=$*
	size=$(cat "$@" | wc -c)
	ws=
	rs=
	for i in $(seq "$REPS"); do
		if ! zram_setup "$a" "$size"; then
			echo "ZBW-DEMO: $a: zram setup failed for $s"
			return 1
		fi
		ws="$ws $(zbwblk write /dev/zram0 "$@" | ms)"
	done
	for i in $(seq "$REPS"); do
		rs="$rs $(zbwblk read /dev/zram0 "$size" | ms)"
	done
	set -- $ws
	[ $# = "$REPS" ] || check=FAIL
	w=$(median $ws)
	set -- $rs
	[ $# = "$REPS" ] || check=FAIL
	r=$(median $rs)
	set -- $(cat $Z/mm_stat)
	local orig=$1 compr=$2 mem=$3 same=$6 huge=$8
	readback "$a" "$s" "$(cat $files | sha256sum | cut -d' ' -f1)" || check=FAIL
	[ "$a" != zbewalgo ] || huge_check "$s" "$huge" || check=FAIL
	echo "ZBW-REC: blk $s $a $orig $compr $mem $huge $same ${w:-0} ${r:-0} $check"
	[ $check = ok ]
}

# The compressors alone, without zram (zbwbench.ko, from the host): every
# set's pages through lib/zbewalgo, lib/lz4 and lib/zstd.  The module
# prints its figures and refuses to stay loaded (-ECANCELED).
# zram's threshold for a page kept whole and the memory of one stream come
# from a zbewalgo device's debugfs settings, as the device has them.
if [ -e /extra/zbwbench.ko ]; then
	echo "ZBW-DEMO: compressors alone (zbwbench.ko), $(wc -l <$D/sets.txt) data sets"
	zram_setup zbewalgo 16M
	n=$(ls $ZD | sort -n | tail -n 1)
	huge_size=$(sed -n 's/^max_output_size //p' "$ZD/$n/settings")
	echo "ZBW-KBENCH: memory zbewalgo=$(sed -n 's/^stream_bytes //p' "$ZD/$n/settings")"
	echo 1 >$Z/reset
	insmod /extra/zbwbench.ko files="$(sed "s|^|$D/|" $D/sets.txt | paste -sd, -)" \
		rounds="$REPS" huge_size="$huge_size" 2>/dev/null
	dmesg | sed -n '/taints kernel/d; s/^\[[ 0-9.]*\] zbwbench: /ZBW-KBENCH: /p'
	dmesg | grep -q '\] zbwbench: done$' || result=FAIL
	# The slowest pages a table sysfs accepts can make (make worst): pages
	# that repeat every 1021 bytes under the costliest BWT table.
	w=/tmp/worst-period1021
	for i in $(seq 64); do
		head -c 1021 /dev/urandom >/tmp/chunk
		cat /tmp/chunk /tmp/chunk /tmp/chunk /tmp/chunk /tmp/chunk | head -c 4096
	done >$w
	n0=$(dmesg | wc -l)
	if echo 'set bwt-lz-lz-lz-lz bwt-mtf-huffman-rle' >/sys/kernel/zbewalgo/combinations; then
		insmod /extra/zbwbench.ko files=$w rounds="$REPS" huge_size="$huge_size" 2>/dev/null
		dmesg | tail -n +$((n0 + 1)) |
			sed -n '/taints kernel/d; s/^\[[ 0-9.]*\] zbwbench: /ZBW-KBENCH: /p'
		echo reset >/sys/kernel/zbewalgo/combinations
	else
		result=FAIL
	fi
	rm -f $w /tmp/chunk
fi

# Block device first, every algorithm, while the data sets are in memory.
for a in $ALGS; do
	echo "ZBW-DEMO: $a: block device, $(wc -l <$D/sets.txt) data sets, $REPS writes and reads each"
	n=0
	bad=0
	while read -r s; do
		blk "$a" "$s" "$D/$s" || { bad=$((bad + 1)); result=FAIL; }
		n=$((n + 1))
	done <$D/sets.txt
	# All sets in one pool: mem_used without the partly filled zspages of
	# the size classes of many small pools.
	blk "$a" all-sets $(sed "s|^|$D/|" $D/sets.txt) || { bad=$((bad + 1)); result=FAIL; }
	echo 1 >$Z/reset
	echo "ZBW-DEMO: $a: block device done, $n sets + all-sets, $bad failed"
done
# Deployment (multi-comp kernels, unless ZBW_DEPLOY=0): each set on a fresh
# zram0 as a distribution would run it: one algorithm alone, or a primary
# with zbewalgo (the sysfs table) at priority 1 recompressing in a pass
# after the writes: "huge" recompresses what the primary stored whole,
# "huge+idle" then everything else (after "echo all > idle"). One write and
# one read, timed as above (zbwblk), and the pass itself (zbwblk sysfs:
# zram recompresses inside the write to "recompress"); mm_stat after the
# pass and a compaction (every configuration), sha256 read back after
# drop_caches.
# ZBW-DEP: SET CONF ORIG COMPR MEM_USED HUGE SAME WRITE_MS READ_MS PASS_MS CHECK
deploy() {
	local c=$1 s=$2 p pass= size w r t=0 x sum check=ok
	shift 2
	p=${c%%+*}
	case $c in *+*) pass=${c#*+} ;; esac
	size=$(cat "$@" | wc -c)
	sum=$(cat "$@" | sha256sum | cut -d' ' -f1)
	if ! { echo 1 >$Z/reset && echo "$p" >$Z/comp_algorithm &&
		{ [ -z "$pass" ] || echo 'algo=zbewalgo priority=1' >$Z/recomp_algorithm; } &&
		echo "$size" >$Z/disksize; }; then
		echo "ZBW-DEMO: $c: zram setup failed for $s"
		return 1
	fi
	w=$(zbwblk write /dev/zram0 "$@" | ms)
	if [ -n "$pass" ]; then
		t=$(zbwblk sysfs $Z/recompress type=huge | ms)
		if [ "$pass" = huge+idle ]; then
			echo all >$Z/idle
			x=$(zbwblk sysfs $Z/recompress type=idle | ms)
			t=$(awk -v a="$t" -v b="$x" 'BEGIN { print a + b }')
		fi
		[ -n "$t" ] || { check=FAIL; t=0; }
	fi
	# zsmalloc keeps the zspages the pass emptied until it compacts (its
	# shrinker does under memory pressure): compact, as after any pass.
	echo 1 >$Z/compact
	r=$(zbwblk read /dev/zram0 "$size" | ms)
	[ -n "$w" ] && [ -n "$r" ] || check=FAIL
	set -- $(cat $Z/mm_stat)
	local orig=$1 compr=$2 mem=$3 same=$6 huge=$8
	readback "$c" "$s" "$sum" || check=FAIL
	echo "ZBW-DEP: $s $c $orig $compr $mem $huge $same ${w:-0} ${r:-0} $t $check"
	[ $check = ok ]
}
DEPLOY="lz4 zstd zbewalgo lz4+huge lz4+huge+idle zstd+huge"
if [ "${ZBW_DEPLOY:-1}" = 1 ] && [ -e $Z/recomp_algorithm ]; then
	echo "ZBW-DEMO: deployment: $(wc -l <$D/sets.txt) data sets x $(echo $DEPLOY | wc -w) configurations"
	for c in $DEPLOY; do
		bad=0
		while read -r s; do
			deploy "$c" "$s" "$D/$s" || { bad=$((bad + 1)); result=FAIL; }
		done <$D/sets.txt
		echo "ZBW-DEMO: deployment $c done, $bad failed"
	done
	echo 1 >$Z/reset
elif [ "${ZBW_DEPLOY:-1}" = 1 ]; then
	echo "ZBW-DEMO: deployment: this kernel's zram has no recomp_algorithm (CONFIG_ZRAM_MULTI_COMP)"
fi
rm -rf $D

[ "${ZBW_SWAP:-1}" = 1 ] || ALGS=
for a in $ALGS; do
	echo "ZBW-DEMO: $a: swap on zram, filling and verifying ${FILL} MiB"
	if ! { zram_setup $a 1G && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0; }; then
		echo "ZBW-DEMO: $a: zram setup failed"; result=FAIL; continue
	fi
	check=ok
	zbwmem fill "$FILL" 2 1 $Z/mm_stat >/tmp/$a.log 2>&1 || check=FAIL
	swapoff /dev/zram0
	echo 1 >$Z/reset
	v=$(grep '^zbwmem: verified=' /tmp/$a.log | cut -d' ' -f2-3)
	# Compression is in the fill and page-out, decompression in the verify.
	w=$(awk '/^zbwmem: round 0 (filled|paged out) / { sub(/s$/, "", $NF); s += $NF; n++ }
		END { if (n == 2) printf "%.1f", s * 1000 }' /tmp/$a.log)
	r=$(awk '/^zbwmem: round 0 verified in / { sub(/s$/, "", $NF); printf "%.1f", $NF * 1000 }' /tmp/$a.log)
	# mm_stat once everything is out: orig compr mem_used limit max same compacted huge
	set -- $(grep "stat $Z/mm_stat" /tmp/$a.log | sed 's/.*: //')
	if [ $# -lt 8 ] || [ -z "$w" ] || [ -z "$r" ]; then
		echo "ZBW-DEMO: $a: no mm_stat or timing ($(tail -n 1 /tmp/$a.log))"; result=FAIL; continue
	fi
	case "$v" in "verified="*" mismatched=0") ;; *) check=FAIL ;; esac
	[ $check = ok ] || result=FAIL
	echo "ZBW-REC: swap zbwmem-${FILL}MiB $a $1 $2 $3 $8 $6 $w $r $check"
	echo "ZBW-DEMO: $a: swap done, $v"
done
[ ! -d $ZD ] || echo "ZBW-NOTE: zbewalgo: on each of $HUGE_SETS block writes the pages zram counted huge were exactly those zbewalgo stored whole (its debugfs statistics): none it compressed below the huge class"
# "BUG:", not BUG: kmemleak's "out of memory" names CONFIG_DEBUG_KMEMLEAK_*.
splat=$(dmesg-bugs | grep -cE 'BUG:|BUG at|WARNING:|Oops|Call Trace')
if [ "$splat" != 0 ]; then
	echo "ZBW-DEMO: $splat kernel warning lines:"
	dmesg | grep -E -A5 'BUG:|BUG at|WARNING:|Oops' | sed 's/^/ZBW-DEMO: /' | head -n 40
	result=FAIL
fi
echo "ZBW-RESULT: $result"
