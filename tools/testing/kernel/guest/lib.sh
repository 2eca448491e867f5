# shellcheck shell=dash
# (busybox sh: local is there)
# Sourced first by the guest suites (zbewalgo.sh, dkms.sh): their results
# in KTAP (Documentation/dev-tools/ktap.rst) and the zram helpers they share.
#
# A check is a shell function that returns 0 when it passes, 4 when it
# cannot run here, anything else when it fails, and leaves its details, one
# line, in $DETAIL (pass, skip and flunk set both).  A suite lists its
# checks in a function and runs them with ktap_suite, which prints the plan
# (ktap_plan COUNT) and runs each with ktap_run NAME FUNCTION [ARG...],
# which prints "ok N NAME # DETAIL", "ok N NAME # SKIP DETAIL" or
# "not ok N NAME # DETAIL"; ktap_totals ends the suite.  The host
# (common.sh, ktap_missing) requires one result per planned check, its own
# list of names among them, passed, and no failure.  Anything else goes out
# as a diagnostic line: info TEXT.
KTAP_N=0
KTAP_FAIL=0
KTAP_SKIP=0
DETAIL=

ktap_plan() {
	echo "KTAP version 1"
	echo "1..$1"
}

info() { echo "# $*"; }

pass() { DETAIL=$*; return 0; }
skip() { DETAIL=$*; return 4; }
flunk() { DETAIL=$*; return 1; }

ktap_run() {
	local name=$1 result=ok rc=0
	shift
	DETAIL=
	"$@" || rc=$?
	case $rc in
	0) ;;
	4) DETAIL="SKIP $DETAIL"; KTAP_SKIP=$((KTAP_SKIP + 1)) ;;
	*) result="not ok"; KTAP_FAIL=$((KTAP_FAIL + 1)) ;;
	esac
	KTAP_N=$((KTAP_N + 1))
	# The details follow " # " on the result line: one line of them.
	echo "$result $KTAP_N $name${DETAIL:+ # $(printf '%s' "$DETAIL" | tr '\n' ' ')}"
}

# ktap_suite LIST: the plan, then each check that the function LIST
# prints as "NAME FUNCTION [ARG...]", one a line, in that order.  The
# checks' stdin is /dev/null.
ktap_suite() {
	local name fn args
	"$1" >/tmp/suite
	ktap_plan "$(grep -c . /tmp/suite)"
	while read -r name fn args <&3; do
		# shellcheck disable=SC2086  # the check's arguments
		ktap_run "$name" $fn $args </dev/null
	done 3</tmp/suite
}

ktap_totals() {
	echo "# Totals: pass:$((KTAP_N - KTAP_FAIL - KTAP_SKIP)) fail:$KTAP_FAIL xfail:0 xpass:0 skip:$KTAP_SKIP error:0"
}

# --- zram ------------------------------------------------------------------------
# The kernel's page size: sizes below that are fractions of a page scale with
# it (arm64 guests may have 64 KiB pages); zbwmem's pages stay 4 KiB.
PSZ=$(zbwmem pagesize)

# zram_dev ALGO SIZE [PARAMS]: a fresh zram device, prints its number.
zram_dev() {
	local n
	n=$(cat /sys/class/zram-control/hot_add) || return 1
	echo "$1" >/sys/block/zram$n/comp_algorithm || return 1
	[ -z "${3:-}" ] || echo "$3" >/sys/block/zram$n/algorithm_params || return 1
	echo "$2" >/sys/block/zram$n/disksize || return 1
	echo "$n"
}

zram_del() {
	echo 1 >/sys/block/zram$1/reset && echo "$1" >/sys/class/zram-control/hot_remove
}

# zram_stat N FILE FIELD: field FIELD (1-based) of zramN's FILE (mm_stat,
# bd_stat, io_stat).  bd_stat's counts are in pages here (zram counts 4 KiB
# units, whatever the page size).
zram_stat() {
	local u=1
	[ "$2" = bd_stat ] && u=$((PSZ / 4096))
	awk -v f="$3" -v u=$u '{ print $f / u }' "/sys/block/zram$1/$2"
}

# compressed MM_STAT: its fields 1 and 2 say orig_data_size > compr_data_size > 0.
compressed() {
	# shellcheck disable=SC2086  # the fields
	set -- $1
	[ "$#" -ge 3 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$2" -lt "$1" ]
}

# Lines of /proc/crypto for zbewalgo: "driver(type):selftest ...".
crypto_lines() {
	awk '/^name/ { n = $3 } /^driver/ { d = $3 } /^type/ { t = $3 }
	     /^selftest/ { s = $3 }
	     /^$/ { if (n == "zbewalgo") printf "%s(%s):%s ", d, t, s; n = "" }
	     END { if (n == "zbewalgo") printf "%s(%s):%s ", d, t, s }' /proc/crypto
}

# fill NAME MIB STATFILE...: the verify workload (every page checked after
# it was swapped out), its log in /tmp/NAME.log, its exit status in
# /tmp/NAME.rc.
fill() {
	local name=$1 mib=$2 rc=0
	shift 2
	zbwmem fill "$mib" 2 1 "$@" >/tmp/$name.log 2>&1 || rc=$?
	echo "$rc" >/tmp/$name.rc
	cat /tmp/$name.log
}

# verified NAME (a check): fill NAME found every page as it wrote it.
verified() {
	local v rc
	rc=$(cat /tmp/$1.rc 2>/dev/null)
	v=$(grep '^zbwmem: verified=' /tmp/$1.log 2>/dev/null)
	[ "$rc" = 0 ] && echo "$v" | grep -q ' mismatched=0 ' && pass "${v#zbwmem: }" ||
		flunk "exit ${rc:-none}: ${v:-no result}"
}

# filled_stat NAME FILE: the last value fill NAME saw in FILE (a path).
filled_stat() {
	grep "stat $2: " /tmp/$1.log | tail -n 1 | sed 's/.*: //'
}
