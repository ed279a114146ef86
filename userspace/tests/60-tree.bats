#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel described by a module tree (-b/-k), a build tree (--kdir), and
# --all over a whole tree.

load helpers

KVER=9.9.9-test

# DIR/lib/modules/KVER with some fixtures, its modules.builtin.modinfo, and
# a build link to headers that hold Module.symvers, as Debian ships them.
setup() {
	T=$BATS_TEST_TMPDIR/root
	M=$T/lib/modules/$KVER
	mkdir -p "$M/kernel/a" "$M/kernel/z/deeper" "$T/usr/src/linux-headers-$KVER"
	cp "$FX/imp_ok.ko" "$FX/imp_none.ko" "$M/kernel/a/"
	cp "$FX/exp_a.ko" "$FX/exp_b.ko" "$FX/imp_two.ko" "$M/kernel/"
	cp "$FX/zz_lister.ko" "$FX/aa_lister.ko" "$M/kernel/z/deeper/"
	cp "$FX/imp_v.ko" "$M/kernel/z/"
	if has XZ; then
		xz --check=crc32 -c "$FX/imp_plain.ko" >"$M/kernel/z/imp_plain.ko.xz"
	else
		cp "$FX/imp_plain.ko" "$M/kernel/z/"
	fi
	cp "$FX/kdir/modules.builtin.modinfo" "$M/"
	cp "$FX/kdir/Module.symvers" "$T/usr/src/linux-headers-$KVER/"
	ln -s "/usr/src/linux-headers-$KVER" "$M/build"
	# Not a module, and the build and source links are not walked.
	echo text >"$M/modules.order"
	ln -s "$M/kernel" "$M/source"
}

@test "--all checks every module against the whole tree, in path order" {
	run --separate-stderr nscheck --all -b "$T" -k "$KVER" -v
	assert_failure 1
	# imp_ok sorts before exp_a and still finds it; every other module
	# is loaded, so imp_two and imp_none are refused.
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 "module imp_none not allowed to reference namespace \`MRES' for a_fn"
	assert_line --index 1 "imp_none: Unknown symbol a_fn (err -13)"
	assert_line --index 2 "namespace \`MRES' for symbol \`b_fn' defined in wrong module \`aa_lister'"
	assert_line --index 3 "imp_two: Unknown symbol b_fn (err -13)"
	[[ $stderr == *"checked 9 modules: 7 would load, 2 refused, 0 unreadable"* ]]
	[[ $stderr == *"using $T/usr/src/linux-headers-$KVER/Module.symvers"* ]]
}

@test "--all with -E, and the tree's builtin grants" {
	rm "$M/build"
	cp "$FX/imp_bad_v.ko" "$M/kernel/z/"
	run --separate-stderr nscheck --all -b "$T" -k "$KVER" -E "$FX/kdir/Module.symvers"
	assert_failure 1
	assert_equal "${#lines[@]}" 6
	assert_line --index 4 "module imp_bad_v not allowed to reference namespace \`VRES' for v_res_fn"
	# Without the tree's modules.builtin.modinfo, vmlinux declares
	# nothing: VRES is not restricted.
	rm "$M/modules.builtin.modinfo"
	run --separate-stderr nscheck --all -b "$T" -k "$KVER" -E "$FX/kdir/Module.symvers"
	assert_failure 1
	assert_equal "${#lines[@]}" 4
}

@test "--all: a module never counts against itself" {
	rm "$M"/kernel/a/imp_none.ko "$M"/kernel/imp_two.ko
	run --separate-stderr nscheck --all -b "$T" -k "$KVER"
	assert_success
}

@test "--all: an unreadable module is reported and left out" {
	echo junk >"$M/kernel/broken.ko"
	run --separate-stderr nscheck --all -b "$T" -k "$KVER"
	assert_failure 2
	assert_error_names "$M/kernel/broken.ko: not an ELF file"
}

@test "--all on a missing tree" {
	run --separate-stderr nscheck --all -b "$T" -k nope
	assert_failure 2
	assert_error_names "$T/lib/modules/nope"
}

@test "-b/-k give a list of modules the tree's kernel" {
	run --separate-stderr nscheck -b "$T" -k "$KVER" "$FX/imp_v.ko" "$FX/imp_bad_v.ko"
	assert_failure 1
	assert_output "module imp_bad_v not allowed to reference namespace \`VRES' for v_res_fn"$'\n'"imp_bad_v: Unknown symbol v_res_fn (err -13)"
}

@test "--kdir wins over the tree's kernel description" {
	local k=$BATS_TEST_TMPDIR/kdir
	mkdir "$k"
	cp "$FX/kdir/Module.symvers" "$k"
	printf 'x.allow_ns=VRES:imp_bad_v\0' >"$k/modules.builtin.modinfo"
	run --separate-stderr nscheck -b "$T" -k "$KVER" --kdir "$k" "$FX/imp_v.ko" "$FX/imp_bad_v.ko"
	assert_failure 1
	assert_output "module imp_v not allowed to reference namespace \`VRES' for v_res_fn"$'\n'"imp_v: Unknown symbol v_res_fn (err -13)"
}

@test "--all: the requester's own records never count" {
	# self_lister exports into MRES and lists itself; exp_b exports into
	# MRES without declaring it. Only self_lister would restrict MRES.
	rm -r "$M/kernel"
	mkdir "$M/kernel"
	cp "$FX/exp_b.ko" "$FX/self_lister.ko" "$M/kernel/"
	run --separate-stderr nscheck --all -b "$T" -k "$KVER"
	assert_success
	# Another module that uses b_fn sees MRES restricted by self_lister.
	cp "$FX/imp_undecl.ko" "$M/kernel/"
	run --separate-stderr nscheck --all -b "$T" -k "$KVER"
	assert_failure 1
	assert_output "imp_undecl referencing undeclared namespace \`MRES' for b_fn"$'\n'"imp_undecl: Unknown symbol b_fn (err -13)"
}
