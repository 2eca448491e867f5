# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Sourced by the shell tests here: a scratch directory $tmp, removed on
# exit, and ok/not_ok lines ("ok - NAME"), counted for tap_end.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; }

# tap_end: the counts; fails when a check failed.
tap_end() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
