#!/bin/bash
# boot.sh BZIMAGE INITRAMFS LOGFILE [TIMEOUT]
# Boots under KVM when a probe boot shows that it works (common.sh's
# qemu_accel; ZBW_ACCEL=kvm or tcg forces one), else under TCG, with the
# serial console on stdout and in LOGFILE; LOGFILE.accel says which ran.
# Exits with qemu's status, 124 on timeout. $ZBW_APPEND is added to the
# kernel command line (KEY=val there reaches the guest's environment).
# ZBW_QEMU_ARGS adds qemu arguments (split at spaces), e.g. disks.
# With ZBW_ARCH=arm64, BZIMAGE is an arm64 Image for qemu's virt machine
# (a Cortex-A57, its PL011 UART as console).
set -euo pipefail
. "$(dirname "$0")/common.sh"

K=${1:?usage: boot.sh BZIMAGE INITRAMFS LOGFILE [TIMEOUT]}
I=${2:?usage: boot.sh BZIMAGE INITRAMFS LOGFILE [TIMEOUT]}
LOG=${3:?usage: boot.sh BZIMAGE INITRAMFS LOGFILE [TIMEOUT]}
TIMEOUT=${4:-300}
mkdir -p "$(dirname "$LOG")"

# panic=-1 reboots at once on panic, and -no-reboot turns that reboot into an exit.
case ${ZBW_ARCH:-x86_64} in
x86_64) "$REPO/scripts/install-deps.sh" qemu-system-x86 >&2
	ACCEL=$(qemu_accel "$K")
	QEMU=(qemu-system-x86_64 -cpu max) CONSOLE=ttyS0
	[ "$ACCEL" = tcg ] || QEMU=(qemu-system-x86_64 -cpu host) ;;
arm64)	"$REPO/scripts/install-deps.sh" qemu-system-arm >&2
	ACCEL=tcg
	QEMU=(qemu-system-aarch64 -machine virt -cpu cortex-a57) CONSOLE=ttyAMA0 ;;
*) die "unknown ZBW_ARCH '${ZBW_ARCH:-}' (x86_64 or arm64)" ;;
esac
# 256 MiB, or ZBW_MEM.  With 64 KiB pages twice that: page tables,
# slabs and zsmalloc's zspages all come in 64 KiB units, and a 256 MiB
# guest (4096 pages) had too few free pages left for zram to store the
# swap workload's pages (write errors, then the OOM killer).
MEM=${ZBW_MEM:-256M}
[ "${ZBW_ARM64_PAGES:-4}" = 4 ] || MEM=${ZBW_MEM:-512M}
echo "$ACCEL" >"$LOG.accel"
say "booting $K under ${ACCEL^^} (timeout ${TIMEOUT}s, log $LOG)"
rc=0
# shellcheck disable=SC2086  # ZBW_QEMU_ARGS: one argument a word
timeout -k 10 "$TIMEOUT" "${QEMU[@]}" -accel "$ACCEL" -m "$MEM" -smp 2 \
	-nographic -no-reboot -net none -kernel "$K" -initrd "$I" ${ZBW_QEMU_ARGS:-} \
	-append "console=$CONSOLE panic=-1 ${ZBW_APPEND:-}" </dev/null 2>&1 |
	tee "$LOG" || rc=${PIPESTATUS[0]}
[ "$rc" != 124 ] || say "TIMEOUT after ${TIMEOUT}s"
say "qemu exited with $rc"
exit "$rc"
