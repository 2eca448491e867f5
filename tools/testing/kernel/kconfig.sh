#!/bin/bash
# kconfig.sh [VERSION...] (make check-kconfig): the repository's top-level
# Kconfig (lib/zbewalgo/Kconfig, crypto/Kconfig.zbewalgo and
# drivers/block/zram/Kconfig.zbewalgo, the files scripts/kernel-integrate.py
# copies into a kernel) read by each kernel's own Kconfig parser:
# scripts/kconfig/conf of Debian's linux-source-VERSION (default 6.1, 6.12
# and 7.2), built in $ZBW_CACHE/kconfig/VERSION.  config/Kconfig.check
# declares the kernel symbols the entries use, then sources the Kconfig
# (found through srctree; conf runs in a scratch directory, where it
# writes include/config and include/generated).
# conf must read it without a warning, and
#   allyesconfig  turns on the library, the crypto algorithm, the zram
#                 backend, zbewalgo as zram's default and the KUnit tests;
#   the same with PAGE_SIZE_LESS_THAN_256KB=n turns on none of them (the
#                 page format holds 64 KiB);
#   allnoconfig   turns on none of them.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# shellcheck disable=SC2086  # one version per word
[ $# -gt 0 ] || set -- $VERSIONS
ALL="ZBEWALGO CRYPTO_ZBEWALGO ZRAM_BACKEND_ZBEWALGO ZRAM_DEF_COMP_ZBEWALGO ZBEWALGO_KUNIT_TEST"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failed=

# expect CASE CONFIG STATE: STATE y (every symbol of ALL is y) or n (none is set)
expect() {
	local bad='' s got
	for s in $ALL; do
		got=$(sed -n "s/^CONFIG_$s=//p" "$2")
		if [ "$3" = y ] && [ "$got" != y ]; then
			bad="$bad $s=${got:-unset}"
		elif [ "$3" = n ] && [ -n "$got" ]; then
			bad="$bad $s=$got"
		fi
	done
	[ -z "$bad" ] || { say "$V: $1: FAIL:$bad"; failed="$failed $V/$1"; return 0; }
	say "$V: $1: ok, all $3"
}

for V in "$@"; do
	check_version "$V"
	"$HERE/fetch.sh" "$V"
	O=$CACHE/kconfig/$V
	mkdir -p "$O"
	if [ ! -x "$O/scripts/kconfig/conf" ]; then
		say "$V: building scripts/kconfig/conf in $O"
		make -C "$CACHE/src/linux-$V" O="$O" -s allnoconfig >"$O/build.log" 2>&1 ||
			{ tail -n 20 "$O/build.log" >&2; die "$V: building conf failed"; }
	fi
	# conf CASE MODE [ALLCONFIG]: the config of MODE in $T/CASE, conf's output checked
	conf() {
		local out=$T/$V-$1.log
		(cd "$T" && env srctree="$REPO" KCONFIG_CONFIG="$T/$V-$1" \
			${3:+KCONFIG_ALLCONFIG="$3"} "$O/scripts/kconfig/conf" --"$2" \
			"$HERE/config/Kconfig.check") >"$out" 2>&1 ||
			{ cat "$out" >&2; die "$V: conf --$2 failed"; }
		if grep -qi 'warning\|error' "$out"; then
			cat "$out" >&2
			say "$V: $1: FAIL: conf warned"
			failed="$failed $V/$1-warnings"
		fi
	}
	conf allyes allyesconfig
	expect allyesconfig "$T/$V-allyes" y
	echo 'CONFIG_PAGE_SIZE_LESS_THAN_256KB=n' >"$T/256k"
	conf 256k allyesconfig "$T/256k"
	expect "allyesconfig, 256 KiB pages" "$T/$V-256k" n
	conf allno allnoconfig
	expect allnoconfig "$T/$V-allno" n
done
[ -z "$failed" ] || die "failed:$failed"
say "PASS: $* parse the top-level Kconfig"
