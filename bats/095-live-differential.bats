#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# nscheck --live against the kernel: random load and unload sequences of
# the test modules (seeded: nsa.seed=N on the kernel command line, else a
# fixed seed; printed). After each step, nscheck --live --each predicts
# every candidate's insmod on the kernel as it is; then each candidate is
# really inserted (and removed again when it loads): the outcome, the
# errno and every kernel line nscheck printed must be the kernel's. At
# least MIN_CHECKS checks (nsa.live_checks=N on the kernel command line
# changes it: the debug flavour takes fewer, for time), no mismatch.
#
# The candidates are the modules of cases.tsv whose verdict nscheck can
# decide (its column is not "-", a symbol_get() at run time, nor 2, an
# unreadable file), with the signed and otherkey copies.
load helpers

MAX_STEPS=40

seed() {
	nsa_param seed 2026
}

MIN_CHECKS=$(nsa_param live_checks 500)

candidates() {
	awk -F'\t' '!/^#/ && NF && $6 != "-" && $6 != 2 {
		n = split($2, f, " ")
		for (i = 1; i <= n; i++)
			if (f[i] != "-")
				print f[i]
		print $3
	}' "$CASES" | sort -u
}

# The kernel's name for each candidate (modinfo's name=).
declare -gA NAME
name_of() {
	echo "${NAME[$1]}"
}

# Candidates loaded by the sequence, by kernel name: their files.
declare -gA LOADED

mismatch() {
	echo "# MISMATCH step $step ($history): $*" >&3
	mismatches=$((mismatches + 1))
}

# Every candidate: nscheck's prediction, then the kernel's verdict.
check_all() {
	local c f out status errno lines rc msg want line log t0
	local -A pstatus perrno plines
	local files=()

	for c in "${CANDS[@]}"; do
		files+=("$(ko "$c")")
	done
	t0=$EPOCHREALTIME
	out=$(nscheck --live --each --json -E "$NSA/Module.symvers" \
		--trusted-key "$NSA/signing_key.x509" --external "$NSA/ko" \
		"${files[@]}" 2>"$BATS_TEST_TMPDIR/err") || true
	if [ -s "$BATS_TEST_TMPDIR/err" ] || [ -z "$out" ]; then
		mismatch "nscheck --live failed: $(cat "$BATS_TEST_TMPDIR/err")"
		return
	fi
	nscheck_us=$((nscheck_us + $(usecs_since "$t0")))
	dmesg -C
	# One line a module: file, status, the errno the kernel returns
	# (the last refusing finding's), then its kernel lines (not "already
	# loaded", nscheck's own), tab-separated.
	while IFS=$'\t' read -r f status errno lines; do
		pstatus[$f]=$status perrno[$f]=$errno plines[$f]=$lines
	done < <(jq -r '.modules[] | [.file, .status,
		([.findings[] | select(.errno != null) | .errno] | last // 0),
		([.findings[] | select(.verdict != "already-loaded") |
		  .lines[]] | join("\u0001"))] | @tsv' <<<"$out")

	for c in "${CANDS[@]}"; do
		f=$(ko "$c")
		checks=$((checks + 1))
		[ -n "${pstatus[$f]:-}" ] || { mismatch "$c: no prediction"; continue; }
		rc=0
		msg=$(insmod "$f" 2>&1) || rc=$?
		# The kernel's lines of this insmod alone, cleared for the next.
		log=$'\n'$(dmesg -c --notime)$'\n'
		if [ "${pstatus[$f]}" = loads ]; then
			if [ "$rc" != 0 ]; then
				mismatch "$c: nscheck: loads; insmod: $msg"
			fi
		else
			want="insmod: ERROR: could not insert module $f: $(insmod_error "$(errno_name "${perrno[$f]}")")"
			if [ "$rc" = 0 ]; then
				mismatch "$c: nscheck: ${pstatus[$f]} (${perrno[$f]}); insmod loaded it"
			elif [ "$msg" != "$want" ]; then
				mismatch "$c: nscheck: ${perrno[$f]}; $msg"
			fi
			# Every line nscheck printed, the kernel printed.
			while IFS= read -r -d $'\001' line; do
				[ -n "$line" ] || continue
				[[ $log == *$'\n'"$line"$'\n'* ]] ||
					mismatch "$c: no kernel line: $line"
			done <<<"${plines[$f]}"$'\001'
		fi
		[ "$rc" = 0 ] && rmmod "$(name_of "$c")"
	done
	return 0
}

usecs_since() {
	local now=${EPOCHREALTIME/./} then=${1/./}
	echo $((10#$now - 10#$then))
}

# One random step: load a candidate (60%), or unload one the sequence
# loaded, when nothing uses it.
random_step() {
	local c n names
	names=("${!LOADED[@]}")
	if [ ${#names[@]} = 0 ] || [ $((RANDOM % 10)) -lt 6 ]; then
		c=${CANDS[$((RANDOM % ${#CANDS[@]}))]}
		if insmod "$(ko "$c")" 2>/dev/null; then
			LOADED[$(name_of "$c")]=$c
			history+=" +$c"
		else
			history+=" !$c"
		fi
		return
	fi
	n=${names[$((RANDOM % ${#names[@]}))]}
	if [ "$(refcnt "$n")" = 0 ] && rmmod "$n"; then
		unset "LOADED[$n]"
		history+=" -$n"
	fi
}

unload_sequence() {
	local n progress=1
	while [ ${#LOADED[@]} -gt 0 ] && [ $progress = 1 ]; do
		progress=0
		for n in "${!LOADED[@]}"; do
			if [ "$(refcnt "$n")" = 0 ] && rmmod "$n" 2>/dev/null; then
				unset "LOADED[$n]"
				progress=1
			fi
		done
	done
}

teardown() {
	unload_sequence
}

@test "live differential: nscheck --live against insmod, random sequences" {
	local s start c
	s=$(seed)
	RANDOM=$s
	mapfile -t CANDS < <(candidates)
	[ ${#CANDS[@]} -ge 20 ] || fail "only ${#CANDS[@]} candidates"
	for c in "${CANDS[@]}"; do
		NAME[$c]=$(modname "$c")
	done
	echo "# seed $s (nsa.seed=N on the kernel command line to change it)," \
		"${#CANDS[@]} candidates" >&3
	checks=0 mismatches=0 step=0 history= nscheck_us=0
	start=$SECONDS
	check_all
	while [ $checks -lt $MIN_CHECKS ] && [ $step -lt $MAX_STEPS ]; do
		step=$((step + 1))
		random_step
		check_all
	done
	echo "# sequence:$history" >&3
	# vm/run.sh puts this line into its closing note.
	echo "# live-differential: seed $s, $step steps, $checks checks," \
		"$mismatches mismatches, $((SECONDS - start)) s" \
		"($((nscheck_us / 1000000)) s in nscheck)" >&3
	[ $mismatches = 0 ] || fail "$mismatches mismatches in $checks checks"
	[ $checks -ge $MIN_CHECKS ] || fail "only $checks checks"
}
