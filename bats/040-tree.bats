# SPDX-License-Identifier: GPL-2.0
# nscheck on modules it has never seen: the kernel's own modules staged in
# /lib/modules of this guest (built from the kernel source, not by this
# project), compared with what the kernel does when each is loaded.
load helpers

@test "nscheck --all on the guest's module tree predicts no refusal" {
	run --separate-stderr nscheck --all -E "$NSA/Module.symvers"
	assert_success
	assert_output ""
}

@test "every module of the tree loads with modprobe, as nscheck predicted" {
	local ko name files n=0
	while IFS= read -r ko; do
		name=$(modinfo -F name "$ko")
		# The module and what modprobe loads before it, in that order
		# (--show-depends repeats modules reached through softdeps).
		files=$(modprobe --show-depends "$name" | awk '$1 == "insmod" && !seen[$2]++ { print $2 }')
		run nscheck -E "$NSA/Module.symvers" $files
		assert_success
		run modprobe "$name"
		assert_success
		# A module without an exit function (ipv6) stays: lsmod says so.
		if ! grep -q "^$name .*\[permanent\]" /proc/modules; then
			run modprobe -r "$name"
			assert_success
		fi
		n=$((n + 1))
	done < <(find "/lib/modules/$(uname -r)/kernel" -name '*.ko*')
	[ "$n" -gt 0 ] || fail "no module in the tree"
	echo "# $n modules" >&3
}
