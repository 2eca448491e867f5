#!/bin/bash
# smoke.sh [VERSION]: end to end for one kernel (default 6.12): fetch, build, make an
# initramfs running guest/zram-lz4.sh, boot it, and pass only if the guest printed
# "ZBW-RESULT: ok". Artifacts stay in $ZBW_CACHE/run/smoke-VERSION/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${1:-6.12}
check_version "$V"
RUN=$CACHE/run/smoke-$V
mkdir -p "$RUN"

"$HERE/fetch.sh" "$V"
BZ=$("$HERE/build.sh" "$V" /dev/null)
"$HERE/initramfs.sh" "$RUN/initramfs.cpio.gz" "$HERE/guest/zram-lz4.sh"
"$HERE/boot.sh" "$BZ" "$RUN/initramfs.cpio.gz" "$RUN/console.log" "${ZBW_TIMEOUT:-300}" || true

# The console has CRLF line ends; an exact line match ignores echoes of the marker.
if tr -d '\r' <"$RUN/console.log" | grep -qx 'ZBW-RESULT: ok'; then
	say "PASS: zram lz4 smoke on $V"
else
	say "FAIL: zram lz4 smoke on $V (see $RUN/console.log)"
	exit 1
fi
