#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Tests of the zbewalgo command-line tool: whole-file round trips over the
# data files, single pages, corrupt input and bad options.
#
# usage: cli_test.sh ZBEWALGO_BINARY DATA_DIR...
#
# The first file of the first DATA_DIR (sorted; build/testdata/doc/...
# under make) is the text file of the single-file checks.

set -u
tool=$1
shift
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || { echo "usage: cli_test.sh ZBEWALGO_BINARY DATA_DIR..." >&2; exit 2; }
. "$(dirname "$0")/tap.sh"

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
	"$tool" -f "$@" compress "$f" "$tmp/c" && "$tool" -f decompress "$tmp/c" "$tmp/d" &&
		cmp -s "$f" "$tmp/d"
}

while IFS= read -r -d '' f; do
	expect "round trip $(basename "$f")" roundtrip "$f"
done < <(find "${dirs[@]}" -type f ! -name '.*' -print0 | sort -z)

# Sizes around page boundaries, including the empty file.
for n in 0 1 4095 4096 4097 12345; do
	head -c "$n" /dev/urandom >"$tmp/in.$n"
	expect "round trip random $n bytes" roundtrip "$tmp/in.$n"
done
head -c 20000 /dev/zero >"$tmp/zero"
expect "round trip zeros" roundtrip "$tmp/zero"
first=$(find "${dirs[0]}" -type f ! -name '.*' | sort | head -1)
[ -n "$first" ] || { echo "no data files under ${dirs[0]}" >&2; exit 2; }
expect "round trip with -c" roundtrip "$first" -c "bwt-mtf-huffman rle"
expect "round trip with 8 KiB pages" roundtrip "$first" -p 8192
expect "round trip through pipes" \
	bash -c "'$tool' compress - - <'$first' | '$tool' decompress - - | cmp -s - '$first'"

# --stats names every combination and the tries per page.
"$tool" -f --stats compress "$first" "$tmp/c" 2>"$tmp/stats"
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
"$tool" -f compress "$first" "$tmp/c"
head -c $(($(stat -c %s "$tmp/c") - 3)) "$tmp/c" >"$tmp/ctrunc"
rm -f "$tmp/d"
expect_fail "decompress truncated file" "$tool" decompress "$tmp/ctrunc" "$tmp/d"
expect_fail "decompress non-container" "$tool" decompress "$tmp/garbage" "$tmp/d"
# The first page's byte 0 (after the 28-byte header and the page's length
# and crc32c): an unknown page format version, under a page crc made
# right, so that the page decoder itself must refuse it.
python3 - "$tmp/c" "$tmp/cflip" <<'EOF'
import sys
def crc32c(b, crc=0):
    crc ^= 0xffffffff
    for x in b:
        crc ^= x
        for _ in range(8):
            crc = crc >> 1 ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff
d = bytearray(open(sys.argv[1], 'rb').read())
n = int.from_bytes(d[28:32], 'little')
d[36] ^= 0x02
d[32:36] = crc32c(d[36:36 + n], crc32c(d[28:32])).to_bytes(4, 'little')
open(sys.argv[2], 'wb').write(d)
EOF
expect_fail "decompress corrupt page" "$tool" decompress "$tmp/cflip" "$tmp/d"
if grep -q "page 0: corrupt or invalid page" "$tmp/err" && [ ! -e "$tmp/d" ]; then
	ok "decompress corrupt page: named, no output"; else
	not_ok "decompress corrupt page: named, no output"; sed 's/^/#   /' "$tmp/err"; fi
head -c 5000 /dev/zero >"$tmp/big"
expect_fail "page-compress more than a page" bash -c "'$tool' page-compress <'$tmp/big'"

# Bad options.
expect_fail "unknown step" "$tool" -c "bwt-nosuch" table
expect_fail "eight steps" "$tool" -c "bwt-mtf-rle-jbe-jbe2-huffman-bewalgo-bewalgo2" table
expect_fail "empty table" "$tool" -c "" table
expect_fail "bad page size" "$tool" -p 0 table
for l in 0 4 12 x ""; do
	expect_fail "level '$l'" "$tool" -l "$l" table
done

# Levels: level 2 is the default table; each level's table round-trips.
if [ "$("$tool" -l 2 table)" = "$("$tool" table)" ] &&
   [ "$("$tool" -l 1 table)" != "$("$tool" table)" ] &&
   [ "$("$tool" -l 3 table | wc -l)" -gt "$("$tool" table | wc -l)" ]; then
	ok "-l: level 2 is the default, 1 and 3 differ"; else not_ok "-l tables"; fi
for l in 1 3; do
	expect "round trip with -l $l" roundtrip "$first" -l "$l"
done

# steps: ids 1..N with unique names, and each name is a valid one-step table.
"$tool" steps >"$tmp/steps"
if [ -s "$tmp/steps" ] &&
   awk '$1 != NR || NF != 2 { exit 1 }' "$tmp/steps" &&
   [ "$(cut -d' ' -f2 "$tmp/steps" | sort -u | wc -l)" -eq "$(wc -l <"$tmp/steps")" ] &&
   while read -r _ name; do "$tool" -c "$name" table >/dev/null || exit 1; done <"$tmp/steps"; then
	ok "steps: $(wc -l <"$tmp/steps") named steps, each a valid table"; else
	not_ok "steps"; cat "$tmp/steps"; fi
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
    'lzo-rle', 'zstd-1', 'zstd-3', 'zram-zstd-1', 'zram-zstd-3', 'deflate',
    'memcpy']
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
expect_fail "bench empty input" "$tool" bench -r 1 --json=- "$tmp/empty"
if python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' "$tmp/out" &&
   grep -q "nothing measured" "$tmp/err"; then
	ok "bench empty input: empty array, nothing measured"; else
	not_ok "bench empty input: empty array, nothing measured"; fi
expect_fail "bench unknown algorithm" "$tool" bench -a lz5 "$first"
# bench --recompress: two random pages (whole for every algorithm) and a
# smooth float32 field (whole for lz4 and zstd, not for zbewalgo), after
# the same-filled pages of bench.in, which zram keeps without compressing.
python3 -c 'import math, struct, sys
sys.stdout.buffer.write(b"".join(struct.pack("<f", 500 * math.sin(3 + 0.03 * i) +
	250 * math.cos(0.011 * i)) for i in range(1024)))' >"$tmp/float.page"
cat "$tmp/bench.in" "$tmp/float.page" >"$tmp/recomp.in"
expect "bench --recompress" "$tool" bench -r 1 --recompress "$tmp/recomp.in"
# secondary tried recomp huge ...: 2 primaries x 3 zbewalgo variants
if [ "$(grep -cE '^zbewalgo(-1|-3)? +3 +1 +2 .* ok$' "$tmp/out")" -eq 6 ] &&
   [ "$(grep -c '^== .*: 8 pages, 3 same-filled; .* stores 3 whole' "$tmp/out")" -eq 2 ]; then
	ok "bench --recompress: the float page recompressed, the random ones kept"; else
	not_ok "bench --recompress: the float page recompressed, the random ones kept"; cat "$tmp/out"; fi
expect "bench --recompress=lz4 -d -a zbewalgo" "$tool" bench -r 1 -d --recompress=lz4 -a zbewalgo "$tmp/recomp.in"
if [ "$(grep -cE '^zbewalgo +2 +1 +1 .* ok$' "$tmp/out")" -eq 1 ] && [ "$(grep -c '^zbewalgo' "$tmp/out")" -eq 1 ]; then
	ok "bench --recompress -d: duplicate dropped"; else
	not_ok "bench --recompress -d: duplicate dropped"; cat "$tmp/out"; fi
# --recompress-threshold N: a page of words lz4 stores in 1536 to 2047
# bytes, added to bench.in's whole pages (same-filled and random), is one
# more page tried (type=idle threshold=N) and recompressed below N at
# N=1536, and not tried at N=2048.
python3 -c 'import random, sys
r = random.Random(7)
w = "the kernel page zram swap memory float matrix and lz4 zstd is of to in compress".split()
s = ""
while len(s) < 4096:
	s += r.choice(w) + " "
sys.stdout.write(s[:4096])' >"$tmp/words.page"
head -c 20480 "$tmp/bench.in" >"$tmp/recomp-b.in"
cat "$tmp/recomp-b.in" "$tmp/words.page" >"$tmp/recomp-t.in"
# recomp_counts N FILE: "tried recompressed" of zbewalgo behind lz4.
recomp_counts() {
	"$tool" bench -r 1 --recompress=lz4 -a zbewalgo --recompress-threshold "$1" "$2" |
		awk '/^zbewalgo / { print $2, $3 }'
}
for th in 1536 2048; do
	# shellcheck disable=SC2046  # two counts per call, one a word
	set -- $(recomp_counts $th "$tmp/recomp-b.in") $(recomp_counts $th "$tmp/recomp-t.in")
	if [ $# -eq 4 ] && { { [ $th = 1536 ] && [ "$3 $4" = "$(($1 + 1)) $(($2 + 1))" ]; } ||
	   { [ $th = 2048 ] && [ "$3 $4" = "$1 $2" ]; }; }; then
		ok "bench --recompress-threshold $th: the words page tried: $(($3 - $1)), recompressed: $(($4 - $2))"; else
		not_ok "bench --recompress-threshold $th: tried/recompressed without and with the words page: $*"; fi
done
expect_fail "bench --recompress --csv" "$tool" bench --recompress --csv "$tmp/recomp.in"
expect_fail "bench --recompress, secondary not zbewalgo" "$tool" bench --recompress -a lz4 "$tmp/recomp.in"
expect_fail "bench --recompress=memcpy" "$tool" bench --recompress=memcpy "$tmp/recomp.in"
expect_fail "bench --recompress-threshold at the threshold" "$tool" bench --recompress \
	--recompress-threshold 3625 "$tmp/recomp.in"
expect_fail "bench custom without -c" "$tool" bench -a zbewalgo-custom "$first"
expect_fail "bench threshold above page" "$tool" bench -t 5000 "$first"
expect_fail "bench two outputs on stdout" "$tool" bench --csv --json "$first"
# train-dict: a dictionary zram's dict= takes, which bench's zstd-N+dict use
alltest=$(find "${dirs[@]}" -type f ! -name '.*' | sort | head -40)
# shellcheck disable=SC2086  # the file list
if "$tool" train-dict -o "$tmp/d.dict" -s 8192 $alltest >"$tmp/out" 2>"$tmp/err" &&
   [ -s "$tmp/d.dict" ] && [ "$(stat -c %s "$tmp/d.dict")" -le 8192 ] &&
   [ "$(head -c 4 "$tmp/d.dict" | od -An -tx1 | tr -d ' ')" = 37a430ec ]; then
	ok "train-dict: $(cat "$tmp/out")"
else
	not_ok "train-dict"; sed 's/^/#   /' "$tmp/err"
fi
# shellcheck disable=SC2086
if "$tool" bench --csv --dict "$tmp/d.dict" -a zstd-3,zstd-3+dict $alltest >"$tmp/out" 2>"$tmp/err" &&
   [ "$(grep -c '"zstd-3+dict",.*,true,' "$tmp/out")" -gt 0 ] &&
   ! grep -q ',false,' "$tmp/out"; then
	ok "bench --dict: zstd-3+dict round-trips"
else
	not_ok "bench --dict"; sed 's/^/#   /' "$tmp/err" "$tmp/out" | head -5
fi
expect_fail "bench zstd-3+dict without --dict" "$tool" bench -a zstd-3+dict "$first"
: >"$tmp/empty.dict"
expect_fail "bench --dict empty" "$tool" bench --dict "$tmp/empty.dict" "$first"
expect_fail "bench --dict missing" "$tool" bench --dict "$tmp/nosuch.dict" "$first"
expect_fail "train-dict without -o" "$tool" train-dict "$first"
expect_fail "train-dict too few pages" "$tool" train-dict -o "$tmp/x.dict" "$tmp/page"
expect_fail "train-dict missing input" "$tool" train-dict -o "$tmp/x.dict" "$tmp/nosuch"
# --plot without matplotlib: refused up front, naming the package (python -S
# has no site-packages, so it cannot import matplotlib even where installed).
printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' >"$tmp/nompl"
chmod +x "$tmp/nompl"
for sub in bench tune; do
	if ZBEWALGO_PYTHON="$tmp/nompl" "$tool" $sub --plot="$tmp/nompl.png" "$first" \
		>"$tmp/nompl.out" 2>"$tmp/nompl.err"; then
		not_ok "$sub --plot without matplotlib: accepted"
	elif grep -q 'python3-matplotlib' "$tmp/nompl.err" && [ ! -s "$tmp/nompl.out" ] &&
		[ ! -e "$tmp/nompl.png" ]; then
		ok "$sub --plot without matplotlib: refused before any work"
	else
		not_ok "$sub --plot without matplotlib: $(head -c 200 "$tmp/nompl.err")"
	fi
done
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	expect "bench --plot" "$tool" bench -r 1 -a lz4,zstd-1,memcpy \
		--plot="$tmp/b.png" "$first" "$tmp/bench.in"
	if [ "$(head -c 4 "$tmp/b.png" | od -An -c | tr -d ' ')" = '211PNG' ]; then
		ok "bench --plot: a PNG"; else not_ok "bench --plot: a PNG"; fi
else
	echo "# skip bench --plot: no matplotlib (make bench installs it)"
fi


# tune: a small search on generated data (deterministic generators) plus a
# data file, quick enough under the sanitizers.  Only figures that do not
# depend on timing are asserted: the sample, the replay's sizes against the
# engine's, the recommended table (it parses, round-trips, and its ratio
# on the sample is at least the default table's: the default budget, "as
# fast as the default table", and the default bound on chains, as many as
# the default table has, always admit the default table; a smaller -k
# would not, and the timed search could then fall below it).
mkdir "$tmp/tune"
python3 "$(dirname "$0")/gen-data.py" "$tmp/tune" 256 float32-smooth csr-cg >/dev/null
tune_in=("$tmp/tune/float32-smooth" "$tmp/tune/csr-cg" "$first")
tune_opts=(-n 64 --screen 32 --holdout 32 -L 3 -b 4 -r 1)
check_tune() {	# check_tune JSON_FILE PAGES SAMPLE HOLDOUT [BUDGET_KIND]
	python3 - "$@" <<'PYEOF'
import json, sys
path, pages, sample, hold = sys.argv[1], *map(int, sys.argv[2:5])
kind = sys.argv[5] if len(sys.argv) > 5 else 'as fast as the default table'
d = json.load(open(path))
assert (d['pages'], d['sample_pages'], d['holdout_pages']) == (pages, sample, hold), \
    (d['pages'], d['sample_pages'], d['holdout_pages'])
assert d['budget']['kind'] == kind and d['budget']['met'] is True, d['budget']
names = [r['name'] for r in d['results']]
assert names == ['lz4', 'recommended', 'default', 'level=1', 'level=3',
                 'zstd-3'], names
by = {r['name']: r for r in d['results']}
for r in d['results']:
    for part in ('sample', 'holdout'):
        if part == 'holdout' and not hold:
            assert r[part] is None
            continue
        m = r[part]
        assert m['roundtrip_ok'] is True and m['ratio'] >= 1.0, r
        assert m['compress_mibps'] > 0 and m['decompress_mibps'] > 0, r
    if 'model' in r:	# the replay predicts the engine's sizes exactly
        assert abs(r['model']['ratio'] - r['sample']['ratio']) <= \
            1e-5 * r['sample']['ratio'], r
rec, dfl = by['recommended'], by['default']
assert rec['sample']['ratio'] >= dfl['sample']['ratio'] * (1 - 1e-5), (rec, dfl)
assert rec['model']['within_budget'] is True
assert by['lz4']['sample']['compress_vs_lz4'] == 1
want = d['recommendation']
assert want['table'] == rec['table'] and 1 <= rec['chains'] <= dfl['chains']
assert want['commands'] == [
    "echo 'set %s' > /sys/kernel/zbewalgo/combinations" % rec['table'],
    'echo %d > /sys/kernel/zbewalgo/early_abort_size' % rec['early_abort_size'],
    'echo %d > /sys/kernel/zbewalgo/max_output_size' % rec['max_output_size']]
assert d['candidates'] and d['tables'] and d['thresholds']
print(rec['table'])
print(rec['early_abort_size'], rec['max_output_size'])
PYEOF
}
tune_pages=0
for f in "${tune_in[@]}"; do
	tune_pages=$((tune_pages + ($(stat -c %s "$f") + 4095) / 4096))
done
expect "tune" "$tool" tune "${tune_opts[@]}" --json="$tmp/t.json" "${tune_in[@]}"
cp "$tmp/out" "$tmp/t.txt"
if check_tune "$tmp/t.json" "$tune_pages" 64 32 >"$tmp/rec" 2>"$tmp/err"; then
	ok "tune: sample, replay, results, commands"
	tab=$(sed -n 1p "$tmp/rec")
	read -r ea mo < <(sed -n 2p "$tmp/rec")
	expect "tune: recommended table parses" "$tool" -c "$tab" table
	if [ "$(tr '\n' ' ' <"$tmp/out")" = "$tab " ]; then
		ok "tune: table prints as recommended"; else
		not_ok "tune: table prints as recommended"; fi
	for f in "${tune_in[@]}"; do
		expect "tune: round trip $(basename "$f") with the recommendation" \
			roundtrip "$f" -c "$tab" -e "$ea" -m "$mo"
	done
	# bench checks the recommendation with its early_abort_size
	expect "tune: bench -c -e" "$tool" bench -r 1 -a zbewalgo-custom -c "$tab" \
		-e "$ea" --json=- "$tmp/tune/csr-cg"
	if grep -qF "\"params\": \"-c table: ${tab// /;}; early_abort_size $ea\"" "$tmp/out"; then
		ok "tune: bench -e applied"; else not_ok "tune: bench -e applied"; cat "$tmp/out"; fi
	if grep -qF "echo 'set $tab' > /sys/kernel/zbewalgo/combinations" "$tmp/t.txt" &&
	   grep -q "^recommended " "$tmp/t.txt" && grep -q "^default " "$tmp/t.txt"; then
		ok "tune: text report"; else not_ok "tune: text report"; cat "$tmp/t.txt"; fi
else
	not_ok "tune: sample, replay, results, commands"; sed 's/^/#   /' "$tmp/err"
fi
# -d on the bench input: 3 same-filled and 1 repeated page of 7; stdin; no budget
expect "tune -d, stdin, --min-speed 0" bash -c "'$tool' tune ${tune_opts[*]} -d \
	--min-speed 0 --json - <'$tmp/bench.in' >'$tmp/t.json'"
if check_tune "$tmp/t.json" 7 3 0 none >/dev/null 2>"$tmp/err" &&
   python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
assert d["same_filled_dropped"] == 3 and d["duplicates_dropped"] == 1
assert d["inputs"] == ["stdin"]' "$tmp/t.json" 2>>"$tmp/err"; then
	ok "tune -d: same-filled and duplicates dropped"; else
	not_ok "tune -d: same-filled and duplicates dropped"; sed 's/^/#   /' "$tmp/err"; fi
# --pid: a process of our own; needs ptrace access to it
sleep 300 &
sleeper=$!
if "$tool" tune -n 16 --screen 16 --holdout 0 -L 2 -b 2 -k 2 -r 1 \
	--pid "$sleeper" --json="$tmp/t.json" >"$tmp/out" 2>"$tmp/err"; then
	if python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
assert d["inputs"] == ["pid " + sys.argv[2]] and d["sample_pages"] > 0
assert all(r["sample"]["roundtrip_ok"] for r in d["results"])' \
		"$tmp/t.json" "$sleeper"; then
		ok "tune --pid"; else not_ok "tune --pid"; fi
elif grep -q "Permission denied\|Operation not permitted" "$tmp/err"; then
	echo "# skip tune --pid: no ptrace access"
else
	not_ok "tune --pid"; sed 's/^/#   /' "$tmp/err"
fi
kill "$sleeper" 2>/dev/null
wait "$sleeper" 2>/dev/null
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	expect "tune --plot" "$tool" tune -n 16 --screen 16 --holdout 16 -L 2 \
		-b 2 -k 2 -r 1 --plot="$tmp/t.png" "$first"
	if [ "$(head -c 4 "$tmp/t.png" | od -An -c | tr -d ' ')" = '211PNG' ]; then
		ok "tune --plot: a PNG"; else not_ok "tune --plot: a PNG"; fi
else
	echo "# skip tune --plot: no matplotlib (make bench installs it)"
fi
expect_fail "tune without input" "$tool" tune -n 16
expect_fail "tune missing file" "$tool" tune "$tmp/nonexistent"
expect_fail "tune bad number" "$tool" tune --min-speed fast "$first"
expect_fail "tune two budgets" "$tool" tune --min-speed 1 --max-us-per-page 5 "$first"
expect_fail "tune bad pid" "$tool" tune --pid 0 "$first"
expect_fail "tune no such process" "$tool" tune --pid 2147483646
expect_fail "tune only zero pages" bash -c "head -c 8192 /dev/zero | '$tool' tune -d -"

# The kernel's self-test vectors, which kernel-integrate.py copies into
# crypto/testmgr.h: a page format change must show here first.
if python3 "$(dirname "$0")/testvec.py" "$tool" \
	"$(dirname "$0")/../../../crypto/testmgr-zbewalgo.h" >"$tmp/tv" 2>&1; then
	ok "testmgr vectors: $(tail -n 1 "$tmp/tv")"
else
	not_ok "testmgr vectors"; sed 's/^/#   /' "$tmp/tv"
fi

tap_end
