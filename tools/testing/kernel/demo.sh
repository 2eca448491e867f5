#!/bin/bash
# demo.sh [VERSION]: zbewalgo in a real kernel, from nothing (default 7.2; 6.12 works
# too). Fetches the source, builds the kernel with zbewalgo (cached, the same kernel
# as zbewalgo-tests.sh), boots it, and puts swap on zram with zbewalgo, lz4 and zstd
# in turn under the same memory-hungry workload; prints what zram stored for each.
# ZBW_FILL_MIB sets the workload (default 384 MiB in a 256 MiB guest).
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${1:-7.2}
check_version "$V"
RUN=$CACHE/run/demo-$V
mkdir -p "$RUN"
progress() { say "[$1/5] $2"; }

progress 1 "fetching linux-source-$V (cached)"
"$HERE/fetch.sh" "$V"
progress 2 "building the $V kernel with zbewalgo (cached; about 10 minutes when not)"
OBJ=$(test_kernel "$V")
progress 3 "building the workload and the initramfs"
gcc -static -O2 -Wall -o "$RUN/zbwmem" "$HERE/zbwmem.c" -lm
if integrated "$V"; then mods=(); else M=$(zbw_modules "$OBJ"); mods=("$M/libzbewalgo.ko" "$M/zbewalgo.ko"); fi
"$HERE/initramfs.sh" "$RUN/initramfs.cpio.gz" "$HERE/guest/demo.sh" "$RUN/zbwmem" "${mods[@]}"
progress 4 "booting $V under qemu (TCG, 256 MiB) and running the workload three times"
{ ZBEWALGO_APPEND="ZBW_FILL_MIB=${ZBW_FILL_MIB:-384}" "$HERE/boot.sh" "$OBJ/arch/x86/boot/bzImage" \
	"$RUN/initramfs.cpio.gz" "$RUN/console.log" "${ZBEWALGO_TIMEOUT:-1800}" || true; } |
	grep --line-buffered '^ZBW-DEMO: ' | sed -u 's/\r$//; s/^ZBW-DEMO: /  guest: /' >&2 || true
progress 5 "results (console log: $RUN/console.log)"

log=$(tr -d '\r' <"$RUN/console.log")
echo "$log" | grep '^ZBW-TABLE: ' | sed 's/^ZBW-TABLE: //'
echo "$log" | grep -qx 'ZBW-RESULT: ok' || die "the demo did not complete (see $RUN/console.log)"
