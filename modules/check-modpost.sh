#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# modpost against the loader, on the host: for each row of cases.tsv whose
# module resolves its symbols at load, build that module alone against the
# patched kernel tree and the exporters' Module.symvers (and so their
# Module.nsallow), and check what modpost says (the table's modpost
# column): a refusal fails the build with "ERROR: modpost: " and the
# loader's line, KBUILD_MODPOST_WARN=1 turns it into a warning, and a
# module the loader lets in builds without a word. Then: the grants that
# travel in Module.nsallow, a malformed vmlinux grant failing modpost,
# 'make nsdeps' leaving out an import the exporter does not allow, and a
# pristine 6.1 tree ignoring Module.nsallow.
#
# usage: check-modpost.sh KDIR MODULES_OUT PRISTINE_KDIR
#   KDIR           the patched build tree (build/kernel/obj)
#   MODULES_OUT    where 'make -C modules' built the test modules
#   PRISTINE_KDIR  a 6.1 tree without the series, prepared for modules
# Prints TAP; exits 1 if a test failed.
set -uo pipefail

kdir=$(realpath "${1:?usage: check-modpost.sh KDIR MODULES_OUT PRISTINE_KDIR}")
mods=$(realpath "${2:?}")
pristine=$(realpath "${3:?}")
here=$(cd "$(dirname "$0")" && pwd)
symvers=$mods/exporters/Module.symvers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n $1"
	shift
	printf '#   %s\n' "$@"
}

# scratch NAME FILE...: a fresh external module folder holding FILE(s)
scratch() {
	local d=$tmp/$1
	shift
	rm -rf "$d"
	mkdir -p "$d"
	cp "$@" "$d/"
	{
		echo "ccflags-y := -I$here/include"
		for f in "$@"; do
			f=$(basename "$f" .c)
			echo "obj-m += $f.o"
		done
	} >"$d/Kbuild"
	echo "$d"
}

# build DIR [MAKE-ARGS...]: modules of DIR against the patched tree;
# output in $out, status in $rc
build() {
	local d=$1
	shift
	out=$(make -s -C "$kdir" M="$d" KBUILD_EXTRA_SYMBOLS="$symvers" "$@" \
		modules 2>&1)
	rc=$?
}

# has OUTPUT LINE: OUTPUT holds LINE, whole
has() {
	grep -qxF -- "$2" <<<"$1"
}

[ -f "$symvers" ] || { echo "check-modpost: no $symvers: build the modules" >&2; exit 2; }

while IFS=$'\t' read -r name first module errno message nscheck modpost switch; do
	[[ $name == \#* || -z $name ]] && continue
	# Built without the row's switch, the tree exports as 6.1 does.
	[[ ${switch:--} == - ]] || grep -qx "CONFIG_$switch=y" "$kdir/.config" ||
		modpost=-
	# Decided at run time (symbol_get), or a signed copy: not modpost's.
	[[ $nscheck == - || $module == */* ]] && continue
	src=$(find "$here" -name "$module.c" -not -path '*/pristine/*' | head -1)
	if [ -z "$src" ]; then
		not_ok "modpost $name: no source for $module"
		continue
	fi
	d=$(scratch "$name" "$src")
	build "$d"
	case $modpost in
	-)
		if [ "$rc" = 0 ] && ! grep -q 'modpost:' <<<"$out"; then
			ok "modpost $name: $module builds without a word"
		else
			not_ok "modpost $name: $module should build cleanly" "$out"
		fi
		;;
	*)
		line=$modpost
		[ "$modpost" = = ] && line=$message
		if [ "$rc" != 0 ] && has "$out" "ERROR: modpost: $line"; then
			ok "modpost $name: $module fails the build: $line"
		else
			not_ok "modpost $name: $module should fail with: $line" "exit $rc" "$out"
		fi
		[ "$modpost" = = ] || continue
		build "$d" KBUILD_MODPOST_WARN=1
		if [ "$rc" = 0 ] && has "$out" "WARNING: modpost: $line"; then
			ok "modpost $name: KBUILD_MODPOST_WARN=1 makes it a warning"
		else
			not_ok "modpost $name: KBUILD_MODPOST_WARN=1 should warn: $line" "exit $rc" "$out"
		fi
		;;
	esac
done <"$here/cases.tsv"

# The grants travel beside Module.symvers: an exporter's, and vmlinux's.
nsallow=$mods/exporters/Module.nsallow
if grep -qxP "NSA_RESTR\tnsa_user\t\S*nsa_exp" "$nsallow" 2>/dev/null &&
   grep -qxP "NSA_GLOB\tnsa_glob_\*\t\S*nsa_glob_exp" "$nsallow"; then
	ok "Module.nsallow beside the exporters' Module.symvers holds their grants"
else
	not_ok "Module.nsallow should hold nsa_exp's and nsa_glob_exp's grants" "$(cat "$nsallow" 2>&1)"
fi
if grep -qxP "TEST_NS_ALLOW\ttest_ns_allow_user\tvmlinux" "$kdir/Module.nsallow"; then
	ok "the kernel's Module.nsallow holds vmlinux's grants"
else
	not_ok "the kernel's Module.nsallow should hold vmlinux's grants" "$(head "$kdir/Module.nsallow" 2>&1)"
fi

# A distribution's headers package ships Makefile, .config,
# Module.symvers, arch, include, scripts and tools (Debian's
# linux-headers-*), not the kernel's Module.nsallow: vmlinux's grants
# must reach modpost through include/generated/, and when they are lost
# modpost must fail rather than pass what the loader refuses.
headers=$tmp/headers
mkdir -p "$headers/arch/x86"
cp -a "$kdir/Makefile" "$kdir/.config" "$kdir/Module.symvers" "$headers/"
rsync -a --exclude='*.o' --exclude='*.a' --exclude='.*.cmd' \
	"$kdir/include" "$kdir/scripts" "$kdir/tools" "$headers/"
rsync -a "$kdir/arch/x86/include" "$headers/arch/x86/"
# Not $tmp/headers itself: scratch() empties the folder it is given.
d=$(scratch headers-user "$here/refused/nsa_vmlinux_denied.c")
denied="module nsa_vmlinux_denied not allowed to reference namespace \`TEST_NS_ALLOW' for test_ns_allow_fn"
out=$(make -s -C "$headers" M="$d" modules 2>&1)
rc=$?
if [ ! -e "$headers/Module.nsallow" ] && [ "$rc" != 0 ] &&
   has "$out" "ERROR: modpost: $denied"; then
	ok "vmlinux's grants reach modpost through a headers package's include/generated/"
else
	not_ok "a headers package's include/generated/Module.nsallow should refuse nsa_vmlinux_denied" "exit $rc" "$out"
fi
rm -f "$headers/include/generated/Module.nsallow"
out=$(make -s -C "$headers" M="$d" modules 2>&1)
rc=$?
if [ "$rc" != 0 ] && grep -q "FATAL: modpost: .*the kernel's namespace grants are missing" <<<"$out"; then
	ok "a headers package without vmlinux's grants fails modpost"
else
	not_ok "a headers package without vmlinux's grants should fail modpost" "exit $rc" "$out"
fi

# A malformed vmlinux grant: modpost, run on a vmlinux.o, fails.
mkdir -p "$tmp/vmlinux"
printf '%s\n' \
	'static const char rec[] __attribute__((used, section("__ns_allow"))) = "tcp:foo-bar";' \
	'static const char info[] __attribute__((used, section(".modinfo"))) = "tcp.allow_ns=tcp:foo-bar";' \
	>"$tmp/vmlinux/bad.c"
gcc -c -o "$tmp/vmlinux/vmlinux.o" "$tmp/vmlinux/bad.c"
out=$(cd "$tmp/vmlinux" && "$kdir/scripts/mod/modpost" vmlinux.o 2>&1)
rc=$?
if [ "$rc" != 0 ] && has "$out" "ERROR: modpost: vmlinux: malformed namespace allow record at offset 0"; then
	ok "a malformed vmlinux grant (tcp:foo-bar) fails modpost"
else
	not_ok "a malformed vmlinux grant should fail modpost" "exit $rc" "$out"
fi

# 'make nsdeps' adds the import a listed module misses, and not one that
# the exporter does not allow: it names the module and the namespace.
if command -v spatch >/dev/null; then
	# MODULE_LICENSE() in the file itself: nsdeps adds imports next to it.
	for m in nsa_noimport nsa_nsdeps_denied; do
		printf '%s\n' '#include <linux/module.h>' 'int nsa_fn(void);' \
			'static int __init nsdeps_init(void) { return nsa_fn() == 3 ? 0 : -EINVAL; }' \
			'module_init(nsdeps_init);' 'MODULE_LICENSE("GPL");' >"$tmp/$m.c"
	done
	d=$(scratch nsdeps "$tmp/nsa_noimport.c" "$tmp/nsa_nsdeps_denied.c")
	out=$(make -s -C "$kdir" M="$d" KBUILD_EXTRA_SYMBOLS="$symvers" nsdeps 2>&1)
	rc=$?
	if [ "$rc" = 0 ] && grep -qxF 'MODULE_IMPORT_NS(NSA_RESTR);' "$d/nsa_noimport.c" &&
	   ! grep -q MODULE_IMPORT_NS "$d/nsa_nsdeps_denied.c" &&
	   has "$out" "WARNING: modpost: nsdeps: not adding MODULE_IMPORT_NS(NSA_RESTR) to nsa_nsdeps_denied"; then
		ok "make nsdeps adds a listed module's import and not an unlisted one's"
	else
		not_ok "make nsdeps should add NSA_RESTR to nsa_noimport only" "exit $rc" "$out" \
			"$(grep -H MODULE_IMPORT_NS "$d"/*.c)"
	fi
else
	not_ok "make nsdeps: spatch (coccinelle) is missing: run 'make deps'"
fi

# A pristine 6.1 tree builds against an exporter whose Module.symvers has
# a Module.nsallow beside it: the old modpost never opens it.
d=$(scratch pristine "$here/importers/nsa_user.c")
out=$(make -s -C "$pristine" M="$d" KBUILD_EXTRA_SYMBOLS="$symvers" modules 2>&1)
rc=$?
if [ "$rc" = 0 ] && [ -f "$d/nsa_user.ko" ] && ! grep -qi 'nsallow\|parse error' <<<"$out"; then
	ok "a pristine 6.1 modpost ignores Module.nsallow"
else
	not_ok "a pristine 6.1 tree should build nsa_user against the exporters" "exit $rc" "$out"
fi

echo "1..$n"
echo "check-modpost: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
