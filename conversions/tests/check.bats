# SPDX-License-Identifier: GPL-2.0-or-later
#
# derive.py apply and check on a series that apply itself generates from
# the committed lists (a git tree of the files the conversions touch,
# copied from the pristine source), then on that series changed one
# way at a time: each change must fail the check and name what is wrong.
# Needs SRC (the pristine tree) and DERIVED (a lists file that
# "derive.py lists --out" wrote from the data); make test passes both.

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

HERE=$(cd "$(dirname "$BATS_TEST_FILENAME")/.." && pwd)
DERIVE="$HERE/derive.py"

git_() {
	git -C "$TREE" -c user.name=conversions -c user.email=c@example.org "$@"
}

setup_file() {
	: "${SRC:?SRC: the pristine linux-source-6.1 tree}"
	: "${DERIVED:?DERIVED: lists derived from the data}"
	[ -f "$SRC/Makefile" ] && [ -f "$DERIVED" ] || {
		echo "missing $SRC or $DERIVED" >&2
		return 1
	}
	export TREE="$BATS_FILE_TMPDIR/tree"
	mkdir -p "$TREE"
	# The files apply may touch: the lists' exporter and import files,
	# and the table's allow_in files.
	{
		awk -F'\t' '$1 == "restrict" { print $4 } $1 == "allow" { print $4 }' \
			"$HERE/lists.txt"
		awk -F'\t' '$2 == "allow_in" { print $3 }' "$HERE/conversions.tsv"
	} | sort -u >"$BATS_FILE_TMPDIR/files"
	(cd "$SRC" && cpio -pdm --quiet "$TREE") <"$BATS_FILE_TMPDIR/files"
	git_ init -q
	git_ add -A
	git_ commit -qm pristine
	git_ tag pristine
	for ns in $(awk -F'\t' '$2 == "order" { print $3 }' "$HERE/conversions.tsv"); do
		python3 "$DERIVE" apply --ns "$ns" "$TREE"
		git_ commit -qam "$ns: conversion"
	done
	git_ tag converted
	series pristine "$BATS_FILE_TMPDIR/good"
}

# series REV DIR: the commits after REV as patches in DIR, with a series.
series() {
	rm -rf "$2"
	git_ format-patch -q -o "$2" "$1"
	(cd "$2" && ls *.patch) >"$2/series"
}

# mutate FILE SED-EXPR MESSAGE: one more commit on the converted tree,
# and the series with it in $BATS_TEST_TMPDIR/patches.
mutate() {
	git_ checkout -q converted
	sed -i "$2" "$TREE/$1"
	git_ diff --quiet && fail "mutate: '$2' changed nothing in $1"
	git_ commit -qam "$3"
	series pristine "$BATS_TEST_TMPDIR/patches"
	git_ checkout -q converted
}

check() {
	run python3 "$DERIVE" check --derived "$DERIVED" \
		--committed "${COMMITTED:-$HERE/lists.txt}" "$@"
}

@test "every user that issue 11 names keeps its symbol open" {
	local pair sym mod
	for pair in sunrpc:tcp_stream_memory_free sunrpc:__skb_recv_udp \
		tls:tcp_memory_pressure tls:tcp_stream_memory_free \
		nvme_tcp:tcp_stream_memory_free nvmet_tcp:tcp_stream_memory_free \
		libceph:tcp_stream_memory_free dccp:tcp_stream_memory_free \
		kcm:tcp_stream_memory_free iscsi_tcp:tcp_read_sock \
		rds_tcp:tcp_read_sock smc:tcp_abort udp_diag:udp_table \
		udp_diag:udplite_table l2tp_ip:__udp_disconnect \
		l2tp_ip6:__udp_disconnect siw:tcp_read_sock \
		siw:tcp_sendmsg_locked chtls:tcp_set_state chtls:tcp_done \
		chtls:tcp_prot; do
		mod=${pair%%:*} sym=${pair#*:}
		grep -qP "^open\t$sym\t(.* )?$mod( |\$)" "$DERIVED" ||
			fail "$sym is not kept open for $mod"
		! grep -qP "^restrict\t.*\t$sym\$" "$DERIVED" ||
			fail "$sym is restricted"
	done
}

@test "apply converts the lists' exports and adds grants and imports, nothing else" {
	local n files
	n=$(grep -c '^restrict' "$HERE/lists.txt")
	run git_ diff pristine converted
	assert_success
	# Removed: exactly the n export lines.
	[ "$(grep -c '^-[^-]' <<<"$output")" -eq "$n" ]
	run bash -c "git -C '$TREE' diff pristine converted | grep '^-[^-]' |
		grep -Evc '^-EXPORT_SYMBOL(_GPL)?\(\w+\);$'"
	assert_output 0
	# Added: the namespaces' macros, the grants with their comments under
	# the switch, the imports.
	run bash -c "git -C '$TREE' diff pristine converted | grep '^+[^+]' |
		grep -Ev '^\+(EXPORT_SYMBOL_(TCP|TCPCONG|UDP)(_GPL)?\(\w+\);|MODULE_NAMESPACE_ALLOW\(\w+, \w+\);|MODULE_IMPORT_NS\(\w+\);|#if IS_ENABLED\(CONFIG_\w+_RESTRICT_EXPORTS\)|#endif|/\* .*| \* .*| \*/)$'"
	assert_output ''
	run bash -c "git -C '$TREE' diff pristine converted | grep -cE '^\+EXPORT_SYMBOL_(TCP|TCPCONG|UDP)(_GPL)?\('"
	assert_output "$n"
	run bash -c "git -C '$TREE' diff pristine converted | grep -c '^+MODULE_NAMESPACE_ALLOW'"
	assert_output "$(grep -c '^allow' "$HERE/lists.txt")"
	run bash -c "git -C '$TREE' diff pristine converted | grep -c '^+MODULE_IMPORT_NS'"
	assert_output "$(grep -c '^allow' "$HERE/lists.txt")"
	# Touched: exactly the files of the lists and the table.
	files=$(git_ diff --name-only pristine converted | sort)
	assert_equal "$files" "$(cat "$BATS_FILE_TMPDIR/files")"
}

@test "apply refuses a tree it has already converted" {
	git_ checkout -q converted
	run python3 "$DERIVE" apply --ns tcp "$TREE"
	assert_failure 1
	assert_output --partial 'already grants tcp'
	git_ checkout -q -f converted
}

@test "check passes on the series that apply generated" {
	check "$BATS_FILE_TMPDIR/good"
	assert_success
	assert_output --partial 'check passed'
}

@test "check fails when tcp_stream_memory_free is put back into tcp" {
	mutate net/ipv4/tcp_ipv4.c \
		's/^EXPORT_SYMBOL(tcp_stream_memory_free);/EXPORT_SYMBOL_TCP(tcp_stream_memory_free);/' \
		'tcp: restrict tcp_stream_memory_free'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line --regexp '^derive.py: DRIFT: 0004-.*: net/ipv4/tcp_ipv4.c: tcp_stream_memory_free restricted to tcp, but other modules use it: .*sunrpc'
	assert_output --partial 'nvme_tcp'
	assert_output --partial 'check FAILED: 1 differences'
}

@test "check fails when udp_table is put back into udp" {
	mutate net/ipv4/udp.c \
		's/^EXPORT_SYMBOL(udp_table);/EXPORT_SYMBOL_UDP(udp_table);/' \
		'udp: restrict udp_table'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line --regexp 'udp_table restricted to udp, but other modules use it: udp_diag$'
}

@test "check fails when a grant is removed" {
	mutate net/ipv4/tcp_cong.c '/^MODULE_NAMESPACE_ALLOW(tcpcong, tcp_bic);$/d' \
		'tcpcong: drop tcp_bic'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line 'derive.py: DRIFT: grant missing: MODULE_NAMESPACE_ALLOW(tcpcong, tcp_bic); tcp_bic uses symbols the lists restrict to tcpcong'
}

@test "check fails when an import is removed" {
	mutate net/ipv4/tcp_bic.c '/^MODULE_IMPORT_NS(tcpcong);$/d' \
		'tcp_bic: drop the import'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line 'derive.py: DRIFT: import missing: MODULE_IMPORT_NS(tcpcong) in net/ipv4/tcp_bic.c (tcp_bic)'
}

@test "check fails on a grant to a module that is no partner" {
	mutate net/ipv4/tcp.c 's/^MODULE_NAMESPACE_ALLOW(tcp, ipv6);$/&\nMODULE_NAMESPACE_ALLOW(tcp, sunrpc);/' \
		'tcp: grant sunrpc'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line --regexp 'MODULE_NAMESPACE_ALLOW\(tcp, sunrpc\): the lists grant tcp to ipv6$'
}

@test "check fails when the grants are made without the switch" {
	mutate net/ipv4/tcp.c '/^#if IS_ENABLED(CONFIG_TCP_RESTRICT_EXPORTS)$/,/^#endif$/{/^#/d}' \
		'tcp: grant ipv6 whatever the switch'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line --regexp 'MODULE_NAMESPACE_ALLOW\(tcp, ipv6\) is not under #if IS_ENABLED\(CONFIG_TCP_RESTRICT_EXPORTS\)'
}

@test "check fails when a derived conversion is missing" {
	mutate net/ipv4/tcp.c 's/^EXPORT_SYMBOL_TCP(tcp_poll);/EXPORT_SYMBOL(tcp_poll);/' \
		'tcp: leave tcp_poll open'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line 'derive.py: DRIFT: tcp_poll: the lists restrict it to tcp (EXPORT_SYMBOL in net/ipv4/tcp.c), the patches leave it open'
}

@test "check fails when a conversion drops GPL" {
	mutate net/ipv4/tcp_cong.c 's/^EXPORT_SYMBOL_TCPCONG_GPL(tcp_slow_start);/EXPORT_SYMBOL_TCPCONG(tcp_slow_start);/' \
		'tcpcong: tcp_slow_start for all'
	check "$BATS_TEST_TMPDIR/patches"
	assert_failure 1
	assert_line --partial 'tcp_slow_start restricted to tcpcong as EXPORT_SYMBOL in net/ipv4/tcp_cong.c; the lists want EXPORT_SYMBOL_GPL'
}

@test "check fails when the committed lists are stale" {
	grep -v $'^restrict\ttcp\t.*\ttcp_poll$' "$HERE/lists.txt" >"$BATS_TEST_TMPDIR/lists.txt"
	COMMITTED=$BATS_TEST_TMPDIR/lists.txt check "$BATS_FILE_TMPDIR/good"
	assert_failure 1
	assert_output --partial 'the committed lists are stale'
	assert_line $'  + restrict\ttcp\tEXPORT_SYMBOL\tnet/ipv4/tcp.c\ttcp_poll'
}

@test "missing inputs fail loudly" {
	run python3 "$DERIVE" lists --src "$BATS_TEST_TMPDIR/none" --debian "$BATS_TEST_TMPDIR/none"
	assert_failure 2
	assert_output --partial 'ERROR'
	check "$BATS_TEST_TMPDIR/none"
	assert_failure 2
	assert_output --partial 'ERROR'
	run python3 "$DERIVE" check --derived "$BATS_TEST_TMPDIR/none" "$BATS_FILE_TMPDIR/good"
	assert_failure 2
	assert_output --partial 'missing'
	run env -u DEBIAN_TREE python3 "$DERIVE" check "$BATS_FILE_TMPDIR/good"
	assert_failure 2
	assert_output --partial 'deriving needs --src and --debian'
}

# Out-of-tree users, the third source: a module that uses tcp_poll keeps
# it open (tcp keeps out-of-tree users), so the series that restricts it
# fails the check; one that uses tcp_slow_start does not (tcpcong breaks
# them on purpose) and the lists name it as broken.
@test "an out-of-tree user keeps a tcp symbol open and is broken by tcpcong" {
	: "${DEBIAN_TREE:?DEBIAN_TREE: the extracted Debian tree}"
	local t=$BATS_TEST_TMPDIR
	cp "$HERE/out-of-tree.tsv" "$t/known.tsv"
	printf 'oot_poll\thttps://example.org/a\t%040d\ta.c\ttcp_poll\n' 0 >>"$t/known.tsv"
	printf 'oot_cong\thttps://example.org/b\t%040d\tb.c\ttcp_slow_start\n' 0 >>"$t/known.tsv"
	run python3 "$DERIVE" lists --src "$SRC" --debian "$DEBIAN_TREE" \
		--out-of-tree "$t/known.tsv" --out "$t/lists.txt" \
		--report "$t/report.txt" --messages "$t/messages"
	assert_success
	run grep -x $'open\ttcp_poll\toot_poll' "$t/lists.txt"
	assert_success
	run grep -x $'broken\ttcpcong\ttcp_slow_start\toot_cong tcp_ledbat' "$t/lists.txt"
	assert_success
	run grep -A2 '^  oot_cong ' "$t/report.txt"
	assert_output --partial 'tcp_slow_start: restricted to tcpcong: BROKEN on purpose'
	DERIVED=$t/lists.txt COMMITTED=$t/lists.txt check "$HERE/../kernel-patch"
	assert_failure 1
	assert_line --regexp '^derive.py: DRIFT: [0-9]{4}-tcp-export-the-TCP-internals[^:]*: net/ipv4/tcp.c: tcp_poll restricted to tcp, but other modules use it: oot_poll$'
	assert_output --partial 'check FAILED: 1 differences'
}
