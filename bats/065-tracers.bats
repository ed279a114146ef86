#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# symbol_get() knows its caller by its return address. A tracer that
# replaces that address (the function-graph tracer, a kretprobe, a BPF
# fexit trampoline) must not make a module's call look like built-in
# code's: __symbol_get() is notrace and NOKPROBE_SYMBOL(), and a caller
# the address does not name is refused. Here nsa_getloop_denied, which
# vmlinux does not list for TEST_NS_ALLOW, runs its symbol_get() rounds
# under each tracer the kernel has, and must get nothing. Needs ftrace
# and kprobe events: the debug kernel (Debian's configuration) has them,
# the small guest skips.

load helpers

TRACING=/sys/kernel/tracing

setup_file() {
	[ -e $TRACING/current_tracer ] ||
		mount -t tracefs tracefs $TRACING 2>/dev/null || true
	is_loaded nsa_open_exp || insmod "$(ko nsa_open_exp)"
	is_loaded nsa_getloop_denied || insmod "$(ko nsa_getloop_denied)"
}

teardown_file() {
	[ -w $TRACING/current_tracer ] && {
		echo nop > $TRACING/current_tracer
		echo > $TRACING/set_graph_function
		echo > $TRACING/set_ftrace_filter
		echo 0 > $TRACING/events/kprobes/enable 2>/dev/null
		echo > $TRACING/kprobe_events
	}
	unload_all nsa_getloop_denied nsa_open_exp
}

# N symbol_get() rounds of the denied module; prints how many of them
# returned vmlinux's restricted symbol.
denied_rounds() {
	local got=/sys/module/nsa_getloop_denied/parameters/got_vmlinux before

	before=$(cat $got)
	echo "$1" > /sys/module/nsa_getloop_denied/parameters/run
	echo $(($(cat $got) - before))
}

@test "tracers: with no tracer, the denied module gets nothing" {
	run denied_rounds 5
	assert_output 0
}

@test "tracers: __symbol_get() cannot be function-graph traced" {
	[ -w $TRACING/set_graph_function ] || skip "kernel without the function-graph tracer"
	run grep -c -x '__symbol_get' $TRACING/available_filter_functions
	assert_output 0
	run bash -c "echo __symbol_get > $TRACING/set_graph_function"
	assert_failure
}

@test "tracers: under the function-graph tracer, the denied module gets nothing" {
	[ -w $TRACING/set_graph_function ] || skip "kernel without the function-graph tracer"
	# The tracer hooks what set_ftrace_filter names, and no more: the
	# functions between the parameter write and the symbol_get() calls
	# (the module's own among them) and any *symbol_get* function, which
	# would take in __symbol_get() were it traceable (the test above).
	# Hooking all 39,000 functions and unhooking them again puts a
	# breakpoint on every call site in turn. Under QEMU 7.2's
	# multi-threaded TCG, on a busy host, the idle vCPU kept trapping on
	# one of them (rcu_needs_cpu(), interrupts off) while the other
	# waited for it in text_poke_bp(): the guest hung, in CI and then
	# here in 6 toggles of the unfiltered tracer; 40 toggles of this
	# filtered one all passed.
	echo param_attr_store > $TRACING/set_ftrace_filter
	echo ':mod:nsa_getloop_denied' >> $TRACING/set_ftrace_filter
	echo '*symbol_get*' >> $TRACING/set_ftrace_filter 2>/dev/null || true
	echo param_attr_store > $TRACING/set_graph_function
	echo function_graph > $TRACING/current_tracer
	local got traced
	got=$(denied_rounds 5)
	# Read before the tracer goes: a change of tracer empties the buffer.
	traced=$(grep -c 'nsa_run' $TRACING/trace || true)
	echo nop > $TRACING/current_tracer
	echo > $TRACING/set_graph_function
	echo > $TRACING/set_ftrace_filter
	[ "$got" = 0 ] || fail "under the tracer the denied module got vmlinux's symbol $got times"
	# The tracer was on the module's path: its parameter handler shows.
	[ "$traced" -gt 0 ] || fail "the trace does not show nsa_run: the tracer was off the module's path"
}

@test "tracers: no kretprobe on __symbol_get(), and under a kretprobe the denied module gets nothing" {
	[ -w $TRACING/kprobe_events ] || skip "kernel without kprobe events"
	if echo 'r:nsa_symget __symbol_get' >> $TRACING/kprobe_events 2>/dev/null; then
		# A kernel that lets one in: it must still refuse.
		echo 1 > $TRACING/events/kprobes/enable
		run denied_rounds 5
		echo 0 > $TRACING/events/kprobes/enable
		echo > $TRACING/kprobe_events
		assert_output 0
		fail "a kretprobe could be placed on __symbol_get()"
	fi
	run denied_rounds 5
	assert_output 0
}

@test "tracers: BPF fexit trampolines" {
	# fentry/fexit programs attach by BTF, which the debug kernel is
	# built without (vm/config/debian-guest.config); __symbol_get() is
	# notrace, so no trampoline can attach to it in any case.
	[ -e /sys/kernel/btf/vmlinux ] || skip "kernel without BTF: no BPF trampolines to attach"
	run grep -c -x '__symbol_get' $TRACING/available_filter_functions
	assert_output 0
}
