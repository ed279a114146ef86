# SPDX-License-Identifier: GPL-2.0
# run_malformed VARIANT: insmod one corrupted nsa_exp.ko (modules/
# malformed.tsv, made by userspace/tests/malformed/gen-malformed.py, in the guest
# under /usr/share/nsa/malformed) and check what the table says of it:
# insmod's status and error text, the exact kernel line, that a variant
# that loads also unloads, that the kernel stays healthy (no report in its
# log, no W or D taint), and nscheck's exit status on the same file.

MALFORMED=$NSA/malformed.tsv

# One row of malformed.tsv, as shell variables.
malformed_row() {
	local row
	row=$(awk -F'\t' -v v="$1" '$1 == v' "$MALFORMED")
	[ -n "$row" ] || { echo "no variant $1 in $MALFORMED" >&2; return 1; }
	IFS=$'\t' read -r mf_variant mf_errno mf_message mf_nscheck mf_why \
		<<<"$row"
	# The section's index in this build (gen-malformed.py writes it).
	mf_message=${mf_message//NS_ALLOW_SECTION/$(cat "$NSA/malformed/ns_allow_section")}
}

tainted() {
	cat /proc/sys/kernel/tainted
}

# The kernel has not warned (W, 512) or died (D, 128) since the taint
# was BEFORE (default: since boot).
assert_not_tainted() {
	local t before=${1:-0}
	t=$(tainted)
	(((t & ~before & (512 | 128)) == 0)) || fail "kernel tainted: $t (was $before)"
}

# No oops, BUG, WARNING, KASAN, ... in the kernel log since dmesg -C.
assert_no_report() {
	run --separate-stderr nsa-report-check <(dmesg)
	assert_success
}

run_malformed() {
	local f=$NSA/malformed/$1.ko taint

	malformed_row "$1"
	taint=$(tainted)
	[ -f "$f" ] || fail "$f: no such variant in the image"
	refute is_loaded nsa_exp
	dmesg -C

	run insmod "$f"
	if [ "$mf_errno" = - ]; then
		assert_success
		assert is_loaded nsa_exp
		run rmmod nsa_exp
		assert_success
		refute is_loaded nsa_exp
	else
		assert_failure
		assert_output "insmod: ERROR: could not insert module $f: $(insmod_error "$mf_errno")"
		refute is_loaded nsa_exp
	fi
	run kmsg
	if [ "$mf_message" != - ]; then
		assert_line "$mf_message"
	else
		refute_output --regexp "malformed|Invalid ELF|namespace"
	fi
	assert_no_report
	assert_not_tainted "$taint"

	# nscheck on the same file: the table's status; a malformed record
	# is reported as the kernel's own line, and an unreadable file by name.
	run --separate-stderr nscheck -E "$NSA/Module.symvers" "$f"
	assert_equal "$status" "$mf_nscheck"
	if [ "$mf_nscheck" = 2 ]; then
		[[ $stderr == *"nscheck: ERROR: $f: "* ]] ||
			fail "nscheck's error does not name $f: $stderr"
	fi
	if [[ $mf_message == *"malformed namespace allow record"* ]]; then
		assert_output "$mf_message"
	fi
}

teardown() {
	is_loaded nsa_exp && rmmod nsa_exp
	return 0
}
