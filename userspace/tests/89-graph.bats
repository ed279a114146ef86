#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --graph: the edges are worked out here from the inputs themselves
# (fixtures.table's export=, gpl= and allow= attributes, the fixture
# vmlinux's Module.symvers and modules.builtin.modinfo), never from a
# saved output of nscheck; then the order, determinism and --namespace.

load helpers

GRAPHED="exp_a.ko exp_b.ko aa_lister.ko zz_lister.ko exp_c.ko glob_exp.ko
glob_lister.ko formod_exp.ko"

# The edges the inputs say, one a line, sorted; only NS if given.
expected_edges() {
	local files=" ${GRAPHED//$'\n'/ } "
	{
		# Objects: vmlinux's exports and grants, then each module's.
		awk -F'\t' '$3 == "vmlinux" && $5 != "" { print "export", $5, "vmlinux", $2 }' \
			"$BATS_TEST_DIRNAME/data/vmlinux.symvers"
		sed -n 's/^[^#][^.]*\.allow_ns=\([^:]*\):\(.*\)$/grant \1 vmlinux \2/p' \
			"$BATS_TEST_DIRNAME/data/builtin.modinfo.txt"
		awk -F'\t' -v files="$files" 'index(files, " " $1 " ") {
			mod = $1; sub(/\.ko$/, "", mod)
			n = split($2, attr, " ")
			for (i = 1; i <= n; i++) {
				split(attr[i], kv, "=")
				if ((kv[1] == "export" || kv[1] == "gpl") &&
				    split(kv[2], sn, "@") == 2)
					print "export", sn[2], mod, sn[1]
				else if (kv[1] == "allow") {
					c = index(kv[2], ":")
					print "grant", substr(kv[2], 1, c - 1), mod,
					      substr(kv[2], c + 1)
				}
			}
		}' "$BATS_TEST_DIRNAME/fixtures.table"
	} | sort -u -k1,1 -k2,2 -k3,3 -k4,4 | awk -v only="${1:-}" '
		only != "" && $2 != only { next }
		$1 == "export" { ex[$2 "\t" $3]++; ns[$2] = 1 }
		$1 == "grant" { g[$2 "\t" $3 "\t" $4] = 1; decl[$2 "\t" $3] = 1
				ns[$2] = 1 }
		END {
			for (k in decl) { split(k, p, "\t"); nd[p[1]]++ }
			for (k in ex) {
				split(k, p, "\t")
				if (p[1] !~ /^module:/ && !nd[p[1]])
					continue
				printf "\"%s\" -> \"ns:%s\" [label=\"%d symbol%s\"];\n",
					p[2], p[1], ex[k], ex[k] == 1 ? "" : "s"
				if (p[1] ~ /^module:/) {
					m = split(substr(p[1], 8), l, ",")
					for (i = 1; i <= m; i++)
						printf "\"ns:%s\" -> \"%s\";\n", p[1], l[i]
				}
			}
			for (k in decl) {
				if (k in ex)
					continue
				split(k, p, "\t")
				printf "\"%s\" -> \"ns:%s\" [style=dashed, label=\"lists\"];\n",
					p[2], p[1]
			}
			for (k in g) {
				split(k, p, "\t")
				if (nd[p[1]] > 1)
					printf "\"ns:%s\" -> \"%s\" [label=\"%s\"];\n",
						p[1], p[3], p[2]
				else
					printf "\"ns:%s\" -> \"%s\";\n", p[1], p[3]
			}
		}' | LC_ALL=C sort
}

# The edge lines of a graph, without their indent, sorted.
edges() {
	grep -e $'^\t".*" -> ' | sed 's/^\t//' | LC_ALL=C sort
}

nsg() {
	(cd "$FX" && nscheck --kdir "$FX/kdir" --graph "$@")
}

@test "graph: the edges are the inputs' exports and grants" {
	run --separate-stderr nsg $GRAPHED
	assert_success
	assert_equal "$stderr" ""
	[ "$(expected_edges | wc -l)" -gt 20 ] || fail "too few edges expected"
	assert_equal "$(edges <<<"$output")" "$(expected_edges)"
	# The layout: left to right, a header, one closing brace.
	assert_line --index 1 "digraph namespaces {"
	assert_line "	rankdir=LR;"
	assert_equal "${lines[-1]}" "}"
}

@test "graph: namespaces sorted, restricted or not, prefixes dashed" {
	run nsg $GRAPHED
	assert_success
	# Each namespace once, in sorted order.
	assert_equal "$(grep -o '^	"ns:[^"]*" \[label' <<<"$output" | tr '\n' ' ')" \
		'	"ns:GLOB" [label 	"ns:MRES" [label 	"ns:VRES" [label 	"ns:module:kvm,kvm-*" [label 	"ns:module:kvm_x" [label '
	assert_line '	"glob_*" [style=dashed];'
	assert_line '	"ns:MRES" [label="MRES", shape=ellipse];'
	# exp_c declares MRES but exports nothing into it: not restricted.
	run nsg exp_c.ko
	assert_success
	assert_line '	"ns:MRES" [label="MRES", shape=ellipse, style=dashed];'
	assert_line '	"exp_c" -> "ns:MRES" [style=dashed, label="lists"];'
}

@test "graph: the same inputs, the same bytes, whatever their order" {
	local a b
	a=$(nsg $GRAPHED)
	b=$(nsg $(tr ' ' '\n' <<<"$GRAPHED" | tac))
	assert_equal "$b" "$a"
	b=$(nsg $GRAPHED)
	assert_equal "$b" "$a"
}

@test "graph: --namespace keeps one namespace" {
	run --separate-stderr nsg --namespace MRES $GRAPHED
	assert_success
	assert_equal "$(edges <<<"$output")" "$(expected_edges MRES)"
	run nsg --namespace MRES --namespace VRES $GRAPHED
	assert_equal "$(grep -c ' \[label="[A-Z]*", shape' <<<"$output")" 2
	run --separate-stderr nsg --namespace NOSUCH $GRAPHED
	assert_success
	assert_equal "$(edges <<<"$output")" ""
	[[ $stderr == *"WARNING: namespace NOSUCH: no object declares it"* ]] ||
		fail "no warning: $stderr"
	run nscheck --namespace MRES "$FX/exp_a.ko"
	assert_failure 2
}

@test "graph: a tree, every module of it" {
	mktree exp_a.ko:kernel/exp_a.ko exp_b.ko:kernel/exp_b.ko \
		tree/imp_two.ko:kernel/imp_two.ko zz_lister.ko:extra/zz_lister.ko
	run nst --graph
	assert_success
	assert_line '	"zz_lister" -> "ns:MRES" [style=dashed, label="lists"];'
	assert_line '	"exp_b" -> "ns:MRES" [label="1 symbol"];'
	assert_line '	"ns:MRES" -> "imp_two" [label="zz_lister"];'
	# An unreadable module: said, left out, exit 2.
	cp "$FX/rec_char.ko" "$M/kernel/"
	run --separate-stderr nst --graph
	assert_failure 2
	[[ $stderr == *"rec_char.ko"* ]] || fail "not named: $stderr"
}

@test "graph: --live, the running system's index" {
	mktree exp_a.ko:extra/exp_a.ko
	mkdir -p "$T/proc/sys/kernel" "$T/sys/kernel/debug/module_ns_allow"
	echo "$KVER" >"$T/proc/sys/kernel/osrelease"
	echo "exp_a 16384 0 - Live 0x0" >"$T/proc/modules"
	printf '%s\n' "MRES exp_a exports imp_ok,zz_*" "VRES vmlinux exports imp_v" \
		>"$T/sys/kernel/debug/module_ns_allow/index"
	run --separate-stderr nscheck --live --graph --root "$T" \
		-E "$FX/kdir/Module.symvers"
	assert_success
	assert_equal "$(edges <<<"$output")" '"exp_a" -> "ns:MRES" [label="2 symbols"];
"ns:MRES" -> "imp_ok";
"ns:MRES" -> "zz_*";
"ns:VRES" -> "imp_v";
"vmlinux" -> "ns:VRES" [label="2 symbols"];'
	run nscheck --live --graph --root "$T" "$FX/imp_ok.ko"
	assert_failure 2
}

@test "graph: Graphviz reads it" {
	command -v dot >/dev/null || skip "no graphviz (dot)"
	nsg $GRAPHED >"$BATS_TEST_TMPDIR/g.dot"
	run dot -Tsvg -o "$BATS_TEST_TMPDIR/g.svg" "$BATS_TEST_TMPDIR/g.dot"
	assert_success
	grep -q '<svg' "$BATS_TEST_TMPDIR/g.svg"
}
