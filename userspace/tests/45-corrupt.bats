#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Random corruption (fixed seeds): whatever the bytes, nscheck answers
# 0, 1 or 2 and never crashes. With the ASan+UBSan build (make check) a
# memory error exits 99 and fails.

load helpers

# corrupt SEED FILE: overwrite a few random bytes of a fixture copy, in the
# ELF header, the section headers or anywhere.
corrupt() {
	local seed=$1 f=$2 size shoff off n j
	RANDOM=$seed
	size=$(stat -c %s "$f")
	shoff=$(peek "$f" 40 8)
	n=$((RANDOM % 6 + 1))
	for ((j = 0; j < n; j++)); do
		case $((RANDOM % 3)) in
		0) off=$((RANDOM % 64)) ;;
		1) off=$((shoff + RANDOM % (size - shoff))) ;;
		*) off=$(((RANDOM * 32768 + RANDOM) % size)) ;;
		esac
		poke "$f" "$off" $((RANDOM % 256))
	done
}

@test "randomly corrupted modules never crash nscheck" {
	local mods=(exp_a.ko imp_ok.ko multi.ko long_ok.ko prop_gpl.ko) seed f
	for seed in $(seq 1 60); do
		f=$(fixture_copy "${mods[seed % ${#mods[@]}]}" "c$seed.ko")
		corrupt "$seed" "$f"
		run nsk exp_b.ko "$f"
		((status <= 2)) || fail "seed $seed: exit $status: $output"
	done
}

@test "randomly truncated modules are unreadable, not a crash" {
	local seed f size
	for seed in $(seq 1 30); do
		RANDOM=$seed
		size=$(stat -c %s "$FX/exp_a.ko")
		f=$BATS_TEST_TMPDIR/t$seed.ko
		head -c $((RANDOM % size)) "$FX/exp_a.ko" >"$f"
		run nsk "$f"
		assert_failure 2
	done
}
