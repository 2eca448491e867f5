#!/bin/bash
# kunit.sh [VERSION]: zbewalgo's KUnit tests (lib/zbewalgo/tests) under UML with
# KASAN, in a copy of Debian's linux-source-VERSION (default 7.2) with zbewalgo
# added by scripts/kernel-integrate.py; runs
#   tools/testing/kunit/kunit.py run --kunitconfig=lib/zbewalgo
# and fails unless every test passed. The tree and the UML build stay in
# $ZBW_CACHE/kunit/VERSION, so a second run rebuilds only what changed.
# Log: $ZBW_CACHE/kunit/VERSION/kunit.log, copied to build/kernel-logs/.
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
say "kunit.py run --kunitconfig=lib/zbewalgo (UML, KASAN) in $K"
status=0
(cd "$K/src" && python3 tools/testing/kunit/kunit.py run --kunitconfig=lib/zbewalgo \
	--build_dir="$K/obj" --jobs="${ZBW_JOBS:-2}" "${MAKEOPT[@]}") >"$K/kunit.log" 2>&1 || status=$?
cp "$K/kunit.log" "$LOGS/kunit-$V.log"
grep -E '^\[[0-9:]+\] (=+|\[(PASSED|FAILED|SKIPPED|CRASHED)\]|Testing complete|ERROR|.*error:)' \
	"$K/kunit.log" | tail -n 40 >&2 || true
# kunit.py exits 0 on success; also require that tests ran and none was skipped.
summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$K/kunit.log" | tail -n 1 || true)
if [ "$status" != 0 ] || [ -z "$summary" ] || ! echo "$summary" | grep -q 'passed: [1-9]' ||
	echo "$summary" | grep -Eq '(failed|crashed|skipped|errors): [1-9]'; then
	die "KUnit on $V failed (status $status; ${summary:-no summary}; log: $LOGS/kunit-$V.log)"
fi
say "PASS: KUnit on $V: ${summary#*] }"
