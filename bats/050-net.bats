# SPDX-License-Identifier: GPL-2.0
# The converted subsystems on a real network stack: ipv6 (importing the
# tcp and udp namespaces vmlinux restricts to it) and every in-tree TCP
# congestion-control module (tcpcong) load and carry real traffic over
# loopback, checked byte for byte. The out-of-tree users that are refused
# are rows of modules/cases.tsv.
load helpers

setup_file() {
	ip link set lo up
	modprobe ipv6
}

# transfer PROTO LISTEN LISTEN_OPTS CONNECT SIZE: send SIZE random bytes from a socat
# client to a socat server on loopback and compare what arrived.
transfer() {
	local in=$BATS_TEST_TMPDIR/in out=$BATS_TEST_TMPDIR/out
	local port=$((20000 + RANDOM % 20000)) server i

	head -c "$5" /dev/urandom > "$in"
	rm -f "$out"
	case $1 in
	tcp)
		timeout 60 socat -u "$2:$port,$3,reuseaddr" "OPEN:$out,creat,trunc" &
		server=$!
		timeout 60 socat -u "OPEN:$in" "$4:$port,retry=100,interval=0.1"
		wait $server
		;;
	udp)
		# One datagram; resend until the receiver, maybe not yet bound, has it.
		timeout 60 socat -u "$2:$port,$3" "OPEN:$out,creat,trunc" &
		server=$!
		for i in $(seq 1 100); do
			[ -s "$out" ] && break
			socat -u "OPEN:$in" "$4:$port" 2>/dev/null
			sleep 0.2
		done
		wait $server
		;;
	esac
	cmp "$in" "$out"
}

@test "ipv6 is a module, loaded, and it uses the tcp and udp namespaces" {
	assert is_loaded ipv6
	run modinfo -F import_ns ipv6
	assert_line tcp
	assert_line udp
	[ -e /proc/net/if_inet6 ]
}

@test "TCP over IPv4 loopback carries 1 MiB intact" {
	transfer tcp TCP4-LISTEN bind=127.0.0.1 TCP4:127.0.0.1 1048576
}

@test "TCP over IPv6 loopback carries 1 MiB intact" {
	transfer tcp TCP6-LISTEN "bind=[::1]" "TCP6:[::1]" 1048576
}

@test "UDP over IPv4 loopback carries a datagram intact" {
	transfer udp UDP4-RECVFROM bind=127.0.0.1 UDP4-SENDTO:127.0.0.1 4000
}

@test "UDP over IPv6 loopback carries a datagram intact" {
	transfer udp UDP6-RECVFROM "bind=[::1]" "UDP6-SENDTO:[::1]" 4000
}

@test "the congestion modules that use the tcpcong helpers import tcpcong" {
	local m
	for m in tcp_bic tcp_cubic tcp_vegas tcp_westwood tcp_dctcp tcp_cdg; do
		run modinfo -F import_ns "$m"
		assert_line tcpcong
	done
}

@test "every in-tree congestion module loads, is selected and carries TCP" {
	local ko name algo n=0
	while IFS= read -r ko; do
		name=$(modinfo -F name "$ko")
		algo=${name#tcp_}
		run modprobe "$name"
		assert_success
		sysctl -qw net.ipv4.tcp_congestion_control="$algo"
		assert_equal "$(sysctl -n net.ipv4.tcp_congestion_control)" "$algo"
		transfer tcp TCP4-LISTEN bind=127.0.0.1 TCP4:127.0.0.1 262144
		sysctl -qw net.ipv4.tcp_congestion_control=reno
		n=$((n + 1))
	done < <(find "/lib/modules/$(uname -r)/kernel/net/ipv4" -name 'tcp_*.ko*' \
		-not -name 'tcp_diag.ko*' | sort)
	[ "$n" -ge 16 ] || fail "only $n congestion modules"
	echo "# $n congestion modules" >&3
}

# udp_diag uses udp_table, which the udp conversion leaves open for it: it
# loads next to ipv6 and serves ss(8). Unloaded first, it must come back
# for ss's sock_diag request (inet_diag asks for it by its alias).
@test "udp_diag, an in-tree user of an open udp symbol, loads and serves ss" {
	local port=$((20000 + RANDOM % 20000)) server

	modprobe udp_diag
	assert is_loaded udp_diag
	rmmod udp_diag
	timeout 30 socat -u "UDP4-RECV:$port" /dev/null &
	server=$!
	sleep 0.5
	run ss -uanH "sport = :$port"
	kill $server
	assert_output --partial ":$port"
	assert is_loaded udp_diag
	run dmesg --notime
	refute_output --regexp "udp_diag.*(namespace|Unknown symbol)"
}
