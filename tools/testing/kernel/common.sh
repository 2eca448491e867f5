# shellcheck shell=bash
# Sourced by the harness scripts: cache location, progress and error output.
# shellcheck disable=SC2034  # the variables are used by the sourcing scripts
CACHE=${ZBW_CACHE:-/var/cache/zbewalgo}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VERSIONS="6.1 6.12 7.2"
# The test kernels' architecture (build.sh, boot.sh, zbewalgo-tests.sh): x86_64,
# or arm64 with 4 KiB or, with ZBW_ARM64_PAGES=64, 64 KiB pages.
ZARCH=${ZBW_ARCH:-x86_64}
case $ZARCH in
x86_64) ZTAG= ZCROSS= ;;
arm64)	ZTAG=-arm64 ZCROSS=aarch64-linux-gnu-
	[ "${ZBW_ARM64_PAGES:-4}" = 4 ] || ZTAG=-arm64-${ZBW_ARM64_PAGES}k ;;
*) echo "unknown ZBW_ARCH '$ZARCH' (x86_64 or arm64)" >&2; exit 1 ;;
esac

# Progress goes to stderr so that stdout can carry a result (build.sh prints a path).
say() { printf '[%s +%ds] %s\n' "${0##*/}" "$SECONDS" "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

check_version() {
	case " $VERSIONS " in *" $1 "*) ;; *) die "unknown version '$1' (one of: $VERSIONS)" ;; esac
}

# The repository these scripts live in (its kernel files go into the test kernels).
REPO=$(cd "$HERE/../../.." && pwd)

# test_fragment VERSION: the test kernels' config on top of base.config: debug
# options, crypto self-tests (named differently before 7.x), on trees whose
# zram has backends (6.12+) zbewalgo itself, and where zram has multi-comp
# (6.12+) recompression, writeback and loop devices. 6.1 takes out-of-tree
# modules.
test_fragment() {
	cat "$HERE/config/debug.config"
	if grep -q '^config CRYPTO_SELFTESTS$' "$CACHE/src/linux-$1/crypto/Kconfig"; then
		cat "$HERE/config/selftests.config"
	else
		cat "$HERE/config/selftests-manager.config"
	fi
	integrated "$1" && cat "$HERE/config/zbewalgo.config"
	multi_comp "$1" && cat "$HERE/config/zram-recomp.config"
	return 0
}

# integrated VERSION: true when zbewalgo goes into the tree (zram backends exist).
integrated() {
	grep -q '^config ZRAM_BACKEND_LZ4$' "$CACHE/src/linux-$1/drivers/block/zram/Kconfig"
}

# multi_comp VERSION: true when zram can recompress with secondary algorithms
# (6.12+; 6.1 predates it).
multi_comp() {
	grep -q '^config ZRAM_MULTI_COMP$' "$CACHE/src/linux-$1/drivers/block/zram/Kconfig"
}

# test_kernel VERSION: builds (cached) the test kernel, prints its build (obj) dir.
test_kernel() {
	local frag bz
	frag=$(mktemp)
	test_fragment "$1" >"$frag"
	if integrated "$1"; then
		bz=$("$HERE/build.sh" "$1" "$frag" "" "$REPO") || { rm -f "$frag"; return 1; }
	else
		bz=$("$HERE/build.sh" "$1" "$frag") || { rm -f "$frag"; return 1; }
	fi
	rm -f "$frag"
	echo "${bz%/arch/*/boot/*}"
}

# run_fragment: the config of make run's kernel, which both of its halves
# boot (demo.sh with ZBW_DEMO_KERNEL=run, and realprog.sh, which merges the
# same files in the same order, so build.sh's key and cached build are the
# same): zbewalgo built in, zram recompression, no debug options, and what
# a Debian userland needs (config/realprog.config).
run_fragment() {
	cat "$HERE/config/zbewalgo.config" "$HERE/config/zram-recomp.config" "$HERE/config/realprog.config"
}

# integrated_copy SRC DIR: DIR/src becomes a hard-link copy of the kernel
# source SRC with zbewalgo integrated (scripts/kernel-integrate.py), made
# afresh each run at a fixed path. Files whose content did not change keep
# their mtimes, so make rebuilds only what the integration rewrote; a new
# source version (SRC.version) starts over, DIR/obj included.
integrated_copy() {
	local src=$1 k=$2
	if [ "$(cat "$k/src.version" 2>/dev/null)" != "$(cat "$src.version")" ]; then
		rm -rf "$k/src" "$k/obj"
	fi
	rm -rf "$k/src.new"
	cp -al "$src/." "$k/src.new/"
	"$REPO/scripts/install-deps.sh" python3 unifdef >&2
	python3 "$REPO/scripts/kernel-integrate.py" "$REPO" "$k/src.new" >&2
	if [ -d "$k/src" ]; then
		(cd "$k/src.new" && find . -type f -links 1 -print0) |
			while IFS= read -r -d '' f; do
				if cmp -s "$k/src/$f" "$k/src.new/$f"; then
					touch -r "$k/src/$f" "$k/src.new/$f"
				fi
			done
	fi
	rm -rf "$k/src"
	mv "$k/src.new" "$k/src"
	cp "$src.version" "$k/src.version"
}

# zbw_kbuild OBJ FILES [DIR]: builds (cached) the modules of the repo's FILES
# (paths relative to the repo, one per line; Kbuild in DIR of them, default
# the top) out of tree against the kernel build OBJ, in a copy (Kbuild would
# otherwise leave objects in the clone). Prints the directory of the .ko.
zbw_kbuild() {
	local obj=$1 files=$2 key dir
	key=$({ cat "$obj/include/config/kernel.release" "$obj/.config" "$obj/Module.symvers"
		(cd "$REPO" && echo "$files" | xargs sha256sum); } | sha256sum | cut -c1-16)
	dir=$CACHE/modules/$key
	if [ ! -f "$dir/.ok" ]; then
		say "building out-of-tree modules in $dir"
		rm -rf "$dir"
		mkdir -p "$dir"
		(cd "$REPO" && echo "$files" | cpio -pdm --quiet "$dir")
		make -C "$obj" M="$dir${3:+/$3}" modules >"$dir/build.log" 2>&1 ||
			{ tail -n 30 "$dir/build.log" >&2; say "module build failed (log: $dir/build.log)"; return 1; }
		touch "$dir/.ok"
	fi
	echo "$dir${3:+/$3}"
}

# zbw_modules OBJ: libzbewalgo.ko and zbewalgo.ko, for kernels without
# zbewalgo in their tree (6.1). Prints the directory of the .ko.
zbw_modules() {
	zbw_kbuild "$1" "$(cd "$REPO" && find Kbuild include compat lib/zbewalgo crypto/zbewalgo.c -type f \
		! -name '*.o' ! -name '*.ko' ! -name '*.cmd' ! -name '*.mod*' | LC_ALL=C sort)"
}

# zbw_bench_module OBJ: zbwbench.ko (zbwbench/zbwbench.c), for kernels with
# zbewalgo in their tree. Prints the directory of the .ko.
zbw_bench_module() {
	zbw_kbuild "$1" "$(printf '%s\n' tools/testing/kernel/zbwbench/Kbuild \
		tools/testing/kernel/zbwbench/zbwbench.c)" tools/testing/kernel/zbwbench
}

# ktap_missing LOG CHECK...: prints (space-led) what is wrong with the
# guest's KTAP results (guest/lib.sh) in LOG, the console text with CRs
# removed: every CHECK not reported as passed ("ok N CHECK", not skipped),
# "plan" unless the results count up one by one to the plan's "1..N", and
# "totals" unless the totals line counts no failure.  Whole lines are
# matched, so echoed commands do not count.
ktap_missing() {
	local log=$1 c missing=''
	shift
	# Here-strings, not pipes: under pipefail, "echo | grep -q" fails when
	# grep stops at an early match and echo gets SIGPIPE on a long log.
	for c in "$@"; do
		awk -v c="$c" '$1 == "ok" && $2 ~ /^[0-9]+$/ && $3 == c &&
			(NF == 3 || ($4 == "#" && $5 != "SKIP")) { f = 1 }
			END { exit !f }' <<<"$log" || missing="$missing $c"
	done
	awk '/^1\.\.[0-9]+$/ && !plan { plan = substr($0, 4) + 0; next }
	     /^(not )?ok [0-9]+ / { n++; if ((/^not/ ? $3 : $2) != n) bad = 1 }
	     END { exit !(plan && n == plan && !bad) }' <<<"$log" || missing="$missing plan"
	grep -qE '^# Totals: pass:[0-9]+ fail:0 ' <<<"$log" || missing="$missing totals"
	echo "$missing"
}

# bin_extras BINARY DEST: initramfs.sh arguments (one a line) for a dynamic
# BINARY at DEST in the guest, with its ELF interpreter and libraries at
# their own paths.
bin_extras() {
	local l
	echo "$1=$2"
	for l in $(ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		echo "$(readlink -f "$l")=$l"
	done
}

# doc_extras DIR PLACES: the blocks of the guides for PLACES (doc-blocks.py)
# extracted to DIR, and the guest's files for running them: the runner,
# bash and Debian's zramctl, swapon, swapoff, mkswap and losetup (the
# guide's commands) with their libraries. Prints initramfs.sh arguments, one a line.
doc_extras() {
	local b p tools="zramctl swapon swapoff mkswap losetup"
	rm -rf "$1"
	python3 "$HERE/doc-blocks.py" extract "$2" "$1" "${GUIDES[@]}" || return 1
	echo "$1=/doc"
	echo "$HERE/guest/doc-run.sh"
	if [ "$ZARCH" != x86_64 ]; then
		# Debian's packages for the arch, with every library they have.
		p=$("$HERE/sysroot.sh" "$ZARCH") || return 1
		echo "$p/bin/bash=/bin/bash"
		for b in $tools; do echo "$p/sbin/$b=/usr/sbin/$b"; done
		for b in "$p"/lib/*-linux-gnu "$p"/lib/ld-linux-* "$p"/usr/lib/*-linux-gnu; do echo "$b=${b#"$p"}"; done
		return 0
	fi
	bin_extras /bin/bash /bin/bash
	for b in $tools; do
		p=$(PATH=/usr/sbin:/sbin:$PATH command -v $b) || { say "$b not found (util-linux)"; return 1; }
		bin_extras "$p" "/usr/sbin/$b"
	done
}
# The documents whose command blocks the tests run (doc-blocks.py), in the
# order their blocks run: the admin guide, then the user guide.
GUIDES=("$REPO/Documentation/admin-guide/blockdev/zbewalgo.rst" "$REPO/docs/user-guide.rst")

# qemu_accel KERNEL: the accelerator the x86_64 guests run under, "kvm" or
# "tcg" (arm64 guests: always tcg).  ZBW_ACCEL=kvm or tcg forces one;
# otherwise, when /dev/kvm is usable, a probe boots KERNEL under -accel kvm
# with an initramfs that only prints its start and exit markers (the
# console's "ZBW-GUEST-EXIT: 0"), within ZBW_KVM_PROBE_SEC (25) seconds:
# on some hosts /dev/kvm opens and SeaBIOS starts, but the kernel then
# hangs, and TCG is the fallback.  The verdict is kept for this boot of
# the host ($CACHE/accel/BOOT_ID), so only the first guest pays for the
# probe.  Progress to stderr, the verdict on stdout.
qemu_accel() {
	local k=$1 dir verdict boot_id probe rc
	case ${ZBW_ACCEL:-auto} in
	kvm|tcg) echo "$ZBW_ACCEL"; return 0 ;;
	auto) ;;
	*) die "ZBW_ACCEL=${ZBW_ACCEL}: auto, kvm or tcg" ;;
	esac
	[ "$ZARCH" = x86_64 ] || { echo tcg; return 0; }
	if [ ! -c /dev/kvm ] || [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo tcg
		return 0
	fi
	dir=$CACHE/accel
	mkdir -p "$dir"
	boot_id=$(cat /proc/sys/kernel/random/boot_id)
	verdict=$dir/$boot_id
	# One probe at a time; the others wait for its verdict.
	exec 8>"$dir/lock"
	flock 8
	if [ ! -s "$verdict" ]; then
		probe=$(mktemp -d)
		echo 'echo ZBW-KVM-PROBE: init runs' >"$probe/guest.sh"
		"$HERE/initramfs.sh" "$probe/initramfs.cpio.gz" "$probe/guest.sh" >/dev/null 2>&1 ||
			{ rm -rf "$probe"; exec 8>&-; die "qemu_accel: initramfs.sh failed"; }
		say "probing KVM: a boot of $k under -accel kvm, at most ${ZBW_KVM_PROBE_SEC:-25} s"
		rc=0 t0=$(date +%s)
		timeout -k 5 "${ZBW_KVM_PROBE_SEC:-25}" qemu-system-x86_64 -accel kvm -cpu host \
			-m 256M -smp 2 -nographic -no-reboot -net none -kernel "$k" \
			-initrd "$probe/initramfs.cpio.gz" -append "console=ttyS0 panic=-1" \
			</dev/null >"$probe/console.log" 2>&1 || rc=$?
		if tr -d '\r' <"$probe/console.log" | grep -qx 'ZBW-GUEST-EXIT: 0'; then
			echo kvm >"$verdict.tmp"
			say "KVM works: the probe guest ran its init in $(($(date +%s) - t0)) s"
		else
			echo tcg >"$verdict.tmp"
			say "KVM probe failed (qemu status $rc$([ "$rc" != 124 ] || echo ": timed out")," \
				"the guest's last line: '$(tr -d '\r' <"$probe/console.log" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g' |
				grep -v '^qemu-system' | grep . | tail -n 1 | cut -c1-80)'): TCG"
			cp "$probe/console.log" "$dir/$boot_id.console.log"
		fi
		mv "$verdict.tmp" "$verdict"
		rm -rf "$probe"
	fi
	exec 8>&-
	cat "$verdict"
}
