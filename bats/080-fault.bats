#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Every slab allocation of a load fails once in turn (fail-nth, with
# failslab: Documentation/fault-injection/fault-injection.rst): the
# series' own (records, sets, modinfo values, trust, the index) among
# them. For N = 1, 2, ... nsa-failnth (vm/failnth.c) loads the module
# with the Nth allocation of finit_module() failing, until a load takes
# fewer than N. Each load must fail with ENOMEM and leave nothing
# loaded, or succeed; afterwards the module loads normally and kmemleak
# finds nothing. The site of each failure is read from the stack
# failslab prints (verbose=2; vm/console-check.sh skips those stacks)
# and listed in the TAP. Needs FAULT_INJECTION and FAILSLAB: the debug
# kernel has them, the small guest skips.

load helpers

FAILSLAB=/sys/kernel/debug/failslab
# No module load takes this many allocations: a loop that gets here
# would never end.
MAX_NTH=1500

setup_file() {
	[ -e /proc/thread-self/fail-nth ] && [ -d $FAILSLAB ] || return 0
	# By default failslab leaves sleeping (GFP_KERNEL) allocations alone:
	# the loader's are all of that kind.
	echo N > $FAILSLAB/ignore-gfp-wait
	echo 2 > $FAILSLAB/verbose
	[ -w /sys/kernel/debug/kmemleak ] && echo clear > /sys/kernel/debug/kmemleak
	return 0
}

teardown_file() {
	[ -d $FAILSLAB ] && echo Y > $FAILSLAB/ignore-gfp-wait
	unload_all nsa_exp nsa_user
}

fault_or_skip() {
	[ -e /proc/thread-self/fail-nth ] && [ -d $FAILSLAB ] ||
		skip "kernel without fail-nth and failslab (make check-debug)"
}

# The function that asked for the allocation failslab failed: the first
# frame of the stack it printed that is not the injection's or the
# allocator's own.
fault_site() {
	kmsg | sed -n '/FAULT_INJECTION: forcing a failure/,/<\/TASK>/p' |
		sed -n 's/^ *\([A-Za-z_][A-Za-z0-9_.]*\)+0x.*/\1/p' |
		grep -v -E '^(dump_stack|fail_dump|should_fail|__should_fail|should_failslab|slab_|__slab|___slab|kmem_cache_alloc|__kmem_cache|kmalloc|__kmalloc|kvmalloc|__kvmalloc|kmemdup|kstrdup|kstrndup|kvmemdup|krealloc|__do_krealloc|kzalloc|kvzalloc|kasan|__kasan|__alloc|alloc_|memdup)' |
		head -1
}

# inject KO: the loop above for one module file. Prints one line per N,
# "N site result", and fails on the first load that neither loads nor
# fails with ENOMEM, or that leaves the module behind.
inject() {
	local ko=$1 name n out result injected site

	name=$(modinfo -F name "$ko")
	for ((n = 1; n <= MAX_NTH; n++)); do
		dmesg -C
		out=$(nsa-failnth $n "$ko") || return 1
		read -r result injected <<< "$out"
		site=$(fault_site)
		echo "$n ${site:--} $result"
		if [ "$result" = ok ]; then
			rmmod "$name" || return 1
			[ "$injected" = 1 ] || return 0
		elif [ "$result" != ENOMEM ]; then
			echo "load $n failed with $result, not ENOMEM" >&2
			return 1
		elif is_loaded "$name"; then
			echo "load $n failed but left $name loaded" >&2
			return 1
		fi
	done
	echo "no load of $name took fewer than $MAX_NTH allocations" >&2
	return 1
}

# The TAP comment: how many allocations, and each site of the series.
report() {
	local log=$1

	echo "# fault: $2: $(($(wc -l < "$log") - 1)) allocations failed in turn; $(awk '$3 == "ENOMEM"' "$log" | wc -l) loads ENOMEM, $(awk '$3 == "ok"' "$log" | wc -l) loaded" >&3
	awk '$2 ~ /ns_allow/ { print "# fault: " $0 }' "$log" >&3
}

@test "fault: each allocation of an exporter's load fails in turn" {
	fault_or_skip
	# Signed with the build key: its load allocates its trust entry too.
	run inject "$(ko signed/nsa_exp)"
	printf '%s\n' "$output" > "$BATS_FILE_TMPDIR/exp"
	report "$BATS_FILE_TMPDIR/exp" nsa_exp
	assert_success
	# The series' allocations were among those failed, and each such
	# load failed cleanly.
	run awk '$2 ~ /^(ns_allow_parse|module_ns_allow_prepare)$/ { print $3 }' "$BATS_FILE_TMPDIR/exp"
	assert_line ENOMEM
	refute_line ok
}

@test "fault: each allocation of a listed user's load fails in turn" {
	fault_or_skip
	insmod "$(ko nsa_exp)"
	run inject "$(ko nsa_user)"
	printf '%s\n' "$output" > "$BATS_FILE_TMPDIR/user"
	report "$BATS_FILE_TMPDIR/user" nsa_user
	assert_success
	rmmod nsa_exp
}

@test "fault: afterwards, both load normally and kmemleak finds nothing" {
	fault_or_skip
	run insmod "$(ko nsa_exp)"
	assert_success
	run insmod "$(ko nsa_user)"
	assert_success
	rmmod nsa_user
	rmmod nsa_exp
	assert_no_leaks
}
