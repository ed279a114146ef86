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

# nsa_param KEY DEFAULT: VALUE of nsa.KEY=VALUE on the kernel command
# line (vm/run.sh's KERNEL_CMDLINE), else DEFAULT. vm/init reads nsa.mode
# and nsa.suite the same way.
nsa_param() {
	local word

	for word in $(cat /proc/cmdline); do
		case $word in "nsa.$1="*) echo "${word#nsa.$1=}"; return ;; esac
	done
	echo "$2"
}

# The name of a negative errno, as the kernel's lines print it (-13).
errno_name() {
	case $1 in
	-1) echo EPERM ;; -2) echo ENOENT ;; -8) echo ENOEXEC ;;
	-13) echo EACCES ;; -17) echo EEXIST ;; -22) echo EINVAL ;;
	*) echo "errno$1" ;;
	esac
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

# insmod_errno FILE OUTPUT: the errno whose message insmod's OUTPUT for
# FILE carries (the reverse of insmod_error), else "other(OUTPUT)".
insmod_errno() {
	local e

	for e in ENOENT EACCES EEXIST ENOEXEC EINVAL EPERM; do
		[ "$2" = "insmod: ERROR: could not insert module $1: $(insmod_error $e)" ] &&
			{ echo "$e"; return; }
	done
	echo "other(${2//[$'\n' ]/_})"
}

# kmemleak reports nothing. Objects younger than 5 s are never reported:
# let the last frees and RCU callbacks settle, then scan twice. Skips on a
# kernel without kmemleak (the small guest).
assert_no_leaks() {
	[ -w /sys/kernel/debug/kmemleak ] || skip "kernel without kmemleak (make check-debug)"
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	echo scan > /sys/kernel/debug/kmemleak
	run cat /sys/kernel/debug/kmemleak
	assert_output ""
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
		case_message case_nscheck case_modpost case_switch <<<"$row"
	[ "$case_first" = - ] && case_first=
	# A kernel built without the row's switch exports as 6.1 does: the
	# module loads, with no line, and nscheck says so.
	if [ "${case_switch:--}" != - ] && ! kernel_has "$case_switch"; then
		case_errno=- case_message=-
		[ "$case_nscheck" = - ] || case_nscheck=0
	fi
	return 0
}

# kernel_has OPTION: the guest's kernel was built with CONFIG_OPTION=y
# (its .config is in the image).
kernel_has() {
	grep -qx "CONFIG_$1=y" "$NSA/kernel.config"
}
