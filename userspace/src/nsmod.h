/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - what nscheck knows of one module file: read once (filecache.c),
 * then checked and, when it would load, added to the model (kernel.h).
 */
#ifndef NSCHECK_NSMOD_H
#define NSCHECK_NSMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ns_export {
	const char *sym;
	const char *ns;		/* "" when the symbol has no namespace */
	/*
	 * NULL, or the file's own namespace when a reader gave the symbol
	 * another (--overlay: the build's); ns is then that other one.
	 */
	const char *was_ns;
	bool gpl;		/* in __ksymtab_gpl */
	uint64_t pos;		/* offset in its __ksymtab* section */
};

struct ns_undef {
	const char *sym;
	bool weak;
	bool common;		/* SHN_COMMON: refused, -fno-common */
};

/* One "ns:module" grant; mod may end in '*': every name it starts. */
struct ns_grant {
	const char *ns;
	const char *mod;
};

/*
 * The loader's checks of a module's __ns_allow section, in the kernel's
 * order (module_ns_allow_prepare()): the first that fails refuses the
 * module with -ENOEXEC and a line that names it.
 */
enum ns_records {
	NSREC_OK,
	NSREC_TWO_SECTIONS,	/* more than one __ns_allow, whatever flags */
	NSREC_NOT_ALLOC,	/* no SHF_ALLOC */
	NSREC_WRITABLE,		/* SHF_WRITE */
	NSREC_RELOCATED,	/* a SHT_REL(A) section's sh_info is it */
	NSREC_MALFORMED,	/* a bad record, at bad_offset */
	NSREC_MODINFO,		/* allow_ns= values are not the records */
};

/*
 * The module's appended signature against the key nscheck trusts
 * (--trusted-key): only its key identifier, never its cryptography.
 */
enum ns_sig {
	SIG_UNCHECKED,		/* no key given: not looked at */
	SIG_NONE,		/* no signature, or not one the kernel reads */
	SIG_OTHER,		/* signed, not naming the trusted key */
	SIG_TRUSTED,		/* every signer names the trusted key */
};

struct nsmod {
	const char *path;	/* as given, or as found in the tree */
	char *error;		/* why the file cannot be checked */
	/*
	 * The kernel refuses the module's __ns_allow section or records
	 * (-ENOEXEC; error says why); bad_offset for NSREC_MALFORMED.
	 */
	enum ns_records records;
	size_t bad_offset;
	enum ns_sig sig;
	/* .note.gnu.build-id as in the file (and in /sys/module/M/notes) */
	const unsigned char *build_id;
	size_t build_id_len;

	const char *name;	/* modinfo name=, as the kernel's mod->name */
	const char *info_name;	/* modinfo name=, NULL when there is none */
	const char *license;	/* first license=, or NULL */
	bool intree;		/* modinfo intree=Y: no out-of-tree taint */
	bool livepatch;		/* modinfo livepatch= (any value, as 6.1) */
	uint16_t machine;	/* e_machine */

	const char **imports;	/* modinfo import_ns= */
	size_t n_imports;
	const char **softdeps;	/* modinfo softdep= */
	size_t n_softdeps;
	struct ns_export *exports;	/* __ksymtab, then __ksymtab_gpl */
	size_t n_exports;
	struct ns_undef *undefs;	/* in .symtab order */
	size_t n_undefs;
	struct ns_grant *grants;	/* __ns_allow records */
	size_t n_grants;
	const char **allow_values;	/* modinfo allow_ns=, raw */
	size_t n_allow_values;
	bool allow_unterminated;	/* the last one has no NUL */
	/*
	 * The same module in the build a reader took this one's namespaces
	 * and grants from (--overlay), or NULL when it has none.
	 */
	const struct nsmod *rebuilt;
};

#endif
