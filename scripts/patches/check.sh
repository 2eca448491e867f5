#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh (make check-patches): checks the series make.sh wrote to
# $PATCH_OUT (build/patches) against a clean Linux $PATCH_VERSION tree:
#  - checkpatch.pl --strict on every patch: no errors, warnings or checks;
#  - git am, one patch at a time, and after each
#    - a full x86_64 build in the booted-kernel suite's configuration
#      (tinyconfig + tools/testing/kernel/config: base, zram-backends,
#      debug, selftests, zbewalgo; ccache-warm from that suite) with no
#      warning in the files the series touches, then the series' objects
#      again with W=1 and sparse (C=1): nothing new against the base tree;
#    - a UML build of the KUnit configuration (kunit.py build
#      --kunitconfig=lib/zbewalgo), which is what enables the library
#      before the patches that use it, also with W=1 and sparse, and
#      kunit.py run on it: the patch's UML kernel boots and every KUnit
#      test of the patch passes (the core alone before the tuning plane's
#      and the classic steps' patches);
#  - scripts/kernel-doc -Wall on the new sources and headers: no output;
#  - the rst files and the ABI entry through docutils (rstcheck.py) and
#    tools/docs/get_abi.py;
#  - CHECK_BOOT=1 (default): the final x86_64 kernel, which is the
#    suite's test kernel built from the series, passes the booted-kernel
#    suite (tools/testing/kernel/zbewalgo-tests.sh with ZBW_KERNEL_OBJ;
#    about 10 minutes).
# Trees and objects live in $ZBW_CACHE/patches/DEBVER/check (kept
# between runs, so reruns are incremental); logs and the summary go to
# build/patches-check/.  Every check runs; the exit status is 1 if any
# failed.  series.sh (make check-series, in make check) is the quick
# subset: checkpatch, git am and one build of the final tree, no boot.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

JOBS=${ZBW_JOBS:-2}
CHECK_BOOT=${CHECK_BOOT:-1}
KHERE=$REPO/tools/testing/kernel

check_begin check "$REPO/build/patches-check" sparse python3-docutils
C=$WORK

# ---- checkpatch -------------------------------------------------------------
checkpatch_series "$T"

# ---- bisectable build --------------------------------------------------------
# sparse_checker: a sparse that this kernel accepts (its checker-valid.sh
# wants __typeof_unqual__, newer than bookworm's 0.6.4): Debian's if it
# passes, else sid's source package, built once into $CACHE/sparse.
sparse_checker() {
	local A=$CACHE/apt-sid-src d=$CACHE/sparse tmp
	local valid=("$T/scripts/checker-valid.sh")
	if [ "$("${valid[@]}" sparse --arch=x86_64 -mlittle-endian -m64)" = 1 ]; then
		echo sparse
		return
	fi
	if [ ! -x "$d/sparse" ] || [ "$("${valid[@]}" "$d/sparse" --arch=x86_64 -mlittle-endian -m64)" != 1 ]; then
		say "building sparse from Debian sid's source package into $d"
		local O=(-o Dir::Etc::sourcelist="$A/sources.list" -o Dir::Etc::sourceparts=-
			 -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache" -o Acquire::Languages=none)
		mkdir -p "$A/lists" "$A/cache" "$d"
		echo 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main' \
			>"$A/sources.list"
		apt-get "${O[@]}" update -q >&2
		tmp=$(mktemp -d "$d/.build-XXXXXX")
		chown _apt "$tmp"	# apt downloads as user _apt
		(cd "$tmp" && apt-get "${O[@]}" source --download-only -q sparse) >&2
		mkdir "$tmp/src"
		tar -xf "$tmp"/sparse_*.orig.tar.* -C "$tmp/src" --strip-components=1
		nice -n 10 make -C "$tmp/src" -j"$JOBS" -s HAVE_LLVM=no HAVE_GTK=no \
			HAVE_LIBXML=no HAVE_SQLITE=no sparse >&2
		cp "$tmp/src/sparse" "$d/sparse"
		rm -rf "$tmp"
	fi
	echo "$d/sparse"
}
SPARSE=$(sparse_checker)

FRAG=$C/fragment.config
{
	cat "$KHERE/config/base.config" "$KHERE/config/zram-backends.config"
	bash -c '. "$1/common.sh"; test_fragment "$2"' _ "$KHERE" "$PATCH_VERSION"
} >"$FRAG"
ccache_env
MAKE=(nice -n 10 make -C "$T" O="$OBJ" ARCH=x86_64 "CC=ccache gcc" CHECK="$SPARSE" -j"$JOBS")
KOBJ=$C/kunit
UMAKE=(nice -n 10 make -C "$T" O="$KOBJ" ARCH=um "CC=ccache gcc" CHECK="$SPARSE" -j"$JOBS")
LAST=${#PATCHES[@]}

defined_syms() {
	grep -rhoE --include='Kconfig*' '^(menu)?config [A-Za-z0-9_]+' "$T" |
		awk '{print "CONFIG_" $2}' | sort -u
}
# has_prompt CONFIG_SYM: the series' Kconfig entry of SYM has a prompt
# (symbols without one are only selected, by later patches maybe).
has_prompt() {
	local files
	mapfile -t files < <(git -C "$T" diff --name-only base HEAD -- '*Kconfig*')
	(cd "$T" && awk -v s="${1#CONFIG_}" '
		$1 == "config" || $1 == "menuconfig" { in_entry = ($2 == s) }
		in_entry && /^[ \t]+(bool|tristate|int|hex|string|prompt)[ \t]+"/ { found = 1 }
		END { exit !found }' "${files[@]}")
}

# configure LOG: the fragment over tinyconfig.  Requests for symbols of the
# base tree must hold after every patch; the series' own symbols once they
# exist and have a prompt, and every one after the last patch.
configure() {
	local log=$1 sym want got bad=0 now
	{
		"${MAKE[@]}" tinyconfig &&
		"$T/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAG" &&
		"${MAKE[@]}" olddefconfig
	} >>"$log" 2>&1 || return 1
	now=$(defined_syms)
	[ "$step" != 0 ] || BASE_SYMS=$now
	while read -r want; do
		sym=${want%%=*}
		if ! echo "$BASE_SYMS" | grep -qx "$sym"; then
			echo "$now" | grep -qx "$sym" || continue
			[ "$step" = "$LAST" ] || has_prompt "$sym" || continue
		fi
		got=$(grep -E "^$sym=" "$OBJ/.config" || true)
		[ "$got" = "$want" ] || { echo "config: wanted $want, got ${got:-unset}" >>"$log"; bad=1; }
	done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$FRAG")
	return $bad
}

# The files the whole series touches and the objects of its C files.
mapfile -t SERIES_FILES < <(sed -n 's#^+++ b/##p' "${PATCHES[@]}" | LC_ALL=C sort -u)
objects_of() { # OBJDIR FILE...: the .o of each C file built in OBJDIR
	local dir=$1 f
	shift
	for f in "$@"; do
		case $f in *.c) [ -f "$T/$f" ] && [ -f "$dir/${f%.c}.o" ] && echo "${f%.c}.o" ;; esac
	done
	return 0
}
# Objects of an earlier run would look newer than the pristine sources.
for f in "${SERIES_FILES[@]}"; do
	case $f in *.c) rm -f "$OBJ/${f%.c}.o" "$KOBJ/${f%.c}.o" ;; esac
done

# check_objs LOG WLOG OBJDIR MAKE...: W=1 + sparse on the series' objects
# in OBJDIR; prints the diagnostics about touched files, from LOG (the
# normal build) and that run, that the base tree does not have.
check_objs() {
	local log=$1 wlog=$2 dir=$3 objs
	shift 3
	mapfile -t objs < <(objects_of "$dir" "${SERIES_FILES[@]}")
	: >"$wlog"
	if [ ${#objs[@]} -gt 0 ] && ! "$@" W=1 C=1 "${objs[@]}" >"$wlog" 2>&1; then
		echo "W=1 C=1 build failed (log: $wlog)"
		return
	fi
	{ diags "$log" "${touched[@]}"; diags "$wlog" "${touched[@]}"; } |
		LC_ALL=C sort | LC_ALL=C comm -23 - "$C/baseline.txt"
}
nobjs() { objects_of "$1" "${SERIES_FILES[@]}" | wc -l; }

# report_new CHECK START OBJDIR NEW LOGS: the result of a build's W=1 and
# sparse pass, NEW being check_objs' diagnostics the base tree lacks.
report_new() {
	if [ -z "$4" ]; then
		result ok "$1" "$((SECONDS - $2))s; W=1+sparse on $(nobjs "$3") series objects: nothing new"
	else
		result FAIL "$1" "new diagnostics (logs: $5):"
		echo "$4" | sed 's/^/     /' | tee -a "$SUMMARY" >&2
	fi
}

# kunit_run WHAT LOG: kunit.py run on the tree as it is (UML, KASAN), which
# boots the UML kernel of $KOBJ; every test must pass.
kunit_run() {
	local status=0 summary
	say "kunit.py run --kunitconfig=${kunitcfg%/.kunitconfig} (UML) after $1"
	(cd "$T" && nice -n 10 python3 tools/testing/kunit/kunit.py run \
		--kunitconfig="${kunitcfg%/.kunitconfig}" --build_dir="$KOBJ" --jobs="$JOBS" \
		--make_options "CC=ccache gcc") >"$2" 2>&1 || status=$?
	summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$2" | tail -n 1 || true)
	if [ "$status" = 0 ] && echo "$summary" | grep -q 'passed: [1-9]' &&
	   ! echo "$summary" | grep -Eq '(failed|crashed|skipped|errors): [1-9]'; then
		result ok "kunit.py run (UML, KASAN), $1" "${summary#*] }"
	else
		result FAIL "kunit.py run (UML, KASAN), $1" "status $status; ${summary:-no summary} (log: $2)"
	fi
}

kunitcfg=
step=0
for p in "" "${PATCHES[@]}"; do
	if [ -n "$p" ]; then
		step=$((step + 1))
		git -C "$T" am -q "$p" >"$LOGS/am-$step.log" 2>&1 ||
			{ result FAIL "git am $step" "(log: $LOGS/am-$step.log)"; break; }
		name="patch $step"
	else
		name="base tree"
	fi
	log=$LOGS/build-$step.log
	: >"$log"
	t=$SECONDS
	say "x86_64 build after $name"
	if ! configure "$log"; then
		result FAIL "x86_64 config, $name" "(log: $log)"
		continue
	fi
	if ! "${MAKE[@]}" >>"$log" 2>&1; then
		result FAIL "x86_64 build, $name" "(log: $log)"
		continue
	fi
	mapfile -t touched < <(git -C "$T" diff --name-only base HEAD; printf '%s\n' "${SERIES_FILES[@]}")
	if [ "$step" = 0 ]; then
		# The baseline: what W=1 and sparse say about the files the series
		# modifies, before it does.
		: >"$C/baseline.txt"
		new=$(check_objs "$log" "$LOGS/w1-sparse-0.log" "$OBJ" "${MAKE[@]}")
		echo "$new" | sed '/^$/d' >"$C/baseline.txt"
		result ok "x86_64 build, $name" "$((SECONDS - t))s; W=1+sparse baseline: $(wc -l <"$C/baseline.txt") diagnostics in files the series modifies"
		continue
	fi
	new=$(check_objs "$log" "$LOGS/w1-sparse-$step.log" "$OBJ" "${MAKE[@]}")
	report_new "x86_64 build, $name" "$t" "$OBJ" "$new" \
		"$log, $LOGS/w1-sparse-$step.log"

	# UML, KUnit's configuration: the library with its tests.
	kunitcfg=$(git -C "$T" diff --name-only base HEAD | grep '\.kunitconfig$' | head -n 1 || true)
	[ -n "$kunitcfg" ] || continue
	ulog=$LOGS/kunit-build-$step.log
	t=$SECONDS
	say "UML KUnit build after $name"
	if ! (cd "$T" && nice -n 10 python3 tools/testing/kunit/kunit.py build \
		--kunitconfig="${kunitcfg%/.kunitconfig}" --build_dir="$KOBJ" --jobs="$JOBS" \
		--make_options "CC=ccache gcc") >"$ulog" 2>&1; then
		result FAIL "UML KUnit build, $name" "(log: $ulog)"
		continue
	fi
	new=$(check_objs "$ulog" "$LOGS/w1-sparse-um-$step.log" "$KOBJ" "${UMAKE[@]}")
	report_new "UML KUnit build, $name" "$t" "$KOBJ" "$new" \
		"$ulog, $LOGS/w1-sparse-um-$step.log"
	# Each patch's kernel boots: UML runs the KUnit tests the patch has,
	# the core alone before the tuning plane's and the classic steps'
	# patches add their options to .kunitconfig.
	kunit_run "$name" "$LOGS/kunit-$step.log"
done
[ "$step" = "$LAST" ] || die "stopped at patch $step (summary: $SUMMARY)"
# Every C file the series adds must have been compiled somewhere.
for f in $(git -C "$T" diff --name-only --diff-filter=A base HEAD -- '*.c'); do
	[ -f "$OBJ/${f%.c}.o" ] || [ -f "$KOBJ/${f%.c}.o" ] ||
		result FAIL "$f compiled" "no object in either build"
done

# ---- kernel-doc ---------------------------------------------------------------
mapfile -t added < <(git -C "$T" diff --name-only --diff-filter=A base HEAD)
mapfile -t src < <(printf '%s\n' "${added[@]}" | grep -E '\.[ch]$')
out=$(cd "$T" && scripts/kernel-doc -none -Wall "${src[@]}" 2>&1)
documented=$( (cd "$T" && scripts/kernel-doc -rst "${src[@]}" 2>/dev/null) | grep -c '^\.\. c:' || true)
if [ -z "$out" ] && [ "$documented" -gt 0 ]; then
	result ok "kernel-doc -Wall (${#src[@]} files)" "no output; $documented items documented"
else
	echo "$out" >"$LOGS/kernel-doc.log"
	result FAIL "kernel-doc -Wall (${#src[@]} files)" "$(echo "$out" | wc -l) lines (log: $LOGS/kernel-doc.log)"
fi

# ---- rst and ABI ------------------------------------------------------------------
mapfile -t rst < <(git -C "$T" diff --name-only base HEAD -- '*.rst')
abi_dir=$(mktemp -d)
trap 'rm -rf "$abi_dir"' EXIT
mapfile -t abi < <(git -C "$T" diff --name-only --diff-filter=A base HEAD -- 'Documentation/ABI')
for f in "${abi[@]}"; do mkdir -p "$abi_dir/${f%/*}"; cp "$T/$f" "$abi_dir/$f"; done
(cd "$T" && python3 tools/docs/get_abi.py --dir "$abi_dir/Documentation/ABI" rest) \
	>"$abi_dir/abi.rst" 2>"$LOGS/get_abi.log" || echo "get_abi.py failed" >>"$LOGS/get_abi.log"
(cd "$T" && python3 tools/docs/get_abi.py --dir Documentation/ABI validate) 2>&1 |
	grep -F -f <(printf '%s\n' "${abi[@]##*/}") >>"$LOGS/get_abi.log" || true
out=$( (cd "$T" && python3 "$HERE/rstcheck.py" "${rst[@]}") 2>&1;
	python3 "$HERE/rstcheck.py" "$abi_dir/abi.rst" 2>&1; cat "$LOGS/get_abi.log")
if [ -z "$out" ] && grep -q 'zbewalgo' "$abi_dir/abi.rst"; then
	result ok "rst (docutils) and ABI (get_abi.py)" "${#rst[@]} rst files, ${#abi[@]} ABI file(s): clean"
else
	echo "$out" >"$LOGS/rst.log"
	result FAIL "rst (docutils) and ABI (get_abi.py)" "(log: $LOGS/rst.log)"
fi

# ---- KUnit ------------------------------------------------------------------------
# The last patch's run above is the whole series'.
[ -n "$kunitcfg" ] || die "the series adds no .kunitconfig"

# ---- boot ----------------------------------------------------------------------------
if [ "$CHECK_BOOT" = 1 ]; then
	# The x86_64 build above is the suite's test kernel, built from the series.
	status=0
	say "booting the patched kernel under qemu (zbewalgo-tests.sh $PATCH_VERSION)"
	ZBW_KERNEL_OBJ=$OBJ nice -n 10 "$KHERE/zbewalgo-tests.sh" "$PATCH_VERSION" \
		>"$LOGS/boot.log" 2>&1 || status=$?
	line=$(grep -m1 "^== $PATCH_VERSION: " "$LOGS/boot.log" || true)
	if [ "$status" = 0 ]; then
		result ok "boot (qemu, zbewalgo-tests.sh)" "$line"
	else
		result FAIL "boot (qemu, zbewalgo-tests.sh)" "status $status; ${line:-no result} (log: $LOGS/boot.log)"
	fi
else
	result skip "boot (qemu)" "CHECK_BOOT=0"
fi

echo >&2
say "summary ($SUMMARY):"
cat "$SUMMARY" >&2
[ "$failed" = 0 ] || die "check-patches failed"
say "PASS: every check"
