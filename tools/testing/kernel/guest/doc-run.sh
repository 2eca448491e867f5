# shellcheck shell=dash
# (busybox sh: local is there)
# Sourced by the guest suites after lib.sh: the admin guide's blocks that
# doc-blocks.py extracted into /doc, in the guide's order, each the check
# doc-NAME (doc_suite lists them, doc_block runs one). A block of commands
# runs under bash -e (Debian's swapon, mkswap and zramctl come first on
# PATH) in /src, where build/zbewalgo is the tool; it fails when a command
# fails or when its doc_verify_NAME hook does. doc_before_NAME prepares what
# the guide says must be there first (e.g. "run the workload"). Before every
# block without .keep, doc_clean undoes what the blocks before set up.
# Blocks that are file contents are written to their path; the tests that
# use those files (dkms guest) call doc_install NAME first.
DOC_K=/sys/kernel/zbewalgo
DOC_P=/sys/module/zswap/parameters
DOC_ZSWAP_COMP=$(cat $DOC_P/compressor 2>/dev/null)

# doc_huge_size PAGE: the length from which zram keeps a page whole, as
# zsmalloc computes it since 6.3 (zspages of up to 8 pages, classes PAGE/256
# apart, an 8-byte handle): 3625 for 4 KiB pages.
doc_huge_size() {
	awk -v p="$1" 'BEGIN {
		st = p / 256 < 8 ? 8 : p / 256
		for (i = int((p - 32 + st - 1) / st); i > 0; i--) {
			s = 32 + i * st; if (s > p) s = p
			w = p % s; n = 1; q = s
			while (q % 2 == 0) q /= 2
			for (k = 2; k <= 8 && q > 1; k++)
				if (k * p % s < w) { w = k * p % s; n = k }
			if (n > 1 && int(n * p / s) > 1) { print s - 7; exit }
		}
		print p
	}'
}

doc_clean() {
	local d n
	for d in $(awk 'NR > 1 { print $1 }' /proc/swaps); do swapoff "$d"; done
	[ -e $DOC_P/enabled ] && echo N >$DOC_P/enabled
	[ -z "$DOC_ZSWAP_COMP" ] || echo "$DOC_ZSWAP_COMP" >$DOC_P/compressor
	for d in /sys/block/zram*; do
		[ -e "$d/reset" ] || continue
		echo 1 >"$d/reset"
		n=${d#/sys/block/zram}
		[ "$n" = 0 ] || echo "$n" >/sys/class/zram-control/hot_remove
	done
	# Loop devices of a backing device (zram let go of them at reset).
	for d in /dev/loop[0-9]*; do
		[ -b "$d" ] && losetup -d "$d" 2>/dev/null
	done
	# The module's defaults (zbewalgo_default_params()): an eighth of the
	# page and zsmalloc's huge-class threshold.
	if [ -d $DOC_K ]; then
		echo reset >$DOC_K/combinations
		echo $((PSZ / 8)) >$DOC_K/early_abort_size
		doc_huge_size $PSZ >$DOC_K/max_output_size
	fi
	return 0
}

# doc_install NAME: the file block NAME written to its path (no check line).
doc_install() {
	local f p
	f=$(find /doc -name "*-$1.file" | head -n 1)
	[ -n "$f" ] || { echo "no file block $1"; return 1; }
	p=$(cat "${f%.file}.path")
	mkdir -p "${p%/*}" && cp "$f" "$p"
}

# doc_suite: "doc-NAME doc_block BLOCK" for every block in /doc, in order.
doc_suite() {
	local b
	for b in $(find /doc -name '*.sh' -o -name '*.file' | sed 's|.*/||; s/\.[a-z]*$//' | sort); do
		echo "doc-${b#*-} doc_block $b"
	done
}

# doc_block BLOCK (a check): the block, with its hooks.
doc_block() {
	local b=$1 name hook rc=0 detail
	name=doc-${b#*-}
	hook=$(echo "${b#*-}" | tr - _)
	mkdir -p /src
	[ -e "/doc/$b.keep" ] || doc_clean
	if command -v "doc_before_$hook" >/dev/null; then
		"doc_before_$hook" >"/tmp/$name.before" 2>&1 ||
			flunk "preparing: $(tail -n 3 "/tmp/$name.before" | tr '\n' '|')" || return
	fi
	if [ -e "/doc/$b.file" ]; then
		doc_install "${b#*-}" >"/tmp/$name.log" 2>&1 || rc=$?
		detail="wrote $(cat "/doc/$b.path")"
	else
		(cd /src && PATH=/usr/sbin:/sbin:/bin:/extra bash -e "/doc/$b.sh") >"/tmp/$name.log" 2>&1 || rc=$?
		detail="exit $rc"
	fi
	sed "s/^/# $name: /" "/tmp/$name.log" | cut -c1-200
	if [ "$rc" = 0 ] && command -v "doc_verify_$hook" >/dev/null; then
		detail="$detail; $("doc_verify_$hook" "/tmp/$name.log" 2>&1)" || rc=1
	fi
	[ "$rc" = 0 ] && pass "$detail" || flunk "$detail"
}

# --- what each block must have done ----------------------------------------------
doc_comp() { grep -q '\[zbewalgo\]' "/sys/block/$1/comp_algorithm"; }
doc_swap() { # DEV: the priority of the swap on /dev/DEV, fails if none
	awk -v d="/dev/$1" '$1 == d { print $5; f = 1 } END { exit !f }' /proc/swaps
}
doc_verify_sysfs_by_hand() {
	local p
	p=$(doc_swap zram0) && [ "$p" = 100 ] && doc_comp zram0 &&
		echo "swap on zram0 at priority 100, $(cat /sys/block/zram0/comp_algorithm)"
}
doc_verify_check_device() {
	grep -q '\[zbewalgo\]' "$1" && grep -q '^/dev/zram0 ' "$1" && echo "shows [zbewalgo] and the swap"
}
doc_verify_zramctl() {
	local d
	for d in $(awk '$1 ~ /^\/dev\/zram/ { print substr($1, 6) }' /proc/swaps); do
		doc_comp "$d" && grep -q "^/dev/$d .*zbewalgo" "$1" &&
			{ echo "swap on $d, zramctl lists zbewalgo"; return 0; }
	done
	return 1
}
doc_verify_zswap() {
	[ "$(cat $DOC_P/compressor)" = zbewalgo ] && [ "$(cat $DOC_P/enabled)" = Y ] &&
		echo "compressor zbewalgo, enabled Y"
}
doc_verify_level_by_hand() {
	[ "$(cat /sys/block/zram0/disksize)" -gt 0 ] && doc_comp zram0 &&
		echo "zram0 initialized with zbewalgo level 1"
}
# The device's own table: its pages are not in the shared statistics.
doc_verify_device_keys() {
	local s0
	s0=$(cut -d' ' -f1 $DOC_K/stats)
	[ "$(cat /sys/block/zram0/disksize)" -gt 0 ] && doc_comp zram0 &&
		zbwmem dump float 64 | dd of=/dev/zram0 bs=64k oflag=direct 2>/dev/null &&
		[ "$(cut -d' ' -f1 $DOC_K/stats)" = "$s0" ] &&
		echo "zram0 initialized with a table of its own, not in stats ($s0)"
}
# A device holding the workload to train on; then the device with the
# dictionary compresses the workload's text smaller than the shared
# settings do.
doc_before_dict() {
	mkdir -p /etc && echo zbewalgo >/sys/block/zram0/comp_algorithm &&
		echo 64M >/sys/block/zram0/disksize &&
		zbwmem dump text 1024 | tail -c $((512 * PSZ)) >/dev/zram0 &&
		blockdev --flushbufs /dev/zram0
}
doc_verify_dict() {
	local n with without
	n=$(cat /sys/class/zram-control/hot_add)
	echo zbewalgo >/sys/block/zram$n/comp_algorithm && echo 64M >/sys/block/zram$n/disksize &&
		zbwmem dump text 256 | dd of=/dev/zram0 bs=64k oflag=direct 2>/dev/null &&
		zbwmem dump text 256 | dd of=/dev/zram$n bs=64k oflag=direct 2>/dev/null &&
		with=$(awk '{ print $2 }' /sys/block/zram0/mm_stat) &&
		without=$(awk '{ print $2 }' /sys/block/zram$n/mm_stat) &&
		[ "$with" -lt "$without" ] &&
		echo "dict= on zram0: $with bytes compressed, $without without"
}
doc_table_is() { # CHAIN...: the table is exactly these chains
	[ "$(cat $DOC_K/combinations | tr '\n' ' ')" = "$* " ]
}
doc_verify_level1_table() {
	doc_table_is zstd bitshuffle4-zstd delta8-bitshuffle8-zstd &&
		echo "table: level 1's chains"
}
# "Run the workload": 16 MiB of the test patterns written to zram0.
doc_before_walk_look() {
	echo zbewalgo >/sys/block/zram0/comp_algorithm && echo 64M >/sys/block/zram0/disksize &&
		mkdir -p /tmp/wl && zbwmem files /tmp/wl 16 >/dev/null &&
		cat /tmp/wl/*.dat >/dev/zram0 && blockdev --flushbufs /dev/zram0 && rm -rf /tmp/wl
}
doc_verify_walk_look() {
	# shellcheck disable=SC2046  # the fields, one a word
	set -- $(cat /sys/block/zram0/mm_stat)
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$(cut -d' ' -f1 $DOC_K/stats)" -gt 0 ] &&
		echo "mm_stat orig $1 compr $2, stats $(cat $DOC_K/stats)"
}
doc_verify_walk_tune_zram() {
	grep -q "^  echo 'set .*/sys/kernel/zbewalgo/combinations" "$1" && echo "tune printed a table to apply"
}
doc_verify_walk_apply() {
	doc_table_is bitshuffle8-rle-huffman bitshuffle4-rle-bitshuffle4-rle &&
		[ "$(cat $DOC_K/early_abort_size)" = 256 ] && echo "table and early_abort_size applied"
}
# No systemd in the guests: the unit's ExecStart lines, in order, by sh.
doc_verify_settings_unit() {
	local l
	sed -n 's/^ExecStart=//p' /etc/systemd/system/zbewalgo-settings.service >/tmp/execstart
	while read -r l; do
		eval "$l" || { echo "ExecStart failed: $l"; return 1; }
	done </tmp/execstart
	doc_verify_walk_apply >/dev/null &&
		[ "$(cat $DOC_P/compressor)" = zbewalgo ] &&
		echo "its $(wc -l </tmp/execstart) ExecStart lines applied the settings and zswap's compressor"
}

# --- recompression and writeback (guest-recomp, 6.12+) ----------------------------
# doc_line FILE: FILE's lines on one line, for a message.
# shellcheck disable=SC2046  # the words, one space between them
doc_line() { echo $(cat "$1"); }
# doc_flags DEV FLAG: pages of /dev/DEV whose debugfs block_state flags
# have FLAG (r recompressed, w written back, h huge, ...).
doc_flags() {
	awk -v f="$2" 'index($3, f) { n++ } END { print n + 0 }' "/sys/kernel/debug/zram/$1/block_state"
}
# doc_hold_start: the workload's pages swapped out and held there
# (zbwmem's ZBWMEM_HOLD) while a block works on zram0. 224 MiB: the
# guide's 4 GiB device takes 24 MiB of the guest's 224 for its table,
# and lz4 keeps the random pages whole; 320 MiB ran into the OOM killer.
doc_hold_start() {
	local i=0
	rm -f /tmp/doc-release
	{
		ZBWMEM_HOLD=/tmp/doc-release zbwmem fill "${ZBW_DOC_HOLD_MIB:-224}" 2 1
		echo "zbwmem exit $?"
	} >/tmp/doc-hold.log 2>&1 &
	until grep -q 'holding until' /tmp/doc-hold.log; do
		i=$((i + 1))
		[ $i -lt 900 ] && ! grep -q '^zbwmem exit ' /tmp/doc-hold.log ||
			{ touch /tmp/doc-release; cat /tmp/doc-hold.log; return 1; }
		sleep 1
	done
	# Until zram has stopped taking pages (orig_data_size the same for 2 s,
	# at most a minute): a block's effect is measured from there.
	i=0
	until [ $i -ge 30 ] || [ "$(doc_orig_settled)" = settled ]; do i=$((i + 1)); done
	echo "workload held: $(grep -c . /tmp/doc-hold.log) lines, mm_stat $(cat /sys/block/zram0/mm_stat)"
}
# doc_orig_settled: "settled" when zram0's orig_data_size did not change
# over the next 2 seconds.
doc_orig_settled() {
	local a b
	a=$(zram_stat 0 mm_stat 1)
	sleep 2
	b=$(zram_stat 0 mm_stat 1)
	[ "$a" = "$b" ] && echo settled
}
# doc_hold_end: the workload reads every page back and compares it; it
# fails on a mismatch and on a process that died (an OOM kill).
doc_hold_end() {
	local i=0 v
	touch /tmp/doc-release
	until grep -q '^zbwmem exit ' /tmp/doc-hold.log; do
		i=$((i + 1))
		[ $i -lt 900 ] || break
		sleep 1
	done
	v=$(grep '^zbwmem: verified=' /tmp/doc-hold.log)
	grep -qx 'zbwmem exit 0' /tmp/doc-hold.log && echo "$v" | grep -q ' mismatched=0 ' ||
		{ echo "workload: $(grep -E '^zbwmem (exit|.*failed)' /tmp/doc-hold.log | tr '\n' ' ')${v:-no result}"; return 1; }
	echo "${v#zbwmem: }"
}
doc_verify_recomp_by_hand() {
	local p
	p=$(doc_swap zram0) && [ "$p" = 100 ] && grep -q '\[lz4\]' /sys/block/zram0/comp_algorithm &&
		grep -q '^#1: .*\[zbewalgo\]' /sys/block/zram0/recomp_algorithm &&
		echo "swap on zram0 at priority 100, lz4, recomp_algorithm $(cat /sys/block/zram0/recomp_algorithm)"
}
doc_verify_recomp_script_mode() {
	[ -x /usr/local/sbin/zram-recompress ] && echo "executable"
}
doc_before_recomp_service() { doc_hold_start; }
# No systemd in the guests: the unit's ExecStart lines by sh, twice, as
# the timer would run them (the second pass finds idle pages).
doc_verify_recomp_service() {
	local i l c0 c1 c2 r1 r2 o0 o2 h0 s0 s1 s2 v
	sed -n 's/^ExecStart=//p' /etc/systemd/system/zram-recompress.service >/tmp/execstart
	h0=$(doc_flags zram0 h)
	s0=$(doc_line $DOC_K/stats)
	c0=$(zram_stat 0 mm_stat 2)
	o0=$(zram_stat 0 mm_stat 1)
	for i in 1 2; do
		while read -r l; do
			eval "$l" || { echo "ExecStart failed: $l"; doc_hold_end; return 1; }
		done </tmp/execstart
		eval "c$i=\$(zram_stat 0 mm_stat 2) r$i=\$(doc_flags zram0 r) s$i=\"\$(doc_line $DOC_K/stats)\""
	done
	o2=$(zram_stat 0 mm_stat 1)
	# what zram holds now: pages per set of block_state flags
	f=$(awk '{ print $3 }' /sys/kernel/debug/zram/zram0/block_state | sort | uniq -c | tr '\n' ' ')
	v=$(doc_hold_end) || { echo "$v"; return 1; }
	# The first pass recompressed huge pages, the second idle ones, and
	# together they saved memory.  Pass by pass is not comparable: in one
	# 7.2 guest under load compr_data_size grew by 1 MB during the first
	# pass, which recompressed 1195 pages.
	[ "$r1" -gt 0 ] && [ "$r2" -gt "$r1" ] && [ "$c2" -lt "$c0" ] ||
		{ echo "recompressed $r1 then $r2 ($h0 huge), compr $c0 $c1 $c2, orig $o0 -> $o2, zbewalgo stats [$s0] [$s1] [$s2], table [$(doc_line $DOC_K/combinations)], flags: $f"; return 1; }
	echo "two passes: $r1 then $r2 pages recompressed ($h0 huge), compr_data_size $c0 -> $c1 -> $c2 (orig $o0 -> $o2), zbewalgo stats [$s0] [$s1] [$s2]; $v"
}
doc_verify_recomp_timer() {
	grep -q '^OnUnitActiveSec=' /etc/systemd/system/zram-recompress.timer &&
		[ -e /etc/systemd/system/zram-recompress.service ] && echo "timer for zram-recompress.service"
}
doc_before_writeback_by_hand() { mkdir -p /var/lib; }
doc_verify_writeback_by_hand() {
	local b p
	b=$(cat /sys/block/zram0/backing_dev)
	p=$(doc_swap zram0) && [ "$p" = 100 ] && case $b in /dev/loop*) ;; *) false ;; esac &&
		losetup "$b" | grep -q /var/lib/zram-writeback.img &&
		echo "swap on zram0 at priority 100, backing_dev $b"
}
doc_before_writeback_pass() { doc_hold_start; }
doc_verify_writeback_pass() {
	local w r v
	w=$(zram_stat 0 bd_stat 1)
	r=$(doc_flags zram0 r)
	v=$(doc_hold_end) || { echo "$v"; return 1; }
	[ "$w" -gt 0 ] && [ "$r" -gt 0 ] || { echo "bd_stat count $w, recompressed $r"; return 1; }
	echo "recompressed $r, $w pages written back, bd_stat now $(doc_line /sys/block/zram0/bd_stat); $v"
}
