#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the fixture modules described in a table (fixtures.table): each one
# a relocatable object with the sections a 6.1 x86_64 .ko has for
# nscheck's purpose. Usage: mkfixtures.sh TABLE OUTDIR
set -euo pipefail

table=$1
out=$2
src=$out/src
mkdir -p "$out" "$src"

die() {
	echo "mkfixtures: $*" >&2
	exit 1
}

# {X*N} in the table stands for N copies of X.
expand() {
	local s=$1 re='(.*)\{(.)\*([0-9]+)\}(.*)' rep
	while [[ $s =~ $re ]]; do
		printf -v rep '%*s' "${BASH_REMATCH[3]}" ''
		s=${BASH_REMATCH[1]}${rep// /${BASH_REMATCH[2]}}${BASH_REMATCH[4]}
	done
	printf '%s' "$s"
}

# A string as an assembler .byte list; printf %b escapes (\0) allowed.
bytes() {
	printf '%b' "$1" | od -An -tu1 -v | tr -s ' \n' ' ' |
		sed 's/^ //; s/ $//; s/ /, /g'
}

asciz() {
	local s=${1//\\/\\\\}
	printf '\t.asciz "%s"\n' "${s//\"/\\\"}"
}

# export=SYM[@NS] or gpl=SYM[@NS]
emit_export() {
	local kind=${1%%=*} spec=${1#*=} sym ns=
	sym=${spec%%@*}
	[[ $spec == *@* ]] && ns=${spec#*@}
	local sec=__ksymtab
	[[ $kind == gpl ]] && sec=__ksymtab_gpl
	cat <<-ASM
		.text
		.globl $sym
		.type $sym, @function
	$sym:	ret
		.section __ksymtab_strings,"aMS",@progbits,1
	__kstrtab_$sym:
	$(asciz "$sym")
	__kstrtabns_$sym:
	$(asciz "$ns")
		.section $sec,"a",@progbits
		.balign 4
	__ksymtab_$sym:
		.long $sym - .
		.long __kstrtab_$sym - .
		.long __kstrtabns_$sym - .
	ASM
}

build_one() {
	local file=$1
	shift
	local base=${file##*/}
	local name=${base%%.ko*}
	name=${name//-/_}
	local license=GPL thisname= this=1 nobits= attr
	local -a info=() exports=() refs=() records=()

	for attr; do
		attr=$(expand "$attr")
		case $attr in
		name=*) name=${attr#name=} ;;
		thisname=*) thisname=${attr#thisname=} ;;
		nothis) this= ;;
		license=*) license=${attr#license=}; license=${license//+/ } ;;
		import=*) info+=("import_ns=${attr#import=}") ;;
		export=* | gpl=*) exports+=("$attr") ;;
		allow=*)
			info+=("allow_ns=${attr#allow=}")
			records+=("${attr#allow=}\\0")
			;;
		info=*) info+=("${attr#info=}"); info[-1]=${info[-1]//+/ } ;;
		record=*) records+=("${attr#record=}") ;;
		nobits=*) nobits=${attr#nobits=} ;;
		use=*) refs+=("	.quad ${attr#use=}") ;;
		weak=*) refs+=("	.weak ${attr#weak=}" "	.quad ${attr#weak=}") ;;
		common=*) refs+=("	.comm ${attr#common=},16,8") ;;
		*) die "$file: unknown attribute '$attr'" ;;
		esac
	done
	: "${thisname:=$name}"

	local s=$src/${base%%.ko*}.S
	{
		echo "	.section .modinfo,\"a\",@progbits"
		[[ -n $license ]] && asciz "license=$license"
		[[ -n $name ]] && asciz "name=$name"
		for attr in "${info[@]}"; do
			asciz "$attr"
		done
		if [[ -n $this ]]; then
			# struct module: name[56] at offset 24; 6.1's size 0x380
			echo "	.section .gnu.linkonce.this_module,\"aw\",@progbits"
			echo "	.balign 64"
			echo "	.globl __this_module"
			echo "__this_module:"
			echo "	.zero 24"
			printf '\t.ascii "%s"\n' "$thisname"
			echo "	.zero $((0x380 - 24 - ${#thisname}))"
		fi
		for attr in "${exports[@]}"; do
			emit_export "$attr"
		done
		if ((${#records[@]})); then
			local all=
			for attr in "${records[@]}"; do
				all+=$attr
			done
			echo "	.section __ns_allow,\"a\",@progbits"
			echo "	.byte $(bytes "$all")"
		fi
		if [[ -n $nobits ]]; then
			echo "	.section __ns_allow,\"a\",@nobits"
			echo "	.zero $nobits"
		fi
		echo "	.section .data.refs,\"aw\",@progbits"
		for attr in "${refs[@]}"; do
			echo "$attr"
		done
	} >"$s"

	local obj=$out/${file%%.ko*}.ko
	mkdir -p "${obj%/*}"
	gcc -c -o "$obj" "$s" || die "$file: cannot assemble $s"
	case $file in
	*.ko.xz) xz -f --check=crc32 "$obj" ;;
	*.ko.zst) zstd -q -f --rm "$obj" ;;
	*.ko.gz) gzip -f -n "$obj" ;;
	esac
}

while read -r -a row; do
	for i in "${!row[@]}"; do
		# A trailing comment ends the row.
		[[ ${row[i]} == \#* ]] && row=("${row[@]:0:i}") && break
	done
	((${#row[@]})) || continue
	build_one "${row[@]}"
done <"$table"

# The fixture kernel, as a kernel build tree (--kdir).
data=$(dirname "$table")/data
mkdir -p "$out/kdir"
cp "$data/vmlinux.symvers" "$out/kdir/Module.symvers"
grep -v '^#' "$data/builtin.modinfo.txt" | tr '\n' '\0' \
	>"$out/kdir/modules.builtin.modinfo"
touch "$out/.stamp"
