#!/bin/bash
# stack.sh [ARCH...] (make check-stack): the stack frames of zbewalgo's
# kernel code, measured the kernel's way, for each ARCH (x86_64, arm64;
# default both).  In a copy of Debian's linux-source-$ZBW_STACK_VERSION
# (default 7.2) with zbewalgo added by scripts/kernel-integrate.py, the
# arch's defconfig plus config/stack.config (the library, crypto glue and
# zram backend; -O2 and the strong stack protector, as distributions
# build) is prepared, and only lib/zbewalgo, crypto/zbewalgo.o and zram's
# backend are compiled, with gcc's -fcallgraph-info=su (without ccache,
# whose hits would not write the call graphs).  Then
#   objdump -d OBJ | scripts/checkstack.pl ARCH 0
# lists every function's frame, and stack-path.py adds up the frames along
# the deepest call chain (function pointers: every step's coder).
# Fails when a function's frame exceeds $ZBW_STACK_BOUND bytes (default
# 512) on any ARCH, or the deepest chain exceeds $ZBW_STACK_PATH_BOUND
# (default 1024).  With ZBW_STACK_KASAN=1 the config also has KASAN
# (generic, stack instrumented): the figures are printed, not bounded.
# Trees, objects and reports: $ZBW_CACHE/stack/VERSION-ARCH[-kasan];
# the reports are copied to build/kernel-logs/stack-VERSION-ARCH.txt.
set -euo pipefail
. "$(dirname "$0")/common.sh"

V=${ZBW_STACK_VERSION:-7.2}
BOUND=${ZBW_STACK_BOUND:-512}
PATH_BOUND=${ZBW_STACK_PATH_BOUND:-1024}
KASAN=${ZBW_STACK_KASAN:-0}
check_version "$V"
[ $# -gt 0 ] || set -- x86_64 arm64
for a in "$@"; do
	case $a in
	x86_64 | arm64) ;;
	*) die "unknown arch '$a' (x86_64 or arm64)" ;;
	esac
done
"$HERE/fetch.sh" "$V"
SRC=$CACHE/src/linux-$V
LOGS=$REPO/build/kernel-logs
mkdir -p "$LOGS"

failed=
for arch in "$@"; do
	cross=
	if [ "$arch" = arm64 ]; then
		"$REPO/scripts/install-deps.sh" gcc-aarch64-linux-gnu
		cross=aarch64-linux-gnu-
	fi
	tag=$V-$arch
	[ "$KASAN" = 0 ] || tag=$tag-kasan
	K=$CACHE/stack/$tag
	mkdir -p "$K"

	integrated_copy "$SRC" "$K"

	frag=$K/fragment.config
	cat "$HERE/config/stack.config" >"$frag"
	[ "$KASAN" = 0 ] || printf 'CONFIG_KASAN=y\nCONFIG_KASAN_GENERIC=y\nCONFIG_KASAN_STACK=y\n' >>"$frag"
	MAKE=(nice -n 10 make -C "$K/src" O="$K/obj" ARCH="$arch" CROSS_COMPILE="$cross"
	      -j"${ZBW_JOBS:-2}")
	LOG=$K/build.log
	: >"$LOG"
	run() { "$@" >>"$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "failed: $* (log: $LOG)"; }; }
	if ! cmp -s "$frag" "$K/obj/fragment.applied" 2>/dev/null || [ ! -f "$K/obj/.config" ]; then
		say "$arch: defconfig + $(basename "$frag") in $K/obj"
		mkdir -p "$K/obj"
		run "${MAKE[@]}" defconfig
		run "$K/src/scripts/kconfig/merge_config.sh" -m -O "$K/obj" "$K/obj/.config" "$frag"
		run "${MAKE[@]}" olddefconfig
		bad=
		while read -r want; do
			got=$(grep -E "^${want%%=*}=" "$K/obj/.config" || true)
			[ "$got" = "$want" ] || bad="$bad wanted $want, got ${got:-unset};"
		done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$frag")
		[ -z "$bad" ] || die "$arch config:$bad (log: $LOG)"
		cp "$frag" "$K/obj/fragment.applied"
	fi
	say "$arch: prepare, then lib/zbewalgo, crypto/zbewalgo.o, zram's backend (log: $LOG)"
	run "${MAKE[@]}" prepare
	objs=(lib/zbewalgo/ crypto/zbewalgo.o drivers/block/zram/backend_zbewalgo.o)
	# The call graph comes with the objects: rebuild them all for it (the
	# library's: its directory's, core/'s, classic/'s and tuning/'s).
	rm -f "$K"/obj/lib/zbewalgo/{,core/,classic/,tuning/}*.{ci,o} \
		"$K"/obj/crypto/zbewalgo.{o,ci} "$K"/obj/drivers/block/zram/backend_zbewalgo.{o,ci}
	run "${MAKE[@]}" KCFLAGS=-fcallgraph-info=su "${objs[@]}"

	files=()
	for f in "$K"/obj/lib/zbewalgo/{,core/,classic/,tuning/}*.o "$K/obj/crypto/zbewalgo.o" \
		 "$K/obj/drivers/block/zram/backend_zbewalgo.o"; do
		# the module's objects, not the module linked from them
		[ "${f##*/}" = libzbewalgo.o ] || files+=("${f#"$K"/obj/}")
	done
	report=$K/stack.txt
	{
		echo "# $arch, Linux $V ($(cat "$SRC.version")), $("${cross}gcc" --version | sed -n 1p)"
		echo "# objdump -d OBJ | scripts/checkstack.pl $arch 0: bytes, function, object"
		for f in "${files[@]}"; do
			"${cross}objdump" -d "$K/obj/$f" | perl "$K/src/scripts/checkstack.pl" "$arch" 0 |
				sed -E "s#^0x[0-9a-f]+ ([^ ]+) \[[^]]*\]:[[:space:]]*([0-9]+)\$#\2 \1 $f#"
		done | sort -k1,1nr -k2,2
		echo "# gcc -fcallgraph-info=su: each frame, the deepest chains (stack-path.py)"
	} >"$report.frames"
	# shellcheck disable=SC2046  # one argument per call graph file
	python3 "$HERE/stack-path.py" --src "$K/obj" $(for f in "${files[@]}"; do echo "$K/obj/${f%.o}.ci"; done) \
		>"$report.path" || die "$arch: stack-path.py failed"
	cat "$report.frames" "$report.path" >"$report"
	cp "$report" "$LOGS/stack-$tag.txt"
	# One process each: under pipefail, "grep | head" fails when grep
	# gets SIGPIPE on a long report.
	worst=$(awk '!/^#/ { print $1, $2; exit }' "$report.frames")
	gworst=$(awk '$1 == "frame" { print $2, $3; exit }' "$report.path")
	deep=$(sed -n 's/^deepest: \([0-9]*\) bytes.*/\1/p' "$report.path")
	say "$arch: largest frame: checkstack ${worst:-none}, gcc ${gworst:-none}; deepest chain ${deep:-?} bytes (report: $LOGS/stack-$tag.txt)"
	[ "$KASAN" = 0 ] || continue
	over=$({ grep -v '^#' "$report.frames" | sed 's/^/checkstack: /'
		 sed -n 's/^frame *\([0-9]*\) \(.*\)/gcc: \1 \2/p' "$report.path"; } |
	       awk -v b="$BOUND" '$2 > b' || true)
	bad=
	if [ -n "$over" ]; then
		say "$arch: FAIL: frames above $BOUND bytes:"
		awk '{ print "    " $0 }' <<<"$over" >&2
		bad=1
	fi
	if [ -z "$deep" ] || [ "$deep" -gt "$PATH_BOUND" ]; then
		say "$arch: FAIL: deepest chain ${deep:-unknown} bytes, bound $PATH_BOUND"
		bad=1
	fi
	[ -z "$bad" ] || failed="$failed $arch"
done
[ -z "$failed" ] || die "stack check failed:$failed"
if [ "$KASAN" = 0 ]; then
	say "PASS: $*: every frame at most $BOUND bytes, every chain at most $PATH_BOUND"
else
	say "done: $* with KASAN (figures only, no bounds)"
fi
