#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scan a guest console log for kernel reports (the patterns follow
# syzkaller's pkg/report/linux.go). Prints the offending lines and exits 1
# when any is found, 0 when the log is clean. Only the part before the
# init's "end of run" mark is judged: what follows is the reboot.
#
# usage: console-check.sh CONSOLE_LOG
set -u
log=$1
[ -r "$log" ] || { echo "console-check: $log: cannot read" >&2; exit 2; }

patterns=(
	'BUG: '
	'WARNING: '
	'kernel BUG at'
	'Oops: '
	'general protection fault'
	'Kernel panic'
	'Unable to handle kernel'
	'UBSAN: '
	'KASAN: '
	'KFENCE: '
	'INFO: task .* blocked for more than'
	'INFO: rcu_.* detected stalls'
	'INFO: possible circular locking dependency'
	'INFO: possible recursive locking'
	'INFO: inconsistent lock state'
	'WARNING: suspicious RCU usage'
	'possible deadlock'
	'unreferenced object 0x'
	'watchdog: BUG: soft lockup'
	'list_add corruption'
	'list_del corruption'
	'Call Trace:'
)
re=$(IFS='|'; echo "${patterns[*]}")
# A failure injected on purpose (bats/080-fault.bats, failslab verbose=2)
# prints "FAULT_INJECTION: forcing a failure." and the stack of the
# allocation it failed, up to "</TASK>": that stack is no report. Once
# one was injected, so is the stack warn_alloc() prints when the failure
# makes a vmalloc() or page allocation fail in turn.
sed '/nsa-init: end of run/q' "$log" |
	awk '/FAULT_INJECTION: forcing a failure/ { skip = 1; injected = 1 }
	     injected && /: (vmalloc error|page allocation failure): / { skip = 1 }
	     !skip { print }
	     skip && /<\/TASK>/ { skip = 0 }' |
	grep -E -- "$re" && exit 1
exit 0
