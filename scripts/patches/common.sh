# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034,SC2120  # used by the sourcing scripts
# Sourced by scripts/patches/{make,check}.sh: the clean Linux tree the series
# is made against and applied to, as git work trees that cost seconds.
#
# The pristine source is Debian's linux-source-$PATCH_VERSION, unpacked by
# tools/testing/kernel/fetch.sh.  Its base commit is made once per Debian
# version and cached in $CACHE/patches/DEBVER/base.git; a work tree is then a
# hard-link copy of the pristine source with that repository as alternate
# object store and a copy of its index.  Hard links share inodes and mtimes,
# so the copied index matches without rehashing 1.5 GB (ctime is ignored:
# linking changes it).  Everything that edits the tree (kernel-integrate.py,
# git am) replaces files instead of writing through the links.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${ZBEWALGO_CACHE:-/var/cache/zbewalgo}
PATCH_VERSION=${PATCH_VERSION:-7.2}
SRC=$CACHE/src/linux-$PATCH_VERSION
OUT=${PATCH_OUT:-$REPO/build/patches}
AUTHOR=${PATCH_AUTHOR:-zbewalgo developers <zbewalgo@example.org>}

say() { printf '[%s +%ds] %s\n' "${0##*/}" "$SECONDS" "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# Committer and author for every commit we make, fixed dates: the same inputs
# give the same commit ids.
git_ident() {
	local name=${AUTHOR% <*} mail=${AUTHOR##*<}
	mail=${mail%>}
	export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$mail
	export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$mail
	export GIT_AUTHOR_DATE=${1:-2000-01-01T00:00:00Z}
	export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
}

# fetch_source: the pristine tree (a no-op when it is there).
fetch_source() {
	if [ ! -f "$SRC.version" ] || [ ! -f "$SRC/Makefile" ]; then
		"$REPO/tools/testing/kernel/fetch.sh" "$PATCH_VERSION"
	fi
	DEBVER=$(cat "$SRC.version")
	PDIR=$CACHE/patches/$DEBVER
	BASE=$PDIR/base.git
}

# base_repo: makes $BASE (git dir + index of the pristine tree) once.
base_repo() {
	[ -f "$BASE/.ok" ] && return 0
	local tmp
	say "committing the pristine $PATCH_VERSION tree ($DEBVER) as base, once"
	rm -rf "$BASE" "$PDIR/.base-tree"
	mkdir -p "$PDIR"
	tmp=$PDIR/.base-tree
	cp -al "$SRC/." "$tmp/"
	git -C "$tmp" init -q -b master
	git -C "$tmp" config core.trustctime false
	# -f: the tarball may carry files the kernel's .gitignore names.
	git -C "$tmp" add -A -f .
	(git_ident; git -C "$tmp" commit -q -m "Linux $(make -s -C "$SRC" kernelversion) (Debian linux-source-$PATCH_VERSION $DEBVER)")
	mv "$tmp/.git" "$BASE"
	rm -rf "$tmp"
	touch "$BASE/.ok"
}

# new_tree DIR: a clean work tree at the base commit in DIR (replaced).
new_tree() {
	local dir=$1
	rm -rf "$dir"
	cp -al "$SRC/." "$dir/"
	git -C "$dir" init -q -b master
	git -C "$dir" config core.trustctime false
	echo "$BASE/objects" >"$dir/.git/objects/info/alternates"
	git -C "$dir" update-ref refs/heads/master "$(git --git-dir="$BASE" rev-parse HEAD)"
	cp "$BASE/index" "$dir/.git/index"
	git -C "$dir" tag base
	[ -z "$(git -C "$dir" status --porcelain -uall | head -n 1)" ] ||
		die "work tree $dir does not match the base commit"
}
