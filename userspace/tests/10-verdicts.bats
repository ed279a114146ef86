#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The six rows of SPEC §4's table. The expected lines are written from the
# table, not taken from nscheck. Fixtures: fixtures.table.

load helpers

# exp_a exports a_fn, a_gpl into MRES and declares MRES; exp_b exports b_fn
# into MRES and does not declare it.
EXPORTERS="exp_a.ko exp_b.ko"

@test "row 1: a symbol without a namespace is unchanged" {
	run --separate-stderr nsk $EXPORTERS imp_plain.ko
	assert_success
	assert_output ""
}

@test "row 2: an unrestricted namespace needs the import (module's)" {
	run --separate-stderr nsk $EXPORTERS imp_open.ko imp_open_noimport.ko
	assert_failure 1
	assert_output "imp_open_noimport: module uses symbol (a_open) from namespace AOPEN, but does not import it."$'\n'"imp_open_noimport: Unknown symbol a_open (err -22)"
}

@test "row 2: an unrestricted namespace needs the import (vmlinux's)" {
	run --separate-stderr nsk imp_vopen.ko
	assert_failure 1
	assert_output "imp_vopen: module uses symbol (v_open_fn) from namespace VOPEN, but does not import it."$'\n'"imp_vopen: Unknown symbol v_open_fn (err -22)"
}

@test "row 3: the owner lists the requester, which imports: loads" {
	run --separate-stderr nsk $EXPORTERS imp_ok.ko
	assert_success
	assert_output ""
}

@test "row 3: listed but not importing gets row 2's line" {
	run --separate-stderr nsk $EXPORTERS imp_noimport.ko
	assert_failure 1
	assert_output "imp_noimport: module uses symbol (a_fn) from namespace MRES, but does not import it."$'\n'"imp_noimport: Unknown symbol a_fn (err -22)"
}

@test "row 3: vmlinux lists the requester (modules.builtin.modinfo)" {
	run --separate-stderr nsk imp_v.ko
	assert_success
}

@test "row 4: another module lists the requester" {
	run --separate-stderr nsk $EXPORTERS imp_wrong.ko
	assert_failure 1
	assert_output "namespace \`MRES' for symbol \`b_fn' defined in wrong module \`exp_a'"$'\n'"imp_wrong: Unknown symbol b_fn (err -13)"
}

@test "row 4: of two other listers, the first by name, not by load order" {
	run --separate-stderr nsk $EXPORTERS zz_lister.ko aa_lister.ko imp_two.ko
	assert_failure 1
	assert_output "namespace \`MRES' for symbol \`b_fn' defined in wrong module \`aa_lister'"$'\n'"imp_two: Unknown symbol b_fn (err -13)"
}

@test "row 4: vmlinux, when it lists the requester, before any module" {
	run --separate-stderr nsk $EXPORTERS aa_lister.ko zz_lister.ko imp_wrong_v.ko
	assert_failure 1
	assert_output "namespace \`MRES' for symbol \`a_fn' defined in wrong module \`vmlinux'"$'\n'"imp_wrong_v: Unknown symbol a_fn (err -13)"
}

@test "row 5: the owner declares the namespace without the requester" {
	run --separate-stderr nsk $EXPORTERS imp_none.ko
	assert_failure 1
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
}

@test "row 5: vmlinux owns and declares the namespace" {
	run --separate-stderr nsk imp_bad_v.ko
	assert_failure 1
	assert_output "module imp_bad_v not allowed to reference namespace \`VRES' for v_res_fn"$'\n'"imp_bad_v: Unknown symbol v_res_fn (err -13)"
}

@test "row 6: the owner does not declare, another exporter does" {
	run --separate-stderr nsk $EXPORTERS imp_undecl.ko
	assert_failure 1
	assert_output "imp_undecl referencing undeclared namespace \`MRES' for b_fn"$'\n'"imp_undecl: Unknown symbol b_fn (err -13)"
}

@test "restricted only by a loaded object: without exp_a, MRES is open" {
	run --separate-stderr nsk exp_b.ko imp_undecl.ko imp_none.ko
	assert_failure 1
	# imp_undecl imports MRES and loads; imp_none finds no a_fn.
	assert_output "imp_none: Unknown symbol a_fn (err -2)"
}

@test "a declaration without exports into the namespace restricts nothing" {
	run --separate-stderr nsk exp_b.ko exp_c.ko imp_undecl.ko
	assert_success
}

@test "the requester's own records never count" {
	run --separate-stderr nsk exp_b.ko self_lister.ko
	assert_success
}

@test "every failing symbol, in .symtab order" {
	run --separate-stderr nsk $EXPORTERS multi.ko
	assert_failure 1
	# Each refusal, then simplify_symbols()'s line with its errno.
	assert_equal "${#lines[@]}" 7
	assert_line --index 0 "module multi not allowed to reference namespace \`MRES' for a_fn"
	assert_line --index 1 "multi: Unknown symbol a_fn (err -13)"
	assert_line --index 2 "multi: Unknown symbol no_such_symbol (err -2)"
	assert_line --index 3 "multi referencing undeclared namespace \`MRES' for b_fn"
	assert_line --index 4 "multi: Unknown symbol b_fn (err -13)"
	assert_line --index 5 "multi: module uses symbol (a_open) from namespace AOPEN, but does not import it."
	assert_line --index 6 "multi: Unknown symbol a_open (err -22)"
}

@test "one pass: every row in one run, each module on its own line" {
	run --separate-stderr nsk $EXPORTERS imp_ok.ko imp_none.ko imp_undecl.ko imp_plain.ko
	assert_failure 1
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 "module imp_none not allowed to reference namespace \`MRES' for a_fn"
	assert_line --index 1 "imp_none: Unknown symbol a_fn (err -13)"
	assert_line --index 2 "imp_undecl referencing undeclared namespace \`MRES' for b_fn"
	assert_line --index 3 "imp_undecl: Unknown symbol b_fn (err -13)"
}

@test "a 127-character namespace and a 55-character module are fine" {
	run --separate-stderr nsk long_ok.ko
	assert_success
}

@test "hints: who restricts, whom it lists, what to do; stdout stays the kernel's" {
	run --separate-stderr nsk $EXPORTERS imp_none.ko
	assert_failure 1
	# The kernel's lines alone on stdout, first.
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
	[[ $stderr == *"hint: exp_a restricts namespace MRES (it exports a_fn there) to the modules it lists (imp_ok, imp_noimport, prop_ok, prop_noimp and 6 more, -v lists all), and imp_none is not one of them: ask exp_a's maintainer for MODULE_NAMESPACE_ALLOW(MRES, imp_none)"* ]] ||
		fail "no owner hint: $stderr"
	# -v: every grant of the owner.
	run --separate-stderr nsk -v $EXPORTERS imp_none.ko
	[[ $stderr == *"(imp_ok, imp_noimport, prop_ok, prop_noimp, prop_gpl, nolicense, dual_ok, imp_wrong, renamed_ok, listed_file), and imp_none"* ]] ||
		fail "-v: not every grant: $stderr"
	# Row 4: the lister is not the owner, said plainly.
	run --separate-stderr nsk $EXPORTERS zz_lister.ko imp_two.ko
	assert_output "namespace \`MRES' for symbol \`b_fn' defined in wrong module \`zz_lister'"$'\n'"imp_two: Unknown symbol b_fn (err -13)"
	[[ $stderr == *"hint: \`zz_lister' lists imp_two for namespace MRES but does not export into it, so its grant does not count: b_fn is exported by exp_b, which lists no module; ask exp_b's maintainer for MODULE_NAMESPACE_ALLOW(MRES, imp_two)"* ]] ||
		fail "no row 4 hint: $stderr"
	# Not imported: the import to add.
	run --separate-stderr nsk $EXPORTERS imp_noimport.ko
	[[ $stderr == *"hint: exp_a lists imp_noimport for namespace MRES: add MODULE_IMPORT_NS(MRES) to imp_noimport"* ]] ||
		fail "no import hint: $stderr"
	# One hint for a module's symbols that share the fix.
	run --separate-stderr nsk $EXPORTERS imp_none_two.ko
	[[ $(grep -c 'hint: exp_a restricts namespace MRES' <<<"$stderr") == 1 ]] ||
		fail "hints: $stderr"
	# --quiet and --json: no hint.
	run --separate-stderr nsk -q $EXPORTERS imp_none.ko
	assert_equal "$stderr" ""
	run --separate-stderr nsk --json $EXPORTERS imp_none.ko
	assert_equal "$stderr" ""
}
