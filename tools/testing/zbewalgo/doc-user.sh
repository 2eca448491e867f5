#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# doc-user.sh TOOL TESTDATA GUIDE...: runs the guides' blocks tagged "user"
# (tools/testing/kernel/doc-blocks.py), each as the named check doc-NAME,
# from a directory where build/zbewalgo is TOOL. The guide's variables:
# PID is a process this script starts with float arrays and text in its
# memory, FILES two files of the test data (build/testdata). A block fails
# when any command in it fails or when tune printed no commands to apply.
#
# Then every systemd unit file the guides show, whatever its place, is
# checked by systemd-analyze verify (the check doc-verify-NAME) as the
# machine's systemd reads it with its own units: an ordering cycle, an
# unknown key or a command that is not there fails it.  Verify exits 0 on
# an ordering cycle, so any line it prints fails the check.  The guides'
# other files are laid out under a scratch root and the units point
# there, so that an ExecStart of a script the guide writes finds it
# (executable when it is in a bin or sbin directory, as the guides make
# them).
set -euo pipefail
TOOL=$(realpath "${1:?usage: doc-user.sh TOOL TESTDATA GUIDE...}")
DATA=$(realpath "${2:?}")
shift 2
[ $# -gt 0 ] || { echo "usage: doc-user.sh TOOL TESTDATA GUIDE..." >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

python3 "$HERE/../kernel/doc-blocks.py" extract user "$tmp/blocks" "$@"
mkdir -p "$tmp/src/build"
ln -s "$TOOL" "$tmp/src/build/zbewalgo"

# The workload: about 16 MiB of smooth floats and text, then it waits.
python3 -c '
import array, math, sys, time
f = array.array("f", (math.sin(i / 500.0) * 100 for i in range(2 << 20)))
t = (open(sys.argv[1], "rb").read() * 4)
sys.stdout.write("ready\n"); sys.stdout.flush()
time.sleep(600)' "$DATA/doc/policy.txt" >"$tmp/ready" &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/ready" ] && break; sleep 0.2; done
[ -s "$tmp/ready" ] || { echo "doc-user: the workload did not start" >&2; exit 1; }
export PID=$pid FILES="$DATA/doc/policy.txt $DATA/elf/libgmp.so.10.4.1"

passed=0 failed=0
for f in "$tmp"/blocks/*.sh; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .sh)
	name=doc-${b#*-}
	vars=
	[ ! -e "${f%.sh}.vars" ] || vars=$(cat "${f%.sh}.vars")
	for v in $vars; do echo "# $name: $v=${!v} (the guide's variable)"; done
	if (cd "$tmp/src" && bash -e "$f") >"$tmp/out" 2>&1 &&
		grep -q "^  echo 'set .*/sys/kernel/zbewalgo/combinations" "$tmp/out"; then
		passed=$((passed + 1)); echo "ok - $name"
	else
		failed=$((failed + 1)); echo "not ok - $name"; tail -n 20 "$tmp/out"
	fi
done
[ $((passed + failed)) -gt 0 ] || { echo "doc-user: no block tagged user in $*"; exit 1; }

command -v systemd-analyze >/dev/null ||
	{ echo "doc-user: no systemd-analyze (Debian package systemd)" >&2; exit 1; }
python3 "$HERE/../kernel/doc-blocks.py" extract all "$tmp/all" "$@"
root=$tmp/root
mkdir -p "$root" "$tmp/units"
subst=()
for f in "$tmp"/all/*.file; do
	[ -e "$f" ] || continue
	p=$(cat "${f%.file}.path")
	mkdir -p "$root${p%/*}"
	cp "$f" "$root$p"
	case $p in */bin/*|*/sbin/*) chmod 755 "$root$p" ;; esac
	subst+=(-e "s|$p\b|$root$p|g")
done
units=0
for f in "$tmp"/all/*.file; do
	[ -e "$f" ] || continue
	p=$(cat "${f%.file}.path")
	case $p in
	*.service|*.socket|*.timer|*.path|*.mount|*.automount|*.swap|*.target|*.slice) ;;
	*) continue ;;
	esac
	units=$((units + 1))
	u=$tmp/units/${p##*/}
	sed "${subst[@]}" "$f" >"$u"
done
for u in "$tmp"/units/*; do
	[ -e "$u" ] || continue
	name=doc-verify-${u##*/}
	rc=0
	(cd "$tmp/units" && systemd-analyze verify "$u") >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/out" ]; then
		passed=$((passed + 1)); echo "ok - $name: systemd-analyze verify"
	else
		failed=$((failed + 1)); echo "not ok - $name: systemd-analyze verify (exit $rc)"
		sed "s|$root||g; s/^/#   /" "$tmp/out"
	fi
done
[ "$units" -gt 0 ] || { echo "doc-user: no unit file in $*"; exit 1; }
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
