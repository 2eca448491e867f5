#!/bin/bash
# zbewalgo-tests.sh [VERSIONS...]: the booted-kernel tests (default: 6.1 6.12 7.2).
# For each version: fetch the source, build the debug test kernel (cached; 6.12+
# with zbewalgo integrated, 6.1 with out-of-tree modules), pack guest/zbewalgo.sh
# with zbwmem and the modules, boot it and require its KTAP results to hold every
# expected check, passed (common.sh, ktap_missing).
# Console logs: $ZBW_CACHE/run/VERSION/console.log, copied to build/kernel-logs/.
# ZBW_ARCH=arm64 (make check-arch) runs the same on an arm64 kernel under
# qemu's virt machine, with 64 KiB pages when ZBW_ARM64_PAGES=64: only
# versions that integrate zbewalgo (6.12, 7.2), with Debian's arm64 busybox,
# bash and util-linux (sysroot.sh) and the test programs cross-compiled;
# run directories and logs are VERSION-arm64 and VERSION-arm64-64k.
# ZBW_ONLY=NAME,NAME... runs and requires only the checks named (to iterate
# on one; modules-load is needed where zbewalgo is a module, 6.1).
# ZBW_RETRY_MIB, ZBW_RETRY_ROUNDS and ZBW_RETRY_PROCS size zram-retry's
# writes (16 MiB, 6 rounds, 4 writers).
# ZBW_KERNEL_OBJ boots a kernel built elsewhere in the suite's configuration
# (scripts/patches/check.sh: the patch series') instead of building one.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -gt 0 ] || set -- $VERSIONS
for v in "$@"; do
	check_version "$v"
	case $ZARCH:$v in
	x86_64:* | *:6.12 | *:7.2) ;;
	*) die "$v: $ZARCH kernels run only with zbewalgo integrated (6.12, 7.2)" ;;
	esac
done
LOGS=$REPO/build/kernel-logs
mkdir -p "$LOGS" "$CACHE/run"
# A kernel built elsewhere (ZBW_KERNEL_OBJ) gets run directories, console
# logs and test programs of its own: check-patches may boot it while
# check-kernel boots the suite's own kernel of the same version.
SERIES=${ZBW_KERNEL_OBJ:+-series}
RTAG=$ZTAG$SERIES
summary=$(mktemp)

# Checks every guest must pass; 6.12+ (integrated) adds zram's algorithm_params
# levels and zswap (6.1 keeps to zram: the suite must fit CI's time budget).
CHECKS="modules-load crypto-selftest comp-algorithm sysfs-bad-input ext2-zram
	zram-retry swap-zram verify-zram sysfs-stress module-reload
	crypto-selftest-reload kmemleak no-splat"
CHECKS_INTEGRATED="zram-levels zram-huge zswap verify-zswap sysfs-stress-zswap
	crypto-selftest-settings"
# Where zram has multi-comp (6.12+): zbewalgo as the secondary algorithm
# and writeback to a loop device (guest/recomp.sh).
CHECKS_RECOMP="zram-devices recomp-setup recomp-huge recomp-idle recomp-huge-idle recomp-swap
	verify-recomp sysfs-stress-recomp writeback-zbewalgo writeback-recomp"

# The workload is static: the guest has no libc.
ZBWMEM=$CACHE/run/zbwmem$RTAG
CC=gcc LDFLAGS=-static
if [ "$ZARCH" != x86_64 ]; then
	"$REPO/scripts/install-deps.sh" gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	SYSROOT=$("$HERE/sysroot.sh" "$ZARCH")
	export ZBW_BUSYBOX=$SYSROOT/bin/busybox
	# The tool's libraries: Debian's for the arch.
	CC="${ZCROSS}gcc -isystem $SYSROOT/usr/include"
	LDFLAGS="-static -L$SYSROOT/usr/lib/${ZCROSS%-}"
fi
"${ZCROSS}gcc" -static -O2 -Wall -o "$ZBWMEM" "$HERE/zbwmem.c" -lm
# The tool, static, for the guide's "build/zbewalgo tune ... /dev/zram0".
SB=build/static${ZTAG:+-$ZARCH}$SERIES
make -C "$REPO" -s BUILD="$SB" CC="$CC" LDFLAGS="$LDFLAGS" "$SB/zbewalgo" >&2
TOOL_STATIC=$REPO/$SB/zbewalgo

# guest_modules OBJ [MODDIR]: /lib/modules/RELEASE for the guest under
# $RUN/modroot, so that modprobe works as on a distribution: modules.builtin
# of OBJ, and the crypto module of an integrated tree or the out-of-tree
# modules in MODDIR installed by the repo's "make modules_install" (which
# runs depmod).
guest_modules() {
	local obj=$1 m=${2:-} rel root=$RUN/modroot
	rel=$(cat "$obj/include/config/kernel.release")
	rm -rf "$root"
	mkdir -p "$root/lib/modules/$rel"
	cp "$obj/modules.builtin" "$obj/modules.builtin.modinfo" "$obj/modules.order" "$root/lib/modules/$rel/"
	if [ -z "$m" ]; then
		mkdir -p "$root/lib/modules/$rel/kernel/crypto"
		cp "$obj/crypto/zbewalgo.ko" "$root/lib/modules/$rel/kernel/crypto/"
		depmod -b "$root" "$rel"
	else
		cp "$REPO/Makefile" "$REPO/dkms.conf" "$m/"
		make -C "$m" -s --no-print-directory modules_install KDIR="$obj" \
			INSTALL_MOD_PATH="$root" >"$RUN/modules_install.log" 2>&1 ||
			{ cat "$RUN/modules_install.log" >&2; return 1; }
		grep -q crypto-zbewalgo "$root/lib/modules/$rel/modules.alias" ||
			{ say "make modules_install: no crypto-zbewalgo in modules.alias"; return 1; }
	fi
	echo "$root/lib/modules=/lib/modules"
}

stage() { # NAME START: a timing entry for the summary
	printf '  %-10s %4ds\n' "$1" $((SECONDS - $2)) >>"$summary.t"
}

# A guest under TCG keeps about one core busy: while it runs, the next
# version's kernel is fetched and built in the background (prebuild), and
# its own fetch and build below then find it in the cache.  A prebuild
# that failed is simply done again in the foreground, where its error shows.
prebuild_pid=
prebuild() {
	{
		renice -n 10 -p "$BASHPID" >/dev/null	# the guest comes first
		"$HERE/fetch.sh" "$1" && test_kernel "$1"
	} >"$CACHE/run/prebuild-$1$ZTAG.log" 2>&1 &
	prebuild_pid=$!
}
prebuild_wait() {
	[ -z "$prebuild_pid" ] || wait "$prebuild_pid" || true
	prebuild_pid=
}
trap 'prebuild_wait; rm -f "$summary" "$summary.t"' EXIT

failed=
list=("$@")
for i in "${!list[@]}"; do
	v=${list[$i]}
	next=${list[$((i + 1))]:-}
	RUN=$CACHE/run/$v$RTAG
	mkdir -p "$RUN"
	: >"$summary.t"
	t=$SECONDS; prebuild_wait; stage prebuild $t
	t=$SECONDS; "$HERE/fetch.sh" "$v"; stage fetch $t
	t=$SECONDS; OBJ=${ZBW_KERNEL_OBJ:-$(test_kernel "$v")}; stage build $t
	t=$SECONDS
	if integrated "$v"; then
		mods=("$OBJ/crypto/zbewalgo.ko")
		want="$CHECKS $CHECKS_INTEGRATED"
		integ=1
		places=guest,guest-levels
		mapfile -t extras < <(guest_modules "$OBJ")
	else
		M=$(zbw_modules "$OBJ")
		mods=("$M/libzbewalgo.ko" "$M/zbewalgo.ko")
		want=$CHECKS
		integ=0
		places=guest
		mapfile -t extras < <(guest_modules "$OBJ" "$M")
	fi
	mc=0
	if multi_comp "$v"; then
		mc=1
		want="$want $CHECKS_RECOMP"
		places=$places,guest-recomp
	fi
	[ ${#extras[@]} -gt 0 ] || die "no /lib/modules tree for the $v guest"
	# The admin guide's blocks for this guest, each a required check.
	mapfile -t -O ${#extras[@]} extras < <(doc_extras "$RUN/doc" "$places")
	want="$want $(python3 "$HERE/doc-blocks.py" names "$places" "${GUIDES[@]}" | tr '\n' ' ')"
	if [ -n "${ZBW_ONLY:-}" ]; then
		# shellcheck disable=SC2086  # $want is a list of check names
		want=$(printf '%s\n' $want | { grep -Fx -f <(tr ',' '\n' <<<"$ZBW_ONLY") || true; } | tr '\n' ' ')
	fi
	# Up to 6.12 zram compresses a page again after its sleeping
	# allocation: zram-retry requires that path (writestall) to have run.
	retry=0
	! grep -q compress_again "$CACHE/src/linux-$v/drivers/block/zram/zram_drv.c" || retry=1
	"$HERE/initramfs.sh" "$RUN/initramfs.cpio.gz" "$HERE/guest/zbewalgo.sh" "$ZBWMEM=/extra/zbwmem" "${mods[@]}" \
		"$HERE/guest/recomp.sh" \
		"${extras[@]}" "$TOOL_STATIC=/src/build/zbewalgo"
	stage initramfs $t
	[ -z "$next" ] || prebuild "$next"
	t=$SECONDS
	# Progress: the guest's check and workload lines as they come.
	img=$OBJ/arch/x86/boot/bzImage
	[ "$ZARCH" = x86_64 ] || img=$OBJ/arch/$ZARCH/boot/Image
	# The swap workload under pressure fills 384 MiB; zswap's and the
	# recompression pass's need only enough pages to show their paths
	# (they took 190 and 145 s at 384 MiB in a 6.12 guest).  The guide's
	# held workload keeps its 224 MiB (guest/doc-run.sh): at 128 the 7.2
	# guest held it all in RAM and zram got no page to recompress.
	# 64 KiB-page guests have twice the memory (boot.sh): twice the fill,
	# and zswap's, the recompression pass's and the guide's held workload
	# must be more than that memory too (at 384 and 224 MiB nothing left
	# RAM).
	fill=384 part=192 hold=224
	[ "${ZBW_ARM64_PAGES:-4}" = 4 ] || { fill=768 part=768 hold=448; }
	{ ZBW_APPEND="ZBW_FILL_MIB=${ZBW_FILL_MIB:-$fill} ZBW_ZSWAP_MIB=${ZBW_ZSWAP_MIB:-$part} ZBW_RECOMP_MIB=${ZBW_RECOMP_MIB:-$part} ZBW_DOC_HOLD_MIB=$hold ZBW_INTEGRATED=$integ ZBW_MULTI_COMP=$mc ZBW_ZRAM_RETRY=$retry${ZBW_RETRY_MIB:+ ZBW_RETRY_MIB=$ZBW_RETRY_MIB}${ZBW_RETRY_ROUNDS:+ ZBW_RETRY_ROUNDS=$ZBW_RETRY_ROUNDS}${ZBW_RETRY_PROCS:+ ZBW_RETRY_PROCS=$ZBW_RETRY_PROCS}${ZBW_ONLY:+ ZBW_ONLY=$ZBW_ONLY}" \
		"$HERE/boot.sh" "$img" \
		"$RUN/initramfs.cpio.gz" "$RUN/console.log" "${ZBW_TIMEOUT:-3600}" || true; } |
		grep --line-buffered -E '^(ZBW-|zbwmem:|(not )?ok [0-9]+ |1\.\.|# )' | sed -u 's/\r$//' || true
	stage boot $t
	cp "$RUN/console.log" "$LOGS/$v$RTAG-console.log"

	# The console has CRLF line ends.
	log=$(tr -d '\r' <"$RUN/console.log")
	# shellcheck disable=SC2086  # $want is a list of check names
	missing=$(ktap_missing "$log" $want)
	# The kernel's own KTAP parser (its kunit.py) must read them as passed too.
	python3 "$CACHE/src/linux-$v/tools/testing/kunit/kunit.py" parse "$RUN/console.log" \
		>"$RUN/kunit-parse.log" 2>&1 || missing="$missing kunit.py-parse"
	{
		if [ -z "$missing" ]; then echo "== $v$ZTAG: PASS"; else echo "== $v$ZTAG: FAIL (missing or failed:$missing)"; fi
		grep -E '^not ok [0-9]+ ' <<<"$log" | cut -c1-300 || true
		grep -E '^ok [0-9]+ (crypto-selftest|comp-algorithm|zram-retry|swap-zram|verify-zram|zswap|verify-zswap|ext2-zram|recomp-[a-z-]*|writeback-[a-z]*) ' <<<"$log" |
			cut -c1-240 || true
		echo "  kunit.py parse: $(tail -n 1 "$RUN/kunit-parse.log" | sed 's/^\[[^]]*\] //')"
		cat "$summary.t"
		echo "  log: $LOGS/$v$RTAG-console.log"
	} >>"$summary"
	[ -z "$missing" ] || failed="$failed $v$ZTAG"
done
echo
cat "$summary"
echo "total ${SECONDS}s"
if [ -n "$failed" ]; then
	say "FAIL:$failed"
	exit 1
fi
say "PASS: $*"
