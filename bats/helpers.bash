# SPDX-License-Identifier: GPL-2.0
# Shared by the guest suites. The guest image holds, under /usr/share/nsa:
#   ko/*.ko        the test modules (modules/)
#   cases.tsv      the table of cases (modules/cases.tsv)
#   kernelrelease  the release the image was built for
#   bin/nscheck    the checker

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

NSA=/usr/share/nsa
CASES=$NSA/cases.tsv

ko() {
	echo "$NSA/ko/$1.ko"
}

# The name the kernel gives a module: modinfo's name=, not the file name.
modname() {
	modinfo -F name "$(ko "$1")"
}

is_loaded() {
	[ -d "/sys/module/$1" ] && [ -e "/sys/module/$1/refcnt" ]
}

refcnt() {
	cat "/sys/module/$1/refcnt"
}

# What kmod 30's insmod prints for an errno: its mod_strerror() (tools/
# insmod.c) for ENOEXEC, ENOENT, ESRCH and EINVAL, else strerror().
insmod_error() {
	case $1 in
	ENOEXEC) echo "Invalid module format" ;;
	ENOENT | ESRCH) echo "Unknown symbol in module" ;;
	EINVAL) echo "Invalid parameters" ;;
	EACCES) echo "Permission denied" ;;
	EEXIST) echo "File exists" ;;
	EPERM) echo "Operation not permitted" ;;
	*) echo "no text known for $1" ;;
	esac
}

# The kernel log since the last dmesg -C, without timestamps.
kmsg() {
	dmesg --notime
}

# Unload the given modules (file names), last first, ignoring absent ones.
unload_all() {
	local i m
	for ((i = $#; i > 0; i--)); do
		m=$(modname "${!i}")
		is_loaded "$m" && rmmod "$m"
	done
	return 0
}

# One row of cases.tsv, as shell variables.
case_row() {
	local row
	row=$(awk -F'\t' -v c="$1" '$1 == c' "$CASES")
	[ -n "$row" ] || { echo "no case $1 in $CASES" >&2; return 1; }
	IFS=$'\t' read -r case_name case_first case_module case_errno \
		case_message case_nscheck case_modpost <<<"$row"
	[ "$case_first" = - ] && case_first=
	return 0
}
