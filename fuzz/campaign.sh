#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# AFL++ campaign: usage campaign.sh SECONDS JOBS HARNESS...
#
# Runs the harnesses one after another, each for SECONDS with JOBS
# afl-fuzz instances (-M main plus JOBS-1 -S secondaries), under nice 19.
# Resumes build/out/<h> when it exists (AFL_AUTORESUME), otherwise starts
# from corpus/<h>.  Keeps fuzzing after a crash or hang (AFL++ keeps
# unique ones) and exits non-zero at the end if there were any, or if an
# afl-fuzz ran nothing; it refuses to start without afl-fuzz or a harness
# binary (make fuzz installs and builds both).  Appends
# one line per harness to build/campaign.log:
# wall and CPU seconds, execs, execs/s, edges, crashes, hangs.
set -uo pipefail
cd "$(dirname "$0")"
secs=$1 jobs=$2
# FUZZ_BIN_DIR: run other binaries (e.g. a build with a candidate fix)
# on the same corpus and state.
bin=${FUZZ_BIN_DIR:-build/afl}
shift 2
export AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_NO_UI=1 AFL_AUTORESUME=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_IMPORT_FIRST=1
export AFL_CMPLOG_ONLY_NEW=1
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:malloc_context_size=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1
command -v afl-fuzz >/dev/null ||
	{ echo "campaign.sh: no afl-fuzz (make fuzz installs afl++)" >&2; exit 2; }
for h in "$@"; do
	[ -x "$bin/$h" ] ||
		{ echo "campaign.sh: no $bin/$h (make -C fuzz afl builds it)" >&2; exit 2; }
done
[ -f build/zbewalgo.dict ] ||
	{ echo "campaign.sh: no build/zbewalgo.dict (make -C fuzz afl writes it)" >&2; exit 2; }
mkdir -p build/out
status=0

stat_of() { sed -n "s/^$2 *: *//p" "$1/fuzzer_stats" 2>/dev/null | head -1; }

for h in "$@"; do
	timeout=1000+
	[ "$h" = dst-too-small ] && timeout=5000+
	out=build/out/$h
	log=build/out/$h.log
	echo "== $h: ${secs}s x $jobs job(s), $(date -u +%FT%TZ)"
	start=$(date +%s)
	cpu=$(
		for j in $(seq 1 "$jobs"); do
			role="-S s$j"
			[ "$j" = 1 ] && role="-M main"
			timeout -k 10 $((secs + 300)) nice -n 19 afl-fuzz \
				-i "corpus/$h" -o "$out" $role -V "$secs" \
				-t "$timeout" -x build/zbewalgo.dict \
				-- "$bin/$h" >>"$log.$j" 2>&1 &
		done
		wait
		# User+system CPU of all instances and their targets (a
		# builtin in a pipeline would run in a child: use a file).
		times >"$out.times"
		awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/);
			printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' \
			"$out.times"
	)
	wall=$(( $(date +%s) - start ))
	execs=0 edges=0 crashes=0 hangs=0 eps=0 cvg=
	for d in "$out"/*/; do
		[ -f "$d/fuzzer_stats" ] || continue
		execs=$((execs + $(stat_of "$d" execs_done)))
		crashes=$((crashes + $(stat_of "$d" saved_crashes)))
		hangs=$((hangs + $(stat_of "$d" saved_hangs)))
		eps=$(awk -v a="$eps" -v b="$(stat_of "$d" execs_per_sec)" \
			'BEGIN { printf "%.0f", a + b }')
		e=$(stat_of "$d" edges_found)
		[ "$e" -gt "$edges" ] && edges=$e && cvg=$(stat_of "$d" bitmap_cvg)
	done
	line=$(printf '%s %-16s wall %5ss cpu %5ss execs %10s (cumulative) execs/s %6s edges %5s (%s) crashes %s hangs %s' \
		"$(date -u +%FT%TZ)" "$h" "$wall" "$cpu" "$execs" "$eps" \
		"$edges" "$cvg" "$crashes" "$hangs")
	echo "$line" | tee -a build/campaign.log
	if [ "$execs" = 0 ]; then
		echo "$h: afl-fuzz ran nothing (see $log.*)" >&2
		status=1
	fi
	if [ "$crashes" != 0 ] || [ "$hangs" != 0 ]; then
		echo "$h: findings in $out/*/crashes and $out/*/hangs" >&2
		status=1
	fi
done
exit $status
