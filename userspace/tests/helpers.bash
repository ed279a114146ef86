# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shared by every suite. NSCHECK_BUILD is the build folder (make sets it);
# NSCHECK_BIN may name another binary (the ASan build), and NSCHECK_WRAP a
# command to run it under (valgrind).

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

: "${NSCHECK_BUILD:=$(cd "$BATS_TEST_DIRNAME/../../build/userspace" && pwd)}"
: "${NSCHECK_BIN:=$NSCHECK_BUILD/nscheck}"
FX=$NSCHECK_BUILD/fixtures

if [[ ! -x $NSCHECK_BIN || ! -f $FX/.stamp ]]; then
	echo "build first: make -C userspace (and its fixtures)" >&2
	exit 1
fi

nscheck() {
	${NSCHECK_WRAP:-} "$NSCHECK_BIN" "$@"
}

# nscheck on the fixture kernel (vmlinux's exports and grants), run in the
# fixture folder so that modules are named by their file name.
nsk() {
	(cd "$FX" && nscheck --kdir "$FX/kdir" "$@")
}

# A copy of a fixture in this test's folder.
fixture_copy() {
	cp "$FX/$1" "$BATS_TEST_TMPDIR/${2:-$1}"
	echo "$BATS_TEST_TMPDIR/${2:-$1}"
}

# Overwrite bytes of a file: poke FILE OFFSET BYTE...
poke() {
	local file=$1 off=$2 b hex=
	shift 2
	for b; do
		hex+=$(printf '\\x%02x' "$b")
	done
	printf "$hex" | dd of="$file" bs=1 seek="$off" conv=notrunc status=none
}

# An unsigned little-endian integer: peek FILE OFFSET SIZE
peek() {
	od -An -t "u$3" -j "$2" -N "$3" "$1" | tr -d ' '
}

# The index of a section by name.
section_index() {
	readelf -SW "$1" | sed -n "s/^ *\[ *\([0-9]*\)\] $2 .*/\1/p"
}

# Offset of field FIELD_OFF in the header of section INDEX (ELF64).
shdr_field() {
	local shoff
	shoff=$(peek "$1" 40 8)
	echo $((shoff + $2 * 64 + $3))
}

# Whether this nscheck was built with a decompressor: has XZ|ZSTD|ZLIB.
has() {
	nscheck -V | grep -qw "+$1"
}

# A run's stderr, checked for kmod's error style naming the file.
assert_error_names() {
	[[ $stderr == *"nscheck: ERROR: $1"* ]] ||
		fail "stderr does not name $1: $stderr"
}

# A module tree in this test's folder: T/lib/modules/KVER (M), vmlinux's
# Module.symvers and modules.builtin.modinfo from the fixture kernel.
# mktree [FIXTURE:SUBDIR/FILE...]: each fixture copied to M/SUBDIR/FILE.
mktree() {
	local spec
	KVER=9.9.9-test
	T=$BATS_TEST_TMPDIR/root
	M=$T/lib/modules/$KVER
	mkdir -p "$M"
	cp "$FX/kdir/modules.builtin.modinfo" "$M/"
	for spec; do
		mkdir -p "$(dirname "$M/${spec#*:}")"
		cp "$FX/${spec%%:*}" "$M/${spec#*:}"
	done
}

# nscheck on the tree mktree made, with the fixture vmlinux.
nst() {
	nscheck -b "$T" -k "$KVER" -E "$FX/kdir/Module.symvers" "$@"
}

# depmod's indexes for the tree (modules.dep.bin, aliases, softdeps).
run_depmod() {
	depmod -b "$T" "$KVER" 2>/dev/null ||
		fail "depmod -b $T $KVER failed"
	[[ -f $M/modules.dep.bin ]] || fail "no modules.dep.bin"
}
