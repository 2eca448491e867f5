#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the Debian packages a target needs, only when something is
# missing, so that every entry point works on a fresh machine and stays
# quiet on a prepared one: one line while it installs, apt's and dpkg's
# output in a log that is shown only when it fails.  Not root and
# something missing: one line naming the packages, status 1.
# usage: install-deps.sh PACKAGE...
# ZBW_DEPS_LOG: where apt's output goes (default: a temporary file,
# removed on success).

set -euo pipefail
missing=()
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "missing Debian packages: ${missing[*]} (as root: make deps, or apt-get install ${missing[*]})" >&2
	exit 1
fi
echo "installing ${#missing[@]} Debian package(s): ${missing[*]} (usually under a minute)" >&2
export DEBIAN_FRONTEND=noninteractive
log=${ZBW_DEPS_LOG:-$(mktemp /tmp/install-deps-XXXXXX.log)}
# Others may be installing too (parallel make, other jobs): wait for
# dpkg's lock instead of failing on it.
O=(-qq -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0)
inst() { apt-get "${O[@]}" install -y --no-install-recommends "${missing[@]}"; }
# Without package lists (a fresh image) or with stale ones: update, then
# try again.
if ! { inst || { apt-get "${O[@]}" update && inst; }; } >"$log" 2>&1; then
	echo "install-deps: apt-get failed (log: $log):" >&2
	tail -n 30 "$log" >&2
	exit 1
fi
[ -n "${ZBW_DEPS_LOG:-}" ] || rm -f "$log"
