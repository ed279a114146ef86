#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the guest under QEMU and judge the run.
#
# usage: run.sh check KERNEL INITRD OUTDIR [SUITE]
#        run.sh demo|bench|kselftest KERNEL INITRD OUTDIR
#        run.sh shell KERNEL INITRD OUTDIR
#
# check: the guest runs the bats suites and sends TAP over a virtio-serial
# port into OUTDIR/results.tap; the console goes to OUTDIR/console.log.
# The run fails if a test failed, if the suites did not reach their end,
# if the console shows a kernel report (vm/console-check.sh), or if the
# kernel is tainted beyond O (out-of-tree), E (unsigned), P (the
# non-GPL test modules), K (a livepatch) and N (KUnit).
#
# ACCEL (default tcg), QEMU_MEM, QEMU_SMP, QEMU_TIMEOUT override the defaults;
# QEMU_ARGS adds options.
set -uo pipefail

mode=$1 kernel=$2 initrd=$3 outdir=$4 suite=${5:-}
here=$(dirname "$(realpath "$0")")
accel=${ACCEL:-tcg}
[ "$accel" = tcg ] && accel=tcg,thread=multi
mkdir -p "$outdir"
tap=$outdir/results.tap console=$outdir/console.log
rm -f "$tap" "$console"

# tsc=reliable: under TCG the clocksource watchdog finds the TSC "unstable"
# and falls back to jiffies, whose 4 ms steps the benchmark cannot use.
# log_buf_len: the stress suite judges the kernel log of a whole race.
cmdline="console=ttyS0 rdinit=/init-nsa panic=-1 oops=panic loglevel=7 tsc=reliable"
cmdline+=" log_buf_len=8M"
cmdline+=" nsa.mode=$mode ${suite:+nsa.suite=$suite} ${KERNEL_CMDLINE:-}"
qemu=(qemu-system-x86_64 -accel "$accel" -cpu max -m "${QEMU_MEM:-1G}"
	-smp "${QEMU_SMP:-2}" -no-reboot -nodefaults -display none
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-device virtio-serial-pci
	-chardev "file,id=results,path=$tap"
	-device virtserialport,chardev=results,name=results)
read -ra extra <<< "${QEMU_ARGS:-}"
qemu+=("${extra[@]}")

if [ "$mode" = shell ]; then
	exec timeout --foreground "${QEMU_TIMEOUT:-3600}" "${qemu[@]}" -serial mon:stdio
fi

timeout "${QEMU_TIMEOUT:-1500}" "${qemu[@]}" -serial "file:$console"
qemu_rc=$?

# demo, bench, kselftest: the output, judged elsewhere (kselftest: by
# vm/kselftest-compare.py); the run fails only if it did not reach its
# end or the kernel reported something.
if [ "$mode" = demo ] || [ "$mode" = bench ] || [ "$mode" = kselftest ]; then
	cat "$tap"
	grep -q '^# end-of-run$' "$tap" && "$here/console-check.sh" "$console"
	exit
fi

fail=()
[ $qemu_rc = 124 ] && fail+=("QEMU timed out after ${QEMU_TIMEOUT:-1500}s")
touch "$tap"
cat "$tap"

# Perl's own TAP parser (TAP::Parser, in perl-base) counts the results
# and checks them against the plan.
read -r passed failed skipped plan_ok < <(perl -MTAP::Parser -e '
	local $/;
	open(my $f, "<", $ARGV[0]) or die "$ARGV[0]: $!";
	my $p = TAP::Parser->new({ tap => <$f> });
	1 while $p->next;
	my $skipped = () = $p->skipped;
	my $passed = () = $p->passed;
	my $failed = () = $p->failed;
	printf "%d %d %d %d\n", $passed - $skipped, $failed, $skipped,
		$p->is_good_plan ? 1 : 0;' "$tap")
grep -q '^# end-of-run$' "$tap" || fail+=("the suites did not run to their end")
bats_rc=$(sed -n 's/^# bats-exit: //p' "$tap")
[ "${bats_rc:-x}" = 0 ] || fail+=("bats exited with ${bats_rc:-nothing}")
[ "$plan_ok" = 1 ] || fail+=("the TAP plan does not match the tests reported")
[ $((passed + failed)) -gt 0 ] || fail+=("no test ran")

# Taint: expected are O (4096, out-of-tree modules), E (8192, unsigned),
# P (1, the cases load modules that are not GPL-compatible on purpose), K
# (32768, bats/075-livepatch.bats applies a livepatch) and N (262144,
# KUnit ran). Anything else (W, D, ...) fails the run.
taint=$(sed -n 's/^# tainted: //p' "$tap")
if [ -n "$taint" ] && [ $((taint & ~(1 | 4096 | 8192 | 32768 | 262144))) -ne 0 ]; then
	fail+=("kernel tainted: $taint")
fi
if ! report=$("$here/console-check.sh" "$console"); then
	fail+=("kernel reports in $console:")
	fail+=("$report")
fi

echo "console log: $console"
echo "TAP:         $tap"
for f in "${fail[@]}"; do echo "FAIL: $f"; done
[ ${#fail[@]} = 0 ] || failed=$((failed + 1))
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line+=", $skipped skipped"
# bats/095-live-differential.bats: its counts, in the closing note.
live=$(sed -n 's/^# live-differential: //p' "$tap" | tail -1)
[ -n "$live" ] && line+="; live differential: $live"
echo "$line"
[ ${#fail[@]} = 0 ] && [ "$failed" = 0 ]
