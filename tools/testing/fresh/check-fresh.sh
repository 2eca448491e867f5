#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# check-fresh.sh: a fresh machine as a test (make check-fresh).  A minimal
# Debian 12 root (debootstrap --variant=minbase: apt and the required
# packages, no compiler, no headers, no qemu) in which a clean clone of
# this repository's HEAD runs, as root and in this order, FRESH_STEPS
# (";"-separated; default: make; make check-user; make run-demo, the
# first boot of make run with its 7.2 kernel build).  Whatever a step calls, the project's own
# scripts must install: the root gets nothing else but git and make, what
# a user needs to clone and type make.  Each step is timed; the summary
# goes to stdout and $ZBW_CACHE/fresh/last.txt, every step's output to
# $ZBW_CACHE/fresh/run/STEP.log.
#
# Shared with the host: $ZBW_CACHE (default /var/cache/zbewalgo, bound at the
# same path, so the kernel sources, builds, ccache and test data are warm
# when the host has them; its run/ is the root's own; FRESH_COLD=1 gives the root an empty cache of its
# own instead) and /dev (qemu, /dev/kvm when there is one).  Network:
# Debian's mirror only (ZBW_MIRROR), as the project's scripts use it.
# The pristine root is cached as $ZBW_CACHE/fresh/root-KEY.tar (KEY: the
# suite, mirror and this script's RECIPE), so a second run starts in
# seconds; the root of a run stays in $ZBW_CACHE/fresh/run/root until the next.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${ZBW_CACHE:-/var/cache/zbewalgo}
F=$CACHE/fresh
SUITE=bookworm
MIRROR=${ZBW_MIRROR:-http://deb.debian.org/debian}
STEPS=${FRESH_STEPS:-make;make check-user;make run-demo}
# The user's part: what it takes to clone and type make.
USER_PKGS="git make ca-certificates"
RECIPE=1
say() { printf '[check-fresh +%ds] %s\n' "$SECONDS" "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
"$REPO/scripts/install-deps.sh" debootstrap debian-archive-keyring >&2
head=$(git -C "$REPO" rev-parse HEAD) || die "$REPO is not a git repository"
[ -z "$(git -C "$REPO" status --porcelain --untracked-files=no)" ] ||
	say "note: $REPO has uncommitted changes; the clone tests HEAD ($head) without them"
mkdir -p "$F"

# 1. The pristine root, cached as a tarball.
key=$(echo "$RECIPE $SUITE $MIRROR" | sha256sum | cut -c1-12)
tarball=$F/root-$key.tar
if [ ! -f "$tarball" ]; then
	say "debootstrap --variant=minbase $SUITE (a few minutes, about 40 MB from $MIRROR; cached as $tarball)"
	t=$(mktemp -d "$F/.debootstrap-XXXXXX")
	debootstrap --variant=minbase "$SUITE" "$t" "$MIRROR" >"$F/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$F/debootstrap.log" >&2; rm -rf "$t"; die "debootstrap failed (log: $F/debootstrap.log)"; }
	rm -rf "$t/var/cache/apt/archives/"*.deb
	tar -C "$t" -cf "$tarball.tmp" .
	mv "$tarball.tmp" "$tarball"
	rm -rf "$t"
fi

# 2. A root for this run, from the tarball.
W=$F/run
R=$W/root
! grep -q " $W/" /proc/mounts || die "something is mounted under $W: unmount it first"
rm -rf "$W"
mkdir -p "$R"
tar -C "$R" -xf "$tarball"
cp /etc/resolv.conf "$R/etc/resolv.conf"

mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount -R "${mounts[$i]}" 2>/dev/null || umount -lR "${mounts[$i]}" || true
	done
}
trap cleanup EXIT
bind() { mkdir -p "$2"; mount "${@:3}" --bind "$1" "$2"; mounts+=("$2"); }
mount -t proc proc "$R/proc"; mounts+=("$R/proc")
mount -t sysfs sysfs "$R/sys"; mounts+=("$R/sys")
mkdir -p "$R/dev"; mount --rbind /dev "$R/dev"; mount --make-rslave "$R/dev"; mounts+=("$R/dev")
mount -t tmpfs tmpfs "$R/tmp"; mounts+=("$R/tmp")
if [ "${FRESH_COLD:-0}" = 1 ]; then
	bind "$(mkdir -p "$F/cold-cache" && echo "$F/cold-cache")" "$R/var/cache/zbewalgo"
else
	bind "$CACHE" "$R/var/cache/zbewalgo"
	# The runs' own files (console logs, initramfs, data sets) stay
	# apart: a make run on the host uses the same paths.
	bind "$(mkdir -p "$W/cache-run" && echo "$W/cache-run")" "$R/var/cache/zbewalgo/run"
fi
# The repository's objects (a worktree's too), read-only, to clone from.
bind "$(cd "$REPO" && cd "$(git rev-parse --git-common-dir)" && pwd)" "$R/mnt/repo.git"
mount -o remount,bind,ro "$R/mnt/repo.git"

inroot() { chroot "$R" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"; }
out=$F/last.txt
{ echo "check-fresh of $head on $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "root: debootstrap --variant=minbase $SUITE, $(chroot "$R" dpkg-query -W | wc -l) packages"; } >"$out"

# 3. The user: git and make, then the clone.
t0=$SECONDS
say "in the root: apt-get install $USER_PKGS, git clone"
inroot "export DEBIAN_FRONTEND=noninteractive
	apt-get -qq update && apt-get -qq install -y --no-install-recommends $USER_PKGS" >"$W/user.log" 2>&1 ||
	{ tail -n 20 "$W/user.log" >&2; die "installing $USER_PKGS failed"; }
inroot "git config --global --add safe.directory '*' &&
	git clone -q --no-checkout /mnt/repo.git /root/zbewalgo &&
	git -C /root/zbewalgo checkout -q -b fresh $head" >>"$W/user.log" 2>&1 ||
	{ tail -n 20 "$W/user.log" >&2; die "git clone failed"; }
echo "  user: apt-get install $USER_PKGS, git clone: $((SECONDS - t0)) s" >>"$out"

# 4. The steps.
rc=0
IFS=';' read -ra steps <<<"$STEPS"
for s in "${steps[@]}"; do
	name=$(echo "$s" | tr -s ' ' - | tr -cd 'a-z0-9-')
	t0=$SECONDS load=$(cut -d' ' -f1 /proc/loadavg)
	say "in the root: $s (log: $W/$name.log)"
	if inroot "cd /root/zbewalgo && $s" >"$W/$name.log" 2>&1; then
		r=ok
	else
		r="FAILED (rc $?)"
		rc=1
	fi
	line="  $s: $r, $((SECONDS - t0)) s, load $load at the start, $(cut -d' ' -f1 /proc/loadavg) at the end"
	say "$line"
	echo "$line" >>"$out"
	if [ "$rc" != 0 ]; then
		tail -n 30 "$W/$name.log" >&2
		break
	fi
done
echo "  packages in the root at the end: $(inroot "dpkg-query -W | wc -l")" >>"$out"
echo "  total: $SECONDS s; $([ "$rc" = 0 ] && echo PASS || echo FAIL)" >>"$out"
cat "$out"
exit "$rc"
