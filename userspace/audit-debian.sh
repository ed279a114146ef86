#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nscheck against Debian's real 6.1 tree: Debian's modules load on Debian,
# so any refusal is an nscheck bug. Then a control, so that a pass is not
# vacuous: vmlinux made to restrict DMA_BUF to a module that does not
# exist must refuse exactly the modules that use DMA_BUF.
# Usage: audit-debian.sh NSCHECK
set -euo pipefail

nscheck=${1:?usage: audit-debian.sh NSCHECK}
. "$(dirname "$0")/debian-tree.sh"
debian_tree_prepare

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(--all -b "$DEB_TREE" -k "$DEB_KVER")

rc=0
"$nscheck" "${args[@]}" -E "$DEB_SYMVERS" --json >"$out/audit.json" || rc=$?
read -r checked refused unreadable < <(jq -r \
	'.summary | "\(.checked) \(.refused) \(.unreadable)"' "$out/audit.json")
echo "audit-debian: $DEB_KVER: $checked modules checked, $refused refused, $unreadable unreadable (exit $rc)"
jq -r '.modules[] | select(.status != "loads") |
	"  \(.file): \(.error // ([.findings[].message] | join("; ")))"' \
	"$out/audit.json"
if ((rc != 0 || refused != 0 || unreadable != 0 || checked < 1000)); then
	echo "audit-debian: FAIL" >&2
	exit 1
fi

# The control: vmlinux declares DMA_BUF and lists only a module that does
# not exist. Every user of a DMA_BUF symbol must be refused (row 5), and
# nothing else.
mkdir "$out/kdir"
ln -s "$DEB_SYMVERS" "$out/kdir/Module.symvers"
cp "$DEB_TREE/lib/modules/$DEB_KVER/modules.builtin.modinfo" "$out/kdir/"
printf 'nscheck_audit.allow_ns=DMA_BUF:no_such_module\0' \
	>>"$out/kdir/modules.builtin.modinfo"
rc=0
"$nscheck" "${args[@]}" --kdir "$out/kdir" >"$out/control.txt" || rc=$?
users=$(grep -c "^module [a-z0-9_]* not allowed to reference namespace \`DMA_BUF' for " \
	"$out/control.txt" || true)
others=$(grep -vc "not allowed to reference namespace \`DMA_BUF' for " \
	"$out/control.txt" || true)
sed -n "s/^module \([a-z0-9_]*\) not allowed.*/\1/p" "$out/control.txt" |
	sort -u >"$out/refused"
# The modules that import DMA_BUF, by modinfo (plain .ko files in Debian).
grep -rlaZ --include='*.ko' 'import_ns=DMA_BUF' "$DEB_TREE/lib/modules/$DEB_KVER" |
	xargs -0 -r -n1 modinfo -F name | sort -u >"$out/importers"
echo "audit-debian: control: DMA_BUF restricted: $users refusals in $(wc -l <"$out/refused") modules (exit $rc); $(wc -l <"$out/importers") modules import DMA_BUF"
if ((rc != 1 || users == 0 || others != 0)) ||
	! diff -u "$out/importers" "$out/refused"; then
	echo "audit-debian: FAIL (control)" >&2
	exit 1
fi
echo "audit-debian: PASS"
