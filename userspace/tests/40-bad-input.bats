#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Inputs nscheck cannot read: exit 2, a message naming the file in kmod's
# style on stderr, never a crash. make check runs this suite under
# valgrind and with ASan+UBSan too.

load helpers

# bad FILE WHAT...: nscheck on FILE exits 2 and says FILE: WHAT.
bad() {
	local file=$1
	shift
	run --separate-stderr nsk "$file"
	assert_failure 2
	assert_error_names "$file: $*"
}

@test "bad: a missing file" {
	bad missing.ko "No such file or directory"
}

@test "bad: a file that is not ELF" {
	local f=$BATS_TEST_TMPDIR/text.ko
	echo "not a module" >"$f"
	bad "$f" "not an ELF file"
}

@test "bad: an empty file" {
	local f=$BATS_TEST_TMPDIR/empty.ko
	: >"$f"
	bad "$f" "empty file"
}

@test "bad: a directory" {
	bad "$BATS_TEST_TMPDIR" "is a directory"
}

@test "bad: truncated inside the sections" {
	local f=$BATS_TEST_TMPDIR/trunc.ko
	head -c 1500 "$FX/exp_a.ko" >"$f"
	bad "$f" "truncated: the section header table (at byte $(peek "$FX/exp_a.ko" 40 8)) ends past the end of the file (1500 bytes)"
}

@test "bad: truncated to the ELF header" {
	local f=$BATS_TEST_TMPDIR/trunc.ko
	head -c 64 "$FX/exp_a.ko" >"$f"
	bad "$f" "truncated: the section header table (at byte $(peek "$FX/exp_a.ko" 40 8)) ends past the end of the file (64 bytes)"
}

@test "bad: truncated inside the ELF header" {
	local f=$BATS_TEST_TMPDIR/trunc.ko
	head -c 10 "$FX/exp_a.ko" >"$f"
	bad "$f" "truncated: 10 bytes, shorter than an ELF header"
}

@test "bad: section header table offset past the end" {
	local f
	f=$(fixture_copy exp_a.ko)
	poke "$f" 40 0 0 0 0 1 0 0 0
	bad "$f" "truncated: the section header table (at byte 4294967296) ends past the end of the file"
}

@test "bad: section name table index out of range" {
	local f
	f=$(fixture_copy exp_a.ko)
	poke "$f" 62 250 0
	bad "$f" "corrupt section header table"
}

@test "bad: section header entry size" {
	local f
	f=$(fixture_copy exp_a.ko)
	poke "$f" 58 32 0
	bad "$f" "corrupt section header table"
}

@test "bad: a section past the end of the file" {
	local f
	f=$(fixture_copy exp_a.ko)
	poke "$f" "$(shdr_field "$f" 1 24)" 0 0 0 0x7f 0 0 0 0
	bad "$f" "corrupt section header 1: the section ends past the end of the file"
}

@test "bad: a section name outside the name table" {
	local f
	f=$(fixture_copy exp_a.ko)
	poke "$f" "$(shdr_field "$f" 1 0)" 0 0 0 0x7f
	bad "$f" "corrupt name of section 1"
}

@test "bad: the symbol table links to no string table" {
	local f
	f=$(fixture_copy exp_a.ko)
	poke "$f" "$(shdr_field "$f" "$(section_index "$f" .symtab)" 40)" 0 0 0 0
	bad "$f" "corrupt symbol table or its string table"
}

@test "bad: a symbol name outside the string table" {
	local f symoff
	f=$(fixture_copy exp_a.ko)
	symoff=$(peek "$f" "$(shdr_field "$f" "$(section_index "$f" .symtab)" 24)" 8)
	poke "$f" $((symoff + 24)) 0 0 0 0x7f
	bad "$f" "corrupt symbol 1"
}

@test "bad: a namespace string outside __ksymtab_strings" {
	local f symoff idx
	f=$(fixture_copy exp_a.ko)
	symoff=$(peek "$f" "$(shdr_field "$f" "$(section_index "$f" .symtab)" 24)" 8)
	idx=$(readelf -sW "$f" | awk '$8 == "__kstrtabns_a_fn" { sub(":", "", $1); print $1 }')
	poke "$f" $((symoff + idx * 24 + 8)) 0 0 1 0 0 0 0 0
	bad "$f" "corrupt namespace string of a_fn"
}

@test "bad: not a relocatable object" {
	local f
	f=$(fixture_copy exp_a.ko)
	poke "$f" 16 2 0
	bad "$f" "ELF type 2 is not a relocatable object"
}

@test "bad: no symbol table" {
	local f=$BATS_TEST_TMPDIR/stripped.ko
	strip -o "$f" "$FX/exp_a.ko"
	bad "$f" "no symbol table (stripped?)"
}

@test "bad: no .gnu.linkonce.this_module" {
	bad nothis.ko "no .gnu.linkonce.this_module section: not a kernel module"
}

@test "bad: corrupt compressed modules" {
	local f=$BATS_TEST_TMPDIR/c.ko.xz
	head -c 300 "$FX/exp_a_xz.ko.xz" >"$f"
	! has XZ || bad "$f" "xz: corrupt or truncated data"
	f=$BATS_TEST_TMPDIR/c.ko.zst
	printf '\x28\xb5\x2f\xfdgarbage' >"$f"
	! has ZSTD || bad "$f" "zstd:"
	f=$BATS_TEST_TMPDIR/c.ko.gz
	printf '\x1f\x8bgarbage' >"$f"
	! has ZLIB || bad "$f" "gzip: corrupt or truncated data"
}

@test "bad: modinfo allow_ns that is not a record: refused, as the kernel" {
	local m line
	for m in nocolon twocolons char emptyns emptymod long; do
		case $m in
		nocolon) line="allow_ns=NOCOLON has no ':'" ;;
		twocolons) line="allow_ns=A:b:c is not a record" ;;
		char) line="allow_ns=A-B:c is not a record" ;;
		emptyns) line="allow_ns=:m is not a record" ;;
		emptymod) line="allow_ns=N: is not a record" ;;
		long) line="allow_ns=N:$(printf 'm%.0s' {1..56}) is not a record" ;;
		esac
		bad "bad_info_$m.ko" "modinfo allow_ns= entries do not match the __ns_allow records: $line"
		assert_output "bad_info_$m: modinfo allow_ns= entries do not match the __ns_allow records"
	done
}

# Malformed __ns_allow: the offset is that of the first string that is not
# a record or has no final NUL.
malformed() {
	local name=$1 offset=$2
	run --separate-stderr nsk "$name.ko"
	assert_failure 2
	# The kernel's line once, on stdout; the error says what is wrong.
	assert_output "$name: malformed namespace allow record at offset $offset"
	assert_error_names "$name.ko: "
	[[ $stderr == *" at offset $offset"* && $stderr != *"malformed namespace allow record"* ]] ||
		fail "the error repeats the kernel's line, or no offset: $stderr"
}

@test "malformed: a grant for a name with '-': the record, and why, once" {
	run --separate-stderr nsk rec_dash.ko
	assert_failure 2
	assert_output "rec_dash: malformed namespace allow record at offset 0"
	assert_equal "$stderr" "nscheck: ERROR: rec_dash.ko: record \`NS:my-friend' at offset 0: '-' in the module name: module names use '_', as the kernel's mod->name (NS:my_friend)"
}

@test "malformed: each kind of bad record says why" {
	local spec name why
	for spec in "rec_nonul|record \`C:d' at offset 4: no NUL after it" \
		"rec_lead|an empty record at offset 0" \
		"rec_nocolon|record \`Cd' at offset 4: no ':' between" \
		"rec_twocolons|record \`A:b:c' at offset 0: a second ':'" \
		"rec_char|record \`N-S:m' at offset 4: '-' in the namespace" \
		"rec_emptyns|record \`:m' at offset 4: an empty namespace" \
		"rec_longmod2|a module name of 56 characters, more than 55" \
		"rec_nobits|SHT_NOBITS"; do
		name=${spec%%|*} why=${spec#*|}
		run --separate-stderr nsk "$name.ko"
		assert_failure 2
		[[ $stderr == "nscheck: ERROR: $name.ko: "*"$why"* ]] ||
			fail "$name: $stderr"
	done
}

@test "malformed: no final NUL" {
	malformed rec_nonul 4
}

@test "malformed: a bad string before a missing final NUL" {
	malformed rec_early 0
}

@test "malformed: a leading NUL (an empty string)" {
	malformed rec_lead 0
}

@test "malformed: two NULs in a row (an empty string)" {
	malformed rec_double 4
}

@test "malformed: no colon" {
	malformed rec_nocolon 4
}

@test "malformed: two colons" {
	malformed rec_twocolons 0
}

@test "malformed: a character outside [A-Za-z0-9_]" {
	malformed rec_char 4
}

@test "malformed: an empty side" {
	malformed rec_emptyns 4
	malformed rec_emptymod 0
}

@test "malformed: a 128-character namespace" {
	malformed rec_longns 4
}

@test "malformed: a 56-character module name" {
	malformed rec_longmod 0
	malformed rec_longmod2 0
}

@test "malformed: an SHT_NOBITS section (zeros)" {
	malformed rec_nobits 0
}

@test "malformed: the other modules are still checked" {
	run --separate-stderr nsk exp_a.ko rec_char.ko imp_none.ko
	assert_failure 2
	assert_line --index 0 "rec_char: malformed namespace allow record at offset 4"
	assert_line --index 1 "module imp_none not allowed to reference namespace \`MRES' for a_fn"
}

# A Module.symvers with one broken line among good ones.
symvers_line() {
	local f=$BATS_TEST_TMPDIR/Module.symvers
	{
		head -2 "$FX/kdir/Module.symvers"
		printf "$1"
		tail -1 "$FX/kdir/Module.symvers"
	} >"$f"
	run --separate-stderr nscheck -E "$f" "$FX/imp_plain.ko"
	assert_failure 2
	assert_error_names "$f: line 3: malformed Module.symvers line: $2"
}

@test "symvers: four fields" {
	symvers_line '0x1\tfoo\tvmlinux\tEXPORT_SYMBOL\n' "fewer than 5"
}

@test "symvers: six fields" {
	symvers_line '0x1\tfoo\tvmlinux\tEXPORT_SYMBOL\tNS\textra\n' "more than 5"
}

@test "symvers: bad CRC" {
	symvers_line 'zz\tfoo\tvmlinux\tEXPORT_SYMBOL\t\n' "CRC"
}

@test "symvers: bad export type" {
	symvers_line '0x1\tfoo\tvmlinux\tEXPORT_SYMBOL_FUTURE\t\n' "export type"
}

@test "symvers: empty lines are skipped, as depmod -E skips them" {
	local f=$BATS_TEST_TMPDIR/Module.symvers
	{
		head -2 "$FX/kdir/Module.symvers"
		echo
		tail -n +3 "$FX/kdir/Module.symvers"
		echo
	} >"$f"
	run nscheck -E "$f" "$FX/imp_vopen.ko"
	assert_failure 1
	# The exports after the blank line count: v_open_fn is VOPEN's.
	assert_line --index 0 "imp_vopen: module uses symbol (v_open_fn) from namespace VOPEN, but does not import it."
}

@test "symvers: spaces instead of tabs" {
	symvers_line '0x1 foo vmlinux EXPORT_SYMBOL\n' "fewer than 5"
}

@test "symvers: an empty symbol" {
	symvers_line '0x1\t\tvmlinux\tEXPORT_SYMBOL\t\n' "bad symbol name"
}

@test "symvers: a missing file" {
	run --separate-stderr nscheck -E "$BATS_TEST_TMPDIR/nope" "$FX/imp_plain.ko"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/nope: No such file or directory"
}

@test "kdir: a build tree without Module.symvers" {
	run --separate-stderr nscheck --kdir "$BATS_TEST_TMPDIR" "$FX/imp_plain.ko"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/Module.symvers"
}

@test "modules.builtin.modinfo with a bad allow_ns" {
	local k=$BATS_TEST_TMPDIR/kdir
	mkdir "$k"
	cp "$FX/kdir/Module.symvers" "$k"
	printf 'a.license=GPL\0a.allow_ns=VRES:imp-v\0' >"$k/modules.builtin.modinfo"
	run --separate-stderr nscheck --kdir "$k" "$FX/imp_v.ko"
	assert_failure 2
	assert_error_names "$k/modules.builtin.modinfo: bad a.allow_ns=VRES:imp-v"
}
