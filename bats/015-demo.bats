#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The demo that 'make' shows (vm/guest-demo.sh, nsa-demo in the image):
# it must run cleanly, nscheck and the kernel must agree on every case,
# and every row must say what the case table says.
load helpers

@test "demo: runs without an error line, nscheck and the kernel agree" {
	run --separate-stderr nsa-demo
	assert_success
	assert_equal "$stderr" ""
	refute_output --partial "NO"
	refute_output --regexp "command not found|File exists|No such file"
}

@test "demo: each case's row says what cases.tsv says" {
	local name got

	run --separate-stderr nsa-demo
	assert_success
	for name in $(awk -F'\t' '!/^#/ && NF { print $1 }' "$CASES"); do
		got=$(awk -v c="$name" '$1 == c' <<<"$output")
		[ -n "$got" ] || continue
		case_row "$name"
		if [ "$case_errno" = - ]; then
			[[ $got == *" loads "* ]] || fail "$name: $got"
		else
			[[ $got == *"refused: $(insmod_error "$case_errno")"* ]] ||
				fail "$name: $got"
		fi
	done
}
