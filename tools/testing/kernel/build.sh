#!/bin/bash
# build.sh VERSION CONFIG_FRAGMENT [OVERLAY_DIR] [REPO]
# Builds a tinyconfig-based kernel out of tree and prints the kernel image path on
# stdout: x86_64 (bzImage), or with ZBW_ARCH=arm64 an arm64 Image for qemu's
# virt machine, cross-compiled with Debian's gcc-aarch64-linux-gnu
# (config/arm64.config after base.config; ZBW_ARM64_PAGES=64 adds
# config/arm64-64k.config). OVERLAY_DIR ("" for none) is copied over a hard-link
# copy of the source, and
# with REPO, REPO/scripts/kernel-integrate.py adds zbewalgo to that copy; the pristine
# tree is never written. Builds are cached by version + hash of the final fragment and
# of every file the overlay or the integration wrote, so a change to lib/zbewalgo
# rebuilds and nothing else does. ccache, when installed, makes such rebuilds short.
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${1:?usage: build.sh VERSION CONFIG_FRAGMENT [OVERLAY_DIR] [REPO]}
FRAG=${2:?usage: build.sh VERSION CONFIG_FRAGMENT [OVERLAY_DIR] [REPO]}
OVL=${3:-}
REPO=${4:-}
check_version "$V"
# ZARCH and ZCROSS: common.sh, from ZBW_ARCH.
IMAGE=arch/x86/boot/bzImage
if [ "$ZARCH" = arm64 ]; then
	IMAGE=arch/arm64/boot/Image
	"$REPO/scripts/install-deps.sh" gcc-aarch64-linux-gnu >&2
fi
SRC=$CACHE/src/linux-$V
[ -f "$SRC.version" ] || die "no source for $V: run fetch.sh $V"
[ -r "$FRAG" ] || die "cannot read fragment $FRAG"
[ -z "$OVL" ] || [ -d "$OVL" ] || die "overlay $OVL is not a directory"
[ -z "$REPO" ] || [ -x "$REPO/scripts/kernel-integrate.py" ] || die "no scripts/kernel-integrate.py in '$REPO'"
# What the build and kernel-integrate.py call (fetch.sh installs them too,
# but build.sh is an entry point of its own).
"$HERE/../../../scripts/install-deps.sh" build-essential bc flex bison libelf-dev \
	libssl-dev python3 ${REPO:+unifdef} >&2

# The final fragment: base, zram backends where the tree has them, then the caller's.
mkdir -p "$CACHE/build"
frag=$(mktemp)
tree=
trap 'rm -f "$frag"; [ -z "$tree" ] || rm -rf "$tree"' EXIT
cat "$HERE/config/base.config" >"$frag"
if grep -q '^config ZRAM_BACKEND_LZ4$' "$SRC/drivers/block/zram/Kconfig"; then
	cat "$HERE/config/zram-backends.config" >>"$frag"
fi
if [ "$ZARCH" = arm64 ]; then
	cat "$HERE/config/arm64.config" >>"$frag"
	[ "${ZBW_ARM64_PAGES:-4}" = 4 ] || cat "$HERE/config/arm64-64k.config" >>"$frag"
fi
cat "$FRAG" >>"$frag"

# A modified tree is made before the key is known: the key hashes what changed.
# Overlay and integration replace files instead of writing through the links, so
# the changed files are exactly those with a single link.
changed=
if [ -n "$OVL$REPO" ]; then
	tree=$(mktemp -d "$CACHE/build/.tree-XXXXXX")
	say "hard-link copy of $SRC${OVL:+, overlay $OVL}${REPO:+, zbewalgo from $REPO}"
	cp -al "$SRC/." "$tree/"
	# --remove-destination unlinks before writing, so shared inodes stay pristine.
	[ -z "$OVL" ] || cp -r --remove-destination "$OVL/." "$tree/"
	[ -z "$REPO" ] || python3 "$REPO/scripts/kernel-integrate.py" "$REPO" "$tree" >&2
	changed=$(cd "$tree" && find . -type f -links 1 -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
fi

# x86_64 keeps the keys and directories it always had.
key=$({ cat "$SRC.version" "$frag"; echo "$changed"; } | sha256sum | cut -c1-16)
B=$CACHE/build/$V-$key
[ "$ZARCH" = x86_64 ] || B=$CACHE/build/$V-$ZARCH-$key
BZ=$B/obj/$IMAGE
# Jobs sharing the cache may want the same build at once: one builds, the
# others wait for it and take the result.
exec 9>"$B.lock"
if ! flock -n 9; then
	say "waiting for another job's build of $B"
	flock 9
fi
if [ -f "$B/.ok" ] && [ -f "$BZ" ]; then
	say "cached build $B"
	echo "$BZ"
	exit 0
fi
mkdir -p "$B/obj"
cp "$frag" "$B/fragment.config"
[ -z "$changed" ] || echo "$changed" >"$B/changed.sha256"
LOG=$B/build.log
: >"$LOG"
run() { "$@" >>"$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "failed: $* (log: $LOG)"; }; }

TREE=$SRC
if [ -n "$tree" ]; then
	rm -rf "$B/src"
	mv "$tree" "$B/src"
	tree=
	TREE=$B/src
fi
# ccache keys on paths relative to the cache dir, so every build dir shares it.
CCOPT=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$CACHE CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	CCOPT=(CC="ccache ${ZCROSS}gcc")
fi
MAKE=(make -C "$TREE" O="$B/obj" ARCH="$ZARCH" CROSS_COMPILE="$ZCROSS" "${CCOPT[@]}")

say "configuring $V ($(cat "$SRC.version")) for $ZARCH in $B"
run "${MAKE[@]}" tinyconfig
run "$TREE/scripts/kconfig/merge_config.sh" -m -O "$B/obj" "$B/obj/.config" "$frag"
run "${MAKE[@]}" olddefconfig

# tinyconfig leaves many dependencies off, and olddefconfig silently drops what they
# block: check each symbol's last request (the one merge_config.sh applied).
declare -A want
while read -r line; do
	case $line in
	CONFIG_*=*) want[${line%%=*}]=$line ;;
	"# CONFIG_"*" is not set") sym=${line#\# }; want[${sym%% *}]= ;;
	esac
done <"$frag"
bad=0
for sym in "${!want[@]}"; do
	got=$(grep -E "^$sym=" "$B/obj/.config" || true)
	if [ "$got" != "${want[$sym]}" ]; then
		say "config: wanted '${want[$sym]:-$sym unset}', got '${got:-$sym unset}'"
		bad=1
	fi
done
[ "$bad" = 0 ] || die "options missing from $B/obj/.config (a dependency is off?)"

say "compiling with -j${ZBW_JOBS:-2} (log: $LOG)"
run "${MAKE[@]}" -j"${ZBW_JOBS:-2}"
touch "$B/.ok"
say "built $BZ ($(du -k "$BZ" | cut -f1) KiB)"
echo "$BZ"
