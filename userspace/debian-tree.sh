# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by audit-debian.sh and bench-debian.sh: Debian's newest 6.1 amd64
# kernel packages, downloaded with apt-get download and extracted with
# dpkg -x (never installed) into build/debian-tree. Kept between runs.
# Sets DEB_KVER, DEB_TREE and DEB_SYMVERS.

DEB_TREE=${DEBIAN_TREE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/debian-tree}
DEB_DEBS=$DEB_TREE.debs

newest_abi() {
	apt-cache search --names-only "$1" |
		sed -n 's/^linux-image-6\.1\.0-\([0-9]*\)-amd64.*/\1/p' |
		sort -n | tail -1
}

debian_tree_prepare() {
	local abi pkgs image deb re='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$'

	abi=$(newest_abi "$re")
	if [[ -z $abi ]]; then
		apt-get update -qq
		abi=$(newest_abi "$re")
	fi
	[[ -n $abi ]] || { echo "no linux-image-6.1.0-*-amd64 in apt" >&2; return 1; }
	DEB_KVER=6.1.0-$abi-amd64
	DEB_SYMVERS=$DEB_TREE/usr/src/linux-headers-$DEB_KVER/Module.symvers

	if [[ -f $DEB_SYMVERS && -f $DEB_TREE/lib/modules/$DEB_KVER/modules.builtin.modinfo ]]; then
		echo "using the cached $DEB_TREE ($DEB_KVER)"
		return 0
	fi
	# The unsigned image has the modules; else the signed one.
	image=linux-image-$DEB_KVER-unsigned
	apt-cache show "$image" >/dev/null 2>&1 || image=linux-image-$DEB_KVER
	pkgs="$image linux-headers-$DEB_KVER linux-headers-6.1.0-$abi-common"
	mkdir -p "$DEB_DEBS" "$DEB_TREE"
	(cd "$DEB_DEBS" && apt-get download $pkgs)
	for deb in "$DEB_DEBS"/*"6.1.0-$abi"*.deb; do
		dpkg -x "$deb" "$DEB_TREE"
	done
	[[ -f $DEB_SYMVERS ]] || { echo "no $DEB_SYMVERS" >&2; return 1; }
}
