#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel's build without CONFIG_ZBEWALGO_CLASSIC_STEPS, in user space:
# LEAN is the tool built from the core without the classic steps' files
# (make ZBW_LEAN=1), FULL the usual build.  LEAN must
#  - list the classic steps of lib/zbewalgo/core/steps.h as not built;
#  - refuse a table that names one, saying why;
#  - write the same bytes as FULL with the default table and levels 1
#    and 2, and at level 3 use the ten chains of core steps only (those
#    that end in zstd and the number coders);
#  - decode every golden page of the core steps byte-exact and refuse
#    those of the classic steps.
#
# usage: lean_test.sh FULL LEAN FILE...

set -u
full=$1 lean=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"

check() {	# check NAME COMMAND...: the command must succeed
	local name=$1
	shift
	if "$@" 2>"$tmp/err"; then ok "lean: $name"; else
		not_ok "lean: $name"; sed 's/^/#   /' "$tmp/err"; fi
}

classic=$(sed -n 's/^ZBW_STEP([A-Z0-9]*, *\([a-z0-9]*\), *[0-9]*, *classic).*/\1/p' \
	"$here/../../../lib/zbewalgo/core/steps.h")
[ -n "$classic" ] || { echo "lean_test.sh: no classic step in steps.h" >&2; exit 2; }

not_built=$("$lean" steps | sed -n 's/^[0-9]* \([a-z0-9]*\) (not built)$/\1/p')
check "the classic steps, and only they, are not built" \
	[ "$not_built" = "$classic" ]

refused() {	# refused STEP: a table naming STEP fails with the reason
	local rc=0
	rm -f "$tmp/c"
	"$lean" -c "zstd $1-zstd" compress "$tmp/page" "$tmp/c" 2>"$tmp/msg" || rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] &&
		grep -q "CONFIG_ZBEWALGO_CLASSIC_STEPS" "$tmp/msg"
}
head -c 4096 "$1" >"$tmp/page"
for s in $classic; do
	check "a table naming $s is refused" refused "$s"
done

same() {	# same FILE OPTION...: FULL's bytes, and a round trip
	local f=$1
	shift
	# the tool keeps an existing OUT (-f, which older tools lack)
	rm -f "$tmp/full" "$tmp/lean" "$tmp/d"
	"$full" "$@" compress "$f" "$tmp/full" && "$lean" "$@" compress "$f" "$tmp/lean" &&
		cmp -s "$tmp/full" "$tmp/lean" && "$lean" decompress "$tmp/lean" "$tmp/d" &&
		cmp -s "$f" "$tmp/d"
}
level3() {	# level3 FILE: a round trip, with the chains of core steps only
	rm -f "$tmp/c" "$tmp/d"
	"$lean" -l 3 compress "$1" "$tmp/c" && "$lean" decompress "$tmp/c" "$tmp/d" &&
		cmp -s "$1" "$tmp/d"
}
for f in "$@"; do
	n=$(basename "$f")
	check "$n: the default table writes what the full build writes" same "$f"
	check "$n: level 1 writes what the full build writes" same "$f" -l 1
	check "$n: level 2 writes what the full build writes" same "$f" -l 2
	check "$n: level 3 round trip" level3 "$f"
done

core3() {	# level 3's table: FULL's chains that name no classic step
	local want
	want=$("$full" -l 3 table | grep -vwE "$(echo $classic | tr ' ' '|')")
	[ "$("$lean" -l 3 table)" = "$want" ] && [ "$(echo "$want" | wc -l)" = 10 ]
}
check "level 3 is the full build's ten chains of core steps" core3

without=$(echo $classic | tr ' ' ,)
if python3 "$here/golden.py" check --without "$without" "$lean" >"$tmp/golden" 2>&1; then
	ok "lean: golden pages: $(grep -c '^ok' "$tmp/golden") releases, classic steps' pages refused"
else
	not_ok "lean: golden pages"
	sed 's/^/#   /' "$tmp/golden"
fi

tap_end
