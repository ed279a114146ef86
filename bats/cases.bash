# SPDX-License-Identifier: GPL-2.0
# run_case NAME: load the case's modules in order, then the module under
# test, and check what modules/cases.tsv says of it: insmod's status and
# error text, the exact kernel line, and the owners' reference counts
# (a refused load takes no reference; every owner unloads at the end).

# Clear the kernel log and load the case's first modules, in order.
load_first() {
	local m

	dmesg -C
	for m in $case_first; do
		run insmod "$(ko "$m")"
		assert_success
	done
}

run_case() {
	local m total=0

	case_row "$1"
	load_first

	run insmod "$(ko "$case_module")"
	if [ "$case_errno" = - ]; then
		assert_success
		assert is_loaded "$(modname "$case_module")"
		for m in $case_first; do
			total=$((total + $(refcnt "$(modname "$m")")))
		done
		# It uses something from what was loaded first: that is pinned.
		[ -z "$case_first" ] || assert [ "$total" -ge 1 ]
		run kmsg
		refute_output --regexp "namespace|GPL-compatible|Unknown symbol|malformed"
	else
		assert_failure
		assert_output "insmod: ERROR: could not insert module $(ko "$case_module"): $(insmod_error "$case_errno")"
		refute is_loaded "$(modname "$case_module")"
		for m in $case_first; do
			assert_equal "$(refcnt "$(modname "$m")") $m" "0 $m"
		done
	fi
	if [ "$case_message" != - ]; then
		run kmsg
		assert_line "$case_message"
	fi

	# Everything unloads: no reference was leaked.
	unload_all $case_first "$case_module"
	for m in $case_first "$case_module"; do
		refute is_loaded "$(modname "$m")"
	done
}

teardown() {
	[ -n "${case_module:-}" ] && unload_all $case_first "$case_module" 2>/dev/null
	return 0
}

# run_differential NAME: what nscheck predicts from the case's files,
# loaded in order on this kernel, against what the kernel then does. Both
# must also agree with the table.
run_differential() {
	local m line files=() predicted prediction loaded

	case_row "$1"
	for m in $case_first $case_module; do
		files+=("$(ko "$m")")
	done
	run --separate-stderr nscheck -E "$NSA/Module.symvers" \
		--trusted-key "$NSA/signing_key.x509" "${files[@]}"
	predicted=$status prediction=$output
	assert_equal "$predicted" "$case_nscheck"
	if [ "$predicted" = 2 ]; then
		# Unreadable input: the message names the file.
		[[ $stderr == *"$(ko "$case_module")"* ]] ||
			fail "nscheck's error does not name $(ko "$case_module"): $stderr"
	elif [ "$case_message" != - ]; then
		assert_line "$case_message"
	fi

	load_first
	run insmod "$(ko "$case_module")"
	loaded=$status
	if [ "$predicted" = 0 ]; then
		assert_equal "$loaded" 0
	else
		assert [ "$loaded" -ne 0 ]
	fi
	# Every refusal line nscheck printed, the kernel printed too.
	run kmsg
	while IFS= read -r line; do
		[ -z "$line" ] || assert_line "$line"
	done <<<"$prediction"

	unload_all $case_first "$case_module"
}
