#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What zbewalgo tune prints must work as it is pasted: its per-device
# lines (algorithm_params, zramctl, zram-generator), read as their
# programs read them, and its level lines when a preset is as good; a
# warning when the table needs CONFIG_ZBEWALGO_CLASSIC_STEPS, none of
# those steps with --lean; the decompression budget (tune_check.py says
# how each is checked).  And an output it cannot write is an error that
# names the file.  Small searches, quick under the sanitizers.
#
# usage: tune_test.sh ZBEWALGO_BINARY TESTDATA_DIR

set -u
tool=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"

mkdir "$tmp/in"
python3 "$here/gen-data.py" "$tmp/in" 256 float32-smooth csr-cg >/dev/null
floats=("$tmp/in/float32-smooth" "$tmp/in/csr-cg")
text=$data/doc/policy.txt
small=(-n 64 --screen 32 --holdout 32 -L 3 -b 4 -k 4 -r 1)

# tune_run NAME CHECK_OPTIONS -- TUNE_ARGS...: tune, then tune_check.py
tune_run() {
	local name=$1 copts=()
	shift
	while [ "$1" != -- ]; do copts+=("$1"); shift; done
	shift
	if ! "$tool" tune "$@" --json="$tmp/t.json" >"$tmp/t.txt" 2>"$tmp/err"; then
		not_ok "$name: tune"; sed 's/^/#   /' "$tmp/err"; return
	fi
	ok "$name: tune"
	python3 "$here/tune_check.py" "$tool" "$tmp/t.txt" "$tmp/t.json" \
		"${copts[@]}" >"$tmp/check" 2>&1 ||
		grep -q "^not ok - " "$tmp/check" ||
		not_ok "$name: tune_check.py failed"
	while read -r line; do
		case $line in
		"ok - "*) ok "$name: ${line#ok - }" ;;
		"not ok - "*) not_ok "$name: ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done <"$tmp/check"
}

# The defaults: both budgets as fast as the default table.
tune_run "floats" -- "${small[@]}" "${floats[@]}"
# No budget at all: on these floats the search takes classic steps.
tune_run "floats, no budget" --decode-kind none --want-classic -- \
	"${small[@]}" --min-speed 0 --min-dspeed 0 "${floats[@]}"
tune_run "floats, --lean" --lean --decode-kind none -- "${small[@]}" --lean \
	--min-speed 0 --min-dspeed 0 "${floats[@]}"
tune_run "floats, --min-dspeed 0.5" \
	--decode-kind "decompression speed relative to lz4" -- \
	"${small[@]}" --min-dspeed 0.5 "${floats[@]}"
# Text: a preset is as good (timing left out of the choice).
tune_run "text" --decode-kind none --want-level -- "${small[@]}" \
	--min-speed 0 --min-dspeed 0 "$text"

# Outputs it cannot write: the file and the reason, a failing status.
cant_write() {	# cant_write NAME WHAT [TUNE_ARGS...]: stdout to /dev/full if WHAT is stdout
	local name=$1 what=$2 rc=0
	shift 2
	if [ "$what" = stdout ]; then
		"$tool" tune -n 16 --screen 16 --holdout 0 -L 2 -b 2 -k 2 -r 1 "$@" \
			"${floats[0]}" >/dev/full 2>"$tmp/err" || rc=$?
	else
		"$tool" tune -n 16 --screen 16 --holdout 0 -L 2 -b 2 -k 2 -r 1 "$@" \
			"${floats[0]}" >/dev/null 2>"$tmp/err" || rc=$?
	fi
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -qF "$what" "$tmp/err" &&
	   grep -q "No space left on device\|No such file or directory" "$tmp/err"; then
		ok "$name"
	else
		not_ok "$name (exit $rc)"; sed 's/^/#   /' "$tmp/err"
	fi
}
cant_write "tune --json=/dev/full: an error naming the file" /dev/full --json=/dev/full
cant_write "tune --json into a missing directory: an error naming the file" \
	"$tmp/none/t.json" --json="$tmp/none/t.json"
cant_write "tune > /dev/full: an error" stdout
cant_write "tune --json > /dev/full: an error" stdout --json

tap_end
