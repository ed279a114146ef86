#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The inputs the fuzzers (fuzz/, make fuzz) found a bug with, kept in
# data/fuzz/: nscheck answers 0, 1 or 2, names the file it cannot read,
# and no sanitizer or valgrind report. make check runs this suite under
# valgrind and with ASan+UBSan too.

load helpers

DATA=$BATS_TEST_DIRNAME/data/fuzz

# --suggest on the given modules alone: an empty tree, no Module.symvers.
sug_alone() {
	mkdir -p "$BATS_TEST_TMPDIR/lib/modules/none"
	nscheck --suggest -b "$BATS_TEST_TMPDIR" -k none "$@"
}

# The last run ended with status 0, 1 or 2 and no report on stderr.
assert_clean() {
	((status <= 2)) || fail "exit $status: $stderr"
	[[ $stderr != *"runtime error"* && $stderr != *Sanitizer* &&
	   ! $stderr =~ ==[0-9]+== ]] || fail "a report: $stderr"
}

@test "fuzz: --suggest when no export has a user (qsort of no groups)" {
	# Found by fuzz-ko: an empty file, no Module.symvers. --suggest had
	# no group and passed qsort() a NULL array (UBSan: nonnull).
	local f=$DATA/suggest-empty.bin
	run --separate-stderr sug_alone "$f"
	assert_clean
	assert_failure 2
	assert_error_names "$f: empty file, not an ELF module"
	assert_output --partial "0 exports from 0 exporters"
}

@test "fuzz: every kept input, checked and with --suggest" {
	local f
	for f in "$DATA"/*; do
		run --separate-stderr nsk "$f"
		assert_clean
		((status < 2)) || assert_error_names "$f: "
		run --separate-stderr sug_alone "$f"
		assert_clean
		((status < 2)) || assert_error_names "$f: "
	done
}
