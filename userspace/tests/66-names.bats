#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Module names as modprobe takes them: looked up in the tree (through
# libkmod when depmod has run, else read as depmod would), loaded after
# their dependencies and soft dependencies; a file after the tree modules
# that export what it uses.

load helpers

setup() {
	mktree exp_a.ko:kernel/exp_a.ko exp_b.ko:kernel/exp_b.ko \
		imp_ok.ko:kernel/a/imp_ok.ko imp_none.ko:kernel/a/imp_none.ko \
		aa_lister.ko:kernel/z/aa_lister.ko tree/imp_two.ko:kernel/imp_two.ko \
		tree/aliased.ko:kernel/aliased.ko
}

# Each test twice: as read by nscheck, then with depmod's indexes.
both() {
	"$@"
	command -v depmod >/dev/null || return 0
	run_depmod
	"$@"
}

name_loads_deps() {
	run --separate-stderr nst -v imp_ok
	assert_success
	assert_output ""
	[[ $stderr == *"$M/kernel/exp_a.ko: exp_a would load as a dependency"* ]] ||
		fail "exp_a not loaded first: $stderr"
	[[ $stderr == *"$M/kernel/a/imp_ok.ko: imp_ok would load"$'\n'* ]] ||
		fail "imp_ok not the module asked for: $stderr"
}

@test "names: a module named without a path pulls its dependencies" {
	both name_loads_deps
}

name_refused() {
	run --separate-stderr nst imp-none
	assert_failure 1
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
}

@test "names: '-' is '_', and a refusal after the dependencies" {
	both name_refused
}

without_deps() {
	# The file alone, as before: 34 lines of Unknown symbol were this.
	run --separate-stderr nst "$M/kernel/a/imp_ok.ko"
	assert_success
}

@test "names: a file gets the tree modules it needs too" {
	both without_deps
}

softdep() {
	# imp_two asks for aa_lister first (softdep pre:), which lists it:
	# row 4 names aa_lister. exp_b (b_fn) is its dependency.
	run --separate-stderr nst exp_a imp_two
	assert_failure 1
	assert_output "namespace \`MRES' for symbol \`b_fn' defined in wrong module \`aa_lister'"$'\n'"imp_two: Unknown symbol b_fn (err -13)"
}

@test "names: soft dependencies load first, as modprobe loads them" {
	both softdep
}

@test "names: without the softdep, row 6" {
	cp "$FX/imp_two.ko" "$M/kernel/imp_two.ko"
	run --separate-stderr nst exp_a imp_two
	assert_failure 1
	assert_line --index 0 "imp_two referencing undeclared namespace \`MRES' for b_fn"
}

@test "names: an alias, once depmod has indexed it" {
	command -v depmod >/dev/null || skip "no depmod"
	run_depmod
	run --separate-stderr nst nscheck-test-alias
	assert_failure 1
	assert_line --index 0 "module aliased not allowed to reference namespace \`MRES' for a_fn"
}

missing() {
	run --separate-stderr nst no_such_module
	assert_failure 2
	[[ $stderr == "nscheck: ERROR: module no_such_module not found in $M"* ]] ||
		fail "$stderr"
}

@test "names: an alias on a tree where depmod has not run, through a scratch copy" {
	command -v depmod >/dev/null || skip "no depmod"
	local tmp=$BATS_TEST_TMPDIR/tmp
	mkdir "$tmp"
	TMPDIR=$tmp run --separate-stderr nst -v nscheck-test-alias
	assert_failure 1
	assert_line --index 0 "module aliased not allowed to reference namespace \`MRES' for a_fn"
	[[ $stderr == *"$M: aliases from depmod's indexes of a scratch copy"* ]] ||
		fail "$stderr"
	# The tree is left as it was, and the copy is gone.
	[[ ! -e $M/modules.dep && ! -e $M/modules.dep.bin ]] || fail "the tree was indexed"
	[[ -z $(ls -A "$tmp") ]] || fail "left behind: $(ls -A "$tmp")"
	# A name that is no alias either, as modprobe says it.
	TMPDIR=$tmp run --separate-stderr nst no_such_module
	assert_failure 2
	assert_equal "$stderr" "nscheck: ERROR: module no_such_module not found in $M"
}

@test "names: an alias on a tree where depmod has not run and cannot says so" {
	NSCHECK_DEPMOD=/nonexistent/depmod run --separate-stderr nst nscheck-test-alias
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "nscheck: ERROR: module nscheck-test-alias not found in $M: no module of that name; depmod has not run there (no modules.dep.bin or modules.alias), so it was not looked up as an alias: run depmod on the tree, or name the module or its file"
	# Once depmod has run, a name found nowhere is said as modprobe says it.
	command -v depmod >/dev/null || return 0
	run_depmod
	run --separate-stderr nst no_such_module
	assert_equal "$stderr" "nscheck: ERROR: module no_such_module not found in $M"
}

@test "names: a name found nowhere is an error" {
	both missing
}

@test "names: a built-in module is nothing to load" {
	echo "kernel/fs/builtin_thing.ko" >"$M/modules.builtin"
	run --separate-stderr nst -v builtin-thing
	assert_success
	[[ $stderr == *"builtin-thing: built into vmlinux"* ]] || fail "$stderr"
}

@test "names: a dependency that would be refused stops the chain" {
	# imp_none's refusal stops modprobe before a module that needs it.
	cp "$FX/exp_bad.ko" "$M/kernel/exp_bad.ko"
	cp "$FX/imp_bad.ko" "$M/kernel/imp_bad.ko"
	run --separate-stderr nst imp_bad
	assert_failure 1
	assert_output "exp_bad: Unknown symbol no_such_symbol (err -2)"
	[[ $stderr == *"imp_bad: not loaded: its dependency $M/kernel/exp_bad.ko would not load"* ]] ||
		fail "$stderr"
}
