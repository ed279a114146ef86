#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark, run in the guest (nsa.mode=bench). With bench_exp loaded
# and 50 filler modules holding 0, 100, 1,000 or 10,000 grant records,
# times finit_module() of bench_imp (2,000 restricted symbols) REPS times
# after a warm-up, then runs bench_symget (10,000 symbol_get/put pairs)
# several times. Prints "load RECORDS NS UNLOAD_NS", "many MODULE NS
# UNLOAD_NS", "beside idle|bench_many1000 NS UNLOAD_NS" and "symget KIND
# PAIRS NS" lines (loadtime times each load, and the unload after it in
# CPU time).
set -u -o pipefail
reps=${BENCH_REPS:-200}
ko=/usr/share/nsa/bench

fillers() { # records: the 50 modules that hold them (bench/gen-modules.sh)
	for i in $(seq 0 49); do printf 'bench_f%d_%02d\n' "$1" "$i"; done
}

echo "# kernel $(uname -r) $(cat /proc/version | cut -c1-60)"
# Jiffies (4 ms steps) cannot time a load: bench/run.sh gives the TSC rate
# (tsc-early is the same counter at that rate, before the switch to tsc).
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "# clocksource $cs"
case $cs in tsc|tsc-early) ;; *) echo "bench: clocksource $cs, not the TSC" >&2; exit 1 ;; esac
insmod "$ko/bench_exp.ko" || exit 1
for records in 0 100 1000 10000; do
	for m in $(fillers $records); do
		insmod "$ko/$m.ko" || exit 1
	done
	loadtime "$ko/bench_imp.ko" bench_imp 5 "$reps" | sed "s/^/load $records /" || exit 1
	for m in $(fillers $records); do
		rmmod "$m"
	done
done
# The modules that declare every namespace they export into: their load
# marks which ones, 4,000 exports over 10 or 1,000 namespaces.
for m in bench_many10 bench_many1000; do
	loadtime "$ko/$m.ko" "$m" 5 "$((reps / 4))" | sed "s/^/many $m /" || exit 1
done
# Another module's load, alone and while bench_many1000 loads and
# unloads in a loop beside it. The guest has one CPU and no preemption:
# the other load waits for whatever the big one does in the kernel until
# it sleeps or yields, under module_mutex or not.
small=bench_f0_00
loadtime "$ko/$small.ko" $small 5 "$reps" | sed "s/^/beside idle /" || exit 1
loadtime "$ko/bench_many1000.ko" bench_many1000 0 1000000 > /dev/null &
bg=$!
loadtime "$ko/$small.ko" $small 5 "$reps" | sed "s/^/beside bench_many1000 /"
ok=$?
kill $bg
wait $bg
rmmod bench_many1000 2> /dev/null
[ $ok = 0 ] || exit 1
for i in $(seq 1 10); do
	for kind in restricted open none; do
		dmesg -C
		insmod "$ko/bench_symget.ko" iterations=10000 kind=$kind || exit 1
		dmesg | sed -n 's/.*bench_symget: \([a-z]*\) \([0-9]*\) pairs in \([0-9]*\) ns$/symget \1 \2 \3/p'
		rmmod bench_symget
	done
done
rmmod bench_exp
