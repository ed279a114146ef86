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

# Two keys, as certs/signing_key.pem and .x509 would be: the build's
# (the kernel's built-in key) and another (a MOK or DKMS key).
mkkeys() {
	local k
	mkdir -p "$out/keys"
	for k in build other; do
		openssl req -new -x509 -nodes -newkey rsa:2048 -sha256 \
			-days 36500 -subj "/CN=nscheck test $k key" \
			-keyout "$out/keys/$k.pem" -out "$out/keys/$k.crt" \
			2>/dev/null || die "openssl cannot make the $k key"
		openssl x509 -in "$out/keys/$k.crt" -outform DER \
			-out "$out/keys/$k.x509"
	done
}

# As scripts/sign-file: a detached PKCS#7 (CMS) signature without
# certificates or attributes, then struct module_signature (id_type 2,
# PKCS#7; the length big-endian) and the marker. keyid: the signer named
# by its subject key identifier (sign-file -k); garbage: bytes that are
# not PKCS#7.
sign() {
	local ko=$1 how=$2 key=build sig=$1.p7s len extra=()
	[[ -d $out/keys ]] || mkkeys
	case $how in
	other) key=other ;;
	keyid) extra=(-keyid) ;;
	build | garbage) ;;
	*) die "$ko: unknown sign=$how" ;;
	esac
	if [[ $how == garbage ]]; then
		printf 'not a signature at all' >"$sig"
	else
		openssl cms -sign -binary -noattr -nocerts -nosmimecap -md sha256 \
			-outform DER -in "$ko" -out "$sig" \
			-signer "$out/keys/$key.crt" -inkey "$out/keys/$key.pem" \
			"${extra[@]}" 2>/dev/null ||
			die "$ko: openssl cannot sign it"
	fi
	len=$(stat -c %s "$sig")
	{
		cat "$sig"
		printf '\0\0\x02\0\0\0\0\0'
		printf "$(printf '\\x%02x' $((len >> 24 & 255)) \
			$((len >> 16 & 255)) $((len >> 8 & 255)) $((len & 255)))"
		printf '~Module signature appended~\n'
	} >>"$ko"
	rm -f "$sig"
}

build_one() {
	local file=$1
	shift
	local base=${file##*/}
	local name=${base%%.ko*}
	name=${name//-/_}
	local license=GPL thisname= this=1 nobits= signed= attr
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
		sign=*) signed=${attr#sign=} ;;
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
	[[ -z $signed ]] || sign "$obj" "$signed"
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
# --overlay's build: its Module.symvers, modules.builtin.modinfo and
# modules.order (the modules the table put in kdir-series/).
mkdir -p "$out/kdir-series"
cp "$data/series.symvers" "$out/kdir-series/Module.symvers"
grep -v '^#' "$data/series-builtin.modinfo.txt" | tr '\n' '\0' \
	>"$out/kdir-series/modules.builtin.modinfo"
(cd "$out/kdir-series" && find . -name '*.ko' | sed 's|^\./||' | sort) \
	>"$out/kdir-series/modules.order"
# The same kernel built with CONFIG_MODULE_NS_ALLOW_SIG=y and the build key.
[[ -d $out/keys ]] || mkkeys
mkdir -p "$out/kdir-sig/certs"
cp "$out/kdir/Module.symvers" "$out/kdir/modules.builtin.modinfo" \
	"$out/kdir-sig/"
cp "$out/keys/build.x509" "$out/kdir-sig/certs/signing_key.x509"
printf '# comment\nCONFIG_MODULE_SIG=y\nCONFIG_MODULE_NS_ALLOW_SIG=y\n' \
	>"$out/kdir-sig/.config"
touch "$out/.stamp"
