#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cross-sysroot.sh ARCH DIR: Debian bookworm's builds for ARCH (s390x, the
# big-endian one of `make test-s390x`, or arm64 for `make bench-arm64`) of
# the libraries the user-space tool links (zstd, lz4, lzo2, zlib: headers
# and static libraries), unpacked into DIR/root.
#
# The .debs come through a private apt state in DIR/apt (its own sources
# list, lists, cache, empty dpkg status and APT::Architecture=ARCH), so
# the machine's dpkg architectures and apt sources never see ARCH, and
# nothing is installed.  They stay in DIR/debs; DIR/root is remade only
# when the package list below changes, so a warm run needs no network.

set -eu
usage="usage: cross-sysroot.sh ARCH DIR"
ARCH=${1:?$usage}
DIR=${2:?$usage}
case $ARCH in
s390x)	TRIPLET=s390x-linux-gnu ;;
arm64)	TRIPLET=aarch64-linux-gnu ;;
*)	echo "cross-sysroot: unknown architecture '$ARCH' (s390x or arm64)" >&2
	exit 2 ;;
esac
PKGS="libzstd-dev liblz4-dev liblzo2-dev zlib1g-dev"
ROOT=$DIR/root
STAMP=$ROOT/.packages

if [ -f "$STAMP" ] && [ "$(head -1 "$STAMP")" = "$PKGS" ]; then
	exit 0
fi

A=$DIR/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$DIR/debs"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || {
	echo "$ARCH: $keyring missing (apt-get install debian-archive-keyring)" >&2
	exit 1
}
{
	echo "deb [arch=$ARCH signed-by=$keyring target=Packages] http://deb.debian.org/debian bookworm main"
	echo "deb [arch=$ARCH signed-by=$keyring target=Packages] http://deb.debian.org/debian bookworm-updates main"
	echo "deb [arch=$ARCH signed-by=$keyring target=Packages] http://deb.debian.org/debian-security bookworm-security main"
} >"$A/sources.list"
: >"$A/status"
APTO=(-o Dir::Etc::sourcelist="$A/sources.list" -o Dir::Etc::sourceparts=-
      -o Dir::Etc::preferencesparts=- -o Dir::State::Lists="$A/lists"
      -o Dir::State::status="$A/status" -o Dir::Cache="$A/cache"
      -o APT::Architecture="$ARCH" -o APT::Architectures="$ARCH"
      -o Acquire::Languages=none -q)

echo "$ARCH: fetching $PKGS (bookworm, $ARCH) into $DIR"
apt-get "${APTO[@]}" update >"$A/update.log" 2>&1 ||
	{ cat "$A/update.log" >&2; exit 1; }
work=$(mktemp -d "$DIR/.fetch-XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt downloads as user _apt when run as root
[ "$(id -u)" -ne 0 ] || chown _apt "$work"
# shellcheck disable=SC2086
(cd "$work" && apt-get "${APTO[@]}" download $PKGS) >"$A/download.log" 2>&1 ||
	{ cat "$A/download.log" >&2; exit 1; }

rm -rf "$ROOT" "$DIR"/debs/*.deb
mkdir -p "$ROOT"
for deb in "$work"/*.deb; do
	dpkg-deb -x "$deb" "$ROOT"
	mv "$deb" "$DIR/debs/"
done
for lib in zstd lz4 lzo2 z; do
	[ -f "$ROOT/usr/lib/$TRIPLET/lib$lib.a" ] || {
		echo "$ARCH: no lib$lib.a in $ROOT" >&2
		exit 1
	}
done
{ echo "$PKGS"; (cd "$DIR/debs" && ls); } >"$STAMP"
rm -rf "$A/lists" "$A/cache"	# 18 MB, only needed to download
