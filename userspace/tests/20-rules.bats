#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The GPL rule, unknown and weak symbols, duplicates, load order, and the
# requester's name.

load helpers

@test "GPL: not GPL-compatible and a restricted non-GPL export: refused" {
	run --separate-stderr nsk exp_a.ko prop_ok.ko
	assert_failure 1
	assert_output "prop_ok: module is not GPL-compatible and cannot use a_fn from restricted namespace \`MRES'"$'\n'"prop_ok: Unknown symbol a_fn (err -13)"
}

@test "GPL: checked before the import rule" {
	run --separate-stderr nsk exp_a.ko prop_noimp.ko
	assert_failure 1
	assert_output "prop_noimp: module is not GPL-compatible and cannot use a_fn from restricted namespace \`MRES'"$'\n'"prop_noimp: Unknown symbol a_fn (err -13)"
}

@test "GPL: GPL-only exports are invisible (module's and vmlinux's)" {
	run --separate-stderr nsk exp_a.ko prop_gpl.ko
	assert_failure 1
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 "prop_gpl: Unknown symbol a_gpl (err -2)"
	assert_line --index 1 "prop_gpl: Unknown symbol v_gpl_fn (err -2)"
}

@test "GPL: vmlinux's restricted non-GPL export" {
	run --separate-stderr nsk prop_v.ko
	assert_failure 1
	assert_output "prop_v: module is not GPL-compatible and cannot use v_res_plain from restricted namespace \`VRES'"$'\n'"prop_v: Unknown symbol v_res_plain (err -13)"
}

@test "GPL: an unrestricted namespace is open to proprietary modules" {
	run --separate-stderr nsk exp_a.ko prop_open.ko
	assert_success
}

@test "GPL: a missing license is not GPL-compatible" {
	run --separate-stderr nsk exp_a.ko nolicense.ko
	assert_failure 1
	assert_output "nolicense: module is not GPL-compatible and cannot use a_fn from restricted namespace \`MRES'"$'\n'"nolicense: Unknown symbol a_fn (err -13)"
}

@test "GPL: Dual MIT/GPL is GPL-compatible" {
	run --separate-stderr nsk exp_a.ko dual_ok.ko
	assert_success
}

@test "unknown symbol; weak and _GLOBAL_OFFSET_TABLE_ are fine" {
	run --separate-stderr nsk imp_unknown.ko
	assert_failure 1
	assert_output "imp_unknown: Unknown symbol no_such_symbol (err -2)"
}

@test "a module-owned Module.symvers line is not a loaded module" {
	run --separate-stderr nsk imp_symvers_mod.ko
	assert_failure 1
	assert_output "imp_symvers_mod: Unknown symbol m_fn (err -2)"
}

@test "duplicate of a module's export" {
	run --separate-stderr nsk exp_a.ko dup_a.ko
	assert_failure 1
	assert_output "dup_a: exports duplicate symbol a_plain (owned by exp_a)"
}

@test "duplicate of vmlinux's export is owned by kernel" {
	run --separate-stderr nsk dup_k.ko
	assert_failure 1
	assert_output "dup_k: exports duplicate symbol printk (owned by kernel)"
}

@test "duplicate of a restricted GPL-only export" {
	run --separate-stderr nsk exp_a.ko dup_r.ko
	assert_failure 1
	assert_output "dup_r: exports duplicate symbol a_gpl (owned by exp_a)"
}

@test "only the first duplicate is reported" {
	run --separate-stderr nsk dup_two.ko
	assert_failure 1
	assert_output "dup_two: exports duplicate symbol printk (owned by kernel)"
}

@test "duplicates are checked only once every symbol resolved" {
	run --separate-stderr nsk exp_a.ko dup_fail.ko
	assert_failure 1
	assert_output "dup_fail: Unknown symbol no_such_symbol (err -2)"
}

@test "load order: an exporter given after its user does not help" {
	run --separate-stderr nsk imp_ok.ko exp_a.ko
	assert_failure 1
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 "imp_ok: Unknown symbol a_fn (err -2)"
	assert_line --index 1 "imp_ok: Unknown symbol a_gpl (err -2)"
}

@test "load order: a refused exporter is not loaded" {
	run --separate-stderr nsk exp_bad.ko imp_bad.ko
	assert_failure 1
	assert_line --index 0 "exp_bad: Unknown symbol no_such_symbol (err -2)"
	assert_line --index 1 "imp_bad: Unknown symbol bad_fn (err -2)"
}

@test "load order: the same module twice is already loaded" {
	run --separate-stderr nsk exp_a.ko exp_a.ko
	assert_failure 1
	assert_output "exp_a: module is already loaded (err -17)"
}

@test "load order: a refused module can be given again" {
	run --separate-stderr nsk imp_ok.ko exp_a.ko imp_ok.ko
	assert_failure 1
	assert_equal "${#lines[@]}" 2
}

@test "common symbols are refused" {
	run --separate-stderr nsk common_sym.ko
	assert_failure 1
	assert_output "common_sym: please compile with -fno-common"
}

@test "name from modinfo: a renamed file keeps its grant" {
	run --separate-stderr nsk exp_a.ko renamed.ko
	assert_success
}

@test "name from modinfo: a file named after a listed module is not it" {
	# exp_a lists listed_file; the module inside is named impostor.
	run --separate-stderr nsk exp_a.ko listed_file.ko
	assert_failure 1
	assert_output "module impostor not allowed to reference namespace \`MRES' for a_fn"$'\n'"impostor: Unknown symbol a_fn (err -13)"
}

@test "name from modinfo: copied under another name, still the same" {
	local f
	f=$(fixture_copy imp_none.ko imp_ok.ko)
	run --separate-stderr nsk exp_a.ko "$f"
	assert_failure 1
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
}

@test "no name= in modinfo: the name in struct module, as the kernel" {
	run --separate-stderr nsk exp_a.ko noname.ko
	assert_failure 1
	assert_output "struct_name: module uses symbol (a_open) from namespace AOPEN, but does not import it."$'\n'"struct_name: Unknown symbol a_open (err -22)"
}

@test "modinfo allow_ns differing from __ns_allow: refused, as the kernel" {
	local f=$BATS_TEST_TMPDIR/differ.ko
	# exp_a's records without its modinfo allow_ns lines.
	objcopy --remove-section .modinfo --add-section .modinfo=/dev/null \
		"$FX/exp_a.ko" "$f"
	printf 'name=exp_a\0license=GPL\0' >"$BATS_TEST_TMPDIR/mi"
	# Allocated, as the kernel's find_sec() wants it.
	objcopy --update-section .modinfo="$BATS_TEST_TMPDIR/mi" \
		--set-section-flags .modinfo=alloc,readonly,contents "$f"
	run --separate-stderr nsk "$f" imp_ok.ko
	assert_failure 2
	assert_error_names "$f: modinfo allow_ns= entries do not match the __ns_allow records: the record MRES:dual_ok has no allow_ns="
	# Refused, so imp_ok finds nothing to use.
	assert_output "exp_a: modinfo allow_ns= entries do not match the __ns_allow records
imp_ok: Unknown symbol a_fn (err -2)
imp_ok: Unknown symbol a_gpl (err -2)"
}

@test "6.1 inherit_taint: a GPL-only user may not use a proprietary module" {
	run --separate-stderr nsk prop_exp.ko gpl_user.ko
	assert_failure 1
	assert_output "gpl_user: module using GPL-only symbols uses symbols p_fn from proprietary module prop_exp."$'\n'"gpl_user: Unknown symbol p_fn (err -2)"
}

@test "6.1 inherit_taint: using a proprietary module hides GPL-only ones" {
	run --separate-stderr nsk prop_exp.ko taint_user.ko
	assert_failure 1
	assert_output "taint_user: Unknown symbol v_gpl_fn (err -2)"
}

@test "6.1 inherit_taint: the taint counts from the next symbol on" {
	# pr_fn: listed, restricted, non-GPL, from a proprietary module. The
	# GPL rule sees the requester as it was before using it; the next
	# symbol, GPL-only, is then hidden.
	run --separate-stderr nsk prop_res_exp.ko gpl_res_user.ko
	assert_failure 1
	assert_output "gpl_res_user: Unknown symbol v_gpl_fn (err -2)"
}
