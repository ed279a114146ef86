#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest initramfs with dracut, isolated from the host's dracut
# configuration (--conf/--confdir/--no-hostonly), uncompressed.
#
# usage: mkimage.sh OUT KVER STAGE PAYLOAD
#   STAGE    root of 'make modules_install INSTALL_MOD_PATH=' (holds lib/modules/KVER)
#   PAYLOAD  a folder copied to /usr/share/nsa in the guest (bats suites,
#            test modules, case table); PAYLOAD/bin is put on the PATH.
set -euo pipefail

out=$(realpath -m "$1") kver=$2 stage=$(realpath "$3") payload=$(realpath "$4")
here=$(dirname "$(realpath "$0")")
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT

# Programs the suites use. dracut copies each with the libraries it needs;
# bats itself is scripts, its folders are copied whole below.
progs=(bash sh busybox cat cp mv rm ln ls mkdir rmdir mktemp chmod touch
	sed grep awk sort uniq head tail wc tr cut tee printf env date sleep
	basename dirname readlink realpath find xargs seq timeout stat id
	kill ps pgrep pkill nproc sync uname dmesg sysctl jq nl flock hostname
	diff cmp od dd md5sum sha256sum ip ss socat
	which comm capsh
	kmod insmod rmmod modprobe lsmod modinfo depmod
	bats)

# nscheck, wherever it lands in the image, brings its libraries along.
install_items=()
[ -x "$payload/bin/nscheck" ] && install_items+=("$payload/bin/nscheck")
for p in "${progs[@]}"; do
	path=$(command -v "$p") || { echo "mkimage: $p not found: run 'make deps'" >&2; exit 1; }
	install_items+=("$path")
done

dracut --quiet --force --no-hostonly --no-compress --no-early-microcode \
	--conf /dev/null --confdir "$empty" \
	--kver "$kver" --kmoddir "$stage/lib/modules/$kver" \
	--modules "base" --no-kernel \
	--install "${install_items[*]}" \
	--include "$stage/lib/modules/$kver" "/lib/modules/$kver" \
	--include /usr/lib/bats-core /usr/lib/bats-core \
	--include /usr/libexec/bats-core /usr/libexec/bats-core \
	--include /usr/lib/bats /usr/lib/bats \
	--include "$payload" /usr/share/nsa \
	--include "$here/init" /init-nsa \
	"$out"
echo "image $out ($(du -h "$out" | cut -f1))"
