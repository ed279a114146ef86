/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nscheck - module signatures against the key the kernel trusts
 * (CONFIG_MODULE_NS_ALLOW_SIG): the appended PKCS#7 signature's signer
 * identifier (issuer and serial number, or subject key identifier)
 * compared with an X.509 certificate, the build's
 * certs/signing_key.x509. The signature's cryptography is not verified:
 * a signature that names the key counts as the key's.
 */
#ifndef NSCHECK_SIG_H
#define NSCHECK_SIG_H

#include <stddef.h>

#include "nsmod.h"

struct sigkey;

/*
 * The certificate at path, DER or PEM. Returns 0, or -errno with *err set
 * to a malloc'd message naming the file.
 */
int sigkey_read(const char *path, struct sigkey **key, char **err);
void sigkey_free(struct sigkey *key);

/*
 * nscheck --live without --trusted-key: the signers (issuer and serial
 * number, or subject key identifier) of a module the kernel lists as
 * trusted, added to *key (allocated the first time). A module signed
 * with the same key but naming it the other way is not recognised.
 * Returns 1 when the image had a signer to learn, else 0.
 */
int sigkey_learn(struct sigkey **key, const unsigned char *data,
		 size_t size);

/* A module image of size bytes (its signature appended, if any). */
enum ns_sig sig_check(const struct sigkey *key, const unsigned char *data,
		      size_t size);

/* "+OPENSSL" or "-OPENSSL", for nscheck -V. */
const char *sig_feature(void);

#endif
