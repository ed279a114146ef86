#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make fuzz: run each libFuzzer target in turn for its share of SECONDS,
# one process at a time, niced (kernel builds share the machine), on its
# corpus in DIR/corpus/TARGET. Prints per target the executions, exec/s,
# corpus size and findings (crash-, leak-, timeout-, oom- files kept in
# DIR/artifacts/TARGET); exits 1 when there is a finding.
# Usage: run.sh DIR SECONDS TARGET...
set -uo pipefail

dir=$(cd "${1:?usage: run.sh DIR SECONDS TARGET...}" && pwd)
total=${2:?}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
share=$((total / $#))
((share > 0)) || share=1
found=0

final_stat() {
	sed -n "s/^stat::$1: *//p" "$2" | tail -n 1
}

for t; do
	work=$dir/run/$t
	art=$dir/artifacts/$t
	log=$dir/run/$t.log
	rm -rf "$work"
	mkdir -p "$work" "$art" "$dir/corpus/$t"
	touch "$work/.start"
	start=$SECONDS
	echo "fuzz: $t for ${share}s (log: $log)"
	# -jobs=1: one child, its output in fuzz-0.log, copied to the log.
	(cd "$work" && nice -n 10 "$dir/fuzz-$t" -jobs=1 \
		-max_total_time="$share" -print_final_stats=1 -timeout=10 \
		-rss_limit_mb=2048 -dict="$here/nscheck.dict" \
		-artifact_prefix="$art/" "$dir/corpus/$t") >"$log" 2>&1
	took=$((SECONDS - start))
	findings=$(find "$art" -newer "$work/.start" -type f \
		\( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
		-o -name 'oom-*' \) | sort)
	printf 'fuzz: %-8s %5ds %10s execs %6s exec/s corpus %5d files, %s\n' \
		"$t" "$took" "$(final_stat number_of_executed_units "$log")" \
		"$(final_stat average_exec_per_sec "$log")" \
		"$(find "$dir/corpus/$t" -type f | wc -l)" \
		"$(printf '%s' "$findings" | grep -c .) findings"
	for f in $findings; do
		echo "fuzz:   $f"
		grep -m1 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' \
			"$log" | sed 's/^/fuzz:     /'
		found=1
	done
done
exit $found
