# SPDX-License-Identifier: GPL-2.0
# The harness's own test, never part of 'make check': 'make check
# SUITE=selftest' must FAIL, once for the failing test below and once for
# the WARNING that nsa_warn leaves in the console log, although the
# second test passes.
load ../helpers

@test "a test that fails on purpose" {
	run true
	assert_failure
}

@test "a module that hits WARN_ON loads (and the run must still fail)" {
	run insmod "$(ko nsa_warn)"
	assert_success
	rmmod nsa_warn
}
