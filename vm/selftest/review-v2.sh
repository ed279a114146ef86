#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The second review's tests on the series that review read (make
# check-review-v2): every row of review-v2.tsv must fail there, as every
# one passes on today's series (make check, make check-debug). From the
# series as of REV (kernel-patch/ in git), it builds
#   - the debug kernel (Debian's configuration and DEBUG_FRAGMENTS),
#     signing with the debug build's key so that the debug image's signed
#     modules are trusted as they are on today's kernel; boots the debug
#     image's payload on it, with the suites that hold the guest rows; and
#     runs modules/check-modpost.sh against its tree;
#   - the small kernel with failslab and grants-enomem.patch, booted by
#     vm/failslab-boot.sh: make check-failslab-boot, given v2's series.
# Prints a TAP line a row (ok: it failed on v2) with the failure's own
# output, and the stress suite's counts (item 2: the races tried); exits
# 1 unless every row failed.
#
# usage: review-v2.sh REV OUT BUILD
#   BUILD  the build/ of make image and make FLAVOR=debug image
# From the Makefile: DEBUG_FRAGMENTS, BASE_CONFIG and BASE_LSMOD for the
# debug kernel.
set -uo pipefail

rev=${1:?usage: review-v2.sh REV OUT BUILD} out=$(realpath -m "${2:?}")
b=$(realpath "${3:?}")
here=$(dirname "$(realpath "$0")")
vm=$(dirname "$here")
top=$(dirname "$vm")
table=$here/review-v2.tsv
read -ra debug_frags <<< "${DEBUG_FRAGMENTS:?}"

die() { echo "review-v2: $*" >&2; exit 2; }
cd "$top" || die "$top: $!"
for f in "$b/debug/payload/bats" "$b/debug/kernel/obj/certs/signing_key.pem" \
	 "$b/debug/modules/.built"; do
	[ -e "$f" ] || die "$f missing: make image and make FLAVOR=debug image first"
done

# The series as of REV.
rm -rf "$out/series"
mkdir -p "$out/series"
git archive "$rev" kernel-patch | tar -x -C "$out/series" --strip-components=1 ||
	die "no kernel-patch/ at $rev in $top (a shallow clone?)"

k=$out/debug
mkdir -p "$k/obj"
cmp -s "$b/debug/kernel/obj/certs/signing_key.pem" \
	"$k/obj/certs/signing_key.pem" ||
	cp -a "$b/debug/kernel/obj/certs" "$k/obj/"
"$vm/build-kernel.sh" "$k/src" "$k/obj" "$k/stage" "$out/series" \
	"${debug_frags[@]}" || die "the debug kernel of $rev did not build"
"$vm/mkimage.sh" "$k/initrd.img" "$(cat "$k/obj/kernelrelease")" \
	"$k/stage" "$b/debug/payload" || die "no image for the debug kernel"

# The suites that hold the guest rows, in their order. No panic_on_warn:
# a warning of v2's must not end the run before the later rows ran.
suites=$(awk -F'\t' '!/^#/ && $2 == "guest" { print $3 }' "$table" |
	while IFS= read -r t; do
		grep -lF "@test \"$t\" {" "$b"/debug/payload/bats/*.bats ||
			echo "no-suite-for:$t"
	done | xargs -rn1 basename | sort -u | paste -sd,)
case $suites in *no-suite-for*) die "a guest row names no test: $suites" ;; esac
KERNEL_CMDLINE="preempt=full" QEMU_MEM=2G QEMU_TIMEOUT=3600 \
	"$vm/run.sh" check "$k/obj/arch/x86/boot/bzImage" "$k/initrd.img" \
	"$k/run" "$suites" > "$k/run.log" 2>&1
echo "# guest on $rev ($suites): $(tail -1 "$k/run.log")"
# Item 2: the race of symbol_get() with the exporter's unload, tried.
sed -n '/^# stress: [0-9]* s$/,/^# nsa_getloop_denied: /p' "$k/run/results.tap"

"$top/modules/check-modpost.sh" "$k/obj" "$b/debug/modules" \
	"$b/debug/pristine/obj" > "$out/modpost.tap" 2>&1
echo "# check-modpost on $rev: $(grep -c '^ok' "$out/modpost.tap") passed, $(grep -c '^not ok' "$out/modpost.tap") failed"

# The failslab kernel as make check-failslab-boot builds and boots it,
# from REV's series. v2 has no switch for its conversions
# (conversions.config's options): they are always on there.
f=$out/failslab
mkdir -p "$f"
env -u BASE_CONFIG -u BASE_LSMOD UNDECLARED_OK=1 \
	make -s --no-print-directory check-failslab-boot B="$b" \
	FAILSLAB="$f" FAILSLAB_SERIES="$out/series" > "$f/boot.log" 2>&1
failslab_rc=$?
grep -q '^nth-1: ' "$f/boot.log" ||
	die "the failslab kernel of $rev did not boot: $f/boot.log"

# failed TAP DESC: TAP's "not ok" line for DESC and the lines under it
failed() {
	awk -v want="$2" '
		/^(not )?ok [0-9]+ / {
			desc = $0
			sub(/^(not )?ok [0-9]+ /, "", desc)
			on = ($1 == "not" && desc == want)
			if (on)
				found = 1
			next
		}
		on && /^#/ { print }
		END { exit !found }' "$1"
}

n=0 bad=0
while IFS=$'\t' read -r item where test why; do
	case $item in '#'* | '') continue ;; esac
	n=$((n + 1))
	case $where in
	guest) detail=$(failed "$k/run/results.tap" "$test") ;;
	modpost) detail=$(failed "$out/modpost.tap" "$test") ;;
	failslab-boot)
		detail=$(grep -E '^(nth-|failslab-boot: )' "$f/boot.log")
		test="vm/failslab-boot.sh"
		[ "$failslab_rc" != 0 ] ;;
	*) die "row $n: where is $where" ;;
	esac
	if [ $? = 0 ]; then
		echo "ok $n item $item, $where: fails on $rev: $test"
	else
		echo "not ok $n item $item, $where: passed on $rev: $test"
		bad=$((bad + 1))
	fi
	echo "#   why: $why"
	printf '%s\n' "$detail" | head -12 | sed 's/^#*/#  /'
done < "$table"
echo "1..$n"
echo "review-v2: $((n - bad)) of $n rows fail on $rev, as they must"
[ "$bad" = 0 ]
