#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the Debian packages a target needs, only when something is
# missing, so `make check` works on a fresh machine and stays quiet on a
# prepared one: one line while it installs, apt's output only when it
# fails.  usage: install-deps.sh PACKAGE...

set -euo pipefail
missing=()
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "missing packages: ${missing[*]}; run as root or install them" >&2
	exit 1
fi
# One line while it works; apt's output only when it fails.
echo "installing ${#missing[@]} Debian package(s): ${missing[*]} (usually under a minute)"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	echo "install-deps: apt-get failed:" >&2
	tail -n 30 "$log" >&2
	exit 1
fi
