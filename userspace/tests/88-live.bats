#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --live: a fake running system under --root, made from the fixtures:
# /proc/modules (newest first), /proc/sys/kernel/osrelease, the module
# tree, /sys/module/M/notes, and the series' debugfs index and trusted
# list as the kernel prints them. The index, not the files, says which
# grants and restrictions count.

load helpers

IDX=sys/kernel/debug/module_ns_allow

setup() {
	mktree
	mkdir -p "$T/proc/sys/kernel" "$T/$IDX"
	echo "$KVER" >"$T/proc/sys/kernel/osrelease"
	: >"$T/proc/modules"
	# vmlinux's lines, as the kernel prints modules.builtin.modinfo's.
	printf '%s\n' "VRES vmlinux exports imp_v,prop_v" \
		"MRES vmlinux - imp_wrong_v" >"$T/$IDX/index"
}

# loaded FIXTURE [TAINT]: FIXTURE's file in the tree's extra/, its
# module loaded now (the newest).
loaded() {
	local name
	name=$(basename "${1%%.ko*}")
	mkdir -p "$M/extra"
	cp "$FX/$1" "$M/extra/"
	running "$name" "${2:-}"
}

# running NAME [TAINT]: a line of /proc/modules, put first (the newest).
running() {
	local f=$T/proc/modules
	{
		echo "$1 16384 0 - Live 0x0000000000000000${2:+ ($2)}"
		cat "$f"
	} >"$f.new"
	mv "$f.new" "$f"
}

# index LINE...: lines added to the index.
index() {
	printf '%s\n' "$@" >>"$T/$IDX/index"
}

nsl() {
	nscheck --live --root "$T" -E "$FX/kdir/Module.symvers" "$@"
}

# exp_a loaded, the index granting MRES to imp_ok and imp_none only
# (its file lists imp_ok and nine more, imp_none not among them).
exp_a_loaded() {
	loaded exp_a.ko OE
	index "MRES exp_a exports imp_ok,imp_none"
}

@test "live: a module the index lets in loads" {
	exp_a_loaded
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
}

@test "live: the index's grants count, not the loaded file's" {
	exp_a_loaded
	# dual_ok is on exp_a's file's list, not on the kernel's.
	run --separate-stderr nsl "$FX/dual_ok.ko"
	assert_failure 1
	assert_output "module dual_ok not allowed to reference namespace \`MRES' for a_fn
dual_ok: Unknown symbol a_fn (err -13)"
	# imp_none is on the kernel's list only.
	run --separate-stderr nsl "$FX/imp_none.ko"
	assert_success
	# Without exp_a's line the namespace is open: only the import counts.
	: >"$T/$IDX/index"
	run --separate-stderr nsl "$FX/dual_ok.ko" "$FX/imp_noimport.ko"
	assert_failure 1
	assert_output "imp_noimport: module uses symbol (a_fn) from namespace MRES, but does not import it.
imp_noimport: Unknown symbol a_fn (err -22)"
}

@test "live: vmlinux's grants are the index's, not modules.builtin.modinfo's" {
	run --separate-stderr nsl "$FX/imp_v.ko"
	assert_success
	run --separate-stderr nsl "$FX/imp_bad_v.ko"
	assert_failure 1
	assert_line "module imp_bad_v not allowed to reference namespace \`VRES' for v_res_fn"
	# The kernel does not restrict VRES: the tree's file says otherwise.
	printf 'MRES vmlinux - imp_wrong_v\n' >"$T/$IDX/index"
	run --separate-stderr nsl "$FX/imp_bad_v.ko"
	assert_success
}

@test "live: rows 4 and 6 from the index: another lister, an undeclared owner" {
	exp_a_loaded
	loaded exp_b.ko
	loaded zz_lister.ko
	index "MRES zz_lister - imp_two,imp_wrong_v"
	run --separate-stderr nsl "$FX/imp_two.ko" "$FX/imp_undecl.ko" "$FX/imp_wrong_v.ko"
	assert_failure 1
	assert_output "namespace \`MRES' for symbol \`b_fn' defined in wrong module \`zz_lister'
imp_two: Unknown symbol b_fn (err -13)
imp_undecl referencing undeclared namespace \`MRES' for b_fn
imp_undecl: Unknown symbol b_fn (err -13)
namespace \`MRES' for symbol \`a_fn' defined in wrong module \`vmlinux'
imp_wrong_v: Unknown symbol a_fn (err -13)"
}

@test "live: the index's flag says who restricts" {
	loaded exp_a.ko
	# exp_a's file exports into MRES; the kernel's word is that it
	# does not: MRES is open.
	index "MRES exp_a - imp_ok"
	run --separate-stderr nsl "$FX/dual_ok.ko"
	assert_success
}

@test "live: a loaded module already there, and the arguments in order" {
	exp_a_loaded
	run --separate-stderr nsl "$FX/exp_a_xz.ko.xz"
	assert_failure 1
	assert_output "exp_a: module is already loaded (err -17)"
	# One after the other: the second imp_ok finds the first.
	run --separate-stderr nsl "$FX/imp_ok.ko" "$FX/imp_ok_gz.ko.gz"
	assert_failure 1
	assert_output "imp_ok: module is already loaded (err -17)"
	# A newly loaded exporter's grants are its file's: exp_a makes
	# MRES restricted, and exp_b did not declare it.
	: >"$T/proc/modules"
	: >"$T/$IDX/index"
	run --separate-stderr nsl "$FX/exp_b.ko" "$FX/exp_a.ko" "$FX/imp_undecl.ko"
	assert_failure 1
	assert_output "imp_undecl referencing undeclared namespace \`MRES' for b_fn
imp_undecl: Unknown symbol b_fn (err -13)"
}

@test "live: --each checks every module on its own against the system" {
	exp_a_loaded
	run --separate-stderr nsl --each "$FX/imp_ok.ko" "$FX/imp_ok_gz.ko.gz" "$FX/dual_ok.ko"
	assert_failure 1
	assert_output "module dual_ok not allowed to reference namespace \`MRES' for a_fn
dual_ok: Unknown symbol a_fn (err -13)"
	# None of them sees the others: b_fn is nowhere.
	: >"$T/proc/modules"
	: >"$T/$IDX/index"
	run --separate-stderr nsl --each "$FX/exp_b.ko" "$FX/exp_a.ko" "$FX/imp_undecl.ko"
	assert_failure 1
	assert_output "imp_undecl: Unknown symbol b_fn (err -2)"
}

@test "live: --json, one entry a module" {
	exp_a_loaded
	run --separate-stderr nsl --json --each "$FX/imp_ok.ko" \
		"$FX/dual_ok.ko" "$FX/exp_a.ko"
	assert_failure 1
	assert_equal "$(jq -r '.modules[] | "\(.name) \(.status) \(.findings | map("\(.verdict) \(.errno)") | join(","))"' <<<"$output")" \
"imp_ok loads 
dual_ok refused not-allowed -13
exp_a refused already-loaded -17"
	assert_equal "$(jq -c .summary <<<"$output")" \
		'{"checked":3,"loads":1,"refused":2,"unreadable":0,"malformed":0,"missing_import":0}'
}

@test "live: the taint of /proc/modules, not the file's license" {
	loaded prop_exp.ko P
	run --separate-stderr nsl "$FX/gpl_user.ko"
	assert_failure 1
	assert_output "gpl_user: module using GPL-only symbols uses symbols p_fn from proprietary module prop_exp.
gpl_user: Unknown symbol p_fn (err -2)"
	# Loaded without the taint (as the kernel said): nothing to inherit.
	: >"$T/proc/modules"
	running prop_exp
	run --separate-stderr nsl "$FX/gpl_user.ko"
	assert_success
}

@test "live: a module loaded from outside the tree, found with --external" {
	mkdir -p "$BATS_TEST_TMPDIR/ext/sub"
	cp "$FX/exp_a.ko" "$BATS_TEST_TMPDIR/ext/sub/"
	running exp_a OE
	index "MRES exp_a exports imp_ok"
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_failure 2
	[[ $stderr == *"nscheck: ERROR: exp_a: loaded, but no file of it in $M"* ]] ||
		fail "stderr does not name exp_a: $stderr"
	run --separate-stderr nsl --external "$BATS_TEST_TMPDIR/ext" \
		"$FX/imp_ok.ko"
	assert_success
	assert_equal "$stderr" ""
	# A file of another name, named by its modinfo: renamed.ko is
	# renamed_ok.
	running renamed_ok
	run --separate-stderr nsl --external "$BATS_TEST_TMPDIR/ext" \
		--external "$FX/renamed.ko" "$FX/imp_ok.ko"
	assert_success
	run --separate-stderr nsl --external "$BATS_TEST_TMPDIR/no-such" "$FX/imp_ok.ko"
	assert_failure 2
}

@test "live: the loaded file is the one with the module's build ID" {
	local note=$BATS_TEST_TMPDIR/note id
	mkdir -p "$BATS_TEST_TMPDIR/ext" "$T/sys/module/exp_a/notes"
	# Two builds of exp_a: the tree's exports only a_fn.
	for id in 1 2; do
		printf '\x04\x00\x00\x00\x04\x00\x00\x00\x03\x00\x00\x00GNU\x00\xaa\xbb\xcc\x0'"$id" >"$note.$id"
	done
	mkdir -p "$M/extra"
	objcopy --add-section .note.gnu.build-id="$note.1" \
		--set-section-flags .note.gnu.build-id=alloc,readonly \
		"$FX/tree/exp_a.ko" "$M/extra/exp_a.ko"
	objcopy --add-section .note.gnu.build-id="$note.2" \
		--set-section-flags .note.gnu.build-id=alloc,readonly \
		"$FX/exp_a.ko" "$BATS_TEST_TMPDIR/ext/exp_a.ko"
	running exp_a
	cp "$note.2" "$T/sys/module/exp_a/notes/.note.gnu.build-id"
	run --separate-stderr nsl --external "$BATS_TEST_TMPDIR/ext" "$FX/imp_plain.ko"
	assert_success
	# The tree's build loaded: a_plain is not there.
	cp "$note.1" "$T/sys/module/exp_a/notes/.note.gnu.build-id"
	run --separate-stderr nsl --external "$BATS_TEST_TMPDIR/ext" "$FX/imp_plain.ko"
	assert_failure 1
	assert_output "imp_plain: Unknown symbol a_plain (err -2)"
	# A build of it nowhere.
	cp "$note.1" "$T/sys/module/exp_a/notes/.note.gnu.build-id"
	printf 'X' >>"$T/sys/module/exp_a/notes/.note.gnu.build-id"
	run --separate-stderr nsl --external "$BATS_TEST_TMPDIR/ext" \
		"$FX/imp_plain.ko"
	assert_failure 2
	[[ $stderr == *"exp_a: loaded, but no file with its build ID of it"* ]] ||
		fail "stderr: $stderr"
}

@test "live: no debugfs index: exit 2, naming the file" {
	rm "$T/$IDX/index"
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_failure 2
	assert_output ""
	assert_error_names "$T/$IDX/index: No such file or directory"
}

@test "live: a loaded module nowhere to be found: exit 2, naming it" {
	running no_such_mod
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_failure 2
	assert_error_names "no_such_mod: loaded, but no file of it"
}

@test "live: an index that cannot be read: exit 2, naming the line" {
	index "MRES"
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_failure 2
	assert_error_names "$T/$IDX/index:3: not"
	: >"$T/$IDX/index"
	index "MRES exp_a exports imp_ok"
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_failure 2
	assert_error_names "$T/$IDX/index:1: exp_a is not loaded"
	: >"$T/$IDX/index"
	index "MRES vmlinux sometimes imp_ok"
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_failure 2
	assert_error_names "$T/$IDX/index:1: not"
}

@test "live: an index it may not read: exit 2, naming the file" {
	chmod 000 "$T/$IDX/index"
	if [ -r "$T/$IDX/index" ]; then
		skip "root reads a mode 000 file"
	fi
	run --separate-stderr nsl "$FX/imp_ok.ko"
	assert_failure 2
	assert_error_names "$T/$IDX/index: Permission denied"
}

# sig/: exp_s signed with the build key lists sig_user for SRES, exp_u
# (unsigned) lists it for URES.
sig_loaded() {
	mkdir -p "$M/extra"
	cp "$FX/sig/exp_s.ko" "$FX/sig/exp_u.ko" "$M/extra/"
	running exp_u
	running exp_s
	index "SRES exp_s exports sig_user" "URES exp_u exports sig_user"
	printf '%s\n' vmlinux exp_s >"$T/$IDX/trusted"
}

@test "live: trusted: a trusted owner's grants need the key, learnt from its file" {
	sig_loaded
	run --separate-stderr nsl "$FX/sig/build/sig_user.ko"
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr nsl --each "$FX/sig/other/sig_user.ko" "$FX/sig/none/sig_user.ko"
	assert_failure 1
	assert_output "module sig_user is not signed with a built-in key, required for namespace \`SRES' (s_fn)
sig_user: Unknown symbol s_fn (err -13)
module sig_user is not signed with a built-in key, required for namespace \`SRES' (s_fn)
sig_user: Unknown symbol s_fn (err -13)"
	# The same key, given.
	run --separate-stderr nsl --trusted-key "$FX/kdir-sig/certs/signing_key.x509" \
		"$FX/sig/keyid/sig_user.ko"
	assert_success
}

@test "live: trusted: the kernel's list, not the signature of the file" {
	sig_loaded
	# exp_s loaded but not trusted (as if its signature had failed):
	# its grants work by name.
	printf 'vmlinux\n' >"$T/$IDX/trusted"
	run --separate-stderr nsl --trusted-key \
		"$FX/kdir-sig/certs/signing_key.x509" "$FX/sig/other/sig_user.ko"
	assert_success
	# No key to be found (exp_s's file has lost its signature): a
	# warning, every module unsigned.
	printf '%s\n' vmlinux exp_s >"$T/$IDX/trusted"
	objcopy "$FX/sig/exp_s.ko" "$M/extra/exp_s.ko"
	run --separate-stderr nsl "$FX/sig/build/sig_user.ko"
	assert_failure 1
	assert_output --partial "module sig_user is not signed with a built-in key"
	[[ $stderr == *"WARNING: the kernel binds grants to its signing key"* ]] ||
		fail "no warning: $stderr"
	# No trusted list: the kernel has no signature rule.
	rm "$T/$IDX/trusted"
	run --separate-stderr nsl "$FX/sig/other/sig_user.ko"
	assert_success
	printf '%s\n' vmlinux nsa_nothere >"$T/$IDX/trusted"
	run --separate-stderr nsl "$FX/sig/other/sig_user.ko"
	assert_failure 2
	assert_error_names "$T/$IDX/trusted: nsa_nothere is not loaded"
}

@test "live: a name is loaded from the tree with what it needs, a file alone" {
	exp_a_loaded
	mkdir -p "$M/kernel"
	cp "$FX/exp_b.ko" "$FX/imp_undecl.ko" "$M/kernel/"
	# As modprobe: exp_b first, then imp_undecl (row 6).
	run --separate-stderr nsl imp_undecl
	assert_failure 1
	assert_output "imp_undecl referencing undeclared namespace \`MRES' for b_fn
imp_undecl: Unknown symbol b_fn (err -13)"
	# As insmod: b_fn is nowhere loaded.
	run --separate-stderr nsl "$M/kernel/imp_undecl.ko"
	assert_failure 1
	assert_output "imp_undecl: Unknown symbol b_fn (err -2)"
	# --each: exp_b, loaded for the name, is gone for the next one.
	run --separate-stderr nsl --each imp_undecl "$M/kernel/imp_undecl.ko" exp_b
	assert_failure 1
	assert_output "imp_undecl referencing undeclared namespace \`MRES' for b_fn
imp_undecl: Unknown symbol b_fn (err -13)
imp_undecl: Unknown symbol b_fn (err -2)"
}

@test "live: options that go with it, and those that do not" {
	run --separate-stderr nscheck --each "$FX/imp_ok.ko"
	assert_failure 2
	run --separate-stderr nscheck --root "$T" "$FX/imp_ok.ko"
	assert_failure 2
	run --separate-stderr nscheck --live --all
	assert_failure 2
	run --separate-stderr nscheck --live --root "$T"
	assert_failure 2
	run --separate-stderr nscheck --live --root "$BATS_TEST_TMPDIR/none" \
		"$FX/imp_ok.ko"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/none/proc/sys/kernel/osrelease"
}
