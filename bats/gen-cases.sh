#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the bats suite for modules/cases.tsv: one test per case, each
# calling run_case (bats/cases.bash). usage: gen-cases.sh CASES.tsv > x.bats
set -euo pipefail
echo "# Generated from $(basename "$1") by bats/gen-cases.sh: edit the table."
echo "load helpers"
echo "load cases"
awk -F'\t' '!/^#/ && NF {
	printf "\n@test \"case %s: %s\" {\n\trun_case %s\n}\n", $1, \
		($4 == "-" ? "loads" : "refused with " $4), $1
}' "$1"
