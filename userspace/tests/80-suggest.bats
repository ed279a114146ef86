#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --suggest: candidate namespaces for MODULE_NAMESPACE_ALLOW, grouped by
# exporter and users, the paste-ready lines, the filters, the summary and
# --json (schema in README.md). The tree is fixtures.table's sg/.

load helpers

KVER=1.0-sg

setup() {
	T=$BATS_TEST_TMPDIR/root
	M=$T/lib/modules/$KVER
	mkdir -p "$M"
	cp -r "$FX/sg/." "$M/"
	# vmlinux: c_dup is exported by sg_core too; m_thing is a module's.
	SV=$BATS_TEST_TMPDIR/sg.symvers
	{
		printf '0x1\tprintk\tvmlinux\tEXPORT_SYMBOL\t\n'
		printf '0x2\tv_one\tvmlinux\tEXPORT_SYMBOL_GPL\t\n'
		printf '0x3\tv_two\tvmlinux\tEXPORT_SYMBOL\t\n'
		printf '0x4\tv_unused\tvmlinux\tEXPORT_SYMBOL\t\n'
		printf '0x5\tv_lots\tvmlinux\tEXPORT_SYMBOL_GPL\t\n'
		printf '0x6\tv_ns\tvmlinux\tEXPORT_SYMBOL_GPL\tSGV\n'
		printf '0x7\tv_plain\tvmlinux\tEXPORT_SYMBOL\t\n'
		printf '0x8\tc_dup\tvmlinux\tEXPORT_SYMBOL\t\n'
		printf '0x9\tm_thing\tdrivers/x\tEXPORT_SYMBOL\t\n'
	} >"$SV"
}

sug() {
	nscheck --suggest -b "$T" -k "$KVER" -E "$SV" "$@"
}

json() {
	run --separate-stderr sug --json "$@"
	JSON=$output
	echo "$JSON" | jq -e . >/dev/null || fail "not JSON: $JSON"
}

jqr() {
	jq -r "$1" <<<"$JSON"
}

# The proposed namespaces, one "exporter namespace" per line.
groups_of() {
	jqr '.groups[] | "\(.exporter) \(.namespace)"'
}

@test "suggest: groups by exporter and set of users, paste-ready lines" {
	run --separate-stderr sug
	assert_success
	assert_output - <<'EOF'
/* nscheck --suggest: exports with 1 to 2 module users; weak references count */

/* vmlinux: namespace SGV (existing): 1 export, 1 user: sg_a */
/* in vmlinux: */
EXPORT_SYMBOL_NS_GPL(v_ns, SGV);
MODULE_NAMESPACE_ALLOW(SGV, sg_a);
/* in sg_a (a/sg_a.ko): */
MODULE_IMPORT_NS(SGV);

/* vmlinux: namespace VMLINUX_FOR_SG_A (new): 1 export, 1 user: sg_a */
/* in vmlinux: */
EXPORT_SYMBOL_NS(c_dup, VMLINUX_FOR_SG_A);
MODULE_NAMESPACE_ALLOW(VMLINUX_FOR_SG_A, sg_a);
/* in sg_a (a/sg_a.ko): */
MODULE_IMPORT_NS(VMLINUX_FOR_SG_A);

/* vmlinux: namespace VMLINUX_FOR_SG_A_SG_B (new): 1 export, 2 users: sg_a, sg_b */
/* in vmlinux: */
EXPORT_SYMBOL_NS_GPL(v_one, VMLINUX_FOR_SG_A_SG_B);
MODULE_NAMESPACE_ALLOW(VMLINUX_FOR_SG_A_SG_B, sg_a);
MODULE_NAMESPACE_ALLOW(VMLINUX_FOR_SG_A_SG_B, sg_b);
/* in sg_a (a/sg_a.ko): */
MODULE_IMPORT_NS(VMLINUX_FOR_SG_A_SG_B);
/* in sg_b (a/sg_b.ko): */
MODULE_IMPORT_NS(VMLINUX_FOR_SG_A_SG_B);

/* vmlinux: namespace VMLINUX_FOR_SG_B_SG_C (new): 1 export, 2 users: sg_b, sg_c */
/* in vmlinux: */
EXPORT_SYMBOL_NS(v_two, VMLINUX_FOR_SG_B_SG_C);
MODULE_NAMESPACE_ALLOW(VMLINUX_FOR_SG_B_SG_C, sg_b);
MODULE_NAMESPACE_ALLOW(VMLINUX_FOR_SG_B_SG_C, sg_c);
/* in sg_b (a/sg_b.ko): */
MODULE_IMPORT_NS(VMLINUX_FOR_SG_B_SG_C);
/* in sg_c (b/sg_c.ko): */
MODULE_IMPORT_NS(VMLINUX_FOR_SG_B_SG_C);

/* vmlinux: namespace VMLINUX_FOR_SG_PROP (new): 1 export, 1 user: sg_prop */
/* note: sg_prop is not GPL-compatible: a restricted namespace refuses it */
/* in vmlinux: */
EXPORT_SYMBOL_NS(v_plain, VMLINUX_FOR_SG_PROP);
MODULE_NAMESPACE_ALLOW(VMLINUX_FOR_SG_PROP, sg_prop);
/* in sg_prop (b/sg_prop.ko): */
MODULE_IMPORT_NS(VMLINUX_FOR_SG_PROP);

/* sg_core: namespace SGNS (existing): 2 exports, 2 users: sg_b, sg_dash */
/* note: also exported into by sg_other: each exporter must declare it */
/* in sg_core (sg_core.ko): */
EXPORT_SYMBOL_NS_GPL(c_ns, SGNS);
EXPORT_SYMBOL_NS(c_ns2, SGNS);
MODULE_NAMESPACE_ALLOW(SGNS, sg_b);
MODULE_NAMESPACE_ALLOW(SGNS, sg_dash);
/* in sg_b (a/sg_b.ko): */
MODULE_IMPORT_NS(SGNS);
/* in sg_dash (b/sg-dash.ko): */
MODULE_IMPORT_NS(SGNS);

/* sg_core: namespace SG_CORE_FOR_SG_A_SG_B (new): 2 exports, 2 users: sg_a, sg_b */
/* in sg_core (sg_core.ko): */
EXPORT_SYMBOL_NS_GPL(c_gpl, SG_CORE_FOR_SG_A_SG_B);
EXPORT_SYMBOL_NS(c_two, SG_CORE_FOR_SG_A_SG_B);
MODULE_NAMESPACE_ALLOW(SG_CORE_FOR_SG_A_SG_B, sg_a);
MODULE_NAMESPACE_ALLOW(SG_CORE_FOR_SG_A_SG_B, sg_b);
/* in sg_a (a/sg_a.ko): */
MODULE_IMPORT_NS(SG_CORE_FOR_SG_A_SG_B);
/* in sg_b (a/sg_b.ko): */
MODULE_IMPORT_NS(SG_CORE_FOR_SG_A_SG_B);

/* sg_other: namespace SGNS (existing): 1 export, 1 user: sg_c */
/* note: also exported into by sg_core: each exporter must declare it */
/* in sg_other (sg_other.ko): */
EXPORT_SYMBOL_NS(o_ns, SGNS);
MODULE_NAMESPACE_ALLOW(SGNS, sg_c);
/* in sg_c (b/sg_c.ko): */
MODULE_IMPORT_NS(SGNS);

/* sg_other: namespace SG_OTHER_FOR_SG_C (new): 1 export, 1 user: sg_c */
/* in sg_other (sg_other.ko): */
EXPORT_SYMBOL_NS(o_solo, SG_OTHER_FOR_SG_C);
MODULE_NAMESPACE_ALLOW(SG_OTHER_FOR_SG_C, sg_c);
/* in sg_c (b/sg_c.ko): */
MODULE_IMPORT_NS(SG_OTHER_FOR_SG_C);

/*
 * summary: 17 exports from 3 exporters; 18 modules
 * exports by number of module users:
 *   0            3
 *   1            7
 *   2            4
 *   3            1
 *   4-10         1
 *   >10          1
 * proposed (at most 2 users): 9 namespaces, 11 exports
 * not proposed: 3 namespaces with more than 2 users (the most: VMLINUX_FOR_SG_DASH_SG_U01_SG_U02_SG_U03_SG_U04_SG_U05_246E0F91 of vmlinux, 12 users)
 */
EOF
}

@test "suggest: every line is a C comment, a paste-ready macro or blank" {
	local ident='[A-Za-z0-9_]+'
	run --separate-stderr sug --max-users 100
	assert_success
	local macro="^(EXPORT_SYMBOL_NS(_GPL)?\($ident, $ident\)|MODULE_NAMESPACE_ALLOW\($ident, $ident\)|MODULE_IMPORT_NS\($ident\));$"
	local l n=0
	for l in "${lines[@]}"; do
		[[ $l =~ $macro ]] && n=$((n + 1)) && continue
		[[ $l =~ ^(/\*.*\*/|/\*|\ \*.*|\ \*/)$ ]] || fail "not pasteable: $l"
	done
	((n > 0))
}

@test "suggest: --help lists its options" {
	run nscheck --help
	assert_success
	assert_line --partial "--suggest"
	assert_line --partial "--max-users=N"
	assert_line --partial "--exporter=NAME"
	assert_line --partial "--user=NAME"
}

@test "suggest: the distribution, with its totals (json)" {
	json
	assert_success
	assert_equal "$(jqr '.summary.by_users | [.["0"], .["1"], .["2"], .["3"], .["4-10"], .[">10"]] | join(" ")')" "3 7 4 1 1 1"
	assert_equal "$(jqr '.summary | "\(.exports) \(.exporters) \(.modules) \(.unreadable)"')" "17 3 18 0"
	assert_equal "$(jqr '.summary | "\(.groups) \(.grouped_exports)"')" "9 11"
	# Every export once in the distribution.
	assert_equal "$(jqr '[.summary.by_users[]] | add')" 17
}

@test "suggest: --max-users N proposes exports with 1 to N users" {
	json --max-users 1
	assert_success
	assert_equal "$(jqr '.max_users')" 1
	assert_equal "$(groups_of)" "vmlinux SGV
vmlinux VMLINUX_FOR_SG_A
vmlinux VMLINUX_FOR_SG_PROP
sg_other SGNS
sg_other SG_OTHER_FOR_SG_C"
	assert_equal "$(jqr '[.groups[].users | length] | max')" 1

	json --max-users 3
	assert_equal "$(jqr '.summary.groups')" 10
	assert_equal "$(jqr '.groups[] | select(.users | length == 3) | "\(.namespace) \([.symbols[].name] | join(","))"')" \
		"SG_CORE_FOR_SG_A_SG_B_SG_C c_one"

	# 0: the summary only, the same distribution.
	json --max-users 0
	assert_equal "$(jqr '.groups | length')" 0
	assert_equal "$(jqr '.summary.by_users | [.[]] | join(" ")')" "3 7 4 1 1 1"
	run --separate-stderr sug --max-users 0
	assert_line " * proposed (at most 0 users): 0 namespaces, 0 exports"
	refute_output --partial "MODULE_"
}

@test "suggest: the default is --max-users 2" {
	local a b
	a=$(sug)
	b=$(sug --max-users 2)
	assert_equal "$a" "$b"
	[[ $a == *"exports with 1 to 2 module users"* ]]
}

@test "suggest: weak references count as uses" {
	json
	# sg_b's reference to c_gpl is weak: sg_b is a user.
	assert_equal "$(jqr '.groups[] | select(.symbols | any(.name == "c_gpl")) | [.users[].name] | join(",")')" "sg_a,sg_b"
	assert_equal "$(jqr '.weak_users')" true
}

@test "suggest: vmlinux's export takes the uses, a proprietary user sees no GPL-only export" {
	json --max-users 100
	# c_dup is vmlinux's and sg_core's: sg_a uses vmlinux's.
	assert_equal "$(jqr '[.groups[] | select(.symbols | any(.name == "c_dup")) | .exporter] | join(",")')" vmlinux
	# sg_prop references c_gpl (GPL-only): it is not a user of it.
	assert_equal "$(jqr '[.groups[] | select(.users | any(.name == "sg_prop")) | .symbols[].name] | join(",")')" printk,v_plain
	assert_equal "$(jqr '.groups[] | select(.symbols | any(.name == "c_gpl")) | [.users[].name] | join(",")')" sg_a,sg_b
	assert_equal "$(jqr '.groups[] | select(.namespace == "VMLINUX_FOR_SG_PROP") | .users[0].gpl_compatible')" false
	# A module's own lines in Module.symvers are not vmlinux's.
	refute_output --partial m_thing
}

@test "suggest: an existing namespace is kept, with all its users and other exporters" {
	json
	assert_equal "$(jqr '.groups[] | select(.exporter == "sg_core" and .namespace == "SGNS") | "\(.existing) \(.declared) \([.users[].name] | join(",")) \([.symbols[].name] | join(",")) \(.also_exported_by | join(","))"')" \
		"true false sg_b,sg_dash c_ns,c_ns2 sg_other"
	assert_equal "$(jqr '.groups[] | select(.exporter == "sg_other" and .namespace == "SGNS") | .also_exported_by | join(",")')" sg_core
	# Its union of users counts against --max-users, not each export's.
	json --max-users 1
	assert_equal "$(jqr '[.groups[] | select(.exporter == "sg_core")] | length')" 0
}

@test "suggest: an exporter that declares its namespace says so" {
	local k=$BATS_TEST_TMPDIR/kdir
	mkdir "$k"
	cp "$SV" "$k/Module.symvers"
	printf 'x.allow_ns=SGV:sg_a\0' >"$k/modules.builtin.modinfo"
	run --separate-stderr nscheck --suggest -b "$T" -k "$KVER" --kdir "$k"
	assert_success
	assert_line "/* vmlinux: namespace SGV (existing, already declared): 1 export, 1 user: sg_a */"
	run --separate-stderr nscheck --suggest -b "$T" -k "$KVER" --kdir "$k" --json
	assert_equal "$(jq -r '.groups[0] | "\(.namespace) \(.declared)"' <<<"$output")" "SGV true"
}

@test "suggest: json, field by field" {
	json --exporter sg-core
	assert_success
	assert_equal "$(jqr '.version')" 1
	assert_equal "$(jqr '.exporter')" sg_core
	assert_equal "$(jqr '.user')" null
	assert_equal "$(jqr '.groups | length')" 2
	assert_equal "$(jqr '.groups[1] | "\(.exporter) \(.exporter_file) \(.namespace) \(.existing) \(.declared)"')" \
		"sg_core sg_core.ko SG_CORE_FOR_SG_A_SG_B false false"
	assert_equal "$(jqr '.groups[1].users | map("\(.name):\(.file):\(.gpl_compatible)") | join(" ")')" \
		"sg_a:a/sg_a.ko:true sg_b:a/sg_b.ko:true"
	assert_equal "$(jqr '.groups[1].symbols | map("\(.name):\(.gpl):\(.users)") | join(" ")')" \
		"c_gpl:true:2 c_two:false:2"
	assert_equal "$(jqr '.groups[1].also_exported_by | length')" 0
	assert_equal "$(jqr '.groups[1].lines.exporter | join("|")')" \
		"EXPORT_SYMBOL_NS_GPL(c_gpl, SG_CORE_FOR_SG_A_SG_B);|EXPORT_SYMBOL_NS(c_two, SG_CORE_FOR_SG_A_SG_B);|MODULE_NAMESPACE_ALLOW(SG_CORE_FOR_SG_A_SG_B, sg_a);|MODULE_NAMESPACE_ALLOW(SG_CORE_FOR_SG_A_SG_B, sg_b);"
	assert_equal "$(jqr '.groups[1].lines.user')" "MODULE_IMPORT_NS(SG_CORE_FOR_SG_A_SG_B);"
	json
	assert_equal "$(jqr '.groups[0].exporter_file')" null
}

@test "suggest: json and text give the same lines" {
	local text
	text=$(sug --max-users 3 | grep -v '^/\*\|^ \*\|^$')
	json --max-users 3
	assert_equal "$(jqr '.groups[] | (.lines.exporter[], (.lines.user as $l | .users[] | $l))')" "$text"
}

@test "suggest: --exporter keeps one exporter's groups and distribution" {
	json --exporter vmlinux
	assert_success
	assert_equal "$(groups_of | cut -d' ' -f1 | sort -u)" vmlinux
	assert_equal "$(jqr '.summary | "\(.exports) \(.exporters) \(.groups)"')" "8 1 5"
	assert_equal "$(jqr '.summary.by_users | [.[]] | join(" ")')" "1 3 2 0 1 1"
	# The module count is the tree's.
	assert_equal "$(jqr '.summary.modules')" 18
}

@test "suggest: --user keeps the groups that module would import" {
	json --user sg_b
	assert_success
	assert_equal "$(groups_of)" "vmlinux VMLINUX_FOR_SG_A_SG_B
vmlinux VMLINUX_FOR_SG_B_SG_C
sg_core SGNS
sg_core SG_CORE_FOR_SG_A_SG_B"
	assert_equal "$(jqr '.user')" sg_b
	# The distribution is not filtered by --user.
	assert_equal "$(jqr '.summary.exports')" 17
	assert_equal "$(jqr '.summary.groups')" 4
	# A file name's dash is the module name's underscore.
	json --user sg-dash
	assert_equal "$(groups_of)" "sg_core SGNS"
}

@test "suggest: --exporter and --user together derive one conversion" {
	run --separate-stderr sug --exporter vmlinux --user sg_c
	assert_success
	assert_equal "$(grep -c '^MODULE_NAMESPACE_ALLOW' <<<"$output")" 2
	assert_line "EXPORT_SYMBOL_NS(v_two, VMLINUX_FOR_SG_B_SG_C);"
	assert_line " * proposed (at most 2 users): 1 namespaces, 1 exports"
}

@test "suggest: an unknown --exporter or --user warns, proposes nothing" {
	run --separate-stderr sug --exporter no_such --user nobody
	assert_success
	[[ $stderr == *"WARNING: --exporter no_such: no such module"* ]]
	[[ $stderr == *"WARNING: --user nobody: no such module"* ]]
	assert_line " * proposed (at most 2 users): 0 namespaces, 0 exports"
}

@test "suggest: deterministic, whatever the order of the modules given" {
	local a b files
	a=$(sug --json --max-users 5)
	b=$(sug --json --max-users 5)
	assert_equal "$a" "$b"
	mapfile -t files < <(find "$M" -name '*.ko' | sort)
	a=$(sug "${files[@]}")
	mapfile -t files < <(find "$M" -name '*.ko' | sort -r)
	b=$(sug "${files[@]}")
	assert_equal "$a" "$b"
	# Given modules are shown by the path given.
	[[ $a == *"/* in sg_a ($M/a/sg_a.ko): */"* ]]
}

@test "suggest: a name does not depend on --max-users or the filters" {
	local full one
	full=$(sug --json --max-users 100 | jq -r '.groups[] | select(.users | any(.name == "sg_c")) | .namespace' | sort)
	one=$(sug --json --user sg_c | jq -r '.groups[].namespace' | sort)
	[[ -n $one ]]
	assert_equal "$(comm -13 <(echo "$full") <(echo "$one"))" ""
}

@test "suggest: names clash, are too long, exist or start with a digit" {
	local t=$BATS_TEST_TMPDIR/x sv=$BATS_TEST_TMPDIR/x.symvers
	mkdir -p "$t/lib/modules/$KVER"
	cp "$FX"/sgx/*.ko "$t/lib/modules/$KVER/"
	printf '0x1\t%s\tvmlinux\tEXPORT_SYMBOL\t\n' x_pair x_clash x_imp x_long >"$sv"
	run --separate-stderr nscheck --suggest -b "$t" -k "$KVER" -E "$sv" --json
	assert_success
	JSON=$output
	local pair clash imp long
	pair=$(jqr '.groups[] | select(.symbols[0].name == "x_pair") | .namespace')
	clash=$(jqr '.groups[] | select(.symbols[0].name == "x_clash") | .namespace')
	imp=$(jqr '.groups[] | select(.symbols[0].name == "x_imp") | .namespace')
	long=$(jqr '.groups[] | select(.symbols[0].name == "x_long") | .namespace')
	# Both would be VMLINUX_FOR_SGX_A_SGX_B: each gets a hash.
	[[ $pair =~ ^VMLINUX_FOR_SGX_A_SGX_B_[0-9A-F]{8}$ ]] || fail "pair: $pair"
	[[ $clash =~ ^VMLINUX_FOR_SGX_A_SGX_B_[0-9A-F]{8}$ ]] || fail "clash: $clash"
	[[ $pair != "$clash" ]]
	# sgx_imp imports VMLINUX_FOR_SGX_IMP already.
	[[ $imp =~ ^VMLINUX_FOR_SGX_IMP_[0-9A-F]{8}$ ]] || fail "imp: $imp"
	# 67 characters: cut to 64, hash included.
	[[ $long =~ ^VMLINUX_FOR_SGX_L+_[0-9A-F]{8}$ && ${#long} -eq 64 ]] ||
		fail "long: $long (${#long})"
	# A module name that starts with a digit.
	assert_equal "$(jqr '.groups[] | select(.exporter == "8sgx") | .namespace')" NS_8SGX_FOR_SGX_A
	# The same names on a second run.
	run nscheck --suggest -b "$t" -k "$KVER" -E "$sv" --json
	assert_equal "$output" "$JSON"
}

@test "suggest: --kdir alone reads the build tree's modules.order" {
	local k=$BATS_TEST_TMPDIR/kbuild
	mkdir -p "$k/a" "$k/b"
	cp "$SV" "$k/Module.symvers"
	cp "$M/sg_core.ko" "$k/"
	cp "$M/a/sg_a.ko" "$M/a/sg_b.ko" "$k/a/"
	# 6.1 lists .ko files, newer kernels .o: both are read.
	printf 'a/sg_b.ko\nsg_core.o\na/sg_a.ko\n' >"$k/modules.order"
	run --separate-stderr nscheck --suggest --kdir "$k" --json
	assert_success
	JSON=$output
	assert_equal "$(jqr '.summary.modules')" 3
	assert_equal "$(jqr '[.groups[] | select(.exporter == "sg_core") | "\(.exporter_file):\(.namespace)"] | join(" ")')" \
		"sg_core.ko:SGNS sg_core.ko:SG_CORE_FOR_SG_A_SG_B"
}

@test "suggest: with no Module.symvers only modules export, with a warning" {
	run --separate-stderr nscheck --suggest -b "$T" -k "$KVER" --json
	assert_success
	[[ $stderr == *"WARNING: no Module.symvers"* ]]
	assert_equal "$(jq -r '[.groups[].exporter] | unique | join(",")' <<<"$output")" "sg_core,sg_other"
}

@test "suggest: --quiet prints nothing" {
	run --separate-stderr sug -q
	assert_success
	assert_output ""
}

@test "suggest: an unreadable module is named, the rest printed, exit 2" {
	echo junk >"$M/broken.ko"
	run --separate-stderr sug --json
	assert_failure 2
	assert_error_names "$M/broken.ko: not an ELF file"
	assert_equal "$(jq -r '.summary | "\(.modules) \(.unreadable) \(.groups)"' <<<"$output")" "18 1 9"
	run --separate-stderr sug
	assert_failure 2
	assert_line " * summary: 17 exports from 3 exporters; 18 modules (1 unreadable, left out)"
}

@test "suggest: bad usage and unreadable kernel descriptions exit 2" {
	run --separate-stderr sug --max-users two
	assert_failure 2
	[[ $stderr == *"--max-users: 'two' is not a number"* ]]
	run --separate-stderr sug --max-users -1
	assert_failure 2
	run --separate-stderr sug --max-users 99999999999999999999
	assert_failure 2
	run --separate-stderr nscheck --max-users 3 "$FX/imp_plain.ko"
	assert_failure 2
	[[ $stderr == *"go with --suggest"* ]]
	run --separate-stderr nscheck --user x "$FX/imp_plain.ko"
	assert_failure 2
	run --separate-stderr sug --all
	assert_failure 2
	[[ $stderr == *"--suggest and --all"* ]]
	run --separate-stderr nscheck --suggest -b "$T" -k nope -E "$SV"
	assert_failure 2
	assert_error_names "$T/lib/modules/nope"
	run --separate-stderr nscheck --suggest -b "$T" -k "$KVER" -E "$BATS_TEST_TMPDIR/missing.symvers"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/missing.symvers"
	printf 'garbage\n' >"$BATS_TEST_TMPDIR/bad.symvers"
	run --separate-stderr nscheck --suggest -b "$T" -k "$KVER" -E "$BATS_TEST_TMPDIR/bad.symvers"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/bad.symvers: line 1: malformed"
	run --separate-stderr nscheck --suggest --kdir "$BATS_TEST_TMPDIR"
	assert_failure 2
	assert_output ""
	run --separate-stderr sug "$BATS_TEST_TMPDIR/missing.ko" "$M/sg_core.ko"
	assert_failure 2
	assert_error_names "$BATS_TEST_TMPDIR/missing.ko"
}

@test "suggest: the kernel build of this project, when there is one" {
	local kobj=${NSCHECK_KOBJ:-$NSCHECK_BUILD/../kernel/obj}
	[[ -f $kobj/Module.symvers && -f $kobj/modules.order ]] ||
		skip "no kernel build in $kobj"
	run --separate-stderr nscheck --suggest --kdir "$kobj" --json --max-users 0
	[[ $status -eq 0 ]] || fail "exit $status: $stderr"
	# As many exports as modpost wrote, every one in the distribution.
	assert_equal "$(jq -r '.summary.exports' <<<"$output")" "$(wc -l <"$kobj/Module.symvers")"
	assert_equal "$(jq -r '[.summary.by_users[]] | add' <<<"$output")" "$(wc -l <"$kobj/Module.symvers")"
	assert_equal "$(jq -r '.summary.modules' <<<"$output")" "$(grep -c . "$kobj/modules.order")"
}

@test "suggest: an exporter with nothing proposed says why" {
	# sg_other's exports, o_ns (SGNS) and o_solo, have one user each
	# (sg_c): with --max-users 0 nothing is proposed, and the summary
	# says why.
	run --separate-stderr sug --exporter sg_other --max-users 0
	assert_success
	assert_line " * proposed (at most 0 users): 0 namespaces, 0 exports"
	assert_line " * not proposed: 2 namespaces with more than 0 users (the most: SGNS of sg_other, 1 user)"
	run --separate-stderr sug --exporter sg_a
	assert_success
	[[ $stderr == *"WARNING: --exporter sg_a: it exports nothing"* ]] ||
		fail "no reason given: $stderr"
	run --separate-stderr sug --exporter no_such
	[[ $stderr == *"WARNING: --exporter no_such: no such module in the tree"* ]] ||
		fail "no reason given: $stderr"
}

@test "suggest: given files are counted with the tree, never alone" {
	local f=$BATS_TEST_TMPDIR/mine/sg_u01.ko
	mkdir -p "${f%/*}"
	cp "$M/u/sg_u01.ko" "$f"
	# v_lots has 11 users in the tree: not one module's to restrict.
	json "$f"
	assert_success
	assert_equal "$(jqr '[.groups[] | select(.symbols | any(.name == "v_lots"))] | length')" 0
	assert_equal "$(jqr '.summary.modules')" 18
	# The given file stands for the tree's module of its name.
	run --separate-stderr sug --user sg_u01 "$f"
	assert_success
	refute_output --partial "u/sg_u01.ko"
	# No tree: said, exit 2, nothing proposed from the files alone.
	run --separate-stderr nscheck --suggest -b "$BATS_TEST_TMPDIR/none" -k "$KVER" -E "$SV" "$f"
	assert_failure 2
	assert_output ""
	assert_error_names "$BATS_TEST_TMPDIR/none/lib/modules/$KVER: no module tree there"
}
