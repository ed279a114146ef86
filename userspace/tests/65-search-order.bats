#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# depmod's search order: with the same module in kernel/ and updates/ (as
# every DKMS install leaves it), nscheck checks the copy depmod and
# modprobe keep, never both; depmod.d's search lines and a tree's own
# modules.dep decide as they do for depmod.

load helpers

# kernel/exp_a.ko lists dual_ok for MRES; updates/exp_a.ko (tree/exp_a)
# lists only imp_ok. dual_ok imports MRES and uses a_fn.
setup() {
	mktree exp_a.ko:kernel/exp_a.ko tree/exp_a.ko:updates/exp_a.ko \
		dual_ok.ko:kernel/a/dual_ok.ko
}

DENIED="module dual_ok not allowed to reference namespace \`MRES' for a_fn"

@test "search order: updates/ wins over kernel/, one copy checked" {
	run --separate-stderr nst --all -v
	assert_failure 1
	assert_output "$DENIED"$'\n'"dual_ok: Unknown symbol a_fn (err -13)"
	[[ $stderr != *duplicate* ]] || fail "both copies loaded: $stderr"
	[[ $stderr == *"$M/kernel/exp_a.ko: depmod keeps $M/updates/exp_a.ko"* ]] ||
		fail "no word of the copy left out: $stderr"
	[[ $stderr == *"checked 2 modules: 1 would load, 1 refused"* ]] ||
		fail "$stderr"
}

@test "search order: depmod.d's search line (-C) decides" {
	local c=$BATS_TEST_TMPDIR/depmod.d
	mkdir "$c"
	echo "search built-in updates" >"$c/order.conf"
	run --separate-stderr nst --all -C "$c"
	assert_success
	assert_output ""
	# An override line wins over the search line.
	echo "override exp_a * updates" >"$c/zz-override.conf"
	run --separate-stderr nst --all -C "$c"
	assert_failure 1
	assert_line --index 0 "$DENIED"
}

@test "search order: a tree's modules.dep decides, not nscheck's reading" {
	command -v depmod >/dev/null || skip "no depmod"
	run_depmod	# depmod's default: updates first
	local c=$BATS_TEST_TMPDIR/depmod.d
	mkdir "$c"
	echo "search built-in updates" >"$c/order.conf"
	run --separate-stderr nst --all -C "$c"
	assert_failure 1
	assert_line --index 0 "$DENIED"
}

@test "search order: a module named on the command line is the kept copy" {
	run --separate-stderr nst exp_a dual_ok
	assert_failure 1
	assert_output "$DENIED"$'\n'"dual_ok: Unknown symbol a_fn (err -13)"
}

@test "search order: build and source are not walked, at any level" {
	mkdir -p "$M/kernel/x/build" "$M/source"
	cp "$FX/dup_k.ko" "$M/kernel/x/build/"
	cp "$FX/dup_k.ko" "$M/source/"
	run --separate-stderr nst --all -v
	assert_failure 1
	[[ $stderr == *"checked 2 modules"* ]] || fail "$stderr"
}
