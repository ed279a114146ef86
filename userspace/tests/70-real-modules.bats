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

# every_case NSCHECK-ARGS...: each case nscheck can decide, its files in
# order after the arguments.
every_case() {
	local case first module errno message want modpost files m n=0
	while IFS=$'\t' read -r case first module errno message want modpost; do
		[[ -z $case || $case == \#* || $want == - ]] && continue
		files=()
		for m in $first $module; do
			[[ $m == - ]] || files+=("$REAL/ko/$m.ko")
		done
		run --separate-stderr nscheck "$@" "${files[@]}"
		[[ $status == "$want" ]] ||
			fail "$case: exit $status, want $want: $output $stderr"
		if [[ $message != - ]]; then
			assert_line "$message"
		fi
		n=$((n + 1))
	done <"$REAL/cases.tsv"
	((n > 0))
}

@test "real modules: every case nscheck can decide, as in cases.tsv" {
	every_case --kdir "$KOBJ"
}

@test "real modules: the same, as the guest's differential asks" {
	local stage=${NSCHECK_KSTAGE:-$NSCHECK_BUILD/../kernel/stage} kver
	kver=$(cat "$KOBJ/kernelrelease")
	[[ -d $stage/lib/modules/$kver ]] || skip "no staged modules"
	# nscheck -E Module.symvers --trusted-key signing_key.x509, on the
	# guest's module tree (its modules.builtin.modinfo).
	every_case -E "$KOBJ/Module.symvers" \
		--trusted-key "$KOBJ/certs/signing_key.x509" -b "$stage" -k "$kver"
}
