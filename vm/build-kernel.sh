#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a guest kernel: extract Debian's linux-source-6.1 into SRC, apply a
# patch series, configure from a base plus fragments with the kernel's
# own merge_config.sh, build bzImage and modules out of tree in OBJ, and
# install the modules into STAGE.
#
# usage: build-kernel.sh SRC OBJ STAGE SERIES_DIR FRAGMENT...
#   SERIES_DIR holds a quilt-style 'series' file, or is "none" (pristine).
#
# The base is tinyconfig, or with BASE_CONFIG=FILE a whole configuration
# (Debian's, vm/debian-config.sh) cut by the kernel's own 'make
# localmodconfig' to the loadable modules BASE_LSMOD (an lsmod listing)
# names: every built-in option of the base is kept.
#
# Incremental: tar keeps the archive's mtimes, so after a fresh extraction
# only the files the series touches (now or last time) look new and only
# what depends on them is rebuilt.
set -euo pipefail

src=$(realpath -m "$1") obj=$(realpath -m "$2") stage=$(realpath -m "$3") series_dir=$4
shift 4
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
set -- "${frags[@]}"
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${JOBS:-$(nproc)}

die() { echo "build-kernel: $*" >&2; exit 1; }
[ -r "$tarball" ] || die "$tarball missing: run 'make deps'"

patches=()
if [ "$series_dir" != none ]; then
	while read -r p _; do
		case $p in ''|'#'*) continue ;; esac
		[ -r "$series_dir/$p" ] || die "series names $p, not in $series_dir"
		patches+=("$(realpath "$series_dir/$p")")
	done < "$series_dir/series"
fi

# Files the previous series touched: they must look new after re-extraction.
touched=()
[ -r "$src.touched" ] && mapfile -t touched < "$src.touched"

# SRC is this script's to re-extract; a git tree there is somebody's work.
[ ! -e "$src/.git" ] || die "$src is a git tree: not deleting it"
rm -rf "$src" "$src.tmp"
mkdir -p "$src.tmp"
tar -xf "$tarball" -C "$src.tmp" --strip-components=1
for p in "${patches[@]}"; do
	if ! patch -d "$src.tmp" -p1 --quiet --forward --batch < "$p"; then
		die "patch $(basename "$p") does not apply to $(basename "$tarball")"
	fi
	mapfile -t -O "${#touched[@]}" touched < <(sed -n 's|^+++ b/||p' "$p")
done
mv "$src.tmp" "$src"
printf '%s\n' "${touched[@]}" | sort -u > "$src.touched"
for f in "${touched[@]}"; do
	[ -e "$src/$f" ] && touch "$src/$f"
done

mkdir -p "$obj"
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
kmake() { make -s --no-print-directory -C "$src" O="$obj" CC="$cc" HOSTCC="$cc" -j"$jobs" "$@"; }

# Configure only when a fragment or the series changed, so that a warm
# rebuild does not re-run Kconfig and rebuild everything.
base=${BASE_CONFIG:-} lsmod=${BASE_LSMOD:-/dev/null}
cfgsum=$(cat "$@" "${patches[@]}" ${base:+"$base" "$lsmod"} /dev/null | sha256sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.config.sum" 2>/dev/null)" != "$cfgsum" ]; then
	if [ -n "$base" ]; then
		cp "$base" "$obj/.config"
		# New options (the series', the fragments') take their defaults here;
		# merge_config.sh below sets them.
		kmake LSMOD="$(realpath "$lsmod")" localmodconfig < <(yes "") >/dev/null 2>"$obj/localmodconfig.log" ||
			die "localmodconfig failed: $obj/localmodconfig.log"
	else
		kmake tinyconfig >/dev/null
	fi
	(cd "$obj" && KCONFIG_CONFIG=.config "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "$@" >/dev/null)
	kmake olddefconfig >/dev/null
	# Every line a fragment asked for must have survived olddefconfig. A
	# pristine tree lacks the series' own options, and only those: an
	# option no Kconfig of SRC declares is skipped there, and with
	# UNDECLARED_OK=1 (an older series, without the options of later
	# patches: make check-review-v2), nowhere else.
	missing=0
	check() { # fragment line option
		if { [ "$series_dir" = none ] || [ "${UNDECLARED_OK:-}" = 1 ]; } &&
		   ! grep -rqE --include='Kconfig*' "^(menu)?config ${3#CONFIG_}[[:space:]]*$" "$src"; then
			return
		fi
		echo "build-kernel: $1: $2 did not stick" >&2
		missing=1
	}
	for frag in "$@"; do
		while read -r line; do
			case $line in
			CONFIG_*=*) grep -qxF "$line" "$obj/.config" || check "$frag" "$line" "${line%%=*}" ;;
			"# CONFIG_"*" is not set") ! grep -q "^${line:2:-11}=" "$obj/.config" || check "$frag" "$line" "${line:2:-11}" ;;
			esac
		done < "$frag"
	done
	[ $missing = 0 ] || die "configuration incomplete"
	echo "$cfgsum" > "$obj/.config.sum"
fi

kmake bzImage modules
rm -rf "$stage"
kmake INSTALL_MOD_PATH="$stage" modules_install >/dev/null
kmake -s kernelrelease > "$obj/kernelrelease"
echo "kernel $(cat "$obj/kernelrelease") ready in $obj"
