#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# doc-user.sh TOOL TESTDATA GUIDE...: runs the guides' blocks tagged "user"
# (tools/testing/kernel/doc-blocks.py), each as the named check doc-NAME,
# from a directory where build/zbewalgo is TOOL. The guide's variables:
# PID is a process this script starts with float arrays and text in its
# memory, FILES two files of the test data (build/testdata). A block fails when any command in it fails
# or when tune printed no commands to apply.
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
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
