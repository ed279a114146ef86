#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the series back from a git tree made by git-tree.sh: every commit
# after the 'pristine' tag becomes a numbered patch in kernel-patch/, with
# a cover letter whose subject and text are kept from the current
# 0000-cover-letter.patch (edit them there), and a fresh 'series' file.
#
# usage: format.sh DIR [REV]     (REV: the series' last commit, HEAD)
set -euo pipefail

dir=$(realpath "${1:?usage: format.sh DIR [REV]}")
rev=${2:-HEAD}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$dir" format-patch -q --cover-letter --base=pristine \
	-o "$tmp/out" "pristine..$rev"

# The subject (after "[PATCH 0/N] ") and the text up to the shortlog
# ("<author> (N):") come from the current cover letter.
python3 - "$here/0000-cover-letter.patch" "$tmp/out/0000-cover-letter.patch" <<'PY'
import re, sys
old, new = (open(p).read() for p in sys.argv[1:])
head, _, body = old.partition("\n\n")
subject = re.search(r"^Subject: \[PATCH \d+/\d+\] (.*(?:\n .*)*)", head,
                    re.M).group(1)
blurb = re.split(r"^\S.* \(\d+\):$", body, maxsplit=1, flags=re.M)[0]
new = new.replace("*** SUBJECT HERE ***", subject, 1)
new = new.replace("*** BLURB HERE ***\n\n", blurb, 1)
open(sys.argv[2], "w").write(new)
PY

rm -f "$here"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp/out"/*.patch "$here/"
{
	echo "# Apply in order to Debian linux-source-6.1 (6.1.192)."
	ls "$tmp/out" | grep -v '^0000-'
} > "$here/series"
echo "format: $(grep -vc '^#' "$here/series") patches and a cover letter in $here"
