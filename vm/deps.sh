#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the project needs from Debian 12, only what is missing.
# Idempotent, and silent when everything is present.
set -euo pipefail

pkgs=(
	# the kernel source and what building it takes
	linux-source-6.1 build-essential bc bison flex libssl-dev libelf-dev
	cpio xz-utils zstd kmod rsync ccache python3 perl openssl
	# make nsdeps (modules/check-modpost.sh)
	coccinelle
	# the guest: image, emulator, tests
	dracut-core qemu-system-x86 busybox util-linux jq socat iproute2
	bats bats-assert bats-support
	# the kernel's selftests in the guest (make check-selftests)
	libcap2-bin
	# nscheck and its tests
	libkmod-dev libzstd-dev liblzma-dev pkg-config scdoc valgrind clang
	libclang-rt-14-dev zlib1g-dev
	# nscheck's DKMS hook test (userspace/tests/85-dkms.bats)
	dkms
	dpkg-dev
	# plots for the benchmarks; make bench-profile's instruction counts
	gnuplot-nox gdb
	# make graph: nscheck --graph rendered to SVG
	graphviz
)

missing=()
for p in "${pkgs[@]}"; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
		missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0

[ "$(id -u)" = 0 ] || { echo "deps: need root to install: ${missing[*]}" >&2; exit 1; }
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# dracut-core without recommends: 'dracut' conflicts with initramfs-tools.
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
