#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Real modules built against the patched kernel, when the project's build
# has them (build/payload: ko/, cases.tsv, and the kernel's build tree in
# build/kernel/obj): nscheck's prediction for each case of modules/cases.tsv
# must be the table's. Skipped when they are not built.

load helpers

setup() {
	REAL=${NSCHECK_REAL:-$NSCHECK_BUILD/../payload}
	KOBJ=${NSCHECK_KOBJ:-$NSCHECK_BUILD/../kernel/obj}
	[[ -f $REAL/cases.tsv && -d $REAL/ko && -f $KOBJ/Module.symvers ]] ||
		skip "no real modules built (build/payload, build/kernel/obj)"
}

@test "real modules: every case nscheck can decide, as in cases.tsv" {
	local case first module errno message want files m n=0
	while IFS=$'\t' read -r case first module errno message want; do
		[[ -z $case || $case == \#* || $want == - ]] && continue
		files=()
		for m in $first $module; do
			[[ $m == - ]] || files+=("$REAL/ko/$m.ko")
		done
		run --separate-stderr nscheck --kdir "$KOBJ" "${files[@]}"
		[[ $status == "$want" ]] ||
			fail "$case: exit $status, want $want: $output $stderr"
		if [[ $message != - ]]; then
			assert_line "$message"
		fi
		n=$((n + 1))
	done <"$REAL/cases.tsv"
	((n > 0))
}
