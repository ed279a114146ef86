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
# With KOBJ (a kernel build with the series: Module.symvers,
# modules.builtin.modinfo, its modules; KSTAGE its staged module tree),
# last: the tree as if Debian had built it with the series (--overlay),
# which must refuse nothing, and must say which of the build's grants go
# to modules Debian builds in: with CONFIG_IPV6=y, namespaces tcp and udp
# (granted to ipv6 alone) admit no loadable module, whenever the build
# puts symbols in them; then a control, the same without vmlinux's
# tcpcong grants, which must refuse exactly the modules it listed.
# Usage: audit-debian.sh NSCHECK [CROSSCHECK [KOBJ [KSTAGE]]]
set -euo pipefail

nscheck=${1:?usage: audit-debian.sh NSCHECK [CROSSCHECK [KOBJ [KSTAGE]]]}
crosscheck=${2:-}
kobj=${3:-}
kstage=${4:-}
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
	'.summary | "\(.checked) \(.refused) \(.unreadable + .malformed)"' "$out/audit.json")
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

# overlay NAME NSCHECK-ARGS...: the whole tree with --overlay; prints the
# counts and the refusals, leaves the JSON in $out/NAME.json and the
# exit status in $rc.
overlay() {
	local name=$1 checked refused missing unreadable
	shift
	rc=0
	"$nscheck" --all -b "$DEB_TREE" -k "$DEB_KVER" -E "$DEB_SYMVERS" \
		--json "$@" >"$out/$name.json" || rc=$?
	read -r checked refused missing unreadable < <(jq -r '.summary |
		"\(.checked) \(.refused) \(.missing_import) \(.unreadable + .malformed)"' \
		"$out/$name.json")
	echo "audit-debian: $name: $DEB_KVER as if built with $*:" \
		"$checked modules checked, $refused refused, $missing listed" \
		"without the import the series must add, $unreadable" \
		"unreadable (exit $rc)"
	jq -r '.modules[] | select(.status != "loads") |
		"  \(.file | sub(".*/lib/modules/[^/]*/"; "")): \(.error //
		([.findings[] | select(.errno != null) | .message] |
		join("; ")))"' "$out/$name.json"
	((unreadable == 0)) || fail "$name: unreadable modules"
}

if [[ -z $kobj ]]; then
	echo "audit-debian: no KOBJ: the series is not applied to the tree"
elif [[ ! -f $kobj/Module.symvers ]]; then
	echo "audit-debian: no $kobj/Module.symvers (build the kernel):" \
		"the series is not applied to the tree"
else
	args=(--overlay "$kobj")
	rel=$(cat "$kobj/kernelrelease" 2>/dev/null || true)
	if [[ -n $kstage && -n $rel && -d $kstage/lib/modules/$rel ]]; then
		args+=(--overlay "$kstage/lib/modules/$rel")
	fi
	overlay overlay "${args[@]}"
	jq -r '.modules[] | .findings[] | select(.verdict == "missing-import")
		| "  \(.message)"' "$out/overlay.json"
	((rc == 0)) || fail "the series would break Debian modules"

	# Grants to modules Debian builds in: no refusal, so the counts
	# above say nothing of them, yet a namespace granted only to a
	# built-in module is closed to every module. The series grants tcp
	# and udp to ipv6 alone, which Debian builds in: that must be said
	# whenever the build restricts them (a conversion switched off puts
	# no symbol there).
	jq -r '.builtin_grants[] | "audit-debian: \(.message)"' \
		"$out/overlay.json"
	for ns in tcp udp; do
		n=$(awk -F'\t' -v ns="$ns" '$5 == ns { print $2 }' \
			"$kobj/Module.symvers" | sort -u | wc -l)
		if ((n == 0)); then
			echo "audit-debian: namespace $ns: $kobj/Module.symvers" \
				"has no symbol in it (its conversion is off):" \
				"nothing to report"
			continue
		fi
		jq -e --arg ns "$ns" --argjson n "$n" 'any(.builtin_grants[];
			.namespace == $ns and .admits_no_module and
			.symbols == $n and (.message |
			contains(": it admits no loadable module; ")))' \
			"$out/overlay.json" >/dev/null ||
			fail "namespace $ns: $n symbols in $kobj/Module.symvers," \
				"not reported as admitting no loadable module" \
				"on $DEB_KVER (CONFIG_IPV6=y)"
	done

	# Control: vmlinux's grants without tcpcong's. The modules the run
	# above found listed for tcpcong must now be refused, and only they.
	mkdir "$out/kctl"
	ln -s "$(realpath "$kobj/Module.symvers")" "$out/kctl/Module.symvers"
	tr '\0' '\n' <"$kobj/modules.builtin.modinfo" |
		grep -v '\.allow_ns=tcpcong:' | tr '\n' '\0' \
		>"$out/kctl/modules.builtin.modinfo"
	jq -r '.modules[] | select(any(.findings[]; .verdict ==
		"missing-import" and .namespace == "tcpcong")) | .name' \
		"$out/overlay.json" | sort >"$out/kctl.listed"
	overlay control --overlay "$out/kctl"
	jq -r '.modules[] | select(.status == "refused") | .name' \
		"$out/control.json" | sort >"$out/kctl.refused"
	((rc == 1 && $(wc -l <"$out/kctl.listed") > 0)) ||
		fail "control: the overlay refuses nothing"
	diff -u "$out/kctl.listed" "$out/kctl.refused" || fail "control"
fi

echo "audit-debian: PASS"
