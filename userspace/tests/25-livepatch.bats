#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A livepatch module (modinfo livepatch=, kernel-patch 19): the loader
# takes it as listed by every owner of a restricted namespace, since it
# cannot know the object the livepatch patches when its symbols are
# resolved. Rows 4-6 become row 3: the import rule (not for a module:
# list), the GPL rule and the signature rule still hold; an open
# namespace is as 6.1. The expected lines are the kernel's (SPEC §4,
# §8.3, §8.4), not nscheck's. Fixtures: lp_* in fixtures.table.

load helpers

EXPORTERS="exp_a.ko exp_b.ko"

@test "livepatch: row 4 (another object lists it) becomes listed: loads" {
	run --separate-stderr nsk $EXPORTERS lp_lister.ko lp_wrong.ko
	assert_success
	assert_output ""
	[[ -z $stderr ]] || fail "stderr: $stderr"
}

@test "livepatch: row 5 (the owner lists others) becomes listed: loads" {
	run --separate-stderr nsk $EXPORTERS lp_none.ko
	assert_success
	assert_output ""
	# vmlinux's own restricted namespace, GPL and non-GPL symbols.
	run --separate-stderr nsk lp_v.ko
	assert_success
	assert_output ""
}

@test "livepatch: row 6 (the owner does not declare) becomes listed: loads" {
	run --separate-stderr nsk $EXPORTERS lp_undecl.ko
	assert_success
	assert_output ""
}

@test "livepatch: the same module without livepatch= is refused" {
	# The control: drop the modinfo key, keep everything else.
	local f
	f=$(fixture_copy lp_none.ko)
	perl -0pi -e 's/livepatch=Y/xivepatch=Y/' "$f"
	run --separate-stderr nsk $EXPORTERS "$f"
	assert_failure 1
	assert_output "module lp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"lp_none: Unknown symbol a_fn (err -13)"$'\n'"module lp_none not allowed to reference namespace \`MRES' for a_gpl"$'\n'"lp_none: Unknown symbol a_gpl (err -13)"
}

@test "livepatch: listed still needs MODULE_IMPORT_NS: row 2's line, -EINVAL" {
	run --separate-stderr nsk $EXPORTERS lp_noimport.ko
	assert_failure 1
	assert_output "lp_noimport: module uses symbol (a_fn) from namespace MRES, but does not import it."$'\n'"lp_noimport: Unknown symbol a_fn (err -22)"
	[[ $stderr == *"lp_noimport is a livepatch module"* ]] || fail "hint: $stderr"
	run --separate-stderr nsk --json $EXPORTERS lp_noimport.ko
	assert_failure 1
	jq -e '.modules[-1].findings[0] | .verdict == "not-imported" and
		.row == 3 and .errno == -22' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "livepatch: an open namespace is as 6.1 (row 2)" {
	run --separate-stderr nsk $EXPORTERS lp_open.ko
	assert_failure 1
	assert_output "lp_open: module uses symbol (a_open) from namespace AOPEN, but does not import it."$'\n'"lp_open: Unknown symbol a_open (err -22)"
	run --separate-stderr nsk --json $EXPORTERS lp_open.ko
	jq -e '.modules[-1].findings[0].row == 2' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "livepatch: the GPL rule still holds" {
	run --separate-stderr nsk $EXPORTERS lp_prop.ko
	assert_failure 1
	assert_output "lp_prop: module is not GPL-compatible and cannot use a_fn from restricted namespace \`MRES'"$'\n'"lp_prop: Unknown symbol a_fn (err -13)"
}

@test "livepatch: a module: list lets it in without an import; importing one is refused" {
	run --separate-stderr nsk formod_exp.ko lp_kvm.ko
	assert_success
	assert_output ""
	run --separate-stderr nsk formod_exp.ko lp_kvm_import.ko
	assert_failure 1
	assert_output "lp_kvm_import: module tries to import module namespace: module:kvm,kvm-*"
}

@test "livepatch: the signature rule still holds (CONFIG_MODULE_NS_ALLOW_SIG)" {
	run --separate-stderr nscheck --kdir "$FX/kdir-sig" "$FX/sig/exp_s.ko" "$FX/sig/none/lp_sig.ko"
	assert_failure 1
	assert_output "module lp_sig is not signed with a built-in key, required for namespace \`SRES' (s_fn)"$'\n'"lp_sig: Unknown symbol s_fn (err -13)"
	run --separate-stderr nscheck --kdir "$FX/kdir-sig" "$FX/sig/exp_s.ko" "$FX/sig/build/lp_sig.ko"
	assert_success
	assert_output ""
	# Without the rule, an unsigned livepatch is let in by name.
	run --separate-stderr nsk sig/exp_s.ko sig/none/lp_sig.ko
	assert_success
}
