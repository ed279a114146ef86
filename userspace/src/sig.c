// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - module signatures against a trusted key
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sig.h"
#include "util.h"

/* The kernel's module_sig_check() and mod_check_sig(). */
#define MODULE_SIG_STRING "~Module signature appended~\n"
#define PKEY_ID_PKCS7 2

struct module_signature {
	uint8_t algo, hash, id_type, signer_len, key_id_len, pad[3];
	uint8_t sig_len[4];	/* big-endian */
};

/*
 * The PKCS#7 blob the kernel would verify, or NULL when it would find no
 * signature, or one it rejects before looking at the key.
 */
static const unsigned char *pkcs7(const unsigned char *data, size_t size,
				  size_t *len)
{
	const size_t marker = sizeof(MODULE_SIG_STRING) - 1;
	struct module_signature ms;
	size_t sig_len;

	if (size <= marker ||
	    memcmp(data + size - marker, MODULE_SIG_STRING, marker))
		return NULL;
	size -= marker;
	if (size <= sizeof(ms))
		return NULL;
	memcpy(&ms, data + size - sizeof(ms), sizeof(ms));
	sig_len = (size_t)ms.sig_len[0] << 24 | ms.sig_len[1] << 16 |
		  ms.sig_len[2] << 8 | ms.sig_len[3];
	if (sig_len >= size - sizeof(ms) || ms.id_type != PKEY_ID_PKCS7 ||
	    ms.algo || ms.hash || ms.signer_len || ms.key_id_len ||
	    ms.pad[0] || ms.pad[1] || ms.pad[2])
		return NULL;
	*len = sig_len;
	return data + size - sizeof(ms) - sig_len;
}

#ifdef HAVE_OPENSSL
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

/* A signer as a PKCS#7 SignerInfo names it. */
struct signer {
	X509_NAME *issuer;	/* with serial, or NULL */
	ASN1_INTEGER *serial;
	ASN1_OCTET_STRING *keyid;	/* subject key identifier, or NULL */
};

/* A certificate, or the signers learnt from trusted modules' signatures. */
struct sigkey {
	X509 *cert;
	struct signer *signers;
	size_t n_signers, cap_signers;
};

int sigkey_read(const char *path, struct sigkey **key, char **err)
{
	FILE *f = fopen(path, "rbe");
	X509 *cert = NULL;
	BIO *b;

	*key = NULL;
	if (!f) {
		int e = errno;

		*err = xasprintf("%s: %s", path, strerror(e));
		return -e;
	}
	b = BIO_new_fp(f, BIO_CLOSE);
	if (!b) {
		fclose(f);
		*err = xasprintf("%s: out of memory", path);
		return -ENOMEM;
	}
	cert = PEM_read_bio_X509(b, NULL, NULL, NULL);
	if (!cert) {
		ERR_clear_error();
		if (BIO_reset(b) >= 0)
			cert = d2i_X509_bio(b, NULL);
	}
	BIO_free(b);
	ERR_clear_error();
	if (!cert) {
		*err = xasprintf("%s: not an X.509 certificate (DER or PEM)",
				 path);
		return -EINVAL;
	}
	*key = xcalloc(1, sizeof(**key));
	(*key)->cert = cert;
	return 0;
}

void sigkey_free(struct sigkey *key)
{
	size_t i;

	if (!key)
		return;
	X509_free(key->cert);
	for (i = 0; i < key->n_signers; i++) {
		X509_NAME_free(key->signers[i].issuer);
		ASN1_INTEGER_free(key->signers[i].serial);
		ASN1_OCTET_STRING_free(key->signers[i].keyid);
	}
	free(key->signers);
	free(key);
}

static bool same_signer(const struct signer *a, const struct signer *b)
{
	if (a->keyid || b->keyid)
		return a->keyid && b->keyid &&
		       !ASN1_OCTET_STRING_cmp(a->keyid, b->keyid);
	return !X509_NAME_cmp(a->issuer, b->issuer) &&
	       !ASN1_INTEGER_cmp(a->serial, b->serial);
}

/* The signer si names, borrowed from it; false when it names none. */
static bool signer_of(CMS_SignerInfo *si, struct signer *s)
{
	*s = (struct signer){ 0 };
	return CMS_SignerInfo_get0_signer_id(si, &s->keyid, &s->issuer,
					     &s->serial) == 1 &&
	       (s->keyid || (s->issuer && s->serial));
}

static bool key_has(const struct sigkey *key, const struct signer *s)
{
	size_t i;

	for (i = 0; i < key->n_signers; i++) {
		if (same_signer(&key->signers[i], s))
			return true;
	}
	return false;
}

/* The module's PKCS#7 signature, or NULL. */
static CMS_ContentInfo *module_cms(const unsigned char *data, size_t size)
{
	const unsigned char *blob, *p;
	CMS_ContentInfo *cms;
	size_t len;

	blob = pkcs7(data, size, &len);
	if (!blob)
		return NULL;
	p = blob;
	cms = d2i_CMS_ContentInfo(NULL, &p, len);
	ERR_clear_error();
	return cms;
}

int sigkey_learn(struct sigkey **key, const unsigned char *data,
		 size_t size)
{
	CMS_ContentInfo *cms = module_cms(data, size);
	STACK_OF(CMS_SignerInfo) *sis;
	struct signer s, *n;
	int i, learnt = 0;

	if (!cms)
		return 0;
	if (!*key)
		*key = xcalloc(1, sizeof(**key));
	sis = CMS_get0_SignerInfos(cms);
	for (i = 0; sis && i < sk_CMS_SignerInfo_num(sis); i++) {
		if (!signer_of(sk_CMS_SignerInfo_value(sis, i), &s))
			continue;
		learnt = 1;
		if (key_has(*key, &s))
			continue;
		n = VEC_PUSH((*key)->signers, (*key)->n_signers,
			     (*key)->cap_signers);
		*n = (struct signer){
			.issuer = s.issuer ? X509_NAME_dup(s.issuer) : NULL,
			.serial = s.serial ? ASN1_INTEGER_dup(s.serial) : NULL,
			.keyid = s.keyid ? ASN1_OCTET_STRING_dup(s.keyid) :
				 NULL,
		};
	}
	CMS_ContentInfo_free(cms);
	ERR_clear_error();
	return learnt;
}

/* si names the key: its certificate, or a signer learnt. */
static bool names_key(const struct sigkey *key, CMS_SignerInfo *si)
{
	struct signer s;

	if (key->cert)
		return !CMS_SignerInfo_cert_cmp(si, key->cert);
	return signer_of(si, &s) && key_has(key, &s);
}

enum ns_sig sig_check(const struct sigkey *key, const unsigned char *data,
		      size_t size)
{
	STACK_OF(CMS_SignerInfo) *sis;
	CMS_ContentInfo *cms;
	enum ns_sig ret = SIG_OTHER;
	size_t len;
	int i, n;

	if (!pkcs7(data, size, &len))
		return SIG_NONE;
	cms = module_cms(data, size);
	if (!cms)
		return SIG_OTHER;
	sis = CMS_get0_SignerInfos(cms);
	n = sis ? sk_CMS_SignerInfo_num(sis) : 0;
	/* Every signer must be the key: the kernel verifies each. */
	for (i = 0; i < n; i++) {
		if (!names_key(key, sk_CMS_SignerInfo_value(sis, i)))
			break;
	}
	if (n && i == n)
		ret = SIG_TRUSTED;
	CMS_ContentInfo_free(cms);
	ERR_clear_error();
	return ret;
}

const char *sig_feature(void)
{
	return "+OPENSSL";
}
#else
int sigkey_read(const char *path, struct sigkey **key, char **err)
{
	*key = NULL;
	*err = xasprintf("%s: nscheck was built without OpenSSL: it cannot "
			 "read certificates or signatures", path);
	return -EOPNOTSUPP;
}

void sigkey_free(struct sigkey *key)
{
	(void)key;
}

int sigkey_learn(struct sigkey **key, const unsigned char *data,
		 size_t size)
{
	(void)key, (void)data, (void)size;
	return 0;
}

enum ns_sig sig_check(const struct sigkey *key, const unsigned char *data,
		      size_t size)
{
	size_t len;

	(void)key;
	return pkcs7(data, size, &len) ? SIG_OTHER : SIG_NONE;
}

const char *sig_feature(void)
{
	return "-OPENSSL";
}
#endif
