#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --overlay: a tree built without a series (ovt/, the fixture vmlinux),
# checked as if it had been built with the namespaces and grants of a
# build with the series (kdir-series: its Module.symvers,
# modules.builtin.modinfo, and its modules' records). Fixtures:
# fixtures.table, data/series.*.

load helpers

# The tree: ovt/ as modules, ov_m built in; its vmlinux the fixture's,
# plus what the series converts (still without namespaces there).
setup() {
	local f
	mktree
	for f in "$FX"/ovt/*.ko; do
		cp "$f" "$M/"
	done
	echo kernel/ov_m.ko >"$M/modules.builtin"
	SYMVERS=$BATS_TEST_TMPDIR/tree.symvers
	{
		cat "$FX/kdir/Module.symvers"
		printf '0x0\tv_conv\tvmlinux\tEXPORT_SYMBOL_GPL\t\n'
		printf '0x0\tm2_fn\tvmlinux\tEXPORT_SYMBOL_GPL\t\n'
		printf '0x0\tv_open2\tvmlinux\tEXPORT_SYMBOL\t\n'
	} >"$SYMVERS"
}

nso() {
	nscheck -b "$T" -k "$KVER" -E "$SYMVERS" "$@"
}

U13() {
	echo "$1: Unknown symbol $2 (err -13)"
}

# A copy of kdir-series to change, in KS.
kdir_series_copy() {
	KS=$BATS_TEST_TMPDIR/kdir-series
	cp -r "$FX/kdir-series" "$KS"
}

# The tree builds NAME in: modules.builtin lists it, and it has no file,
# as kbuild installs it.
tree_builtin() {
	echo "kernel/$1.ko" >>"$M/modules.builtin"
	rm -f "$M/$1.ko"
}

VUSER_ONLY="namespace VCONV: granted only to built-in ov_vuser: it admits no loadable module"

@test "overlay: without it, the tree loads" {
	run --separate-stderr nso --all
	assert_success
	assert_output ""
}

@test "overlay: what the series would do to every module of the tree" {
	run --separate-stderr nso --overlay "$FX/kdir-series"
	assert_failure 1
	# Nothing on stderr but the hints after the kernel's lines.
	assert_equal "$(grep -v '^ *hint: ' <<<"$stderr")" ""
	assert_output "module ov_biother not allowed to reference namespace \`BINS' for bi_fn
$(U13 ov_biother bi_fn)
ov_biuser: listed for namespace BINS by ov_bi, without MODULE_IMPORT_NS(BINS): the series must add it (bi_fn)
module ov_mother not allowed to reference namespace \`MNS' for m2_fn
$(U13 ov_mother m2_fn)
ov_muser: listed for namespace MNS by vmlinux, without MODULE_IMPORT_NS(MNS): the series must add it (m2_fn)
ov_open: module uses symbol (v_open2) from namespace VOPEN2, but does not import it.
ov_open: Unknown symbol v_open2 (err -22)
module ov_other not allowed to reference namespace \`OVNS' for ov_fn
$(U13 ov_other ov_fn)
ov_user: listed for namespace OVNS by ov_exp, without MODULE_IMPORT_NS(OVNS): the series must add it, as its build does (ov_fn)
module ov_vother not allowed to reference namespace \`VCONV' for v_conv
$(U13 ov_vother v_conv)
ov_vuser: listed for namespace VCONV by vmlinux, without MODULE_IMPORT_NS(VCONV): the series must add it (v_conv)"
}

@test "overlay: json, the missing import a finding of a module that loads" {
	run --separate-stderr nso --overlay "$FX/kdir-series" --json
	assert_failure 1
	jq -e . <<<"$output" >/dev/null || fail "not JSON: $output"
	assert_equal "$(jq -r '.summary | "\(.checked) \(.loads) \(.refused) \(.missing_import)"' <<<"$output")" \
		"12 7 5 4"
	assert_equal "$(jq -r '.modules[] | select(.name == "ov_user") | "\(.status) \(.findings[0] | "\(.verdict) \(.row) \(.errno) \(.namespace) \(.owner) \(.was_namespace) \(.symbols)")"' <<<"$output")" \
		"loads missing-import 3 null OVNS ov_exp  1"
	assert_equal "$(jq -r '[.modules[] | select(.status == "refused") | .name] | join(" ")' <<<"$output")" \
		"ov_biother ov_mother ov_open ov_other ov_vother"
}

@test "overlay: a refused module's missing import comes after the kernel's lines" {
	cp "$FX/ovt-mixed/ov_user.ko" "$M/ov_user.ko"
	run --separate-stderr nso --overlay "$FX/kdir-series" "$M/ov_user.ko"
	assert_failure 1
	assert_output "module ov_user not allowed to reference namespace \`VCONV' for v_conv
$(U13 ov_user v_conv)
ov_user: listed for namespace OVNS by ov_exp, without MODULE_IMPORT_NS(OVNS): the series must add it, as its build does (ov_fn)"
	run --separate-stderr nso --overlay "$FX/kdir-series" --json "$M/ov_user.ko"
	assert_equal "$(jq -r '[.modules[-1].findings[].verdict] | join(" ")' <<<"$output")" \
		"not-allowed missing-import"
}

@test "overlay: the given modules only, as insmod or modprobe would load them" {
	run --separate-stderr nso --overlay "$FX/kdir-series" ov_user "$M/ov_plain.ko"
	assert_success
	assert_output "ov_user: listed for namespace OVNS by ov_exp, without MODULE_IMPORT_NS(OVNS): the series must add it, as its build does (ov_fn)"
	run --separate-stderr nso --overlay "$FX/kdir-series" ov_other
	assert_failure 1
	assert_line "module ov_other not allowed to reference namespace \`OVNS' for ov_fn"
}

@test "overlay: Module.nsallow stands for modules the build has no file of" {
	local k=$BATS_TEST_TMPDIR/kdir-nsallow
	mkdir -p "$k"
	cp "$FX/kdir-series/Module.symvers" "$FX/kdir-series/modules.builtin.modinfo" "$k/"
	printf 'OVNS\tov_user\tdrivers/ov_exp\nMNS\tov_muser\tdrivers/ov_m\nVCONV\tov_vuser\tvmlinux\n' \
		>"$k/Module.nsallow"
	run --separate-stderr nso --overlay "$k" ov_user ov_other ov_muser
	assert_failure 1
	assert_output "ov_user: listed for namespace OVNS by ov_exp, without MODULE_IMPORT_NS(OVNS): the series must add it (ov_fn)
module ov_other not allowed to reference namespace \`OVNS' for ov_fn
$(U13 ov_other ov_fn)
ov_muser: listed for namespace MNS by vmlinux, without MODULE_IMPORT_NS(MNS): the series must add it (m2_fn)"
	printf 'OVNS\tov_user\n' >"$k/Module.nsallow"
	run --separate-stderr nso --overlay "$k" ov_user
	assert_failure 2
	assert_error_names "$k/Module.nsallow: line 1: not <namespace>TAB<module>TAB<owner>"
}

@test "overlay: a module file, or a folder of them, gives its records" {
	# Only ov_exp's records and export: OVNS restricted to ov_user.
	run --separate-stderr nso --overlay "$FX/kdir-series/drivers/ov_exp.ko" ov_other ov_user
	assert_failure 1
	# No ov_user file given: nothing said of the build's import.
	assert_output "module ov_other not allowed to reference namespace \`OVNS' for ov_fn
$(U13 ov_other ov_fn)
ov_user: listed for namespace OVNS by ov_exp, without MODULE_IMPORT_NS(OVNS): the series must add it (ov_fn)"
	run --separate-stderr nso --overlay "$FX/kdir-series/drivers" ov_other
	assert_failure 1
	assert_line "module ov_other not allowed to reference namespace \`OVNS' for ov_fn"
}

@test "overlay: the tree's own grants count for objects the build does not describe" {
	# exp_a (the tree's, with its records) is not in the build.
	cp "$FX/exp_a.ko" "$FX/imp_none.ko" "$M/"
	run --separate-stderr nso --overlay "$FX/kdir-series" imp_none
	assert_failure 1
	assert_line "module imp_none not allowed to reference namespace \`MRES' for a_fn"
}

@test "overlay: a namespace granted only to a built-in module admits none" {
	# The series puts two symbols in VCONV and grants it to ov_vuser
	# alone, which the tree builds in.
	kdir_series_copy
	printf '0x7\tv_conv2\tvmlinux\tEXPORT_SYMBOL_GPL\tVCONV\n' \
		>>"$KS/Module.symvers"
	tree_builtin ov_vuser
	run --separate-stderr nso --overlay "$KS" ov_plain
	# A finding about the kernel, not a refusal: ov_plain loads, exit 0.
	assert_success
	assert_output "$VUSER_ONLY; its 2 exported symbols are unexported for modules"
	run --separate-stderr nso --overlay "$KS" --json ov_plain
	assert_success
	assert_equal "$(jq -r '.builtin_grants[] | "\(.namespace) \(.builtin | join(",")) \(.others | length) \(.admits_no_module) \(.symbols)"' <<<"$output")" \
		"VCONV ov_vuser 0 true 2"
	assert_equal "$(jq -r '.builtin_grants[0].message' <<<"$output")" \
		"$VUSER_ONLY; its 2 exported symbols are unexported for modules"
	assert_equal "$(jq -r '.summary | "\(.checked) \(.refused)"' <<<"$output")" "1 0"
	# The whole tree: said once, before the modules.
	run --separate-stderr nso --overlay "$KS"
	assert_failure 1
	assert_line --index 0 "$VUSER_ONLY; its 2 exported symbols are unexported for modules"
	assert_equal "$(grep -c '^namespace VCONV: ' <<<"$output")" 1
	run --separate-stderr nso -q --overlay "$KS" ov_plain
	assert_success
	assert_output ""
}

@test "overlay: a module built in by modules.builtin.modinfo's file= is built in" {
	# No modules.builtin line: only its file= string (kbuild's source
	# of modules.builtin) says ov_vuser is built in.
	printf 'ov_vuser.file=kernel/ov_vuser\0ov_vuser.license=GPL\0' \
		>>"$M/modules.builtin.modinfo"
	rm "$M/ov_vuser.ko"
	run --separate-stderr nso --overlay "$FX/kdir-series" ov_plain
	assert_success
	assert_output "$VUSER_ONLY; its 1 exported symbol is unexported for modules"
}

@test "overlay: a grant to a loadable module is no finding" {
	# ov_vuser is a module of the tree; ov_m, built in, grants (MNS) but
	# is granted nothing; the VOPEN2 symbol is in no grant's namespace.
	run --separate-stderr nso --overlay "$FX/kdir-series" ov_vuser
	assert_success
	assert_output "ov_vuser: listed for namespace VCONV by vmlinux, without MODULE_IMPORT_NS(VCONV): the series must add it (v_conv)"
	run --separate-stderr nso --overlay "$FX/kdir-series" --json ov_vuser
	assert_equal "$(jq -c '.builtin_grants' <<<"$output")" "[]"
	# Without --overlay, no such field: nothing overlays the tree.
	run --separate-stderr nso --json ov_vuser
	assert_equal "$(jq -c 'has("builtin_grants")' <<<"$output")" "false"
}

@test "overlay: a grant to a built-in module among others has no effect" {
	kdir_series_copy
	printf 'core_conv.allow_ns=VCONV:ov_vother\0' >>"$KS/modules.builtin.modinfo"
	tree_builtin ov_vuser
	run --separate-stderr nso --overlay "$KS" ov_vother
	assert_success
	assert_output "namespace VCONV: the grant to built-in ov_vuser has no effect; 1 other grantee remains
ov_vother: listed for namespace VCONV by vmlinux, without MODULE_IMPORT_NS(VCONV): the series must add it (v_conv)"
	run --separate-stderr nso --overlay "$KS" --json ov_vother
	assert_equal "$(jq -r '.builtin_grants[] | "\(.namespace) \(.builtin | join(",")) \(.others | join(",")) \(.admits_no_module) \(.symbols)"' <<<"$output")" \
		"VCONV ov_vuser ov_vother false 1"
	# Two built in; a prefix may match a loadable module: not built in.
	printf 'core_conv.allow_ns=VCONV:ov_plain\0core_conv.allow_ns=VCONV:ov_vuse*\0' \
		>>"$KS/modules.builtin.modinfo"
	tree_builtin ov_plain
	run --separate-stderr nso --overlay "$KS" ov_vother
	assert_success
	assert_line --index 0 "namespace VCONV: the grants to built-in ov_plain, ov_vuser have no effect; 2 other grantees remain"
}

@test "overlay: an input it cannot read is named, exit 2" {
	run --separate-stderr nso --overlay "$BATS_TEST_TMPDIR/nothing"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/nothing: No such file or directory"
	run --separate-stderr nso --overlay "$FX/kdir-series" --suggest
	assert_failure 2
	assert_error_names "--suggest and --overlay: choose one"
}
