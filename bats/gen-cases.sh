#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write a bats suite over modules/cases.tsv: one test per case, calling
# FUNCTION (bats/cases.bash) with the case's name.
#   run_case          every case: what insmod and the kernel do
#   run_differential  cases nscheck can decide: its prediction against
#                     what the kernel does
# usage: gen-cases.sh FUNCTION CASES.tsv > x.bats
set -euo pipefail
fn=$1 cases=$2
echo "# Generated from $(basename "$cases") by bats/gen-cases.sh: edit the table."
echo "load helpers"
echo "load cases"
awk -F'\t' -v fn="$fn" '!/^#/ && NF {
	if (fn == "run_differential" && $6 == "-")
		next
	what = fn == "run_case" ? ($4 == "-" ? "loads" : "refused with " $4) \
				: "nscheck predicts exit " $6
	if ($8 != "" && $8 != "-")
		what = what " if " $8 ", else as 6.1"
	printf "\n@test \"%s %s: %s\" {\n\t%s %s\n}\n", \
		(fn == "run_case" ? "case" : "nscheck"), $1, what, fn, $1
}' "$cases"
