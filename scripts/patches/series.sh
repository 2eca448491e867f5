#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# series.sh (make check-series, part of make check): the upstream series,
# checked as it is shipped, in minutes and without a boot:
#  - make.sh (make patches) writes it to $PATCH_OUT (build/patches); a
#    failure there, the cover letter generator's included, fails this;
#  - checkpatch.pl --strict on every patch: no errors, warnings or checks;
#  - git am of each patch onto a clean Linux $PATCH_VERSION tree, after
#    git apply --check has found that every hunk applies where it says;
#  - the tree after the last patch is the one kernel-integrate.py
#    --upstream makes in a single run of all its stages;
#  - an x86_64 build of that tree, vmlinux and modules only:
#    tinyconfig + tools/testing/kernel/config/{base,zram-backends}.config
#    + series.config here (the library, crypto glue and KUnit tests as
#    modules, the zram backend in zram.ko); every C file the series adds
#    must end up in a .ko, and the build log must have no warning about a
#    file the series touches.
# make check-patches is the thorough check (a build after every patch,
# W=1 and sparse, kernel-doc, KUnit under UML, a qemu boot).  The tree and
# objects live in $ZBW_CACHE/patches/DEBVER/series (objects kept, so
# reruns are incremental; ccache is the booted-kernel suite's); logs and
# the summary go to build/patches-series/.  The exit status is 1 if any
# check failed.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

JOBS=${ZBW_JOBS:-2}
KCONFIG=$REPO/tools/testing/kernel/config

"$HERE/make.sh" || die "make patches failed"
check_begin series "$REPO/build/patches-series"
S=$WORK

# ---- checkpatch ---------------------------------------------------------------
checkpatch_series "$T"

# ---- git am -------------------------------------------------------------------
# git am accepts hunks found at an offset; a series made against this very
# tree must not need that.
step=0
for p in "${PATCHES[@]}"; do
	step=$((step + 1))
	log=$LOGS/am-$step.log
	if ! git -C "$T" apply --check --verbose "$p" >"$log" 2>&1 ||
	   grep -Eq '^Hunk #[0-9]+ succeeded at .*offset' "$log" ||
	   ! git -C "$T" am -q "$p" >>"$log" 2>&1; then
		result FAIL "git am ${p##*/}" "(log: $log)"
		die "stopped at patch $step (summary: $SUMMARY)"
	fi
done
result ok "git am, ${#PATCHES[@]} patches" "no offsets"

# ---- the tree we test is the tree we ship --------------------------------------
R=$S/ref
new_tree "$R"
python3 "$REPO/scripts/kernel-integrate.py" --upstream --maintainer "$AUTHOR" \
	"$REPO" "$R" >"$LOGS/integrate.log" 2>&1 ||
	die "kernel-integrate.py --upstream failed (log: $LOGS/integrate.log)"
git -C "$R" add -A -f .
want=$(git -C "$R" write-tree)
got=$(git -C "$T" rev-parse 'HEAD^{tree}')
if [ "$want" = "$got" ]; then
	result ok "tree = kernel-integrate.py --upstream" "tree $got"
else
	git -C "$T" diff --stat "$want" "$got" >"$LOGS/tree.diff" 2>&1
	result FAIL "tree = kernel-integrate.py --upstream" "differs (log: $LOGS/tree.diff)"
fi
rm -rf "$R"

# ---- x86_64 build -------------------------------------------------------------
FRAG=$S/fragment.config
cat "$KCONFIG/base.config" "$KCONFIG/zram-backends.config" "$HERE/series.config" >"$FRAG"
ccache_env
MAKE=(nice -n 10 make -C "$T" O="$OBJ" ARCH=x86_64 "CC=ccache gcc" -j"$JOBS")
log=$LOGS/build.log
: >"$log"
t=$SECONDS
mapfile -t added < <(git -C "$T" diff --name-only --diff-filter=A base HEAD -- '*.c')
mapfile -t touched < <(git -C "$T" diff --name-only base HEAD)
# Objects and modules of an earlier run must not count as built by this one.
for f in "${added[@]}"; do rm -f "$OBJ/${f%.c}.o"; done
find "$OBJ" -name '*.ko' -delete

say "x86_64 vmlinux and modules (log: $log)"
bad=
if ! { "${MAKE[@]}" tinyconfig &&
       "$T/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAG" &&
       "${MAKE[@]}" olddefconfig; } >>"$log" 2>&1; then
	bad="configuration failed"
else
	# olddefconfig drops what a dependency blocks: each symbol's last
	# request must hold.
	while read -r want; do
		got=$(grep -E "^${want%%=*}=" "$OBJ/.config" || true)
		[ "$got" = "$want" ] || bad="$bad wanted $want, got ${got:-unset};"
	done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$FRAG" | tac | awk -F= '!seen[$1]++')
fi
if [ -n "$bad" ]; then
	result FAIL "x86_64 config" "$bad (log: $log)"
elif ! "${MAKE[@]}" vmlinux modules >>"$log" 2>&1; then
	result FAIL "x86_64 build" "(log: $log)"
else
	result ok "x86_64 build (vmlinux, modules)" "$((SECONDS - t))s"
	new=$(diags "$log" "${touched[@]}")
	if [ -z "$new" ]; then
		result ok "no warning in the series' files" "${#touched[@]} files"
	else
		result FAIL "no warning in the series' files" "(log: $log)"
		echo "$new" | sed 's/^/     /' | tee -a "$SUMMARY" >&2
	fi
	# Kbuild lists a module's objects in its .mod file.
	declare -A in_ko=()
	for f in "${added[@]}"; do
		ko=
		while read -r m; do
			[ ! -f "$OBJ/${m%.mod}.ko" ] || ko=${m%.mod}.ko
		done < <(cd "$OBJ" && grep -rlxF --include='*.mod' "${f%.c}.o" . | sed 's#^\./##')
		if [ -n "$ko" ]; then
			in_ko[$ko]="${in_ko[$ko]:-} ${f##*/}"
		else
			result FAIL "$f" "in no module that was built"
		fi
	done
	[ ${#added[@]} -gt 0 ] || result FAIL "modules" "the series adds no C file?"
	while read -r ko; do
		result ok "$ko" "built, from${in_ko[$ko]}"
	done < <(printf '%s\n' "${!in_ko[@]}" | LC_ALL=C sort)
fi

echo >&2
say "summary ($SUMMARY):"
cat "$SUMMARY" >&2
[ "$failed" = 0 ] || die "check-series failed"
say "PASS: every check"
