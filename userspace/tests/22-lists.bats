#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# SPEC §8.3: prefix grants (MODULE_NAMESPACE_ALLOW(ns, prefix*)) and
# EXPORT_SYMBOL_FOR_MODULES() lists (namespace module:<list>). The lines
# are written from the kernel series (kernel/module/ns_allow.c), not taken
# from nscheck. Fixtures: fixtures.table.

load helpers

@test "prefix: glob_* lets in every module whose name starts with glob_" {
	run --separate-stderr nsk glob_exp.ko glob_user.ko
	assert_success
	assert_output ""
	# glob-dash.ko is glob_dash: names are compared normalised.
	run --separate-stderr nsk glob_exp.ko glob-dash.ko
	assert_success
}

@test "prefix: byte for byte, the '*' only at the end" {
	run --separate-stderr nsk glob_exp.ko globe.ko
	assert_failure 1
	assert_output "module globe not allowed to reference namespace \`GLOB' for g_fn"$'\n'"globe: Unknown symbol g_fn (err -13)"
	# A plain name beside the prefix is still exact.
	run --separate-stderr nsk glob_exp.ko exact.ko
	assert_success
	run --separate-stderr nsk glob_exp.ko exactly.ko
	assert_failure 1
	assert_line "module exactly not allowed to reference namespace \`GLOB' for g_fn"
}

@test "prefix: another object's prefix makes row 4" {
	run --separate-stderr nsk glob_exp.ko glob_lister.ko zz_glob.ko
	assert_failure 1
	assert_output "namespace \`GLOB' for symbol \`g_fn' defined in wrong module \`glob_lister'"$'\n'"zz_glob: Unknown symbol g_fn (err -13)"
}

@test "prefix: a grant of a prefix is a well-formed record, in modinfo too" {
	run --separate-stderr nsk glob_exp.ko
	assert_success
	assert_equal "$stderr" ""
}

@test "module list: a listed module uses the symbol without importing" {
	run --separate-stderr nsk formod_exp.ko kvm.ko
	assert_success
	assert_output ""
}

@test "module list: a trailing '*' is a prefix, '-' and '_' alike" {
	# kvm-amd.ko is kvm_amd; the list says kvm-*.
	run --separate-stderr nsk formod_exp.ko kvm-amd.ko
	assert_success
	# kvmx does not start with kvm- (nor kvm_), and is not kvm.
	run --separate-stderr nsk formod_exp.ko kvmx.ko
	assert_failure 1
	assert_output "module kvmx not allowed to reference namespace \`module:kvm,kvm-*' for f_fn"$'\n'"kvmx: Unknown symbol f_fn (err -13)"
}

@test "module list: a module not on it gets row 5's line, -EACCES" {
	run --separate-stderr nsk formod_exp.ko formod_other.ko
	assert_failure 1
	assert_output "module formod_other not allowed to reference namespace \`module:kvm,kvm-*' for f_fn"$'\n'"formod_other: Unknown symbol f_fn (err -13)"
}

@test "module list: each symbol its own list" {
	# kvm_x is on f_two's list, and on f_fn's by kvm-*.
	run --separate-stderr nsk formod_exp.ko kvm_x.ko
	assert_success
	# kvm is not on f_two's.
	cp "$FX/kvm_x.ko" "$BATS_TEST_TMPDIR/kvm.ko"
	objcopy --remove-section .modinfo --add-section .modinfo=/dev/null \
		"$BATS_TEST_TMPDIR/kvm.ko"
	printf 'name=kvm\0license=GPL\0' >"$BATS_TEST_TMPDIR/mi"
	objcopy --update-section .modinfo="$BATS_TEST_TMPDIR/mi" \
		--set-section-flags .modinfo=alloc,readonly,contents \
		"$BATS_TEST_TMPDIR/kvm.ko"
	run --separate-stderr nsk formod_exp.ko "$BATS_TEST_TMPDIR/kvm.ko"
	assert_failure 1
	assert_output "module kvm not allowed to reference namespace \`module:kvm_x' for f_two"$'\n'"kvm: Unknown symbol f_two (err -13)"
}

@test "module list: importing a module: namespace is refused first, -EPERM" {
	run --separate-stderr nsk formod_exp.ko kvm_intel.ko
	assert_failure 1
	# No Unknown symbol line: the load stops before any symbol.
	assert_output "kvm_intel: module tries to import module namespace: module:kvm,kvm-*"
}

@test "module list: GPL-only, as EXPORT_SYMBOL_FOR_MODULES makes it" {
	run --separate-stderr nsk formod_exp.ko formod_prop.ko
	assert_failure 1
	assert_output "kvm_prop: Unknown symbol f_fn (err -2)"
}

@test "json: prefix, module list and import refusal" {
	run --separate-stderr nsk --json glob_exp.ko globe.ko formod_exp.ko kvm_intel.ko formod_other.ko
	assert_failure 1
	jq -e . <<<"$output" >/dev/null
	assert_equal "$(jq -r '[.modules[] | .findings[] | "\(.verdict) \(.row) \(.errno) \(.namespace)"] | join(",")' <<<"$output")" \
		"not-allowed 5 -13 GLOB,imports-module-namespace null -1 module:kvm,kvm-*,not-allowed 5 -13 module:kvm,kvm-*"
	assert_equal "$(jq -r '.modules[3].findings[0].lines | length' <<<"$output")" 1
}
