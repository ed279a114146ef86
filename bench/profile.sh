#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-profile: where the guest's time goes while it loads and
# unloads bench_many1000 (4,000 exports over 1,000 declared namespaces)
# in a loop, on the patched and on the pristine kernel: the vCPU's RIP
# sampled through QEMU's monitor (bench/sample-rip.py), named from each
# kernel's System.map. Writes bench/PROFILE.md: the functions with the
# most samples on either kernel, side by side.
# usage: profile.sh A_OBJ A_STAGE B_OBJ B_STAGE OUT
set -euo pipefail
pobj=$1 pstage=$2 xobj=$3 xstage=$4 out=$(realpath -m "$5")
here=$(dirname "$(realpath "$0")")
top=$(dirname "$here")
loads=${PROFILE_LOADS:-300}
report=${PROFILE_REPORT:-$here/PROFILE.md}

rm -rf "$out"
mkdir -p "$out/payload/bin" "$out/payload/bench"
"$here/gen-modules.sh" "$out/mod"
make -s -C "$pobj" M="$out/mod" -j"$(nproc)" bench_many1000.ko
cp "$out/mod/bench_many1000.ko" "$out/payload/bench/"
gcc -Wall -Wextra -O2 -static -o "$out/payload/bin/loadtime" "$here/loadtime.c"
cat > "$out/payload/bin/nsa-bench" <<GUEST
#!/bin/bash
# The profiled loop; the median load time, for the record.
echo "# profile start"
loadtime /usr/share/nsa/bench/bench_many1000.ko bench_many1000 0 $loads |
	sort -n | sed -n "\$(($loads / 2))p" | sed 's/^/median /'
echo "# profile end"
GUEST
chmod +x "$out/payload/bin/nsa-bench"

export ACCEL=tcg,thread=single QEMU_SMP=1
for k in patched pristine; do
	if [ $k = patched ]; then obj=$pobj stage=$pstage; else obj=$xobj stage=$xstage; fi
	"$top/vm/mkimage.sh" "$out/$k.img" "$(cat "$obj/kernelrelease")" "$stage" "$out/payload"
	QEMU_ARGS="-icount shift=0,sleep=off -monitor unix:$out/$k.mon,server,nowait" \
		KERNEL_CMDLINE="tsc_early_khz=1000000" QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800} \
		"$top/vm/run.sh" bench "$obj/arch/x86/boot/bzImage" "$out/$k.img" \
		"$out/$k" > "$out/$k.txt" &
	qemu=$!
	"$here/sample-rip.py" "$out/$k.mon" "$obj/System.map" "$out/$k/results.tap" \
		"$out/$k.profile"
	wait $qemu || { echo "profile: the $k run did not finish: $out/$k" >&2; exit 1; }
	grep -q '^median ' "$out/$k.txt" ||
		{ echo "profile: the $k run gave no load time: $out/$k.txt" >&2; exit 1; }
done

python3 - "$out" "$loads" "$report" <<'PY'
import sys
out, loads, report = sys.argv[1], int(sys.argv[2]), sys.argv[3]
prof, total, median = {}, {}, {}
for k in ('patched', 'pristine'):
    prof[k] = {}
    for line in open(f'{out}/{k}.profile'):
        n, name = line.split('\t')
        prof[k][name.strip()] = int(n)
    total[k] = sum(prof[k].values())
    median[k] = next(int(l.split()[1]) for l in open(f'{out}/{k}.txt')
                     if l.startswith('median '))
names = sorted(set(prof['patched']) | set(prof['pristine']),
               key=lambda n: -max(prof['patched'].get(n, 0) / total['patched'],
                                  prof['pristine'].get(n, 0) / total['pristine']))
rows = [f"| {n} | {prof['patched'].get(n, 0)} "
        f"({100 * prof['patched'].get(n, 0) / total['patched']:.1f}%) | "
        f"{prof['pristine'].get(n, 0)} "
        f"({100 * prof['pristine'].get(n, 0) / total['pristine']:.1f}%) |"
        for n in names[:30]]
with open(report, 'w') as f:
    f.write(f'''# Profile: bench_many1000's load, patched against pristine

Written by `make bench-profile` (bench/profile.sh). The guest (one vCPU,
QEMU TCG with `-icount shift=0`) loads and unloads bench_many1000, which
exports 4,000 symbols over 1,000 namespaces and declares each of them,
{loads:,} times; the host samples the vCPU's instruction pointer through
QEMU's monitor every few milliseconds (bench/sample-rip.py) and names it
from each kernel's System.map. Samples are shares of host time, which
under TCG tracks the guest's instructions only roughly: read them as
where the time goes, not as exact costs. `[user]` is the loop itself,
`[module]` any module's text.

Median load: patched {median["patched"] / 1e6:.3f} ms, pristine
{median["pristine"] / 1e6:.3f} ms (virtual time, one nanosecond an
instruction). Samples: patched {total["patched"]:,}, pristine
{total["pristine"]:,}.

| function | patched | pristine |
|---|---|---|
''' + '\n'.join(rows) + '\n')
PY
cat "$report"
