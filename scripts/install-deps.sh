#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs the Debian packages a target needs, only when something is
# missing, so `make check` works on a fresh machine and stays quiet on a
# prepared one.  usage: install-deps.sh PACKAGE...

set -euo pipefail
missing=()
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "missing packages: ${missing[*]}; run as root or install them" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
