#!/bin/bash
# sysroot.sh ARCH: the guest userspace of an ARCH (arm64) test kernel, from
# Debian's own packages for ARCH: busybox-static (the initramfs), and for the
# admin guide's blocks bash, util-linux and mount (zramctl, mkswap, swapon,
# swapoff) with their libraries, and the static libraries the zbewalgo tool
# links (lz4, zstd, lzo2, zlib) to be cross-compiled against. The packages of the host's release are
# downloaded (never installed) through a private apt state under
# $ZBW_CACHE/apt-ARCH, so the machine's apt never sees ARCH, and
# unpacked into $ZBW_CACHE/sysroot/ARCH, whose path is printed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

ARCH=${1:?usage: sysroot.sh ARCH}
case $ARCH in
arm64) ;;
*) die "unknown arch '$ARCH' (arm64)" ;;
esac
PKGS=(busybox-static bash util-linux mount libc6 libtinfo6 libselinux1 libpcre2-8-0
      libblkid1 libmount1 libsmartcols1 libuuid1
      liblz4-dev libzstd-dev liblzo2-dev zlib1g-dev)
# shellcheck disable=SC1091  # the host's release
CODENAME=$(. /etc/os-release && echo "$VERSION_CODENAME")
R=$CACHE/sysroot/$ARCH
want="$CODENAME ${PKGS[*]}"
if [ -f "$R/.ok" ] && [ "$(cat "$R/.ok")" = "$want" ]; then
	echo "$R/root"
	exit 0
fi

A=$CACHE/apt-$ARCH
mkdir -p "$A/lists" "$A/cache"
echo "deb [arch=$ARCH signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $CODENAME main" \
	>"$A/sources.list"
APTO=(-o Dir::Etc::sourcelist="$A/sources.list" -o Dir::Etc::sourceparts=-
      -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache" -o Acquire::Languages=none
      -o APT::Architecture="$ARCH" -o APT::Architectures="$ARCH")
say "updating private $CODENAME $ARCH lists in $A"
apt-get "${APTO[@]}" update -qq >&2

mkdir -p "$CACHE/sysroot"
work=$(mktemp -d "$CACHE/sysroot/.$ARCH-XXXXXX")
trap 'rm -rf "$work"' EXIT
chown _apt "$work"   # apt downloads as user _apt
say "downloading ${#PKGS[@]} $ARCH packages"
(cd "$work" && apt-get "${APTO[@]}" download -qq "${PKGS[@]}" >&2)
mkdir "$work/root"
for deb in "$work"/*.deb; do
	dpkg-deb -x "$deb" "$work/root"
done
[ -x "$work/root/bin/busybox" ] || die "no busybox in the $ARCH packages"
# The guest needs the programs and libraries, not documentation or iconv.
rm -rf "$work/root/usr/share" "$work/root/usr/lib/"*/gconv
rm -rf "$R"
mkdir -p "$R"
mv "$work/root" "$R/root"
echo "$want" >"$R/.ok"
say "$ARCH userspace in $R/root"
echo "$R/root"
