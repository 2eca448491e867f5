#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# rootfs.sh PACKAGE...: a Debian bookworm userland with PACKAGEs (mmdebstrap,
# from Debian's packages) as an ext4 image; prints its path. Cached as
# $ZBW_CACHE/rootfs-KEY/rootfs.ext4, KEY hashing the suite, the package list
# and this script, so it is rebuilt only when one of them changes.
# ZBW_MIRROR: the Debian mirror (deb.debian.org).
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -gt 0 ] || die "usage: rootfs.sh PACKAGE..."
SUITE=bookworm
MIRROR=${ZBW_MIRROR:-http://deb.debian.org/debian}
pkgs=$(printf '%s\n' "$@" | LC_ALL=C sort -u | paste -sd, -)
# How the tree is made (mmdebstrap's options, the image's extras): a change
# here must change RECIPE, which goes into the key with the packages.
# Documentation, man pages and translations are not needed in the guest and
# take a fifth of the image; openjdk's postinst registers its man page with
# update-alternatives, which fails unless the directory exists.
RECIPE=1
OPTS=(--mode=root --variant=essential --aptopt='APT::Install-Recommends "false"'
      --setup-hook='mkdir -p "$1"/usr/share/man/man1'
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*'
      --dpkgopt='path-exclude=/usr/share/info/*')
key=$(echo "$RECIPE $SUITE $MIRROR $pkgs ${OPTS[*]}" | sha256sum | cut -c1-16)
R=$CACHE/rootfs-$key
IMG=$R/rootfs.ext4
if [ -f "$R/.ok" ] && [ -f "$IMG" ]; then
	say "cached rootfs $IMG"
	echo "$IMG"
	exit 0
fi
"$REPO/scripts/install-deps.sh" mmdebstrap e2fsprogs >&2

# A killed mmdebstrap may leave /proc or /dev mounted in its tree: never
# remove through a mount.
! grep -q " $R/" /proc/mounts || die "something is mounted under $R: unmount it first"
rm -rf "$R"
mkdir -p "$R"
echo "$pkgs" | tr , '\n' >"$R/packages"
tree=$R/tree
say "mmdebstrap $SUITE with $pkgs into $tree (a few minutes, about 250 MB of packages)"
mmdebstrap "${OPTS[@]}" --include="$pkgs" "$SUITE" "$tree" "$MIRROR" >"$R/mmdebstrap.log" 2>&1 ||
	{ tail -n 30 "$R/mmdebstrap.log" >&2; die "mmdebstrap failed (log: $R/mmdebstrap.log)"; }
# Mount points the guest script uses.
mkdir -p "$tree/realprog" "$tree/dev/shm"
# ext4 with a quarter free for what the programs write (the guest opens it
# with qemu's snapshot=on, so the image stays as built).
kib=$(du -sk "$tree" | cut -f1)
size=$((kib * 5 / 4 + 262144))
say "mke2fs: $((kib / 1024)) MiB of files into a $((size / 1024)) MiB ext4 image"
mke2fs -q -t ext4 -L realprog -d "$tree" "$IMG.tmp" "${size}k" >>"$R/mmdebstrap.log" 2>&1 ||
	{ tail -n 30 "$R/mmdebstrap.log" >&2; die "mke2fs failed"; }
mv "$IMG.tmp" "$IMG"
rm -rf "$tree"
touch "$R/.ok"
say "rootfs ready: $IMG"
echo "$IMG"
