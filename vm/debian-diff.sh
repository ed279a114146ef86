#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How the debug guest's kernel differs from Debian's, after it is built.
# Fails if a driver Debian builds in (its modules.builtin) is not built in
# here, but for the ones vm/config/net.config makes modules on purpose:
# "every built-in option Debian sets is kept". Prints, for the record,
# every option whose value differs (the kernel's scripts/diffconfig): the
# fragments' changes, and the bool options that go with the loadable
# drivers localmodconfig cut (ATA_ACPI with ATA=m, ...).
#
# usage: debian-diff.sh DEBIAN_CONFIG DEBIAN_TREE KSRC KOBJ
set -euo pipefail
config=$1 tree=$2 ksrc=$3 kobj=$4

# net.config: ipv6 and cubic as modules, so that their namespaced imports
# are resolved at load (Debian builds both in); mip6 is built into ipv6.
# Library code that only drivers the guest does not load select (DRM and
# DSI panels, NFS, ice, ...), and that Kconfig offers no prompt for:
# built in by Debian because those modules are there.
modules_on_purpose='kernel/net/ipv6/ipv6.ko kernel/net/ipv4/tcp_cubic.ko
kernel/net/ipv6/mip6.ko kernel/drivers/gpu/drm/drm_mipi_dsi.ko
kernel/fs/nfs_common/nfs_ssc.ko kernel/lib/btree.ko kernel/lib/pldmfw/pldmfw.ko'

builtin=$(ls "$tree"/lib/modules/*/modules.builtin | head -1)
missing=$(comm -23 <(sort "$builtin") <(sort "$kobj/modules.builtin") |
	grep -v -x -F -f <(tr ' ' '\n' <<< "$modules_on_purpose" | grep .) || true)

echo "# Debian's modules.builtin: $(wc -l < "$builtin") drivers; built in here: $(comm -12 <(sort "$builtin") <(sort "$kobj/modules.builtin") | wc -l)"
echo "# not built in, on purpose: $(echo $modules_on_purpose)"
echo "# options whose value differs from Debian's ($(basename "$config")):"
python3 "$ksrc/scripts/diffconfig" "$config" "$kobj/.config"
if [ -n "$missing" ]; then
	echo "debian-diff: built in by Debian, not here:" >&2
	echo "$missing" >&2
	exit 1
fi
