#!/bin/bash
# kunit.sh [VERSION]: zbewalgo's KUnit tests (lib/zbewalgo/tests) under UML with
# KASAN, in a copy of Debian's linux-source-VERSION (default 7.2) with zbewalgo
# added by scripts/kernel-integrate.py; runs
#   tools/testing/kunit/kunit.py run --kunitconfig=lib/zbewalgo
# and then the same without CONFIG_ZBEWALGO_CLASSIC_STEPS and
# CONFIG_ZBEWALGO_TUNING (the lean kernel of
# the patch series' first patches), and fails unless every test of both
# passed. The tree and the UML builds stay in $ZBW_CACHE/kunit/VERSION, so a
# second run rebuilds only what changed.
# Logs: $ZBW_CACHE/kunit/VERSION/kunit{,-lean}.log, copied to
# build/kernel-logs/kunit{,-lean}-VERSION.log.
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${1:-7.2}
check_version "$V"
"$HERE/fetch.sh" "$V"
SRC=$CACHE/src/linux-$V
K=$CACHE/kunit/$V
LOGS=$REPO/build/kernel-logs
mkdir -p "$K" "$LOGS"

integrated_copy "$SRC" "$K"

MAKEOPT=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$CACHE CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	MAKEOPT=(--make_options "CC=ccache gcc")
fi
# kunit_run NAME KUNITCONFIG: one kunit.py run into $K/obj-NAME (obj for the
# full one), log kunit-NAME.log.
kunit_run() {
	local name=$1 cfg=$2 obj=$K/obj log=$K/kunit.log status=0 summary
	[ "$name" = full ] || { obj=$K/obj-$name log=$K/kunit-$name.log; }
	say "kunit.py run --kunitconfig=$cfg (UML, KASAN, $name) in $K"
	(cd "$K/src" && python3 tools/testing/kunit/kunit.py run --kunitconfig="$cfg" \
		--build_dir="$obj" --jobs="${ZBW_JOBS:-2}" "${MAKEOPT[@]}") >"$log" 2>&1 || status=$?
	cp "$log" "$LOGS/$(basename "$log" .log)-$V.log"
	log=$LOGS/$(basename "$log" .log)-$V.log
	grep -E '^\[[0-9:]+\] (=+|\[(PASSED|FAILED|SKIPPED|CRASHED)\]|Testing complete|ERROR|.*error:)' \
		"$log" | tail -n 40 >&2 || true
	# kunit.py exits 0 on success; also require that tests ran and none was skipped.
	summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$log" | tail -n 1 || true)
	if [ "$status" != 0 ] || [ -z "$summary" ] || ! echo "$summary" | grep -q 'passed: [1-9]' ||
		echo "$summary" | grep -Eq '(failed|crashed|skipped|errors): [1-9]'; then
		die "KUnit ($name) on $V failed (status $status; ${summary:-no summary}; log: $log)"
	fi
	say "PASS: KUnit ($name) on $V: ${summary#*] }"
}
kunit_run full lib/zbewalgo
# The lean kernel, the series' core: the same tests, the classic steps
# and the run-time tuning left out.
lean=$K/lean.kunitconfig
{
	grep -Ev '^CONFIG_ZBEWALGO_(CLASSIC_STEPS|TUNING)=' "$K/src/lib/zbewalgo/.kunitconfig"
	echo '# CONFIG_ZBEWALGO_CLASSIC_STEPS is not set'
	echo '# CONFIG_ZBEWALGO_TUNING is not set'
} >"$lean"
kunit_run lean "$lean"
