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
#  - two x86_64 builds of that tree, vmlinux and modules only:
#    tinyconfig + tools/testing/kernel/config/{base,zram-backends}.config
#    + series.config here (the library, crypto glue and KUnit tests as
#    modules, the zram backend in zram.ko, the tuning plane and the
#    classic steps), and the core alone, without CONFIG_ZBEWALGO_TUNING
#    and CONFIG_ZBEWALGO_CLASSIC_STEPS; every C file the series adds must
#    end up in a .ko (the optional parts' files in none in the core), and
#    the build logs must have no warning about a file the series touches;
#  - the same lean build of the tree after the core's last patch (the one
#    before the first patch that adds a file of the optional parts).
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

# ---- x86_64 builds ------------------------------------------------------------
# With the classic steps (series.config) and without them, each in its own
# object directory.
ccache_env
mapfile -t added < <(git -C "$T" diff --name-only --diff-filter=A base HEAD -- '*.c')
mapfile -t touched < <(git -C "$T" diff --name-only base HEAD)

# The classic steps' C files, as lib/zbewalgo/Makefile names them to Kbuild.
# shellcheck disable=SC2016 # $(...) is make's, not the shell's
# Run under make check, a nested make would also print its directory.
mapfile -t classic < <(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -s --no-print-directory -f "$T/lib/zbewalgo/Makefile" \
	--eval 'classic: ; @printf "lib/zbewalgo/%s\n" $(ZBEWALGO_CLASSIC:.o=.c)' classic)
[ ${#classic[@]} -gt 0 ] || die "no ZBEWALGO_CLASSIC in lib/zbewalgo/Makefile"
# shellcheck disable=SC2016
mapfile -t tuning < <(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -s --no-print-directory -f "$T/lib/zbewalgo/Makefile" \
	--eval 'tuning: ; @printf "lib/zbewalgo/%s\n" $(ZBEWALGO_TUNING:.o=.c)' tuning)
[ ${#tuning[@]} -gt 0 ] || die "no ZBEWALGO_TUNING in lib/zbewalgo/Makefile"
optional=("${classic[@]}" "${tuning[@]}")

# build NAME FRAGMENT OBJDIR: vmlinux and modules; every C file the series
# adds must end up in a module, but in the lean build (the core) the files
# of the classic steps and of the tuning plane, which must not.
build() {
	local name=$1 frag=$2 obj=$3 src=${4:-$T} log=$LOGS/build-$1.log t=$SECONDS bad='' f ko m want got new
	local -a make=(nice -n 10 make -C "$src" O="$obj" ARCH=x86_64 "CC=ccache gcc" -j"$JOBS")
	mkdir -p "$obj"
	: >"$log"
	# Objects and modules of an earlier run must not count as built by this one.
	for f in "${added[@]}"; do rm -f "$obj/${f%.c}.o"; done
	find "$obj" -name '*.ko' -delete
	say "x86_64 vmlinux and modules, $name (log: $log)"
	if ! { "${make[@]}" tinyconfig &&
	       "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" &&
	       "${make[@]}" olddefconfig; } >>"$log" 2>&1; then
		bad="configuration failed"
	else
		# olddefconfig drops what a dependency blocks: each symbol's
		# last request must hold.
		while read -r want; do
			got=$(grep -E "^${want%%=*}=" "$obj/.config" || true)
			[ "$got" = "$want" ] || bad="$bad wanted $want, got ${got:-unset};"
		done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$frag" | tac | awk -F= '!seen[$1]++')
		if [ "$name" != full ] &&
		   grep -Eq '^CONFIG_ZBEWALGO_(CLASSIC_STEPS|TUNING)=' "$obj/.config"; then
			bad="$bad CONFIG_ZBEWALGO_CLASSIC_STEPS or _TUNING is set;"
		fi
	fi
	if [ -n "$bad" ]; then
		result FAIL "x86_64 config, $name" "$bad (log: $log)"
		return
	fi
	if ! "${make[@]}" vmlinux modules >>"$log" 2>&1; then
		result FAIL "x86_64 build, $name" "(log: $log)"
		return
	fi
	result ok "x86_64 build, $name (vmlinux, modules)" "$((SECONDS - t))s"
	new=$(diags "$log" "${touched[@]}")
	if [ -z "$new" ]; then
		result ok "no warning in the series' files, $name" "${#touched[@]} files"
	else
		result FAIL "no warning in the series' files, $name" "(log: $log)"
		echo "$new" | sed 's/^/     /' | tee -a "$SUMMARY" >&2
	fi
	# Kbuild lists a module's objects in its .mod file.
	declare -A in_ko=()
	local left_out=0
	for f in "${added[@]}"; do
		# the core's tree has none of the optional parts' files
		if [ "$name" = core ] && [ ! -e "$src/$f" ]; then
			if printf '%s\n' "${optional[@]}" | grep -qxF "$f"; then
				left_out=$((left_out + 1))
				continue
			fi
			result FAIL "$f" "not in the core's tree, but not optional"
			continue
		fi
		ko=
		while read -r m; do
			[ ! -f "$obj/${m%.mod}.ko" ] || ko=${m%.mod}.ko
		done < <(cd "$obj" && grep -rlxF --include='*.mod' "${f%.c}.o" . | sed 's#^\./##')
		if [ "$name" = lean ] && printf '%s\n' "${optional[@]}" | grep -qxF "$f"; then
			if [ -n "$ko" ]; then
				result FAIL "$f" "built into $ko in the core (lean) build"
			else
				left_out=$((left_out + 1))
			fi
		elif [ -n "$ko" ]; then
			in_ko[$ko]="${in_ko[$ko]:-} ${f##*/}"
		else
			result FAIL "$f" "in no module that was built ($name)"
		fi
	done
	[ ${#added[@]} -gt 0 ] || result FAIL "modules" "the series adds no C file?"
	while read -r ko; do
		result ok "$ko, $name" "built, from${in_ko[$ko]}"
	done < <(printf '%s\n' "${!in_ko[@]}" | LC_ALL=C sort)
	if [ "$name" != full ]; then
		if [ "$left_out" = "${#optional[@]}" ]; then
			result ok "the classic steps and the tuning plane left out, $name" \
				"$left_out files in no module"
		else
			result FAIL "the classic steps and the tuning plane left out, $name" \
				"$left_out of ${#optional[@]} files"
		fi
	fi
}

FRAG=$S/fragment.config
cat "$KCONFIG/base.config" "$KCONFIG/zram-backends.config" "$HERE/series.config" >"$FRAG"
build full "$FRAG" "$OBJ"
LEAN=$S/fragment-lean.config
{
	grep -Ev '^CONFIG_ZBEWALGO_(CLASSIC_STEPS|TUNING)=' "$FRAG"
	echo '# CONFIG_ZBEWALGO_CLASSIC_STEPS is not set'
	echo '# CONFIG_ZBEWALGO_TUNING is not set'
} >"$LEAN"
build lean "$LEAN" "$OBJ-lean"
# The core as a maintainer could take it: the tree after the last patch
# before the first that adds an optional part's file, built alone.
core=
while read -r c; do
	adds=$(git -C "$T" diff-tree --no-commit-id --name-only --diff-filter=A -r "$c")
	if grep -xF -f <(printf '%s\n' "${optional[@]}") <<<"$adds" >/dev/null; then
		core=$(git -C "$T" rev-parse "$c^")
		break
	fi
done < <(git -C "$T" rev-list --reverse base..HEAD)
if [ -z "$core" ]; then
	result FAIL "the core's tree" "no patch adds the optional parts' files"
else
	CORE_SRC=$S/core-src
	rm -rf "$CORE_SRC"
	mkdir -p "$CORE_SRC"
	git -C "$T" archive "$core" | tar -x -C "$CORE_SRC"
	build core "$LEAN" "$OBJ-core" "$CORE_SRC"
	rm -rf "$CORE_SRC"
fi

echo >&2
say "summary ($SUMMARY):"
cat "$SUMMARY" >&2
[ "$failed" = 0 ] || die "check-series failed"
say "PASS: every check"
