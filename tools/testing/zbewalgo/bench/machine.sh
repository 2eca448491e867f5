# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The note of the machine at the head of every bench result, sourced by
# run.sh (make bench) and arm64.sh (make bench-arm64).  The sourcing script
# sets $here (this directory) and $out (the results directory, left out of
# the tree's "-dirty" check: the run itself rewrites it); CC and CFLAGS name
# the compiler, and $libraries, when set, replaces the host's library
# packages (a cross build links others).
# shellcheck disable=SC2154  # $here and $out: the sourcing script's

# Commit of the code measured; "-dirty" for changes outside the results,
# which the run itself rewrites.  render.py compares it with HEAD.
tree_id() {
	python3 "$here/render.py" --repo "$here/../../../.." tree-id "$out" 2>/dev/null ||
		echo unknown
}

machine() {
	local cpu
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	[ -n "$cpu" ] || cpu=$(uname -m)
	echo "# date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "# cpu:       $cpu, $(nproc) online, $(sed -n 's/^cpu MHz[[:space:]]*: //p' /proc/cpuinfo | head -1) MHz"
	echo "# memory:    $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "# kernel:    $(uname -srm)"
	# shellcheck source=/dev/null
	echo "# os:        $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
	echo "# compiler:  $(${CC:-cc} --version | head -1), CFLAGS ${CFLAGS:--O2 -g}"
	echo "# libraries: ${libraries:-$(dpkg-query -W -f='${Package} ${Version}, ' liblz4-1 libzstd1 liblzo2-2 zlib1g 2>/dev/null | sed 's/, $//')}"
	echo "# tree:      $(tree_id)"
	echo "# code:      $(python3 "$here/render.py" --repo "$here/../../../.." code-id)"
	echo "# load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) when the run $1"
}
