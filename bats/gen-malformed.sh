#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the guest suite over userspace/tests/malformed/malformed.tsv: one test per variant,
# calling run_malformed (bats/malformed.bash), then one that loads the
# unharmed nsa_exp.ko.
# usage: gen-malformed.sh MALFORMED.tsv > 070-malformed.bats
set -euo pipefail
table=$1
echo "# Generated from $(basename "$table") by bats/gen-malformed.sh: edit the table."
echo "load helpers"
echo "load malformed"
awk -F'\t' '!/^#/ && NF {
	what = $2 == "-" ? "loads" : "refused with " $2
	printf "\n@test \"malformed %s: %s\" {\n\trun_malformed %s\n}\n", $1, what, $1
}' "$table"
cat <<'BATS'

@test "malformed: after them all nsa_exp.ko itself loads and unloads, and the kernel never warned" {
	refute is_loaded nsa_exp
	dmesg -C
	run insmod "$(ko nsa_exp)"
	assert_success
	assert is_loaded nsa_exp
	run rmmod nsa_exp
	assert_success
	refute is_loaded nsa_exp
	run kmsg
	refute_output --regexp "malformed|Invalid ELF"
	assert_no_report
	assert_not_tainted
}
BATS
