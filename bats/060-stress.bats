#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Concurrent load, unload and symbol_get() (modules/stress/). For
# NSA_STRESS_SECONDS of guest time (default 60; nsa.stress= on the kernel
# command line) these loops race:
#   exporter  insmod/rmmod nsa_stress_exp, owner of NSA_STRESS
#   lister    insmod/rmmod nsa_stress_lister, which lists nsa_stress_denied
#             and nsa_getloop_denied for NSA_STRESS without owning it
#   user      insmod/rmmod nsa_stress_user, listed by the owner
#   denied    insmod/rmmod nsa_stress_denied, not listed by the owner
#   getloop   nsa_getloop, listed: symbol_get()/symbol_put() rounds
#   refused   nsa_getloop_denied, not listed: the same, throttled
#   viewer    reads the live index (<debugfs>/module_ns_allow/index) while
#             the others change it
# Each loop tallies its outcomes; setup_file runs the race once, prints
# the counts, and the tests below judge them.

load helpers

STRESS_MODS="nsa_getloop nsa_getloop_denied nsa_stress_user nsa_stress_denied
	nsa_stress_lister nsa_stress_exp nsa_open_exp"

stress_seconds() {
	nsa_param stress "${NSA_STRESS_SECONDS:-60}"
}

# insmod FILE: prints "ok" or the errno insmod's message stands for.
try_load() {
	local out

	out=$(insmod "$1" 2>&1) && { echo ok; return; }
	insmod_errno "$1" "$out"
}

# rmmod NAME: prints "ok", "busy" (in use) or what else it said. Busy
# comes two ways: rmmod sees a reference and does not try, or a reference
# (an importer's load, a symbol_get()) is taken between rmmod's look and
# delete_module(), which then fails with EWOULDBLOCK (EAGAIN).
try_unload() {
	local out

	out=$(rmmod "$1" 2>&1) && { echo ok; return; }
	case $out in
	*"rmmod: ERROR: Module $1 is in use"*) echo busy ;;
	*"rmmod: ERROR: could not remove module $1: Resource temporarily unavailable") echo busy ;;
	*) echo "other(${out//[$'\n' ]/_})" ;;
	esac
}

# A pause without a fork: read from a FIFO nobody writes, with a timeout.
pause() {
	read -r -t "$1" -u 9 || true
}

# race_loop NAME STEP: run STEP until the deadline; every word STEP prints
# is an outcome, tallied into $STRESS_DIR/NAME as "count outcome" lines,
# and the CPU the loop was on after each step (field 39 of
# /proc/PID/stat) into $STRESS_DIR/NAME.cpu.
race_loop() {
	local name=$1 step=$2 word
	local -a stat
	declare -A tally=() cpus=()

	while ((SECONDS < deadline)); do
		for word in $($step); do
			tally[$word]=$((${tally[$word]:-0} + 1))
		done
		read -r -a stat < "/proc/$BASHPID/stat"
		cpus[cpu${stat[38]}]=$((${cpus[cpu${stat[38]}]:-0} + 1))
	done
	for word in "${!tally[@]}"; do
		echo "${tally[$word]} $word"
	done > "$STRESS_DIR/$name"
	for word in "${!cpus[@]}"; do
		echo "${cpus[$word]} $word"
	done > "$STRESS_DIR/$name.cpu"
}

step_exporter() {
	echo "load:$(try_load "$(ko nsa_stress_exp)")"
	echo "unload:$(try_unload nsa_stress_exp)"
}

step_lister() {
	echo "load:$(try_load "$(ko nsa_stress_lister)")"
	echo "unload:$(try_unload nsa_stress_lister)"
}

step_user() {
	local r

	r=$(try_load "$(ko nsa_stress_user)")
	echo "load:$r"
	[ "$r" = ok ] && echo "unload:$(try_unload nsa_stress_user)"
}

step_denied() {
	local r

	r=$(try_load "$(ko nsa_stress_denied)")
	echo "load:$r"
	[ "$r" = ok ] && echo "unload:$(try_unload nsa_stress_denied)"
}

step_getloop() {
	echo 20 > /sys/module/nsa_getloop/parameters/run && echo run
}

step_refused() {
	echo 1 > /sys/module/nsa_getloop_denied/parameters/run && echo run
	pause 0.05
}

# Every line of the index well formed; the exporter's grants seen or not.
step_viewer() {
	local line re='^[A-Za-z0-9_]+ [A-Za-z0-9_]+ (exports|-) [A-Za-z0-9_*,-]+$'

	# One read(): a snapshot (a reader that seeks back, as bash's read
	# does, makes seq_file start again on what may be a new index).
	while read -r line; do
		[[ $line =~ $re ]] || echo "malformed(${line// /_})"
		[[ $line == "NSA_STRESS nsa_stress_exp exports "* ]] && echo exporter
	done <<<"$(cat /sys/kernel/debug/module_ns_allow/index)"
	echo read
	pause 0.02
}

# How often loop NAME saw OUTCOME (0 when never).
count() {
	awk -v o="$2" '$2 == o { n = $1 } END { print n + 0 }' "$STRESS_DIR/$1"
}

# The counters of a symbol_get loop module, from its parameters.
param() {
	cat "$STRESS_DIR/param.$1.$2"
}

setup_file() {
	local m loop f

	export STRESS_DIR=$BATS_FILE_TMPDIR
	for m in $STRESS_MODS; do
		is_loaded "$m" && rmmod "$m"
	done
	[ -w /sys/kernel/debug/kmemleak ] && echo clear > /sys/kernel/debug/kmemleak
	dmesg -C
	insmod "$(ko nsa_open_exp)"
	insmod "$(ko nsa_getloop)"
	insmod "$(ko nsa_getloop_denied)"

	mkfifo "$STRESS_DIR/fifo"
	exec 9<> "$STRESS_DIR/fifo"
	deadline=$((SECONDS + $(stress_seconds)))
	for loop in exporter lister user denied getloop refused viewer; do
		race_loop $loop step_$loop &
	done
	wait
	exec 9>&-

	# What the race left, before anything is cleaned up.
	dmesg > "$STRESS_DIR/kmsg"
	for m in nsa_getloop nsa_getloop_denied; do
		for f in /sys/module/$m/parameters/*_*; do
			cat "$f" > "$STRESS_DIR/param.$m.${f##*/}"
		done
	done
	for m in nsa_stress_exp nsa_open_exp; do
		{ is_loaded $m && refcnt $m || echo absent; } > "$STRESS_DIR/refcnt.$m"
	done
	for m in nsa_stress_user nsa_stress_denied nsa_stress_lister; do
		{ is_loaded $m && echo loaded || echo absent; } > "$STRESS_DIR/state.$m"
	done

	{
		echo "# stress: $(stress_seconds) s"
		for loop in exporter lister user denied getloop refused viewer; do
			echo "# $loop: $(sort -k2 "$STRESS_DIR/$loop" | tr '\n' ' ')" \
				"on $(sort -k2 "$STRESS_DIR/$loop.cpu" | tr '\n' ' ')"
		done
		for m in nsa_getloop nsa_getloop_denied; do
			echo "# $m: $(cd "$STRESS_DIR" && for f in param.$m.*; do
				printf '%s=%s ' "${f#param.$m.}" "$(cat "$f")"; done)"
		done
	} >&3
}

teardown_file() {
	local m

	for m in $STRESS_MODS; do
		is_loaded "$m" && rmmod "$m"
	done
	return 0
}

@test "stress: the exporter and the lister came and went" {
	# A debug kernel under TCG manages a load every few seconds only.
	assert [ "$(count exporter load:ok)" -gt 1 ]
	assert [ "$(count exporter unload:ok)" -gt 1 ]
	# The exporter's only failures: still loaded (EEXIST) because an
	# importer or a symbol_get() held it (busy).
	run grep -v -E ' (load:(ok|EEXIST)|unload:(ok|busy))$' "$STRESS_DIR/exporter"
	assert_output ""
	assert [ "$(count lister load:ok)" -gt 1 ]
	run grep -v -E ' (load|unload):ok$' "$STRESS_DIR/lister"
	assert_output ""
}

@test "stress: the listed importer is never refused" {
	# It loads when the owner is there and finds no symbol when not.
	assert [ "$(count user load:ok)" -gt 0 ]
	assert [ "$(count user load:ok)" = "$(count user unload:ok)" ]
	run grep -v -E ' (load:(ok|ENOENT)|unload:ok)$' "$STRESS_DIR/user"
	assert_output ""
	run grep -c "nsa_stress_user" <(grep -E "not allowed|undeclared|wrong module" "$STRESS_DIR/kmsg")
	assert_output 0
}

@test "stress: the unlisted importer never loads" {
	assert [ "$(count denied load:EACCES)" -gt 0 ]
	run grep -v -E ' load:(EACCES|ENOENT)$' "$STRESS_DIR/denied"
	assert_output ""
	# Its init never ran.
	run grep -c "nsa_stress_denied: nsa_stress_fn() =" "$STRESS_DIR/kmsg"
	assert_output 0
}

@test "stress: symbol_get() of the listed module: restricted when present, open always" {
	local rounds=$(($(count getloop run) * 20))

	assert [ "$rounds" -gt 0 ]
	assert_equal "$(param nsa_getloop got_open)" "$rounds"
	assert_equal "$(param nsa_getloop null_open)" 0
	assert_equal "$(($(param nsa_getloop got_restricted) + $(param nsa_getloop null_restricted)))" "$rounds"
	assert [ "$(param nsa_getloop got_restricted)" -gt 0 ]
	run grep -c "module nsa_getloop not allowed" "$STRESS_DIR/kmsg"
	assert_output 0
}

@test "stress: symbol_get() of the unlisted module: restricted and vmlinux never" {
	local rounds
	rounds=$(count refused run)

	assert [ "$rounds" -gt 0 ]
	assert_equal "$(param nsa_getloop_denied got_restricted)" 0
	assert_equal "$(param nsa_getloop_denied null_restricted)" "$rounds"
	assert_equal "$(param nsa_getloop_denied got_vmlinux)" 0
	assert_equal "$(param nsa_getloop_denied null_vmlinux)" "$rounds"
	assert_equal "$(param nsa_getloop_denied got_open)" "$rounds"
}

@test "stress: symbol_get()'s refusals are rate-limited, the console stays bounded" {
	local rounds lines most burst=30 t0 ms
	local line="module nsa_getloop_denied not allowed to reference namespace \`TEST_NS_ALLOW' for test_ns_allow_fn"
	rounds=$(count refused run)
	# printk's default limit: 10 lines in 5 s, for all of this path's
	# refusals together (the loop makes two a round).
	most=$((($(stress_seconds) / 5 + 2) * 10))
	lines=$(grep -c -F "$line" "$STRESS_DIR/kmsg")
	echo "# stress: $rounds refused rounds, $lines lines of vmlinux's refusal, at most $most" >&3
	# vmlinux refused it by name, and no more often than the limit lets.
	assert [ "$lines" -gt 0 ]
	assert [ "$lines" -le "$most" ]
	# The race's loop is throttled, and may stay under the limit. A
	# burst that must not: $burst rounds at once, each refused by
	# vmlinux, after more than an interval of quiet, so that the burst
	# opens an interval of its own and, shorter than one, stays in it:
	# at most 10 of its lines print, and not none.
	sleep 6
	dmesg -C
	t0=${EPOCHREALTIME/./}
	echo $burst > /sys/module/nsa_getloop_denied/parameters/run
	ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	lines=$(kmsg | grep -c -F "$line")
	echo "# stress: a burst of $burst refused rounds in $ms ms printed $lines lines" >&3
	assert [ "$ms" -lt 5000 ]
	assert [ "$lines" -gt 0 ]
	assert [ "$lines" -le 10 ]
}

@test "stress: the loops ran on both CPUs" {
	# Two online CPUs (000-guest): the races were parallel, not only
	# interleaved. Every CPU some loop ran on, over all loops:
	run bash -c "cat '$STRESS_DIR'/*.cpu | awk '{ n[\$2] += \$1 } END { for (c in n) print c }' | sort"
	assert_line cpu0
	assert_line cpu1
}

@test "stress: reference counts are back where they belong" {
	# Only a loaded nsa_stress_user may still hold the exporter; nothing
	# holds the open exporter once the loops have put their symbols.
	local users=0
	[ "$(cat "$STRESS_DIR/state.nsa_stress_user")" = loaded ] && users=1
	run cat "$STRESS_DIR/refcnt.nsa_stress_exp"
	[ "$output" = absent ] || assert_output "$users"
	assert_equal "$(cat "$STRESS_DIR/refcnt.nsa_open_exp")" 0
	assert_equal "$(cat "$STRESS_DIR/state.nsa_stress_denied")" absent
}

@test "stress: every module unloads afterwards" {
	local m

	for m in $STRESS_MODS; do
		if is_loaded "$m"; then
			run rmmod "$m"
			assert_success
		fi
		refute is_loaded "$m"
	done
}

@test "stress: no kernel report, no taint" {
	run nsa-report-check "$STRESS_DIR/kmsg"
	assert_success
	# W (512) or D (128): a warning or an oops during the race.
	assert_equal "$(($(cat /proc/sys/kernel/tainted) & (512 | 128)))" 0
}

@test "stress: kmemleak finds nothing after the race" {
	assert_no_leaks
}

@test "stress: the live index, read during the race, is always well formed" {
	# Reads that overlapped the race; a debug kernel on a busy host makes
	# about ten in a minute, so ask for a few, not for a rate.
	assert [ "$(count viewer read)" -gt 2 ]
	# It saw the exporter's grants while the exporter was loaded.
	assert [ "$(count viewer exporter)" -gt 0 ]
	run grep -v -E ' (read|exporter)$' "$STRESS_DIR/viewer"
	assert_output ""
}
