#!/bin/bash
# initramfs.sh OUT.cpio.gz GUEST_SCRIPT [EXTRA...]
# Packs a busybox-static initramfs whose /init mounts proc, sys and devtmpfs, runs
# GUEST_SCRIPT with sh, prints "ZBW-GUEST-EXIT: <status>" and powers off.
# EXTRA is FILE (goes to /extra/, which is on PATH) or FILE=/path/in/image;
# directories are copied whole (e.g. a modules tree from modules_install).
# ZBW_BUSYBOX names another busybox, e.g. another arch's: its applet links
# are then made by /init, since it does not run here.
set -euo pipefail
. "$(dirname "$0")/common.sh"

OUT=${1:?usage: initramfs.sh OUT.cpio.gz GUEST_SCRIPT [EXTRA...]}
GUEST=${2:?usage: initramfs.sh OUT.cpio.gz GUEST_SCRIPT [EXTRA...]}
shift 2
BB=${ZBW_BUSYBOX:-/bin/busybox}
"$REPO/scripts/install-deps.sh" cpio gzip $([ -n "${ZBW_BUSYBOX:-}" ] || echo busybox-static) >&2
# The guest has no libc: a dynamic busybox would not start.
if [ ! -x "$BB" ] || readelf -l "$BB" | grep -q INTERP; then
	die "$BB missing or dynamic: install busybox-static"
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,extra}
cp "$BB" "$root/bin/busybox"
if [ -z "${ZBW_BUSYBOX:-}" ]; then
	for applet in $("$BB" --list); do
		[ "$applet" = busybox ] || ln -sf busybox "$root/bin/$applet"
	done
else
	ln -s busybox "$root/bin/sh"
fi
# The kernel opens /dev/console for init before devtmpfs is mounted.
mknod -m 600 "$root/dev/console" c 5 1
cp "$GUEST" "$root/guest.sh"
# What every guest script greps for splats, and the suites' KTAP and zram
# helpers.
cp "$(dirname "$0")/guest/dmesg-bugs" "$(dirname "$0")/guest/lib.sh" "$root/extra/"
for x in "$@"; do
	src=${x%%=*}
	dst=/extra/${src##*/}
	[ "$x" = "$src" ] || dst=${x#*=}
	mkdir -p "$root$(dirname "$dst")"
	cp -a "$src" "$root$dst"
done

cat >"$root/init" <<'INIT'
#!/bin/sh
# PID 1 of the test VM. Kernel command-line KEY=val arrive here as environment.
export PATH=/bin:/extra
# A foreign busybox's links ("busybox --install" reads /proc/self/exe).
if [ ! -e /bin/mount ]; then
	busybox mount -t proc proc /proc
	busybox --install -s /bin
	busybox umount /proc
fi
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "ZBW-GUEST-START: $(uname -r)"
sh /guest.sh
echo "ZBW-GUEST-EXIT: $?"
sync
poweroff -f
INIT
chmod 755 "$root/init"

mkdir -p "$(dirname "$OUT")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -9n >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
say "wrote $OUT ($(du -k "$OUT" | cut -f1) KiB)"
