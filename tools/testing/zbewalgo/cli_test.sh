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

# bench: figures that do not depend on timing (no timed assertions).
# Pages: 2 zero, 1 filled with one repeated word, a random page twice, a
# text page, and a 100-byte tail that is zero-padded to a page.
{
	head -c 8192 /dev/zero
	printf '\x01\x02\x03\x04\x05\x06\x07\x08%.0s' $(seq 512)
	head -c 4096 "$tmp/in.4096"
	head -c 4096 "$tmp/in.4096"
	head -c 4096 "$first"
	head -c 100 "$first"
} >"$tmp/bench.in"
check_bench() {	# check_bench JSON_FILE EXPECTED_PAGES SAME DUPS [ALGOS]
	python3 - "$@" <<'PYEOF'
import json, math, sys
path, pages, same, dups = sys.argv[1], *map(int, sys.argv[2:5])
want = sys.argv[5].split(',') if len(sys.argv) > 5 else [
    'zbewalgo', 'zbewalgo-1', 'zbewalgo-3', 'lz4', 'lz4hc-9', 'lzo1x-1',
    'lzo-rle', 'zstd-1', 'zstd-3', 'deflate', 'memcpy']
keys = ['file', 'algorithm', 'pages', 'ratio_zram', 'ratio_plain',
        'incompressible_pct', 'compress_mibps', 'decompress_mibps',
        'compress_vs_lz4', 'decompress_vs_lz4', 'roundtrip_ok',
        'eff_compress_mibps', 'eff_decompress_mibps', 'backing_bytes']
recs = json.load(open(path))
assert isinstance(recs, list), 'not an array'
assert [r['algorithm'] for r in recs] == want, [r['algorithm'] for r in recs]
for r in recs:
    for k in keys:
        assert k in r, 'missing key %s' % k
    assert r['roundtrip_ok'] is True, r
    assert r['pages'] == pages, (r['pages'], pages)
    assert r['same_filled_dropped'] == same and r['duplicates_dropped'] == dups, r
    assert r['bytes'] == pages * 4096
    assert r['ratio_zram'] >= 1.0 and r['ratio_plain'] > 0
    # zram's rule: a stored page counts as 4096 bytes, the rest as produced
    assert r['zram_bytes'] <= r['bytes']
    assert abs(r['ratio_zram'] - r['bytes'] / r['zram_bytes']) < 1e-4 * r['ratio_zram']
    assert 0 <= r['incompressible_pct'] <= 100
    for k in ('compress_mibps', 'decompress_mibps', 'eff_compress_mibps',
              'eff_decompress_mibps'):
        assert r[k] is None or r[k] > 0, (k, r[k])
by = {r['algorithm']: r for r in recs}
if 'lz4' in by:
    lz = by['lz4']
    assert lz['compress_vs_lz4'] == 1 and lz['decompress_vs_lz4'] == 1
m = by['memcpy']
assert m['ratio_zram'] == 1 and m['ratio_plain'] == 1
assert m['incompressible_pct'] == 100 and m['backing_bytes'] == m['bytes']
# the best ratio sets the memory limit: it only spills incompressible pages
best = max(recs, key=lambda r: r['ratio_zram'])
stored = best['incompressible_pct'] / 100 * best['bytes']
assert abs(best['backing_bytes'] - stored) <= 1, (best['backing_bytes'], stored)
PYEOF
}
expect "bench --json" "$tool" bench -r 1 --json="$tmp/b.json" "$tmp/bench.in"
expect "bench --json: records, keys, round trips" check_bench "$tmp/b.json" 7 0 0
expect "bench --drop-same" "$tool" bench -r 1 -d --json="$tmp/b.json" "$tmp/bench.in"
expect "bench --drop-same: 3 same-filled, 1 duplicate" check_bench "$tmp/b.json" 3 3 1
expect "bench -c, -a, stdin" bash -c "'$tool' bench -r 1 -c 'bitshuffle4-rle' \
	-a zbewalgo-custom,lz4,memcpy --json - <'$tmp/bench.in' >'$tmp/b.json'"
expect "bench -c, -a, stdin: records" \
	check_bench "$tmp/b.json" 7 0 0 zbewalgo-custom,lz4,memcpy
if grep -q '"file": "stdin"' "$tmp/b.json"; then ok "bench stdin named"; else
	not_ok "bench stdin named"; fi
expect "bench --csv" "$tool" bench -r 1 -a lz4,memcpy --csv "$first" "$tmp/bench.in"
if [ "$(wc -l <"$tmp/out")" -eq 5 ] &&
   head -1 "$tmp/out" | grep -q '^file,algorithm,pages,.*,roundtrip_ok,'; then
	ok "bench --csv: header and 4 records"; else
	not_ok "bench --csv: header and 4 records"; cat "$tmp/out"; fi
expect "bench table" "$tool" bench -r 1 -a zbewalgo,lz4,memcpy "$first" "$tmp/bench.in"
if grep -q '^== all 2 files' "$tmp/out" && [ "$(grep -c ' ok$' "$tmp/out")" -eq 9 ]; then
	ok "bench table: per file and summary"; else
	not_ok "bench table: per file and summary"; cat "$tmp/out"; fi
: >"$tmp/empty"
expect "bench empty input" "$tool" bench -r 1 --json=- "$tmp/empty"
if python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' "$tmp/out"; then
	ok "bench empty input: empty array"; else not_ok "bench empty input: empty array"; fi
expect_fail "bench unknown algorithm" "$tool" bench -a lz5 "$first"
expect_fail "bench custom without -c" "$tool" bench -a zbewalgo-custom "$first"
expect_fail "bench threshold above page" "$tool" bench -t 5000 "$first"
expect_fail "bench two outputs on stdout" "$tool" bench --csv --json "$first"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	expect "bench --plot" "$tool" bench -r 1 -a lz4,zstd-1,memcpy \
		--plot="$tmp/b.png" "$first" "$tmp/bench.in"
	if [ "$(head -c 4 "$tmp/b.png" | od -An -c | tr -d ' ')" = '211PNG' ]; then
		ok "bench --plot: a PNG"; else not_ok "bench --plot: a PNG"; fi
else
	echo "# skip bench --plot: no matplotlib (make bench installs it)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
