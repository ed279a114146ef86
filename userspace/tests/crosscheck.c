// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crosscheck - nscheck's reading of each module against libkmod's: the
 * undefined symbols and their binding (kmod_module_get_dependency_symbols(),
 * in .symtab order, before the __versions entries no symbol references)
 * and the modinfo name=, license=, import_ns= and allow_ns= values
 * (kmod_module_get_info()). nscheck reads both itself, once per file
 * (README.md, "Reading modules"); this says it reads the same. With
 * --key CERT, also whether a module's signature names the key: libkmod's
 * signer and sig_key (the issuer's common name and serial number) against
 * the certificate's, nscheck's own answer against that (libkmod shows
 * nothing for a signer named by its subject key identifier: not compared).
 * Usage: crosscheck [--key CERT] MODULE... (or - to read paths from
 * stdin). Exit 1 on a difference, naming the file.
 */

#include <stdio.h>
#include <stdlib.h>

#include <gelf.h>
#include <libkmod.h>

#include "filecache.h"
#include "util.h"

#ifdef HAVE_OPENSSL
#include <openssl/bn.h>
#include <openssl/x509.h>
#endif

/* The key's issuer common name and serial as libkmod prints them. */
static char *key_cn, *key_serial;

static int diff(const char *path, const char *what, const char *ours,
		const char *kmods)
{
	printf("%s: %s: nscheck '%s', libkmod '%s'\n", path, what,
	       ours ? ours : "(none)", kmods ? kmods : "(none)");
	return 1;
}

static int symbols(struct kmod_module *mod, const struct nsmod *m)
{
	struct kmod_list *list = NULL, *l;
	size_t i = 0;
	int bad = 0;

	if (kmod_module_get_dependency_symbols(mod, &list) < 0)
		return diff(m->path, "symbols", "", "unreadable");
	kmod_list_foreach(l, list) {
		const char *s = kmod_module_dependency_symbol_get_symbol(l);
		bool weak = kmod_module_dependency_symbol_get_bind(l) ==
			    KMOD_SYMBOL_WEAK;

		/* Common symbols are not libkmod's; empty names neither. */
		while (i < m->n_undefs &&
		       (m->undefs[i].common || !*m->undefs[i].sym))
			i++;
		if (i == m->n_undefs)
			break;	/* libkmod's __versions extras, after */
		if (!streq(s, m->undefs[i].sym) || weak != m->undefs[i].weak) {
			bad = diff(m->path, "undefined symbol",
				   m->undefs[i].sym, s);
			break;
		}
		i++;
	}
	while (!bad && i < m->n_undefs &&
	       (m->undefs[i].common || !*m->undefs[i].sym))
		i++;
	if (!bad && i < m->n_undefs)
		bad = diff(m->path, "undefined symbol", m->undefs[i].sym, "");
	kmod_module_dependency_symbols_free_list(list);
	return bad;
}

static int modinfo(struct kmod_module *mod, const struct nsmod *m)
{
	struct kmod_list *list = NULL, *l;
	const char *name = NULL, *license = NULL;
	size_t imports = 0, grants = 0;
	int bad = 0;

	if (kmod_module_get_info(mod, &list) < 0)
		return diff(m->path, "modinfo", "", "unreadable");
	kmod_list_foreach(l, list) {
		const char *k = kmod_module_info_get_key(l);
		const char *v = kmod_module_info_get_value(l);

		if (!v)
			continue;
		if (streq(k, "name") && !name)
			name = v;
		else if (streq(k, "license") && !license)
			license = v;
		else if (streq(k, "import_ns") && !bad) {
			if (imports >= m->n_imports ||
			    !streq(v, m->imports[imports]))
				bad = diff(m->path, "import_ns",
					   imports < m->n_imports ?
					   m->imports[imports] : NULL, v);
			imports++;
		} else if (streq(k, "allow_ns")) {
			grants++;
		}
	}
	if (!bad && imports != m->n_imports)
		bad = diff(m->path, "import_ns", "more", "fewer");
	if (!bad && grants != m->n_allow_values)
		bad = diff(m->path, "allow_ns", "a count", "another");
	if (!bad && name && !streq(name, m->name))
		bad = diff(m->path, "name", m->name, name);
	if (!bad && (!license != !m->license ||
		     (license && !streq(license, m->license))))
		bad = diff(m->path, "license", m->license, license);
	kmod_module_info_free_list(list);
	return bad;
}

/* libkmod's sig_key and signer against the key, and nscheck's m->sig. */
static int signature(struct kmod_module *mod, const struct nsmod *m)
{
	struct kmod_list *list = NULL, *l;
	const char *signer = NULL, *sig_key = NULL;
	bool kmods;
	int bad = 0;

	if (!key_cn || kmod_module_get_info(mod, &list) < 0)
		return 0;
	kmod_list_foreach(l, list) {
		const char *k = kmod_module_info_get_key(l);

		if (streq(k, "signer"))
			signer = kmod_module_info_get_value(l);
		else if (streq(k, "sig_key"))
			sig_key = kmod_module_info_get_value(l);
	}
	if (sig_key && *sig_key) {
		kmods = signer && streq(signer, key_cn) &&
			streq(sig_key, key_serial);
		if (kmods != (m->sig == SIG_TRUSTED))
			bad = diff(m->path, "signed with the key",
				   m->sig == SIG_TRUSTED ? "yes" : "no",
				   kmods ? "yes" : "no");
	}
	kmod_module_info_free_list(list);
	return bad;
}

#ifdef HAVE_OPENSSL
static int read_key(struct filecache *ld, const char *path)
{
	char cn[256], *err = NULL;
	struct sigkey *key;
	BIGNUM *bn;
	unsigned char *bin;
	int n, i, len;
	FILE *f;
	X509 *x;

	if (sigkey_read(path, &key, &err) < 0) {
		fprintf(stderr, "crosscheck: %s\n", err);
		free(err);
		return -1;
	}
	ld->key = key;
	f = fopen(path, "rb");
	x = f ? d2i_X509_fp(f, NULL) : NULL;
	if (f)
		fclose(f);
	if (!x) {
		fprintf(stderr, "crosscheck: %s: want a DER certificate\n", path);
		return -1;
	}
	len = X509_NAME_get_text_by_NID(X509_get_issuer_name(x),
					NID_commonName, cn, sizeof(cn));
	key_cn = xstrdup(len > 0 ? cn : "");
	bn = ASN1_INTEGER_to_BN(X509_get_serialNumber(x), NULL);
	n = BN_num_bytes(bn);
	bin = xmalloc(n ? n : 1);
	BN_bn2bin(bn, bin);
	key_serial = xcalloc(n * 3 + 1, 1);
	for (i = 0; i < n; i++)
		sprintf(key_serial + 3 * i, "%02X%s", bin[i],
			i + 1 < n ? ":" : "");
	free(bin);
	BN_free(bn);
	X509_free(x);
	return 0;
}
#else
static int read_key(struct filecache *ld, const char *path)
{
	(void)ld;
	fprintf(stderr, "crosscheck: %s: built without OpenSSL\n", path);
	return -1;
}
#endif

static int one(struct kmod_ctx *ctx, struct filecache *ld, const char *path,
	       size_t *checked)
{
	const struct nsmod *m = filecache_get(ld, path);
	struct kmod_module *mod;
	int bad;

	if (m->error) {
		printf("%s: nscheck cannot read it: %s\n", path, m->error);
		return 1;
	}
	if (kmod_module_new_from_path(ctx, path, &mod) < 0)
		return diff(path, "file", "read", "unreadable");
	bad = symbols(mod, m) | modinfo(mod, m) | signature(mod, m);
	kmod_module_unref(mod);
	(*checked)++;
	return bad;
}

int main(int argc, char *argv[])
{
	const char *null_config = NULL;
	struct kmod_ctx *ctx = kmod_new(NULL, &null_config);
	size_t checked = 0, cap = 0;
	const struct sigkey *key;
	struct filecache ld;
	char *line = NULL;
	int i, bad = 0;

	if (!ctx || elf_version(EV_CURRENT) == EV_NONE)
		return 2;
	filecache_init(&ld);
	i = 1;
	if (argc > 2 && streq(argv[1], "--key")) {
		if (read_key(&ld, argv[2]) < 0)
			return 2;
		i = 3;
	}
	for (; i < argc; i++) {
		if (!streq(argv[i], "-")) {
			bad |= one(ctx, &ld, argv[i], &checked);
			continue;
		}
		while (getline(&line, &cap, stdin) > 0) {
			line[strcspn(line, "\n")] = '\0';
			bad |= one(ctx, &ld, line, &checked);
			/* One file at a time: the loader keeps what it read. */
			key = ld.key;
			filecache_free(&ld);
			filecache_init(&ld);
			ld.key = key;
		}
	}
	printf("crosscheck: %zu modules, %s\n", checked,
	       bad ? "DIFFERENT" : "the same as libkmod");
	free(line);
	sigkey_free((struct sigkey *)ld.key);
	filecache_free(&ld);
	free(key_cn);
	free(key_serial);
	kmod_unref(ctx);
	return bad;
}
