#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Options, usage errors and exit statuses.

load helpers

@test "--help prints the usage and exits 0" {
	run nscheck --help
	assert_success
	assert_line --partial "Usage:"
	assert_line --partial "--symvers=FILE"
}

@test "--version exits 0 and says which decompressors are built in" {
	run nscheck -V
	assert_success
	# The Makefile's version, and git's description of the build.
	assert_line --index 0 --regexp '^nscheck version [0-9]+\.[0-9]+(-g[0-9a-f]+(-dirty)?)?$'
	# OpenSSL reads certificates and signatures (--trusted-key).
	assert_line --index 1 --regexp '^[+-]XZ [+-]ZSTD [+-]ZLIB [+-]OPENSSL$'
}

@test "no module is a usage error (2)" {
	run --separate-stderr nscheck
	assert_failure 2
	[[ $stderr == *"nscheck: ERROR: missing module argument"* ]]
}

@test "an unknown option is a usage error (2), said once" {
	run --separate-stderr nscheck --frobnicate "$FX/imp_plain.ko"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "nscheck: ERROR: unrecognized option '--frobnicate'; see --help"
	run --separate-stderr nscheck -Z "$FX/imp_plain.ko"
	assert_failure 2
	assert_equal "$stderr" "nscheck: ERROR: invalid option -- 'Z'; see --help"
	run --separate-stderr nscheck "$FX/imp_plain.ko" --kdir
	assert_failure 2
	assert_equal "$stderr" "nscheck: ERROR: option '--kdir' needs an argument; see --help"
}

@test "--all with modules is a usage error (2)" {
	run nscheck --all "$FX/imp_plain.ko"
	assert_failure 2
	assert_output --partial "give no module"
}

@test "exit 0 when every module would load, and nothing on stdout" {
	run --separate-stderr nsk exp_a.ko imp_ok.ko imp_plain.ko
	assert_success
	assert_output ""
}

@test "exit 1 when a module would be refused" {
	run nsk exp_a.ko imp_none.ko
	assert_failure 1
}

@test "exit 2 beats exit 1: a refusal and an unreadable file" {
	run nsk exp_a.ko imp_none.ko missing.ko
	assert_failure 2
	assert_line "module imp_none not allowed to reference namespace \`MRES' for a_fn"
}

@test "an unreadable module does not stop the others" {
	run --separate-stderr nsk missing.ko exp_a.ko imp_none.ko
	assert_failure 2
	assert_output "module imp_none not allowed to reference namespace \`MRES' for a_fn"$'\n'"imp_none: Unknown symbol a_fn (err -13)"
	assert_error_names missing.ko
}

@test "--quiet prints nothing on stdout and keeps the status" {
	run --separate-stderr nsk -q exp_a.ko imp_none.ko
	assert_failure 1
	assert_output ""
}

@test "--verbose says what would load and counts" {
	run --separate-stderr nsk -v exp_a.ko imp_none.ko
	assert_failure 1
	[[ $stderr == *"exp_a.ko: exp_a would load"* ]]
	[[ $stderr == *"checked 2 modules: 1 would load, 1 refused, 0 unreadable"* ]]
}

@test "-E reads vmlinux's exports from a Module.symvers" {
	run nscheck -E "$FX/kdir/Module.symvers" "$FX/imp_unknown.ko"
	assert_failure 1
	assert_output "imp_unknown: Unknown symbol no_such_symbol (err -2)"
}

@test "-E is repeatable: vmlinux's exports from several files" {
	local a=$BATS_TEST_TMPDIR/a.symvers b=$BATS_TEST_TMPDIR/b.symvers
	grep -w printk "$FX/kdir/Module.symvers" >"$a"
	grep -w v_gpl_fn "$FX/kdir/Module.symvers" >"$b"
	run nscheck -E "$a" -E "$b" "$FX/exp_a.ko" "$FX/imp_plain.ko"
	assert_success
	run nscheck -E "$a" "$FX/exp_a.ko" "$FX/imp_plain.ko"
	assert_failure 1
	assert_output "imp_plain: Unknown symbol v_gpl_fn (err -2)"
}

@test "without any Module.symvers nscheck warns and assumes vmlinux exports" {
	# A tree that exists, with no build/Module.symvers in it.
	mkdir -p "$BATS_TEST_TMPDIR/lib/modules/none"
	run --separate-stderr nscheck -b "$BATS_TEST_TMPDIR" -k none "$FX/imp_plain.ko" "$FX/imp_unknown.ko"
	assert_success
	[[ $stderr == *"WARNING: no Module.symvers"* ]]
}

@test "a missing or mistyped tree fails closed (2), naming the folder" {
	local b=$BATS_TEST_TMPDIR/empty
	mkdir -p "$b"
	# -k with a typo: the folder it looked in, and how to name another.
	run --separate-stderr nscheck -b "$b" -k 6.1.0-57-amd46 "$FX/imp_unknown.ko"
	assert_failure 2
	assert_output ""
	assert_error_names "$b/lib/modules/6.1.0-57-amd46: no module tree there"
	[[ $stderr == *"-b DIR and -k KVER"*"--kdir DIR"* ]] || fail "$stderr"
	# -b alone: the running kernel's release under an empty base.
	run --separate-stderr nscheck -b "$b" "$FX/imp_unknown.ko"
	assert_failure 2
	assert_error_names "$b/lib/modules/$(uname -r): no module tree there"
	[[ $stderr == *"its release the running kernel's"* ]] || fail "$stderr"
	# -k alone, and --graph, on a release that is not there.
	run --separate-stderr nscheck -k 0.0-no-such-release "$FX/imp_unknown.ko"
	assert_failure 2
	assert_error_names "/lib/modules/0.0-no-such-release: no module tree there"
	run --separate-stderr nscheck --graph -b "$b" -k 6.1.0-57-amd46
	assert_failure 2
	assert_output ""
	assert_error_names "$b/lib/modules/6.1.0-57-amd46"
	# Pointed at with -E given too: still the tree it was told to read.
	run --separate-stderr nscheck -E "$FX/kdir/Module.symvers" -b "$b" -k x "$FX/imp_ok.ko"
	assert_failure 2
}

@test "no option and no tree for the running kernel: exit 2, not 'loads'" {
	[[ ! -d /lib/modules/$(uname -r) ]] || skip "this machine has its tree"
	run --separate-stderr nscheck "$FX/imp_unknown.ko"
	assert_failure 2
	assert_error_names "/lib/modules/$(uname -r): no module tree there"
	[[ $stderr == *"-E FILE"* ]] || fail "$stderr"
	run --separate-stderr nscheck --graph
	assert_failure 2
	assert_output ""
	# What needs no tree still works: -E, --kdir.
	run nscheck -E "$FX/kdir/Module.symvers" "$FX/imp_unknown.ko"
	assert_failure 1
	run nsk imp_unknown.ko
	assert_failure 1
	assert_output "imp_unknown: Unknown symbol no_such_symbol (err -2)"
}

@test "docs: --help and the man page say what install ships" {
	run nscheck --help
	assert_success
	assert_line --partial "--overlay=PATH..."
	refute_line --partial "--overlay=KDIR"
	refute_line --partial "(--kdir: its own, if on)"
	assert_line --partial "without it, --kdir's key when"
	assert_line "not exist, or unreadable input (--suggest, --graph: 0 or 2)."
	# The JSON schema and its rows are in the installed man page.
	local man=$NSCHECK_BUILD/nscheck.1
	[[ -f $man ]] || skip "no man page built"
	! grep -q README "$man" || fail "the man page points to a README"
	grep -q '^\.SH JSON' "$man" || fail "no JSON section"
	grep -q 'undeclared-namespace' "$man"
	grep -q 'O does not list R, another loaded object X does' "$man"
	! grep -q 'overlay\*=_KDIR_\|--overlay\\fR=\\fIKDIR' "$man" || fail "KDIR"
}

@test "-v counts one module as one module" {
	run --separate-stderr nsk -v exp_a.ko
	assert_success
	[[ $stderr == *"checked 1 module: 1 would load, 0 refused, 0 unreadable"* ]] ||
		fail "$stderr"
}
