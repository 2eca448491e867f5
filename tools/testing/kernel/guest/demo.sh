# Guest side of demo.sh (busybox sh as /guest.sh): swap on zram with zbewalgo, lz4
# and zstd in turn under the same memory-hungry workload (zbwmem, ZBW_FILL_MIB MiB
# in a guest with less memory), then one table of what zram stored for each.
# Lines for the host: "ZBW-DEMO: progress", "ZBW-TABLE: row", "ZBW-RESULT: ok".
set -u
FILL=${ZBW_FILL_MIB:-384}
Z=/sys/block/zram0
rows=
result=ok
echo "ZBW-DEMO: kernel $(uname -r), $(grep MemTotal /proc/meminfo | tr -s ' '), workload ${FILL} MiB"
# 6.1 takes zbewalgo from the out-of-tree modules; 6.12+ has it built in.
for m in libzbewalgo zbewalgo; do [ ! -e /extra/$m.ko ] || insmod /extra/$m.ko; done

mib() { echo $((($1 + 524288) / 1048576)); }

for a in zbewalgo lz4 zstd; do
	echo "ZBW-DEMO: $a: swap on zram, filling and verifying ${FILL} MiB"
	if ! { echo $a >$Z/comp_algorithm && echo 1G >$Z/disksize &&
		mkswap /dev/zram0 >/dev/null && swapon /dev/zram0; }; then
		echo "ZBW-DEMO: $a: zram setup failed"; result=FAIL; continue
	fi
	start=$(cut -d' ' -f1 /proc/uptime)
	zbwmem fill "$FILL" 2 1 $Z/mm_stat >/tmp/$a.log 2>&1 || result=FAIL
	end=$(cut -d' ' -f1 /proc/uptime)
	swapoff /dev/zram0
	echo 1 >$Z/reset
	v=$(grep '^zbwmem: verified=' /tmp/$a.log | cut -d' ' -f2-3)
	# mm_stat once everything is out: orig compr mem_used limit max same compacted huge
	set -- $(grep "stat $Z/mm_stat" /tmp/$a.log | sed 's/.*: //')
	if [ $# -lt 8 ]; then
		echo "ZBW-DEMO: $a: no mm_stat ($(tail -n 1 /tmp/$a.log))"; result=FAIL; continue
	fi
	ratio=$(awk -v o="$1" -v m="$3" 'BEGIN { printf "%.2f", m ? o / m : 0 }')
	secs=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", e - s }')
	rows="$rows$(printf '%-9s %9s %10s %9s %6s %10s %10s %6s  %s' $a "$(mib $1)" "$(mib $2)" \
		"$(mib $3)" "$ratio" "$8" "$6" "$secs" "$v")
"
	echo "ZBW-DEMO: $a: done in ${secs}s, $v"
done

echo "ZBW-TABLE: what zram held once ${FILL} MiB were written in $(($(sed -n 's/MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo) / 1024)) MiB of RAM (MiB; pages)"
printf 'ZBW-TABLE: %-9s %9s %10s %9s %6s %10s %10s %6s  %s\n' algorithm orig compressed mem_used \
	ratio huge_pages same_pages time verify
printf '%s' "$rows" | sed 's/^/ZBW-TABLE: /'
echo "ZBW-RESULT: $result"
