#!/bin/bash
# build.sh VERSION CONFIG_FRAGMENT [OVERLAY_DIR]
# Builds a tinyconfig-based x86_64 kernel out of tree and prints the bzImage path on
# stdout. OVERLAY_DIR is copied over a hard-link copy of the source (the pristine tree
# is never written). Builds are cached by version + hash of fragment and overlay.
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${1:?usage: build.sh VERSION CONFIG_FRAGMENT [OVERLAY_DIR]}
FRAG=${2:?usage: build.sh VERSION CONFIG_FRAGMENT [OVERLAY_DIR]}
OVL=${3:-}
check_version "$V"
SRC=$CACHE/src/linux-$V
[ -f "$SRC.version" ] || die "no source for $V: run fetch.sh $V"
[ -r "$FRAG" ] || die "cannot read fragment $FRAG"
[ -z "$OVL" ] || [ -d "$OVL" ] || die "overlay $OVL is not a directory"

# The final fragment: base, zram backends where the tree has them, then the caller's.
frag=$(mktemp)
trap 'rm -f "$frag"' EXIT
cat "$HERE/config/base.config" >"$frag"
if grep -q '^config ZRAM_BACKEND_LZ4$' "$SRC/drivers/block/zram/Kconfig"; then
	cat "$HERE/config/zram-backends.config" >>"$frag"
fi
cat "$FRAG" >>"$frag"

# Cache key: Debian source version, final fragment, overlay paths and contents.
key=$({
	cat "$SRC.version" "$frag"
	[ -z "$OVL" ] || (cd "$OVL" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
} | sha256sum | cut -c1-16)
B=$CACHE/build/$V-$key
BZ=$B/obj/arch/x86/boot/bzImage
if [ -f "$B/.ok" ] && [ -f "$BZ" ]; then
	say "cached build $B"
	echo "$BZ"
	exit 0
fi
mkdir -p "$B/obj"
cp "$frag" "$B/fragment.config"
LOG=$B/build.log
: >"$LOG"
run() { "$@" >>"$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "failed: $* (log: $LOG)"; }; }

TREE=$SRC
if [ -n "$OVL" ]; then
	say "overlaying $OVL on a hard-link copy of $SRC"
	rm -rf "$B/src"
	cp -al "$SRC" "$B/src"
	# --remove-destination unlinks before writing, so shared inodes stay pristine.
	cp -r --remove-destination "$OVL/." "$B/src/"
	TREE=$B/src
fi
MAKE=(make -C "$TREE" O="$B/obj" ARCH=x86_64)

say "configuring $V ($(cat "$SRC.version")) in $B"
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

say "compiling with -j${ZBEWALGO_JOBS:-2} (log: $LOG)"
run "${MAKE[@]}" -j"${ZBEWALGO_JOBS:-2}"
touch "$B/.ok"
say "built $BZ ($(du -k "$BZ" | cut -f1) KiB)"
echo "$BZ"
