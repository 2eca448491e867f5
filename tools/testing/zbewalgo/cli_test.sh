#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Tests of the zbewalgo command-line tool: whole-file round trips over the
# corpus, single pages, corrupt input and bad options.
#
# usage: cli_test.sh ZBEWALGO_BINARY CORPUS_DIR

set -u
tool=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; }
expect() {	# expect NAME COMMAND...: the command must succeed
	local name=$1; shift
	if "$@" >"$tmp/out" 2>"$tmp/err"; then ok "$name"; else
		not_ok "$name"; sed 's/^/#   /' "$tmp/err"; fi
}
expect_fail() {	# the command must fail with a message, not a crash
	local name=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q "zbewalgo:" "$tmp/err" &&
	   ! grep -q "Sanitizer" "$tmp/err"; then ok "$name"; else
		not_ok "$name (exit $rc)"; sed 's/^/#   /' "$tmp/err"; fi
}

roundtrip() {	# roundtrip FILE [OPTIONS...]
	local f=$1; shift
	"$tool" "$@" compress "$f" "$tmp/c" && "$tool" decompress "$tmp/c" "$tmp/d" &&
		cmp -s "$f" "$tmp/d"
}

while IFS= read -r -d '' f; do
	expect "round trip $(basename "$f")" roundtrip "$f"
done < <(find "$corpus" -type f ! -name '.*' -print0 | sort -z)

# Sizes around page boundaries, including the empty file.
for n in 0 1 4095 4096 4097 12345; do
	head -c "$n" /dev/urandom >"$tmp/in.$n"
	expect "round trip random $n bytes" roundtrip "$tmp/in.$n"
done
head -c 20000 /dev/zero >"$tmp/zero"
expect "round trip zeros" roundtrip "$tmp/zero"
first=$(find "$corpus" -type f ! -name '.*' | sort | head -1)
expect "round trip with -c" roundtrip "$first" -c "bwt-mtf-huffman rle"
expect "round trip with 8 KiB pages" roundtrip "$first" -p 8192
expect "round trip through pipes" \
	bash -c "'$tool' compress - - <'$first' | '$tool' decompress - - | cmp -s - '$first'"

# --stats names every combination and the tries per page.
"$tool" --stats compress "$first" "$tmp/c" 2>"$tmp/stats"
if grep -q "combinations tried per page" "$tmp/stats" &&
   [ "$(grep -c ' wins ' "$tmp/stats")" -eq "$("$tool" table | wc -l)" ]; then
	ok "--stats"; else not_ok "--stats"; cat "$tmp/stats"; fi

# One page through stdin/stdout.
head -c 4096 "$first" >"$tmp/page"
expect "page-compress" bash -c "'$tool' page-compress <'$tmp/page' >'$tmp/pc'"
expect "page round trip" bash -c "'$tool' page-decompress <'$tmp/pc' | cmp -s - '$tmp/page'"
if [ "$(stat -c %s "$tmp/pc")" -lt 4096 ]; then ok "page compressed"; else
	not_ok "page compressed"; fi

# Corrupt input: clear error, non-zero exit, no sanitizer report.
head -c 100 /dev/urandom >"$tmp/garbage"
expect_fail "page-decompress garbage" bash -c "'$tool' page-decompress <'$tmp/garbage'"
head -c 10 "$tmp/pc" >"$tmp/trunc"
expect_fail "page-decompress truncated" bash -c "'$tool' page-decompress <'$tmp/trunc'"
: >"$tmp/empty"
expect_fail "page-decompress empty" bash -c "'$tool' page-decompress <'$tmp/empty'"
"$tool" compress "$first" "$tmp/c"
head -c $(($(stat -c %s "$tmp/c") - 3)) "$tmp/c" >"$tmp/ctrunc"
expect_fail "decompress truncated file" "$tool" decompress "$tmp/ctrunc" "$tmp/d"
expect_fail "decompress non-container" "$tool" decompress "$tmp/garbage" "$tmp/d"
python3 - "$tmp/c" "$tmp/cflip" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[24] ^= 0x02	# first page header: an unknown format version
open(sys.argv[2], 'wb').write(d)
EOF
expect_fail "decompress corrupt page" "$tool" decompress "$tmp/cflip" "$tmp/d"
head -c 5000 /dev/zero >"$tmp/big"
expect_fail "page-compress more than a page" bash -c "'$tool' page-compress <'$tmp/big'"

# Bad options.
expect_fail "unknown step" "$tool" -c "bwt-nosuch" table
expect_fail "eight steps" "$tool" -c "bwt-mtf-rle-jbe-jbe2-huffman-bewalgo-bewalgo2" table
expect_fail "empty table" "$tool" -c "" table
expect_fail "bad page size" "$tool" -p 0 table
expect_fail "missing file" "$tool" compress "$tmp/nonexistent" "$tmp/x"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
