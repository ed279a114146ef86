#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A git tree of Debian's linux-source-6.1 with the series applied as
# commits, for working on the series: edit, `git rebase -i`, then
# `git format-patch --cover-letter --base=pristine pristine..` back into
# kernel-patch/ (the cover letter's text lives in 0000-cover-letter.patch).
#
# usage: git-tree.sh DIR
#   DIR/ gets the pristine source committed and tagged 'pristine', then
#   every patch of kernel-patch/series applied with 'git am'.
set -euo pipefail

dir=$(realpath -m "${1:?usage: git-tree.sh DIR}")
here=$(cd "$(dirname "$0")" && pwd)
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -r "$tarball" ] || { echo "git-tree: $tarball missing: run 'make deps'" >&2; exit 1; }
[ ! -e "$dir" ] || { echo "git-tree: $dir exists" >&2; exit 1; }

mkdir -p "$dir"
tar -xf "$tarball" -C "$dir" --strip-components=1
cd "$dir"
# Debian's .gitignore ignores everything at the top level, new files
# included: drop that block so that 'git am' and 'git add' see them.
sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore
git init -q
git add -A
git commit -q \
	-m "Debian linux-source-6.1 ($(make -s kernelversion))"
git tag pristine
# The release stays 6.1.192, as built from the tarball: no "+" for a git
# tree past its tag, so that modules built elsewhere keep their vermagic.
touch .scmversion
echo .scmversion >> .git/info/exclude
while read -r p _; do
	case $p in ''|'#'*) continue ;; esac
	git am -q --keep-cr "$here/$p"
done < "$here/series"
git log --oneline pristine..
