#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every committed result measured again (`make results`), as a change of
# lib/zbewalgo needs: each results file names the code it measured
# (render.py code-id), and make docs and the cover letter refuse results
# of other code.  The steps, in this order:
#
#   capture  the real programs' swap, when $ZBW_CACHE holds none: make
#            realprog without replays or live runs, twice, so that the
#            dictionaries of the +dict configurations train on an earlier
#            capture than the pages they compress
#   replay   make realprog-replay of every configuration, zbewalgo+tune
#            and zbewalgo+classic; its tables go to the results
#   anchors  make anchors        dict     make bench-dict
#   kernel   make bench-kernel   numdec   make numdec
#   worst    make worst          bench    make bench (it renders the
#                                         documents' figures, so last)
#
# RESULTS_STEPS (words, default all of them) picks some, still in this
# order.  The steps run one after the other: their speeds are ratios
# within one run, which a second job on the machine would move.  The live
# runs of make realprog (results/realprog.{txt,csv}, hours under TCG) are
# not among them.  Each step's output goes to $RESULTS_LOG/STEP.log
# (default build/results), and a line per step with its time to stdout.
#
# usage: results.sh

set -euo pipefail
cd "$(dirname "$0")/../../../.."
cache=${ZBW_CACHE:-/var/cache/zbewalgo}
out=tools/testing/zbewalgo/bench/results
log=${RESULTS_LOG:-build/results}
all='capture replay anchors dict kernel numdec worst bench'
steps=${RESULTS_STEPS:-$all}
for s in ${steps//,/ }; do
	case " $all " in *" $s "*) ;; *)
		echo "results: unknown step '$s' (steps: $all)" >&2; exit 2 ;;
	esac
done
mkdir -p "$log"

want() { case " ${steps//,/ } " in *" $1 "*) return 0 ;; esac; return 1; }

step() {	# step NAME COMMAND...: runs it, its output to the log
	local name=$1 t0=$SECONDS
	shift
	echo "results: $name: $* (log: $log/$name.log)"
	if ! "$@" >"$log/$name.log" 2>&1; then
		tail -n 20 "$log/$name.log" >&2
		echo "results: $name failed after $((SECONDS - t0)) s" >&2
		exit 1
	fi
	echo "results: $name took $((SECONDS - t0)) s"
}

if want capture; then
	if compgen -G "$cache/swap-logs/*.log" >/dev/null; then
		echo "results: capture: the swap logs in $cache/swap-logs are kept"
	else
		step capture-1 env ZBW_REPLAY= ZBW_CONFIGS= make realprog
		step capture-2 env ZBW_REPLAY= ZBW_CONFIGS= make realprog
	fi
fi
if want replay; then
	step replay env ZBW_REPLAY=all,zbewalgo+tune,zbewalgo+classic \
		make realprog-replay
	for f in realprog-replay.txt realprog-replay.csv realprog-classes.txt \
		 realprog-optional.txt realprog-optional.csv; do
		cp "build/kernel-bench/$f" "$out/$f"
	done
fi
! want anchors || step anchors make anchors
! want dict || step dict make bench-dict
! want kernel || step kernel make bench-kernel
! want numdec || step numdec make numdec
! want worst || step worst make worst
! want bench || step bench make bench
echo "results: done; git status $out shows what changed"
