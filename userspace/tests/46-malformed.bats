#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed grants: the corrupted variants of nsa_exp.ko that the guest
# loads (malformed/malformed.tsv, written by malformed/
# gen-malformed.py). nscheck answers each with the table's exit status:
# 2 with an error naming the file, the kernel's own line for a malformed
# record; 0 with nothing on stderr but warnings naming the file. Made from
# the fixture nsa_exp.ko, and from the real build/modules/ko/nsa_exp.ko
# too when the modules are built (NSA_EXP_KO names another). make check
# runs this suite under valgrind and with ASan+UBSan too.

load helpers

TOP=$BATS_TEST_DIRNAME/../..
TABLE=$BATS_TEST_DIRNAME/malformed/malformed.tsv
GEN=$BATS_TEST_DIRNAME/malformed/gen-malformed.py
REAL_KO=${NSA_EXP_KO:-$TOP/build/modules/ko/nsa_exp.ko}

setup_file() {
	"$GEN" "$FX/nsa_exp.ko" "$TABLE" "$BATS_FILE_TMPDIR/fixture"
	if [[ -f $REAL_KO ]]; then
		"$GEN" "$REAL_KO" "$TABLE" "$BATS_FILE_TMPDIR/real"
	fi
}

# check_variants DIR: nscheck on every variant in DIR against the table.
# All of them are tried; the failures are listed together.
check_variants() {
	local dir=$1 variant errno message expect why f line bad=() n=0

	while IFS=$'\t' read -r variant errno message expect why; do
		f=$dir/$variant.ko
		n=$((n + 1))
		run --separate-stderr nsk "$f"
		if [[ $status != "$expect" ]]; then
			bad+=("$variant: exit $status, not $expect: $stderr")
			continue
		fi
		if [[ $expect == 2 ]]; then
			[[ $stderr == "nscheck: ERROR: $f: "* ]] ||
				bad+=("$variant: the error does not name the file: $stderr")
		else
			while IFS= read -r line; do
				[[ -z $line || $line == "nscheck: WARNING: $f: "* ]] ||
					bad+=("$variant: stderr: $line")
			done <<<"$stderr"
		fi
		# The kernel's line, word for word, when it names the module
		# (the offsets are the same in the fixture: the same records,
		# a zero after them); 6.1's own ELF checks print none.
		if [[ $message == "nsa_exp: "* && $output != "$message" ]]; then
			bad+=("$variant: printed '$output', the kernel '$message'")
		elif [[ $message != "nsa_exp: "* && -n $output ]]; then
			bad+=("$variant: printed '$output', the kernel nothing of the module")
		fi
	done < <(grep -v '^#' "$TABLE")
	((n >= 20)) || bad+=("only $n variants in $TABLE")
	((${#bad[@]} == 0)) || fail "$(printf '%s\n' "${bad[@]}")"
}

@test "malformed: every variant of the fixture nsa_exp.ko, as the table says" {
	check_variants "$BATS_FILE_TMPDIR/fixture"
}

@test "malformed: every variant of the real nsa_exp.ko, as the table says" {
	[[ -f $REAL_KO ]] || skip "no $REAL_KO (make modules)"
	check_variants "$BATS_FILE_TMPDIR/real"
}

@test "malformed: unprintable and huge modinfo values are shown escaped and cut" {
	local f=$BATS_FILE_TMPDIR/fixture/modinfo_garbage.ko
	run --separate-stderr nsk "$f"
	assert_failure 2
	assert_error_names "$f: modinfo allow_ns= entries do not match the __ns_allow records: allow_ns=\\x"
	[[ $stderr != *[$'\x01'-$'\x1f'$'\x7f']* ]] || fail "raw bytes: $stderr"
	f=$BATS_FILE_TMPDIR/fixture/modinfo_huge.ko
	run --separate-stderr nsk "$f"
	assert_failure 2
	assert_error_names "$f: modinfo allow_ns= entries do not match the __ns_allow records: allow_ns=NSA_RESTR:mmm"
	[[ $stderr == *"m...(4106 bytes) is not a record"* ]] || fail "not cut: $stderr"
	((${#stderr} < 400)) || fail "${#stderr} characters"
}

@test "malformed: the error says which grant modinfo and the records disagree on" {
	local v f want
	for v in size_zero flags_noalloc flags_write relocated second_alloc modinfo_mismatch modinfo_unterminated; do
		f=$BATS_FILE_TMPDIR/fixture/$v.ko
		case $v in
		size_zero) want="modinfo allow_ns= entries do not match the __ns_allow records: allow_ns=NSA_RESTR:0nsa_digit is not a record" ;;
		flags_noalloc) want="__ns_allow section is not allocated" ;;
		flags_write) want="__ns_allow section is writable" ;;
		relocated) want="relocations target the __ns_allow section" ;;
		second_alloc) want="more than one __ns_allow section" ;;
		modinfo_mismatch) want="modinfo allow_ns= entries do not match the __ns_allow records: allow_ns=NSA_RESTR:nsa_denied is not a record" ;;
		modinfo_unterminated) want="modinfo allow_ns= entries do not match the __ns_allow records: allow_ns=NSA_RESTR:nsa_user is not NUL-terminated (it ends .modinfo)" ;;
		esac
		run --separate-stderr nsk "$f"
		assert_failure 2
		assert_error_names "$f: $want"
		assert_output "nsa_exp: ${want%%: *}"
	done
}

@test "malformed: JSON names each section-level refusal, -ENOEXEC, malformed" {
	local v kind f
	for v in flags_noalloc:section-not-allocated flags_write:section-writable \
		 relocated:section-relocated second_alloc:duplicate-section; do
		f=$BATS_FILE_TMPDIR/fixture/${v%%:*}.ko
		kind=${v#*:}
		run --separate-stderr nsk --json "$f"
		assert_failure 2
		jq -e --arg k "$kind" '.modules[0] | .status == "malformed" and
			.findings[0].verdict == $k and .findings[0].errno == -8' \
			<<<"$output" >/dev/null || fail "${v%%:*}: $output"
	done
}

@test "malformed: the generator names a file it cannot use, and a bad row" {
	local t=$BATS_TEST_TMPDIR
	echo "not a module" >"$t/text.ko"
	run "$GEN" "$t/text.ko" "$TABLE" "$t/out"
	assert_failure 1
	assert_output "gen-malformed: $t/text.ko: not an ELF file"
	run "$GEN" "$FX/imp_plain.ko" "$TABLE" "$t/out"
	assert_failure 1
	assert_output "gen-malformed: $FX/imp_plain.ko: no allocated __ns_allow section"
	printf '# comment\nsize_zero\t-\t-\t0\twhy\nno_such\t-\t-\t0\twhy\n' >"$t/bad.tsv"
	run "$GEN" "$FX/nsa_exp.ko" "$t/bad.tsv" "$t/out"
	assert_failure 1
	assert_output "gen-malformed: $t/bad.tsv:3: unknown variant 'no_such'"
	[[ ! -e $t/out ]] || fail "wrote $t/out all the same"
}
