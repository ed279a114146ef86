#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare a pristine linux-source-6.1 tree (no series) for building external
# modules against: the guest's configuration, 'make modules_prepare'.
# usage: prepare-pristine.sh SRC OBJ CONFIG
set -euo pipefail
src=$(realpath -m "$1") obj=$(realpath -m "$2") config=$(realpath "$3")
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"

if [ ! -f "$src/Makefile" ]; then
	rm -rf "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
fi
mkdir -p "$obj"
cp "$config" "$obj/.config"
make -s --no-print-directory -C "$src" O="$obj" CC="$cc" HOSTCC="$cc" olddefconfig
make -s --no-print-directory -C "$src" O="$obj" CC="$cc" HOSTCC="$cc" -j"$(nproc)" modules_prepare
echo "pristine tree prepared in $obj"
