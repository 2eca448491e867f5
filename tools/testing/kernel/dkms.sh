#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dkms.sh [TARGET]: zbewalgo installed by DKMS into a stock Debian kernel, booted
# under qemu (make check-dkms runs both targets, one after the other).
#
# 6.1 (default): Debian 12's own 6.1 kernel. Takes the installed
# linux-headers-6.1.0-N-amd64 (installs linux-headers-amd64 if there is none),
# downloads the matching linux-image package (never installed), builds and
# installs our modules with `make dkms-install` into private dkms, source and
# module trees, packs the stock vmlinuz with the modules zram needs and the DKMS
# output into an initramfs, boots it under qemu and requires every check of
# guest/dkms.sh's zram suite: module autoload through zram, swap on zram with
# every page verified, the zramctl, zram-tools and zram-generator configuration
# examples, and zswap with compressor=zbewalgo.
#
# 6.12: Debian 13's 6.12 kernel, the one trixie's linux-headers-amd64 names
# (private apt lists in $ZBW_CACHE/apt-trixie, as fetch.sh keeps sid's: the
# machine's own sources never see trixie). Its headers build with gcc-14 and
# its linux-kbuild tools need glibc 2.38 (modpost, objtool), neither of which
# Debian 12 has, so a Debian 13 build root (mmdebstrap, under the cache) gets
# dkms and linux-headers-KVER installed, which brings linux-image-KVER: the
# stock vmlinuz and modules. The guide's host blocks run in that root by
# chroot, with the same private trees. zram on 6.12 only knows its
# compiled-in backends, so the guest runs guest/dkms.sh's zswap suite:
# autoload through zswap's compressor parameter, the admin guide's zswap
# block, and a workload through what that block set up, every page verified.
#
# Cache: $ZBW_CACHE/dkms/ (6.12: dkms-6.12/); console log also in the repo's
# build/kernel-logs/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

TARGET=${1:-6.1}
case $TARGET in
6.1) D=$CACHE/dkms RUN=$CACHE/run/dkms ;;
6.12) D=$CACHE/dkms-6.12 RUN=$CACHE/run/dkms-6.12 ;;
*) die "unknown target '$TARGET' (6.1 or 6.12)" ;;
esac
LOGS=$REPO/build/kernel-logs
export DEBIAN_FRONTEND=noninteractive
mkdir -p "$D" "$RUN" "$LOGS"
stage() { printf '  %-10s %4ds\n' "$1" $((SECONDS - $2)) >>"$RUN/times"; }
: >"$RUN/times"

installed() { dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
# install_absent PACKAGE...: installs those of them that are not installed.
install_absent() {
	local p absent=()
	for p; do installed "$p" || absent+=("$p"); done
	[ ${#absent[@]} -gt 0 ] || return 0
	say "installing ${absent[*]}"
	apt-get install -y -q --no-install-recommends "${absent[@]}" >&2 ||
		{ apt-get update -q >&2 && apt-get install -y -q --no-install-recommends "${absent[@]}" >&2; }
}

# Where the modules are built: the host (6.1, B empty) or the build root B
# (6.12). The paths the builder sees (HDRS, W and everything under it) are
# its own; the host reaches them as "$B$PATH".
B=
builder() { if [ -n "$B" ]; then chroot "$B" "$@"; else "$@"; fi; }

# --- host packages, the target's headers and its stock kernel (IMG) ---------------
# Each target sets KVER, DEBVER, HDRS (the headers the modules are built
# against), IMG (a tree with boot/vmlinuz-KVER and lib/modules/KVER
# depmod'ed), W (the builder's work directory), SRC (the sources the guide's
# blocks run in), DOCHOST (the guide's host blocks, for the builder), and the
# guest's suite and places of the guide's blocks.
t=$SECONDS
case $TARGET in
6.1)
grep -q '^12' /etc/debian_version 2>/dev/null || say "warning: not Debian 12; the 6.1 packages may not exist"
pkgs=(dkms make gcc libc6-dev cpio kmod openssl busybox-static qemu-system-x86 util-linux)
# The newest installed linux-headers-6.1.0-N-amd64, or nothing. dpkg-query
# fails when no package matches the pattern: that is an answer, not an error
# (under pipefail it would end the script before the install below).
latest_headers() {
	{ dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' 'linux-headers-6.1.0-*-amd64' 2>/dev/null || true; } |
		awk '$1 == "ii" { print $2 }' | sort -V | tail -n 1
}
hdr=$(latest_headers)
[ -n "$hdr" ] || pkgs+=(linux-headers-amd64)
install_absent "${pkgs[@]}"
hdr=$(latest_headers)
[ -n "$hdr" ] || die "no linux-headers-6.1.0-*-amd64 package installed"
KVER=${hdr#linux-headers-}
DEBVER=$(dpkg-query -W -f '${Version}' "$hdr")
HDRS=/usr/src/linux-headers-$KVER
[ -f "$HDRS/.config" ] || die "$HDRS has no .config"
say "target: $KVER (Debian $DEBVER), headers $HDRS"
stage packages $t

# The stock kernel: vmlinuz and the modules zram needs, from linux-image.
IMG=$D/image-$KVER-$DEBVER
t=$SECONDS
if [ ! -f "$IMG/.ok" ]; then
	deb=$D/debs/linux-image-${KVER}_${DEBVER}_amd64.deb
	if [ ! -f "$deb" ]; then
		mkdir -p "$D/debs"
		dl=$(mktemp -d "$D/debs/.dl-XXXXXX")
		chown _apt "$dl"   # apt downloads as user _apt
		say "downloading linux-image-$KVER $DEBVER (never installed)"
		(cd "$dl" && apt-get download -q "linux-image-$KVER=$DEBVER" >&2) ||
			{ apt-get update -q >&2 && (cd "$dl" && apt-get download -q "linux-image-$KVER=$DEBVER" >&2); } ||
			{ rm -rf "$dl"; die "cannot download linux-image-$KVER=$DEBVER"; }
		mv "$dl"/*.deb "$deb"
		rm -rf "$dl"
	fi
	rm -rf "$IMG"
	mkdir -p "$IMG"
	say "extracting vmlinuz and the zram, mm, lib and crypto modules from $(basename "$deb")"
	# drivers/block/zram, mm, lib and crypto are small: all of them, so a change
	# to our dependencies needs no new extraction.
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$IMG" --wildcards \
		"./boot/vmlinuz-$KVER" "./boot/System.map-$KVER" "./boot/config-$KVER" \
		"./lib/modules/$KVER/modules.*" "./lib/modules/$KVER/kernel/drivers/block/zram" \
		"./lib/modules/$KVER/kernel/mm" "./lib/modules/$KVER/kernel/lib" \
		"./lib/modules/$KVER/kernel/crypto" "./lib/modules/$KVER/kernel/arch/x86/crypto"
	# The package leaves modules.dep to its postinst: depmod the part we took.
	depmod -b "$IMG" "$KVER"
	touch "$IMG/.ok"
fi
stage image $t
W=$D
SRC=$REPO
DOCHOST=$RUN/doc-host
SUITE=zram
PLACES=dkms
;;

6.12)
install_absent gcc libc6-dev cpio kmod busybox-static qemu-system-x86 util-linux \
	mmdebstrap debian-archive-keyring
# trixie and its security updates; apt reads the lists from the cache only.
A=$CACHE/apt-trixie
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
MIRRORS=("deb [signed-by=$KEYRING] http://deb.debian.org/debian trixie main"
	 "deb [signed-by=$KEYRING] http://deb.debian.org/debian-security trixie-security main")
mkdir -p "$A/lists" "$A/cache"
printf '%s\n' "${MIRRORS[@]}" | sed 's/\]/ target=Packages]/' >"$A/sources.list"
APTO=(-o Dir::Etc::sourcelist="$A/sources.list" -o Dir::Etc::sourceparts=-
      -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache" -o Acquire::Languages=none)
# Security updates bring new kernels: refresh lists older than a day.
if [ -z "$(find "$A/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440)" ]; then
	say "updating private trixie lists in $A"
	apt-get "${APTO[@]}" update -q >&2 ||
		[ -n "$(find "$A/lists" -maxdepth 1 -name '*_Packages*')" ] ||
		die "no trixie package lists"
fi
# linux-headers-amd64 (its candidate) depends on linux-headers-KVER.
hdr=$(apt-cache "${APTO[@]}" depends linux-headers-amd64 |
	awk '$1 == "Depends:" && $2 ~ /^linux-headers-6\.12/ { print $2; exit }')
[ -n "$hdr" ] || die "trixie's linux-headers-amd64 names no linux-headers-6.12*"
KVER=${hdr#linux-headers-}
DEBVER=$(apt-cache "${APTO[@]}" policy "$hdr" | awk '/Candidate:/ && $2 != "(none)" { print $2 }')
[ -n "$DEBVER" ] || die "no candidate for $hdr"
HDRS=/usr/src/linux-headers-$KVER
say "target: $KVER (Debian $DEBVER), headers $HDRS in a Debian 13 build root"
stage packages $t

# The build root, one per kernel: what a Debian 13 machine has after
# "apt-get install dkms linux-headers-KVER" (the guide's install block runs
# that again in it, which then has nothing to do). Its apt sources are the
# same mirrors; mmdebstrap leaves the package lists out. The kernel's
# postinst builds an initrd nobody uses: MODULES=list keeps that quick.
t=$SECONDS
B=$D/trixie-$KVER-$DEBVER
if [ ! -f "$B.ok" ]; then
	# Never delete through a mount a killed mmdebstrap left behind.
	! grep -q " $D/" /proc/mounts || die "mounts under $D: unmount them first"
	rm -rf "$D"/trixie-*
	say "creating the Debian 13 build root $B (log $D/mmdebstrap.log)"
	nice -n 10 mmdebstrap --variant=apt \
		--include="dkms,linux-headers-$KVER,make,openssl,xz-utils,kmod" \
		--essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" &&
			echo MODULES=list >"$1/etc/initramfs-tools/conf.d/zbewalgo-test"' \
		trixie "$B" "${MIRRORS[@]}" >"$D/mmdebstrap.log" 2>&1 ||
		{ tail -n 30 "$D/mmdebstrap.log" >&2; die "mmdebstrap failed"; }
	touch "$B.ok"
fi
[ -f "$B$HDRS/.config" ] || die "$B$HDRS has no .config"
[ "$(builder dpkg-query -W -f '${Version}' "linux-headers-$KVER")" = "$DEBVER" ] ||
	die "the build root has not linux-headers-$KVER $DEBVER"
IMG=$B
[ -f "$IMG/boot/vmlinuz-$KVER" ] && [ -f "$IMG/lib/modules/$KVER/modules.dep" ] ||
	die "no linux-image-$KVER in the build root"
stage root $t
W=/zbewalgo-test
SRC=$W/tree/sources
DOCHOST=$W/doc-host
SUITE=zswap
PLACES=dkms-6.12
;;
esac
VMLINUZ=$IMG/boot/vmlinuz-$KVER
grep -q '^CONFIG_MODULE_SIG_FORCE=y' "$IMG/boot/config-$KVER" &&
	die "$KVER enforces module signatures: the DKMS-signed module would not load"

# closure MODULE...: relative paths of the stock modules and all their
# dependencies (IMG's modules.dep).
closure() {
	awk -v want=" $* " -F': *' '
		{ n = $1; sub(/.*\//, "", n); sub(/\.ko.*$/, "", n); gsub(/-/, "_", n)
		  dep[n] = $2; path[n] = $1 }
		END { split(want, q, " "); for (i in q) { m = q[i]; gsub(/-/, "_", m); todo[m] = 1 }
		      do { more = 0
		           for (m in todo) if (!(m in done)) { done[m] = 1; more = 1
		               if (!(m in path)) continue
		               print path[m]; k = split(dep[m], d, " ")
		               for (j = 1; j <= k; j++) { x = d[j]; sub(/.*\//, "", x)
		                   sub(/\.ko.*$/, "", x); gsub(/-/, "_", x); todo[x] = 1 } }
		      } while (more) }' "$IMG/lib/modules/$KVER/modules.dep" | sort -u
}

# copy_sources DIR: what the guide's make targets need from the repo,
# copied afresh to DIR (the builder's path).
copy_sources() {
	rm -rf "$B$1"
	mkdir -p "$B$1"
	(cd "$REPO" && find Makefile Kbuild dkms.conf include compat lib/zbewalgo crypto/zbewalgo.c -type f \
		! -name '*.o' ! -name '*.ko' ! -name '*.cmd' ! -name '*.mod*' | cpio -pdm --quiet "$B$1")
}

# --- DKMS: make dkms-install with private trees (the host's are never touched) -----
# T/src holds the sources (DKMS_SRCTREE), T/dkms the dkms tree, T/root/lib/modules
# the install tree: the stock modules we need plus updates/dkms after install.
t=$SECONDS
T=$W/tree
rm -rf "$B$T"
mkdir -p "$B$T/src" "$B$T/dkms" "$B$T/root/lib/modules/$KVER"
ln -s "$HDRS" "$B$T/root/lib/modules/$KVER/build"
[ -z "$B" ] || copy_sources "$SRC"
# A private signing key too: dkms on Debian would create /var/lib/dkms/mok.key.
export mok_signing_key=$T/mok.key mok_certificate=$T/mok.pub
# The admin guide's host-side blocks run as written, with the guide's
# variable KVER and the private trees through the environment the guide
# names (DKMS_SRCTREE, DKMS_FLAGS, INSTALL_MOD_PATH); each is a check.
export KVER DKMS_SRCTREE=$T/src
export DKMS_FLAGS="--dkmstree $T/dkms --installtree $T/root/lib/modules --no-depmod"
HOSTLOG=$RUN/host-checks
: >"$HOSTLOG"
host_block() { # NAME DIR: the guide's block NAME, bash -e in DIR, by the builder
	local f rc=0
	f=$(find "$B$DOCHOST" -name "*-$1.sh" | head -n 1)
	[ -n "$f" ] || die "no host block $1 in the guide"
	say "guide block $1 in $2${B:+ in $B} (log $RUN/doc-$1.log)"
	builder /bin/bash -c 'cd "$1" && exec nice -n 10 bash -e "$2"' - "$2" "${f#"$B"}" \
		</dev/null >"$RUN/doc-$1.log" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then echo "ok doc-$1" >>"$HOSTLOG"; return 0; fi
	echo "not ok doc-$1 # exit $rc" >>"$HOSTLOG"
	tail -n 40 "$RUN/doc-$1.log" >&2
	return 1
}
rm -rf "$B$DOCHOST"
python3 "$HERE/doc-blocks.py" extract dkms-host,dkms-host-end "$B$DOCHOST" "${GUIDES[@]}"
if ! host_block install-dkms "$SRC"; then
	find "$B$T/dkms/zbewalgo" -name make.log -exec tail -n 40 {} + >&2 2>/dev/null || true
	die "the guide's DKMS install failed"
fi
status=$(builder dkms status --dkmstree "$T/dkms" --installtree "$T/root/lib/modules" -m zbewalgo -k "$KVER")
say "dkms status: $status"
case $status in *installed*) ;; *) die "dkms status does not say installed" ;; esac
MODDIR=$T/root/lib/modules/$KVER
ours=$(find "$B$MODDIR/updates" -name '*.ko*' | sort)
[ "$(echo "$ours" | grep -c -E '/(lib)?zbewalgo\.ko')" = 2 ] || die "dkms installed: ${ours:-nothing}"
zb=$(echo "$ours" | grep '/zbewalgo\.ko')
vermagic=$(modinfo -F vermagic "$zb")
case $vermagic in "$KVER "*) ;; *) die "vermagic '$vermagic' is not $KVER" ;; esac
sig=$(modinfo -F signer "$zb" || true)
say "built: $(echo "$ours" | sed "s|$B$MODDIR/||" | tr '\n' ' ')vermagic '$vermagic', signer '${sig:-none}'"
stage dkms $t

# The guide's Kbuild install (make modules, make modules_install), in a copy
# of the sources (make modules builds in the tree) into a private root.
t=$SECONDS
rm -rf "$B$T/modinst"
copy_sources "$T/kbuild"
INSTALL_MOD_PATH=$T/modinst host_block modules-install "$T/kbuild" || die "the guide's make modules_install failed"
grep -q crypto-zbewalgo "$B$T/modinst/lib/modules/$KVER/modules.alias" ||
	die "make modules_install: no crypto-zbewalgo in modules.alias"
[ "$(find "$B$T/modinst/lib/modules/$KVER" -name '*zbewalgo.ko*' | wc -l)" = 2 ] ||
	die "make modules_install: not both modules under $T/modinst/lib/modules/$KVER"
stage kbuild $t

# The stock modules: zram, the compressors zram lists, and our dependencies.
t=$SECONDS
deps=$(for m in $ours; do modinfo -F depends "$m"; done | tr ',' ' ')
# shellcheck disable=SC2086  # one module name per word
need=$(closure zram zsmalloc lz4 lz4hc zstd $deps)
for p in $need; do
	[ -f "$IMG/lib/modules/$KVER/$p" ] || die "$p missing from the extracted image"
	mkdir -p "$B$MODDIR/$(dirname "$p")"
	cp "$IMG/lib/modules/$KVER/$p" "$B$MODDIR/$p"
done
cp "$IMG/lib/modules/$KVER/modules.builtin" "$IMG/lib/modules/$KVER/modules.builtin.modinfo" \
	"$IMG/lib/modules/$KVER/modules.order" "$B$MODDIR/"
# Debian's System.map is a stub: check symbols (and their CRCs) against the
# headers' Module.symvers, the kernel's exports.
builder depmod -b "$T/root" -E "$HDRS/Module.symvers" -e "$KVER" 2>"$RUN/depmod.log" ||
	{ cat "$RUN/depmod.log" >&2; die "depmod failed"; }
! grep -q 'unknown symbol\|disagrees about version' "$RUN/depmod.log" ||
	{ cat "$RUN/depmod.log" >&2; die "depmod: unresolved symbols or CRC mismatch"; }
grep -q 'crypto-zbewalgo' "$B$MODDIR/modules.alias" || die "modules.alias lacks crypto-zbewalgo"
say "stock modules: $(echo "$need" | sed 's|.*/||' | tr '\n' ' ')"

# --- guest tools: zbwmem; for 6.1 also zramctl and zram-generator with their
# libraries, and zramswap ----------------------------------------------------------
ZBWMEM=$RUN/zbwmem
gcc -static -O2 -Wall -o "$ZBWMEM" "$HERE/zbwmem.c" -lm
extras=("$ZBWMEM" "$B$MODDIR=/lib/modules/$KVER")
add_bin() { # BINARY DEST: BINARY at DEST, its libraries at their own paths
	local x
	while read -r x; do extras+=("$x"); done < <(bin_extras "$1" "$2")
}
if [ "$TARGET" = 6.1 ]; then
# Debian's own zramctl, swapon (priorities: busybox's has no -p), mkswap, and bash
# for zram-tools' zramswap (busybox's sh would run its own swapon applet).
for b in zramctl swapon swapoff mkswap; do
	p=$(PATH=/usr/sbin:/sbin:$PATH command -v $b) || die "$b not found"
	add_bin "$p" /usr/sbin/$b
done
add_bin /bin/bash /bin/bash
# zram-tools and systemd-zram-generator: downloaded like the image, unpacked only.
PK=$D/pkgs
if [ ! -f "$PK/.ok" ]; then
	rm -rf "$PK"
	mkdir -p "$PK/deb" "$PK/root"
	chown _apt "$PK/deb"
	(cd "$PK/deb" && apt-get download -q zram-tools systemd-zram-generator >&2) ||
		{ apt-get update -q >&2 && (cd "$PK/deb" && apt-get download -q zram-tools systemd-zram-generator >&2); }
	for f in "$PK"/deb/*.deb; do dpkg-deb -x "$f" "$PK/root"; done
	touch "$PK/.ok"
fi
ZG=$PK/root/lib/systemd/system-generators/zram-generator
if [ ! -x "$ZG" ] || [ ! -f "$PK/root/usr/sbin/zramswap" ]; then
	die "zram-tools/zram-generator not unpacked in $PK"
fi
add_bin "$ZG" /lib/systemd/system-generators/zram-generator
extras+=("$PK/root/usr/sbin/zramswap=/usr/sbin/zramswap"
	 "$HERE/guest/systemd-makefs=/lib/systemd/systemd-makefs")
PKGVERS="zram-tools $(dpkg-deb -f "$PK"/deb/zram-tools_*.deb Version), systemd-zram-generator $(dpkg-deb -f "$PK"/deb/systemd-zram-generator_*.deb Version), util-linux $(dpkg-query -W -f '${Version}' util-linux)"
else
PKGVERS="build root: $(builder dpkg-query -W -f '${Package} ${Version}, ' dkms gcc-14 "linux-kbuild-${KVER%-amd64}" | sed 's/, $//')"
fi
# The guide's blocks for this guest, each a required check.
mapfile -t -O ${#extras[@]} extras < <(doc_extras "$RUN/doc" "$PLACES")
"$HERE/initramfs.sh" "$RUN/initramfs.cpio.gz" "$HERE/guest/dkms.sh" "${extras[@]}"
stage initramfs $t

# --- boot the stock kernel ------------------------------------------------------------
t=$SECONDS
{ ZBW_APPEND="ZBW_KVER=$KVER ZBW_SUITE=$SUITE ZBW_FILL_MIB=${ZBW_FILL_MIB:-320} ZBW_EXAMPLE_MIB=${ZBW_EXAMPLE_MIB:-64}" \
	nice -n 10 "$HERE/boot.sh" "$VMLINUZ" "$RUN/initramfs.cpio.gz" "$RUN/console.log" \
	"${ZBW_TIMEOUT:-1800}" || true; } |
	grep --line-buffered -E '^(ZBW-|zbwmem:|(not )?ok [0-9]+ |1\.\.|# )' | sed -u 's/\r$//' || true
stage boot $t
cp "$RUN/console.log" "$LOGS/dkms-$KVER-console.log"

case $SUITE in
zram) CHECKS="stock-kernel modprobe-zram autoload modules-signature crypto comp-algorithm
	swap-zram verify-zram zramctl verify-zramctl zramswap verify-zramswap
	zram-generator-units zram-generator-setup verify-zram-generator zswap verify-zswap
	no-splat" ;;
zswap) CHECKS="stock-kernel autoload-zswap modules-signature crypto zswap verify-zswap no-splat" ;;
esac
# The guide's uninstall, by the builder.
host_block uninstall-dkms "$SRC" || true
# What is left: nothing is the answer we want, so neither a dkms status nor
# a find of a directory the removal deleted may end the script (set -e).
left=$({ builder dkms status --dkmstree "$T/dkms" --installtree "$T/root/lib/modules" -m zbewalgo 2>&1
	find "$B$T/src" "$B$MODDIR/updates" -name '*zbewalgo*' 2>/dev/null; } || true)
if [ -n "$left" ]; then
	sed -i '/^ok doc-uninstall-dkms$/d' "$HOSTLOG"
	echo "not ok doc-uninstall-dkms # left behind: $(echo "$left" | tr '\n' ' ')" >>"$HOSTLOG"
fi
CHECKS="$CHECKS $(python3 "$HERE/doc-blocks.py" names "$PLACES" "${GUIDES[@]}" | tr '\n' ' ')"
HOST_CHECKS=$(python3 "$HERE/doc-blocks.py" names dkms-host,dkms-host-end "${GUIDES[@]}" | tr '\n' ' ')
log=$(tr -d '\r' <"$RUN/console.log")
# The host's blocks as a KTAP document of their own, numbered and planned.
hostlog=$(echo "KTAP version 1"; echo "1..$(grep -c . "$HOSTLOG")"
	awk '{ sub(/ok /, "ok " NR " "); print } /^not ok / { f++ }
	     END { print "# Totals: pass:" NR - f " fail:" f + 0 " xfail:0 xpass:0 skip:0 error:0" }' "$HOSTLOG")
# shellcheck disable=SC2086  # lists of check names
missing="$(ktap_missing "$log" $CHECKS)$(ktap_missing "$hostlog" $HOST_CHECKS | sed 's/ \([a-z]\)/ host-\1/g')"
echo
if [ -z "$missing" ]; then echo "== dkms on Debian's $KVER ($DEBVER): PASS"
else echo "== dkms on Debian's $KVER ($DEBVER): FAIL (missing or failed:$missing)"; fi
grep -E '^(not )?ok [0-9]+ ' <<<"$log" | cut -c1-240 || true
echo "  host${B:+ (build root $B)}:"
grep -E '^(not )?ok [0-9]+ ' <<<"$hostlog" | cut -c1-240 || true
echo "  host: $status; $PKGVERS"
cat "$RUN/times"
echo "  total     ${SECONDS}s"
echo "  log: $LOGS/dkms-$KVER-console.log"
[ -z "$missing" ] || die "FAIL"
say "PASS"
