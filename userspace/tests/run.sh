#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check: every suite with the plain build and with the ASan+UBSan
# build; the corrupt inputs, the verdicts, trees, names and --all also
# under valgrind.
# Ends with one "N passed, N failed" line. Usage: run.sh BUILD_DIR
set -uo pipefail

build=$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)
tests=$(cd "$(dirname "$0")" && pwd)
valgrind=(valgrind -q --error-exitcode=99 --leak-check=full
	--suppressions="$tests/libkmod.supp"
	--errors-for-leak-kinds=definite,indirect
	--show-leak-kinds=definite,indirect)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0

pass() {
	echo "# nscheck tests: $1"
	shift
	env NSCHECK_BUILD="$build" "$@" | tee -a "$log" || rc=1
}

pass "plain build" bats --tap "$tests"
pass "under valgrind" NSCHECK_WRAP="${valgrind[*]}" bats --tap \
	"$tests/10-verdicts.bats" "$tests/22-lists.bats" \
	"$tests/24-signatures.bats" "$tests/40-bad-input.bats" \
	"$tests/46-malformed.bats" "$tests/47-fuzz-regressions.bats" \
	"$tests/60-tree.bats" "$tests/65-search-order.bats" \
	"$tests/66-names.bats" "$tests/80-suggest.bats" \
	"$tests/87-overlay.bats" "$tests/88-live.bats" "$tests/89-graph.bats"
pass "ASan+UBSan build" NSCHECK_BIN="$build/asan/nscheck" \
	ASAN_OPTIONS=exitcode=99:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1 \
	bats --tap "$tests"

skipped=$(grep -c '^ok .* # skip' "$log")
passed=$(($(grep -c '^ok ' "$log") - skipped))
failed=$(grep -c '^not ok ' "$log")
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0 && rc == 0))
