# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034,SC2120  # used by the sourcing scripts
# Sourced by scripts/patches/{make,check,series}.sh: the clean Linux tree
# the series is made against and applied to, as git work trees that cost
# seconds, and the parts the two checks share.
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
CACHE=${ZBW_CACHE:-/var/cache/zbewalgo}
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

# ---- Shared by the checks (check.sh, series.sh) ------------------------------

# check_setup: host packages, the pristine tree and its base commit.
# Debian's python3 (docutils; ply and git for checkpatch's SPDX check),
# not one that a version manager put first in PATH.
check_setup() {
	export PATH=/usr/bin:/bin:$PATH
	"$REPO/scripts/install-deps.sh" git unifdef python3 python3-ply python3-git \
		build-essential bc flex bison libelf-dev libssl-dev ccache \
		debian-archive-keyring "$@"
	fetch_source
	base_repo
}

# series_patches: PATCHES, the patches in $OUT in order, cover letter left out.
series_patches() {
	mapfile -t PATCHES < <(find "$OUT" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' | LC_ALL=C sort)
	[ ${#PATCHES[@]} -gt 0 ] || die "no patches in $OUT: run make patches first"
}

# check_begin NAME LOGDIR [PACKAGE...]: check_setup with the extra packages,
# the patches, WORK=$PDIR/NAME with a clean tree T=$WORK/src and the build
# directory OBJ=$WORK/obj, and an empty results directory LOGDIR.
check_begin() {
	local name=$1 logdir=$2
	shift 2
	check_setup "$@"
	series_patches
	WORK=$PDIR/$name
	T=$WORK/src
	OBJ=$WORK/obj
	results_init "$logdir"
	mkdir -p "$OBJ"
	say "clean $PATCH_VERSION tree ($DEBVER) in $T"
	new_tree "$T"
	git_ident
}

# results_init LOGDIR: an empty LOGDIR with summary.txt; result STATUS CHECK
# DETAIL adds a line to it, and any status but ok and skip sets failed.
results_init() {
	LOGS=$1
	rm -rf "$LOGS"
	mkdir -p "$LOGS"
	SUMMARY=$LOGS/summary.txt
	: >"$SUMMARY"
	failed=0
}
result() {
	printf '%-4s %-44s %s\n' "$1" "$2" "$3" | tee -a "$SUMMARY" >&2
	case $1 in ok | skip) ;; *) failed=1 ;; esac
}

# zstd_camelcase TREE LOG: the checks of LOG, when each is checkpatch's
# "Avoid CamelCase" on a name of zstd's own API (a word of TREE's
# include/linux/zstd_lib.h, such as cParams, which crypto/zstd.c and
# zram's backend_zstd.c use too: checkpatch does not learn the members
# of that header's typedefs); fails on any other check.
zstd_camelcase() {
	local c w n=0
	while read -r c; do
		w=${c#*<}
		w=${w%>*}
		case $c in "CHECK: Avoid CamelCase: <"*">") ;; *) return 1 ;; esac
		grep -qw -- "$w" "$1/include/linux/zstd_lib.h" || return 1
		n=$((n + 1))
	done < <(grep -E '^CHECK: ' "$2")
	echo "$n"
}

# maintainers_cover I: patch I (0-based in PATCHES) leaves MAINTAINERS
# alone, and every file it adds lies under an F: pattern that the series'
# earlier patches put into MAINTAINERS.  checkpatch asks "does MAINTAINERS
# need updating?" of any patch that adds files; it cannot see that.
maintainers_cover() {
	local i=$1 p f pat ok
	local -a pats=()
	grep -q '^+++ b/MAINTAINERS$' "${PATCHES[$i]}" && return 1
	for p in "${PATCHES[@]:0:$i}"; do
		mapfile -t -O "${#pats[@]}" pats < <(sed -n 's/^+F:\t//p' "$p")
	done
	[ ${#pats[@]} -gt 0 ] || return 1
	while read -r f; do
		ok=0
		for pat in "${pats[@]}"; do
			# shellcheck disable=SC2254 # the pattern is a glob
			case $f in $pat*) ok=1 ;; esac
		done
		[ $ok = 1 ] || return 1
	done < <(awk '/^diff --git / { f = $4 } /^new file mode/ { sub("^b/", "", f); print f }' \
		"${PATCHES[$i]}")
}

# checkpatch_series TREE: checkpatch.pl --strict from TREE on each of
# PATCHES; "0 errors, 0 warnings, 0 checks" passes, and so do checks that
# are all CamelCase on zstd's own names (zstd_camelcase) and the one
# warning that asks for MAINTAINERS where the series' entry already covers
# the patch's new files (maintainers_cover); nothing else.
checkpatch_series() {
	local p n log total z i=0 what
	for p in "${PATCHES[@]}"; do
		n=${p##*/}
		log=$LOGS/checkpatch-${n%.patch}.log
		(cd "$1" && scripts/checkpatch.pl --strict "$p") >"$log" 2>&1 || true
		total=$(grep -E '^total: ' "$log" || echo 'total: ?')
		what=${total% lines checked}
		if echo "$total" | grep -q '^total: 0 errors, 1 warnings, ' &&
		   [ "$(grep -c '^WARNING:' "$log")" = 1 ] &&
		   grep -q '^WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?$' "$log" &&
		   maintainers_cover "$i"; then
			total=${total/1 warnings/0 warnings}
			what="${total% lines checked} (MAINTAINERS already covers its new files)"
		fi
		i=$((i + 1))
		if grep -q Traceback "$log"; then
			result FAIL "checkpatch --strict ${n:0:4}" "$total (log: $log)"
		elif echo "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
			result ok "checkpatch --strict ${n:0:4}" "$what"
		elif echo "$total" | grep -q '^total: 0 errors, 0 warnings, ' &&
		     z=$(zstd_camelcase "$1" "$log"); then
			result ok "checkpatch --strict ${n:0:4}" "$what (CamelCase of zstd's API: $z)"
		else
			result FAIL "checkpatch --strict ${n:0:4}" "$total (log: $log)"
		fi
	done
}

# ccache_env: one compiler cache for every kernel build under $CACHE; paths
# are hashed relative to $CACHE, so trees in different directories share it.
ccache_env() {
	export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$CACHE CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
}

# diags LOG FILE...: the diagnostics "FILE:LINE:COL: warning|error: TEXT"
# in LOG about FILEs (relative to the work tree $T), as "FILE: TEXT" (line
# numbers move between patches).
diags() {
	local log=$1
	shift
	sed -E -e "s#^(\.\./src/|$T/)##" "$log" |
		grep -E '^[^ :]+:[0-9]+:([0-9]+:)? (warning|error): ' |
		sed -E 's#^([^:]+):[0-9]+:([0-9]+:)? #\1: #' |
		grep -F -f <(printf '%s: \n' "$@") | LC_ALL=C sort || true
}
