#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the load-time benchmark on two kernels of the same
# configuration, loading the same module files: the patched and the
# pristine one (bench/RESULTS.md, bench/load-time.svg), or with
# BENCH_NAMES="memo no-memo" the series with and without its per-load
# memo (make bench-memo; BENCH_RESULTS and BENCH_SVG name the outputs).
# usage: run.sh A_OBJ A_STAGE B_OBJ B_STAGE OUT
set -euo pipefail
pobj=$1 pstage=$2 xobj=$3 xstage=$4 out=$(realpath -m "$5")
here=$(dirname "$(realpath "$0")")
top=$(dirname "$here")
read -r aname bname <<<"${BENCH_NAMES:-patched pristine}"
results=${BENCH_RESULTS:-$here/RESULTS.md}
svg=${BENCH_SVG:-$here/load-time.svg}

# The modules, built once against the patched tree: the same files are
# loaded on both kernels (no MODVERSIONS, same vermagic, same struct module).
rm -rf "$out/mod" "$out/payload"
"$here/gen-modules.sh" "$out/mod"
make -s -C "$pobj" M="$out/mod" -j"$(nproc)" modules
n=$(nm "$out/mod/bench_imp.ko" | grep -c ' U bench_fn_' || true)
[ "$n" = 2000 ] || { echo "bench: bench_imp.ko imports $n bench_fn_ symbols, not 2000" >&2; exit 1; }
mkdir -p "$out/payload/bin" "$out/payload/bench"
cp "$out"/mod/*.ko "$out/payload/bench/"
gcc -Wall -Wextra -O2 -static -o "$out/payload/bin/loadtime" "$here/loadtime.c"
. "$here/boot.sh"
clock=${BENCH_CLOCK:-icount}
khz=$(bench_tsc_khz)
cp "$here/guest-bench.sh" "$out/payload/bin/nsa-bench"

# Several boots of each kernel, alternating, so that a slow spell of the
# host does not land on one kernel only; their figures are pooled.
boots=${BENCH_BOOTS:-4}
for k in patched pristine; do
	if [ $k = patched ]; then obj=$pobj stage=$pstage; else obj=$xobj stage=$xstage; fi
	bench_image $k "$obj" "$stage" "$out/payload"
	: > "$out/$k.txt"
done
for ((i = 1; i <= boots; i++)); do
	order="patched pristine"
	((i % 2)) || order="pristine patched"
	for k in $order; do
		if [ $k = patched ]; then obj=$pobj; else obj=$xobj; fi
		bench_boot $k "$obj" "$khz" "$out/$k.$i" > "$out/$k.$i.txt"
		grep -q '^# end-of-run' "$out/$k.$i.txt" ||
			{ echo "bench: the $k run did not finish: $out/$k.$i" >&2; exit 1; }
		cat "$out/$k.$i.txt" >> "$out/$k.txt"
	done
done
python3 "$here/report.py" "$out/patched.txt" "$out/pristine.txt" "$results" \
	"$out/plot.dat" "$boots" "$clock" "$aname" "$bname" "$(basename "$svg")"
gnuplot -e "datafile='$out/plot.dat'; outfile='$svg'; clock='$clock'; aname='$aname'; bname='$bname'" \
	"$here/load-time.gp"
cat "$results"
