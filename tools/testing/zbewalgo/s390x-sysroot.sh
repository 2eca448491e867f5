#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# s390x-sysroot.sh DIR: Debian bookworm's s390x (big-endian) builds of the
# libraries the user-space tool links (zstd, lz4, lzo2, zlib: headers and
# static libraries), unpacked into DIR/root, for `make test-s390x`.
#
# The .debs come through a private apt state in DIR/apt (its own sources
# list, lists, cache, empty dpkg status and APT::Architecture=s390x), so
# the machine's dpkg architectures and apt sources never see s390x, and
# nothing is installed.  They stay in DIR/debs; DIR/root is remade only
# when the package list below changes, so a warm run needs no network.

set -eu
DIR=${1:?usage: s390x-sysroot.sh DIR}
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
	echo "s390x: $keyring missing (apt-get install debian-archive-keyring)" >&2
	exit 1
}
{
	echo "deb [arch=s390x signed-by=$keyring target=Packages] http://deb.debian.org/debian bookworm main"
	echo "deb [arch=s390x signed-by=$keyring target=Packages] http://deb.debian.org/debian bookworm-updates main"
	echo "deb [arch=s390x signed-by=$keyring target=Packages] http://deb.debian.org/debian-security bookworm-security main"
} >"$A/sources.list"
: >"$A/status"
APTO=(-o Dir::Etc::sourcelist="$A/sources.list" -o Dir::Etc::sourceparts=-
      -o Dir::Etc::preferencesparts=- -o Dir::State::Lists="$A/lists"
      -o Dir::State::status="$A/status" -o Dir::Cache="$A/cache"
      -o APT::Architecture=s390x -o APT::Architectures=s390x
      -o Acquire::Languages=none -q)

echo "s390x: fetching $PKGS (bookworm, s390x) into $DIR"
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
	[ -f "$ROOT/usr/lib/s390x-linux-gnu/lib$lib.a" ] || {
		echo "s390x: no lib$lib.a in $ROOT" >&2
		exit 1
	}
done
{ echo "$PKGS"; (cd "$DIR/debs" && ls); } >"$STAMP"
rm -rf "$A/lists" "$A/cache"	# 18 MB, only needed to download
