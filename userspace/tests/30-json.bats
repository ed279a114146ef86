#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --json: the same findings, field by field (schema in README.md).

load helpers

json() {
	run --separate-stderr nsk --json "$@"
	JSON=$output
	echo "$JSON" | jq -e . >/dev/null || fail "not JSON: $JSON"
}

jqr() {
	jq -r "$1" <<<"$JSON"
}

@test "json: a module that loads has no findings" {
	json exp_a.ko imp_ok.ko
	assert_success
	assert_equal "$(jqr '.version')" 1
	assert_equal "$(jqr '.modules | length')" 2
	assert_equal "$(jqr '.modules[1].file')" imp_ok.ko
	assert_equal "$(jqr '.modules[1].name')" imp_ok
	assert_equal "$(jqr '.modules[1].status')" loads
	assert_equal "$(jqr '.modules[1].error')" null
	assert_equal "$(jqr '.modules[1].findings | length')" 0
}

@test "json: row 4, field by field" {
	json exp_a.ko exp_b.ko imp_wrong.ko
	assert_failure 1
	assert_equal "$(jqr '.modules[2].status')" refused
	assert_equal "$(jqr '.modules[2].findings | length')" 1
	assert_equal "$(jqr '.modules[2].findings[0].verdict')" wrong-module
	assert_equal "$(jqr '.modules[2].findings[0].row')" 4
	assert_equal "$(jqr '.modules[2].findings[0].errno')" -13
	assert_equal "$(jqr '.modules[2].findings[0].symbol')" b_fn
	assert_equal "$(jqr '.modules[2].findings[0].namespace')" MRES
	assert_equal "$(jqr '.modules[2].findings[0].owner')" exp_b
	assert_equal "$(jqr '.modules[2].findings[0].declarer')" exp_a
	assert_equal "$(jqr '.modules[2].findings[0].offset')" null
	assert_equal "$(jqr '.modules[2].findings[0].message')" \
		"namespace \`MRES' for symbol \`b_fn' defined in wrong module \`exp_a'"
}

@test "json: rows 2, 5, 6 and the GPL rule carry their row and errno" {
	json exp_a.ko exp_b.ko imp_open_noimport.ko imp_none.ko imp_undecl.ko prop_ok.ko
	assert_failure 1
	assert_equal "$(jqr '[.modules[2:][].findings[0] | "\(.verdict) \(.row) \(.errno) \(.owner)"] | join(",")')" \
		"not-imported 2 -22 exp_a,not-allowed 5 -13 exp_a,undeclared-namespace 6 -13 exp_b,not-gpl-compatible 3 -13 exp_a"
}

@test "json: unknown symbol and duplicate" {
	json exp_a.ko imp_unknown.ko dup_k.ko
	assert_failure 1
	assert_equal "$(jqr '.modules[1].findings[0] | "\(.verdict) \(.errno) \(.symbol) \(.namespace) \(.row)"')" \
		"unknown-symbol -2 no_such_symbol null null"
	assert_equal "$(jqr '.modules[2].findings[0] | "\(.verdict) \(.errno) \(.owner)"')" \
		"duplicate-export -8 kernel"
}

@test "json: the lines are the text output's, the message the first" {
	json exp_a.ko exp_b.ko multi.ko
	local text
	text=$(nsk exp_a.ko exp_b.ko multi.ko || true)
	assert_equal "$(jqr '.modules[].findings[].lines[]')" "$text"
	assert_equal "$(jqr '.modules[].findings[] | select(.message != .lines[0])')" ""
	assert_equal "$(jqr '[.modules[].findings[].lines | length] | join(" ")')" "2 1 2 2"
}

@test "json: an unreadable module, and one whose records the kernel refuses" {
	json missing.ko rec_nonul.ko exp_a.ko
	assert_failure 2
	assert_equal "$(jqr '.modules[0].status')" unreadable
	assert_equal "$(jqr '.modules[0].name')" null
	assert_equal "$(jqr '.modules[0].error')" "No such file or directory"
	# Read, and named: the kernel refuses it, with its line.
	assert_equal "$(jqr '.modules[1].status')" malformed
	assert_equal "$(jqr '.modules[1].name')" rec_nonul
	assert_equal "$(jqr '.modules[1].findings[0].verdict')" malformed-records
	assert_equal "$(jqr '.modules[1].findings[0].offset')" 4
	assert_equal "$(jqr '.modules[1].findings[0].errno')" -8
	assert_equal "$(jqr '.modules[2].status')" loads
	assert_equal "$(jqr '.summary | "\(.unreadable) \(.malformed)"')" "1 1"
}

@test "json: summary counts" {
	json exp_a.ko imp_ok.ko imp_none.ko missing.ko rec_char.ko
	assert_failure 2
	assert_equal "$(jqr '.summary | "\(.checked) \(.loads) \(.refused) \(.unreadable) \(.malformed)"')" "5 2 1 1 1"
}

@test "json: file names are escaped" {
	local f
	f=$(fixture_copy imp_plain.ko 'we"ird\name	x.ko')
	json exp_a.ko "$f"
	assert_success
	assert_equal "$(jqr '.modules[1].file')" "$f"
}

@test "json: --quiet with --json is bad usage, not JSON dropped" {
	run --separate-stderr nsk --json -q exp_a.ko imp_none.ko
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "nscheck: ERROR: --quiet and --json: choose one"
}
