#!/bin/bash
# fetch.sh VERSION: install the host tools (install-deps.sh), then unpack Debian's
# linux-source-VERSION into $ZBW_CACHE/src/linux-VERSION (Debian version in
# linux-VERSION.version).
# The machine's apt sources are only read; 7.2 comes from sid through a private apt
# state under the cache dir, so /etc/apt and /var/lib/apt never see sid.
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${1:?usage: fetch.sh VERSION}
check_version "$V"
PKG=linux-source-$V
SRC=$CACHE/src/linux-$V
STAMP=$SRC.version
export DEBIAN_FRONTEND=noninteractive

# Host tools: the kernel build (unifdef: kernel-integrate.py), the
# initramfs and qemu (install-deps.sh: one line, apt's output in a log).
"$REPO/scripts/install-deps.sh" build-essential bc flex bison libelf-dev libssl-dev \
	cpio xz-utils kmod busybox-static qemu-system-x86 debian-archive-keyring ccache \
	python3 unifdef >&2

APTO=()
if [ "$V" = 7.2 ]; then
	A=$CACHE/apt-sid
	mkdir -p "$A/lists" "$A/cache"
	echo 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg target=Packages] http://deb.debian.org/debian sid main' \
		>"$A/sources.list"
	APTO=(-o Dir::Etc::sourcelist="$A/sources.list" -o Dir::Etc::sourceparts=-
	      -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache" -o Acquire::Languages=none)
	# sid moves daily: refresh lists older than a day.
	if [ -z "$(find "$A/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440)" ]; then
		say "updating private sid lists in $A"
		apt-get "${APTO[@]}" update -qq >&2
	fi
fi
update() { say "running apt-get update"; apt-get "${APTO[@]}" update -qq >&2; }
candidate() { apt-cache "${APTO[@]}" policy "$PKG" | awk '/Candidate:/ && $2 != "(none)" {print $2}'; }

ver=$(candidate)
[ -n "$ver" ] || { update; ver=$(candidate); }
[ -n "$ver" ] || die "$PKG not found in the apt sources"
if [ -f "$SRC/Makefile" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$ver" ]; then
	say "$PKG $ver already in $SRC"
	exit 0
fi

# Download the .deb (never installed); stale lists may name a version the mirror
# dropped, so refresh once if that fails.
mkdir -p "$CACHE/src"
work=$(mktemp -d "$CACHE/src/.fetch-XXXXXX")
trap 'rm -rf "$work"' EXIT
chown _apt "$work"   # apt downloads as user _apt
download() { say "downloading $PKG $ver"; (cd "$work" && apt-get "${APTO[@]}" download -qq "$PKG=$ver" >&2); }
download || { update; ver=$(candidate); download; }

# Stream the source tarball out of the .deb instead of writing it to disk.
deb=$(echo "$work"/*.deb)
say "unpacking $(du -h "$deb" | cut -f1) into $SRC"
mkdir "$work/tree"
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -xJ --strip-components=1 -C "$work/tree"
[ -f "$work/tree/Makefile" ] || die "no kernel tree in $deb"
rm -rf "$SRC" "$STAMP"
mv "$work/tree" "$SRC"
echo "$ver" >"$STAMP"
say "$PKG $ver ready: $(make -s -C "$SRC" kernelversion)"
