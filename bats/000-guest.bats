# SPDX-License-Identifier: GPL-2.0
# The guest is real: the kernel that was built, real insmod/rmmod, dmesg.
load helpers

@test "the guest runs the kernel that was built" {
	run uname -r
	assert_output "$(cat "$NSA/kernelrelease")"
}

@test "insmod and rmmod of a trivial module" {
	dmesg -C
	run insmod "$(ko nsa_hello)"
	assert_success
	run lsmod
	assert_line --regexp '^nsa_hello '
	run rmmod nsa_hello
	assert_success
	run lsmod
	refute_line --regexp '^nsa_hello '
	run kmsg
	assert_line "nsa_hello: loaded"
	assert_line "nsa_hello: unloaded"
}

@test "the kernel log is readable and carries what is written to it" {
	local mark="nsa-guest: mark $RANDOM$RANDOM"
	echo "$mark" > /dev/kmsg
	run kmsg
	assert_success
	assert_line "$mark"
}

@test "the guest has two online CPUs" {
	# QEMU runs -smp 2 (vm/run.sh); the kernel must bring both up (ACPI's
	# MADT), or every race in these suites is an interleaving on one CPU.
	run nproc
	assert_output 2
	run cat /sys/devices/system/cpu/online
	assert_output 0-1
}
