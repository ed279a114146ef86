#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-profile: where the guest's time goes while it loads and
# unloads, in a loop, on the patched and on the pristine kernel:
#   imp0      bench_imp (2,000 restricted symbols), 50 filler modules
#             loaded with no grant record, as in the bench's first row
#   imp1000   the same with 1,000 records in the 50 filler modules
#   many1000  bench_many1000 (4,000 exports over 1,000 declared namespaces)
# The vCPU's RIP is sampled through QEMU's monitor (bench/sample-rip.py)
# during each phase and named from each kernel's System.map. Then, on
# another boot of each kernel, gdb single-steps through QEMU's gdbstub one
# load of bench_f0_00 (nothing namespaced), two symbol_get() calls of a
# restricted symbol by one caller and one of an open and of a plain
# symbol, and counts their instructions
# per function (bench/count-insns.py). Writes bench/PROFILE.md: per phase,
# the functions with the most samples on either kernel, side by side,
# and per counted call, the functions whose counts differ.
# usage: profile.sh A_OBJ A_STAGE B_OBJ B_STAGE OUT
set -euo pipefail
pobj=$1 pstage=$2 xobj=$3 xstage=$4 out=$(realpath -m "$5")
here=$(dirname "$(realpath "$0")")
top=$(dirname "$here")
loads=${PROFILE_LOADS:-300}
report=${PROFILE_REPORT:-$here/PROFILE.md}
phases="imp0 imp1000 many1000"

rm -rf "$out"
mkdir -p "$out/payload/bin" "$out/payload/bench"
"$here/gen-modules.sh" "$out/mod"
make -s -C "$pobj" M="$out/mod" -j"$(nproc)" modules
cp "$out"/mod/*.ko "$out/payload/bench/"
gcc -Wall -Wextra -O2 -static -o "$out/payload/bin/loadtime" "$here/loadtime.c"
cat > "$out/payload/bin/nsa-bench" <<GUEST
#!/bin/bash
# The profiled loops, each between its markers; the median load time of
# each, for the record.
ko=/usr/share/nsa/bench
phase() { # NAME FILE MODULE
	echo "# profile start \$1"
	loadtime "\$ko/\$2" "\$3" 0 $loads | sort -n | sed -n "\$(($loads / 2))p" |
		sed "s/^/median \$1 /"
	echo "# profile end \$1"
}
insmod \$ko/bench_exp.ko || exit 1
# As in the bench: 50 filler modules, with 0 or 1,000 records in all.
for records in 0 1000; do
	for i in \$(seq -w 0 49); do insmod \$ko/bench_f\${records}_\$i.ko || exit 1; done
	phase imp\$records bench_imp.ko bench_imp
	for i in \$(seq -w 0 49); do rmmod bench_f\${records}_\$i || exit 1; done
done
phase many1000 bench_many1000.ko bench_many1000
GUEST
chmod +x "$out/payload/bin/nsa-bench"

. "$here/boot.sh"
khz=$(bench_tsc_khz)
for k in patched pristine; do
	if [ $k = patched ]; then obj=$pobj stage=$pstage; else obj=$xobj stage=$xstage; fi
	bench_image $k "$obj" "$stage" "$out/payload"
	bench_boot $k "$obj" "$khz" "$out/$k" -monitor "unix:$out/$k.mon,server,nowait" \
		> "$out/$k.txt" &
	qemu=$!
	# shellcheck disable=SC2086 # the phases, one word each
	"$here/sample-rip.py" "$out/$k.mon" "$obj/System.map" "$out/$k/results.tap" \
		"$out/$k.profile" $phases
	wait $qemu || { echo "profile: the $k run did not finish: $out/$k" >&2; exit 1; }
	for p in $phases; do
		grep -q "^median $p " "$out/$k.txt" ||
			{ echo "profile: the $k run gave no $p load time: $out/$k.txt" >&2; exit 1; }
	done
done

# The counted calls: nothing else loads a module or calls symbol_get()
# meanwhile. QEMU waits (-S) for gdb to set its breakpoints. The first
# loads after boot find memory laid out otherwise: bench_f0_00's counted
# load comes after $warmup loads and unloads of it.
warmup=5
mkdir -p "$out/count-payload/bin"
cp -r "$out/payload/bench" "$out/count-payload/"
cat > "$out/count-payload/bin/nsa-bench" <<GUEST
#!/bin/bash
ko=/usr/share/nsa/bench
insmod \$ko/bench_exp.ko || exit 1
for i in \$(seq $((warmup + 1))); do
	insmod \$ko/bench_f0_00.ko && rmmod bench_f0_00 || exit 1
done
insmod \$ko/bench_symget.ko iterations=2 kind=restricted && rmmod bench_symget || exit 1
for kind in open none; do
	insmod \$ko/bench_symget.ko iterations=1 kind=\$kind && rmmod bench_symget || exit 1
done
rmmod bench_exp
GUEST
chmod +x "$out/count-payload/bin/nsa-bench"
for k in patched pristine; do
	if [ $k = patched ]; then obj=$pobj stage=$pstage; else obj=$xobj stage=$xstage; fi
	bench_image count-$k "$obj" "$stage" "$out/count-payload"
	rm -f "$out/$k.gdb"
	bench_boot count-$k "$obj" "$khz" "$out/count-$k" -S \
		-gdb "unix:$out/$k.gdb,server=on,wait=off" > "$out/count-$k.txt" &
	qemu=$!
	for _ in $(seq 100); do [ -S "$out/$k.gdb" ] && break; sleep 0.1; done
	COUNT_SOCK=$out/$k.gdb COUNT_MAP=$obj/System.map COUNT_OUT=$out/$k.count \
		COUNT_WARMUP=$warmup \
		gdb -q -batch -x "$here/count-insns.py" "$obj/vmlinux" > "$out/count-$k.gdb.log" 2>&1 ||
		{ echo "profile: counting on $k failed: $out/count-$k.gdb.log" >&2; kill $qemu; exit 1; }
	wait $qemu || { echo "profile: the $k count run did not finish: $out/count-$k" >&2; exit 1; }
	grep -q '^symbol_get none' "$out/$k.count" ||
		{ echo "profile: $k: no count of symbol_get: $out/count-$k.gdb.log" >&2; exit 1; }
done

python3 "$here/profile-report.py" "$out" "$loads" "$report" $phases
cat "$report"
