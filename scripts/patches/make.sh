#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make.sh (make patches): the upstream series against Debian's
# linux-source-$PATCH_VERSION (default 7.2), generated from this
# repository's files by scripts/kernel-integrate.py --upstream, one stage
# per patch (lib, crypto, zram, zram-keys, tuning, classic, docs; messages in lib.msg etc.
# here),
# then git format-patch --cover-letter into $PATCH_OUT (build/patches).
# The cover letter is filled in by cover.py from the benchmark results,
# the fuzzing campaign log and, when present, build/kernel-bench/*.txt.
# PATCH_AUTHOR ("Name <mail>") signs the patches and is the maintainer.
# make check runs this through series.sh, so a series that cannot be
# made, cover letter included, fails it.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/common.sh"

"$REPO/scripts/install-deps.sh" git unifdef python3
fetch_source
base_repo

W=$PDIR/work
say "applying the stages to a clean $PATCH_VERSION tree in $W"
new_tree "$W"
# The repository's last commit dates the series: same inputs, same ids.
git_ident "$(git -C "$REPO" log -1 --format=%cI 2>/dev/null || echo 2000-01-01T00:00:00Z)"
for stage in lib crypto zram zram-keys tuning classic docs; do
	msg=$HERE/$stage.msg
	if [ "$stage" = docs ] &&
	   [ -f "$REPO/Documentation/admin-guide/blockdev/zbewalgo.rst" ]; then
		msg=$HERE/docs-guide.msg
	fi
	python3 "$REPO/scripts/kernel-integrate.py" --upstream \
		--maintainer "$AUTHOR" --only "$stage" "$REPO" "$W"
	# -f: Debian's top-level .gitignore ignores every new file.
	git -C "$W" add -A -f .
	git -C "$W" diff --cached --quiet && die "stage $stage changed nothing"
	{ cat "$msg"; printf '\nSigned-off-by: %s\n' "$AUTHOR"; } |
		git -C "$W" commit -q -F -
done

rm -rf "$OUT"
mkdir -p "$OUT"
git -C "$W" format-patch -q --cover-letter --no-signature -o "$OUT" base..master
python3 "$HERE/cover.py" "$REPO" "$OUT"/0000-cover-letter.patch \
	"linux-source-$PATCH_VERSION $DEBVER ($(make -s -C "$SRC" kernelversion))"
say "series in $OUT:"
(cd "$OUT" && ls -1 ./*.patch) >&2
