# SPDX-License-Identifier: GPL-2.0
# Sourced by bench/run.sh and bench/profile.sh: the guest of a benchmark,
# one kernel at a time. Needs $top (the project) and $out (the output
# folder).
#
# One vCPU, so that a figure is the loading CPU's; BENCH_CLOCK=icount
# (the default): virtual time, one nanosecond per guest instruction
# (-icount shift=0, which needs single-threaded TCG), so a figure is the
# work the kernel did, repeatable from boot to boot and blind to the
# host's load; wall: the host's time at its measured TSC rate
# (bench_tsc_khz), which under TCG also carries QEMU's own work and the
# host's.

# bench_tsc_khz: the guest's TSC rate for tsc_early_khz=
bench_tsc_khz() {
	case ${BENCH_CLOCK:-icount} in
	icount) echo 1000000 ;;
	wall)
		gcc -Wall -Wextra -O2 -o "$out/tsc-khz" "$top/bench/tsc-khz.c"
		"$out/tsc-khz" ;;
	*) echo "bench: BENCH_CLOCK=$BENCH_CLOCK: icount or wall" >&2; return 1 ;;
	esac
}

# bench_image NAME OBJ STAGE PAYLOAD: $out/NAME.img, for the kernel in OBJ
bench_image() {
	"$top/vm/mkimage.sh" "$out/$1.img" "$(cat "$2/kernelrelease")" "$3" "$4"
}

# bench_boot NAME OBJ KHZ DIR [QEMU_ARG...]: one boot of NAME's image on
# OBJ's kernel in bench mode; its output (the guest's results) to stdout.
# No KUnit suite runs at boot (kunit.enable=0): the series' suite would
# run on the patched kernel alone, and the heap it leaves behind made a
# small module's load cost some 1,100 instructions more (bench_f0_00,
# measured with and without it), which are the test's, not the loader's.
bench_boot() {
	local name=$1 obj=$2 khz=$3 dir=$4 icount=
	shift 4
	[ "${BENCH_CLOCK:-icount}" = icount ] && icount="-icount shift=0,sleep=off"
	ACCEL=tcg,thread=single QEMU_SMP=1 QEMU_ARGS="$icount $*" \
		KERNEL_CMDLINE="tsc_early_khz=$khz kunit.enable=0" \
		QEMU_TIMEOUT=${QEMU_TIMEOUT:-3000} \
		"$top/vm/run.sh" bench "$obj/arch/x86/boot/bzImage" "$out/$name.img" "$dir"
}
