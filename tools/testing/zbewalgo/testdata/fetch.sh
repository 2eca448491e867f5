#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The real files of the tests and the benchmark, from Debian packages
# pinned in ./manifest (see its header).
#
# usage: fetch.sh OUTDIR      download what the cache lacks, check each
#                             .deb's size and sha256, unpack the listed
#                             files into OUTDIR (replaced as a whole)
#        fetch.sh --refresh   rewrite the manifest's versions, sizes and
#                             sha256 with the apt sources' candidates
#
# The .deb files are kept in ${ZBW_CACHE:-/var/cache/zbewalgo}/testdata
# and never installed.  OUTDIR/.stamp holds the manifest's sha256: a second
# run with the same manifest does nothing.

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/manifest
cache=${ZBW_CACHE:-/var/cache/zbewalgo}/testdata
refresh_cmd="tools/testing/zbewalgo/testdata/fetch.sh --refresh"

say() { echo "testdata: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

[ $# -eq 1 ] || die "usage: fetch.sh OUTDIR | fetch.sh --refresh"
if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
	die "apt-get and dpkg-deb are needed (a Debian system)"
fi

# The manifest's deb lines: name version arch size sha256, one array each.
names=() versions=() archs=() sizes=() sums=()
while read -r kind name version arch size sum rest; do
	[ "$kind" = deb ] || continue
	if [ -z "$sum" ] || [ -n "$rest" ]; then
		die "bad manifest line: deb $name $version"
	fi
	names+=("$name") versions+=("$version") archs+=("$arch")
	sizes+=("$size") sums+=("$sum")
done <"$manifest"

# apt's file name for a package: the epoch's colon quoted as %3a.
deb_name() { echo "${1}_${2//:/%3a}_$3.deb"; }

updated=
apt_update() {
	[ -n "$updated" ] && return 0
	say "running apt-get update"
	apt-get update -q >&2 || die "apt-get update failed"
	updated=1
}

# download DIR SPEC...: apt-get download (SPEC: name:arch=version) into
# DIR; a version the lists do not know may only need fresh lists, so
# update once and retry.
download() {
	local dir=$1
	shift
	# As root apt downloads as user _apt, which must be able to write DIR.
	[ "$(id -u)" -ne 0 ] || chown _apt "$dir" 2>/dev/null || true
	(cd "$dir" && apt-get download -q "$@" >&2) && return 0
	apt_update
	(cd "$dir" && apt-get download -q "$@" >&2)
}

# known NAME VERSION: the apt sources list this version of NAME.
known() {
	apt-cache madison "$1" 2>/dev/null |
		awk -F'|' -v v="$2" '{ gsub(/ /, "", $2) } $2 == v { f = 1 } END { exit !f }'
}

check_deb() {	# check_deb FILE SIZE SHA256
	[ "$(stat -c %s "$1")" = "$2" ] &&
		[ "$(sha256sum "$1" | cut -d' ' -f1)" = "$3" ]
}

# Candidate version of NAME:ARCH in the apt sources, or nothing.
candidate() {
	apt-cache policy "$1:$2" 2>/dev/null |
		awk '/Candidate:/ && $2 != "(none)" { print $2 }'
}

if [ "$1" = --refresh ]; then
	apt_update
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"	# apt's _apt user downloads into it
	cp "$manifest" "$tmp/manifest"
	for i in "${!names[@]}"; do
		n=${names[i]} a=${archs[i]}
		v=$(candidate "$n" "$a")
		[ -n "$v" ] || die "$n ($a) is not in the apt sources"
		mkdir -p "$tmp/$i"
		download "$tmp/$i" "$n:$a=$v" ||
			die "cannot download $n $v ($a)"
		f=$tmp/$i/$(deb_name "$n" "$v" "$a")
		[ -f "$f" ] || die "apt-get download wrote no $(basename "$f")"
		# Every file the manifest takes from it must still be there.
		dpkg-deb --fsys-tarfile "$f" | tar -t >"$tmp/list"
		while read -r kind _ pkg path; do
			[ "$kind" = file ] || continue
			[ "$pkg" = "$n" ] || continue
			grep -qxF "./$path" "$tmp/list" ||
				die "$n $v no longer has $path: edit the manifest"
		done <"$manifest"
		s=$(stat -c %s "$f")
		h=$(sha256sum "$f" | cut -d' ' -f1)
		[ "$v" = "${versions[i]}" ] || say "$n: ${versions[i]} -> $v"
		# Versions may hold '+', '.' and ':', so match the fields with awk.
		awk -v n="$n" -v a="$a" -v line="deb $n $v $a $s $h" \
			'$1 == "deb" && $2 == n && $4 == a { print line; next } { print }' \
			"$tmp/manifest" >"$tmp/manifest.new"
		mv "$tmp/manifest.new" "$tmp/manifest"
		mkdir -p "$cache"
		cp "$f" "$cache/"
	done
	if cmp -s "$tmp/manifest" "$manifest"; then
		say "manifest up to date"
	else
		cp "$tmp/manifest" "$manifest"
		say "manifest rewritten: review 'git diff $manifest', rerun the tests, commit"
	fi
	exit 0
fi

out=$1
stamp=$(sha256sum "$manifest" | cut -d' ' -f1)
if [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
	touch "$out/.stamp"	# newer than the manifest for make
	say "$out up to date"
	exit 0
fi

mkdir -p "$cache"
total=0 bytes=0 missing=() specs=()
for i in "${!names[@]}"; do
	n=${names[i]} v=${versions[i]} a=${archs[i]}
	f=$cache/$(deb_name "$n" "$v" "$a")
	total=$((total + sizes[i]))
	if [ -f "$f" ] && check_deb "$f" "${sizes[i]}" "${sums[i]}"; then
		continue
	fi
	rm -f "$f"
	missing+=("$i")
	specs+=("$n:$a=$v")
	bytes=$((bytes + sizes[i]))
done
if [ ${#missing[@]} -gt 0 ]; then
	say "downloading ${#missing[@]} packages ($((bytes / 1024)) KiB) into $cache"
	tmp=$(mktemp -d "$cache/.fetch-XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	if ! download "$tmp" "${specs[@]}"; then
		for i in "${missing[@]}"; do
			n=${names[i]} v=${versions[i]} a=${archs[i]}
			known "$n" "$v" && continue
			now=$(candidate "$n" "$a")
			say "$n $v ($a), pinned in $manifest, is not in the apt sources (they offer ${now:-no version})"
		done
		die "a Debian point release may have replaced a pinned package: run '$refresh_cmd', check the tests, commit the manifest"
	fi
	for i in "${missing[@]}"; do
		n=${names[i]} v=${versions[i]} a=${archs[i]}
		got=$tmp/$(deb_name "$n" "$v" "$a")
		if ! [ -f "$got" ] || ! check_deb "$got" "${sizes[i]}" "${sums[i]}"; then
			die "$n $v ($a): the download does not match the manifest's size and sha256 (a rebuilt package?); '$refresh_cmd' takes the archive's current one"
		fi
		mv "$got" "$cache/"
	done
	rm -rf "$tmp"
fi

# Unpack into a fresh directory next to OUTDIR, then swap it in.
parent=$(dirname "$out")
mkdir -p "$parent"
work=$(mktemp -d "$parent/.testdata-XXXXXX")
trap 'rm -rf "$work"' EXIT
for i in "${!names[@]}"; do
	n=${names[i]}
	paths=()
	while read -r kind _ pkg path; do
		[ "$kind" = file ] && [ "$pkg" = "$n" ] && paths+=("./$path")
	done <"$manifest"
	[ ${#paths[@]} -gt 0 ] || continue
	mkdir "$work/deb-$i"
	dpkg-deb --fsys-tarfile "$cache/$(deb_name "$n" "${versions[i]}" "${archs[i]}")" |
		tar -x -C "$work/deb-$i" "${paths[@]}" ||
		die "$n: not every listed file is in the package"
done
mkdir "$work/out"
files=0
while read -r kind dest pkg path; do
	[ "$kind" = file ] || continue
	i=
	for j in "${!names[@]}"; do [ "${names[j]}" = "$pkg" ] && i=$j; done
	[ -n "$i" ] || die "file $dest: no deb line for $pkg"
	src=$work/deb-$i/$path
	[ -f "$src" ] || die "$pkg has no $path"
	mkdir -p "$(dirname "$work/out/$dest")"
	if [ "${path%.gz}" != "$path" ] && [ "${dest%.gz}" = "$dest" ]; then
		gzip -dc "$src" >"$work/out/$dest"
	else
		cp "$src" "$work/out/$dest"
	fi
	files=$((files + 1))
done <"$manifest"
echo "$stamp" >"$work/out/.stamp"
rm -rf "$out"
mv "$work/out" "$out"
say "$files files from ${#names[@]} packages ($((total / 1024)) KiB of .deb in $cache):" \
	"$(du -sk --exclude=.stamp "$out" | cut -f1) KiB in $out"
