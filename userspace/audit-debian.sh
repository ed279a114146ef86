#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nscheck against Debian's real 6.1 tree: Debian's modules load on Debian,
# so any refusal is an nscheck bug. Then two controls, so that a pass is
# not vacuous; each must refuse exactly the real modules that use the
# namespace it restricts:
#  - vmlinux: modules.builtin.modinfo gets DMA_BUF:no_such_module;
#  - a module: usb-storage.ko gets an __ns_allow record (and modinfo line)
#    USB_STORAGE:uas, so every other USB_STORAGE user is refused.
# With CROSSCHECK (tests/crosscheck.c), first: nscheck reads every module
# of the tree as libkmod does (undefined symbols in order, modinfo).
# Usage: audit-debian.sh NSCHECK [CROSSCHECK]
set -euo pipefail

nscheck=${1:?usage: audit-debian.sh NSCHECK [CROSSCHECK]}
crosscheck=${2:-}
. "$(dirname "$0")/debian-tree.sh"
debian_tree_prepare

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mods=$DEB_TREE/lib/modules/$DEB_KVER

fail() {
	echo "audit-debian: FAIL: $*" >&2
	exit 1
}

if [[ -n $crosscheck ]]; then
	find "$mods" -name '*.ko' | "$crosscheck" - | tail -5 |
		sed 's/^/audit-debian: /'
	((PIPESTATUS[1] == 0)) || fail "nscheck reads modules unlike libkmod"
fi

rc=0
"$nscheck" --all -b "$DEB_TREE" -k "$DEB_KVER" -E "$DEB_SYMVERS" --json \
	>"$out/audit.json" || rc=$?
read -r checked refused unreadable < <(jq -r \
	'.summary | "\(.checked) \(.refused) \(.unreadable)"' "$out/audit.json")
echo "audit-debian: $DEB_KVER: $checked modules checked, $refused refused," \
	"$unreadable unreadable (exit $rc)"
jq -r '.modules[] | select(.status != "loads") |
	"  \(.file): \(.error // ([.findings[].message] | join("; ")))"' \
	"$out/audit.json"
((rc == 0 && refused == 0 && unreadable == 0)) || fail "refusals"
((checked > 1000)) || fail "only $checked modules"

# control NAMESPACE EXCEPT NSCHECK-ARGS...: nscheck must exit 1, print
# only row-5 lines for NAMESPACE (each followed by the kernel's "Unknown
# symbol" line, err -13), and refuse exactly the modules whose modinfo
# imports NAMESPACE, but EXCEPT.
control() {
	local ns=$1 except=$2 rc=0 lines others
	shift 2
	"$nscheck" --all -k "$DEB_KVER" "$@" >"$out/$ns.txt" || rc=$?
	lines=$(grep -c " not allowed to reference namespace " "$out/$ns.txt" || true)
	others=$(grep -v "^module [a-z0-9_]* not allowed to reference namespace \`$ns' for " \
		"$out/$ns.txt" | grep -vc '^[a-z0-9_]*: Unknown symbol [A-Za-z0-9_.]* (err -13)$' || true)
	(($(wc -l <"$out/$ns.txt") == 2 * lines)) || others=$((others + 1))
	sed -n 's/^module \([a-z0-9_]*\) not allowed.*/\1/p' "$out/$ns.txt" |
		sort -u >"$out/$ns.refused"
	grep -rlaZ --include='*.ko' "import_ns=$ns" "$mods" |
		xargs -0 -r -n1 modinfo -F name | grep -vx "$except" |
		sort -u >"$out/$ns.users"
	echo "audit-debian: control $ns: $lines refusals in" \
		"$(wc -l <"$out/$ns.refused") modules (exit $rc);" \
		"$(wc -l <"$out/$ns.users") modules import it${except:+ besides $except}"
	((rc == 1 && others == 0 && lines > 0)) || fail "control $ns"
	diff -u "$out/$ns.users" "$out/$ns.refused" || fail "control $ns"
}

mkdir "$out/kdir"
ln -s "$DEB_SYMVERS" "$out/kdir/Module.symvers"
cp "$mods/modules.builtin.modinfo" "$out/kdir/"
printf 'nscheck_audit.allow_ns=DMA_BUF:no_such_module\0' \
	>>"$out/kdir/modules.builtin.modinfo"
control DMA_BUF "" -b "$DEB_TREE" --kdir "$out/kdir"

# The same tree as links, but a usb-storage.ko that declares USB_STORAGE.
mkdir -p "$out/root/lib/modules"
cp -rs "$mods" "$out/root/lib/modules/"
us=$(find "$out/root" -name usb-storage.ko)
printf 'USB_STORAGE:uas\0' >"$out/rec"
objcopy -O binary --only-section=.modinfo "$(readlink "$us")" "$out/modinfo"
printf 'allow_ns=USB_STORAGE:uas\0' >>"$out/modinfo"
objcopy --add-section __ns_allow="$out/rec" \
	--set-section-flags __ns_allow=alloc,readonly,contents \
	--set-section-alignment __ns_allow=1 \
	--update-section .modinfo="$out/modinfo" \
	"$(readlink "$us")" "$out/usb-storage.ko"
mv -f "$out/usb-storage.ko" "$us"
control USB_STORAGE uas -b "$out/root" -E "$DEB_SYMVERS"

echo "audit-debian: PASS"
