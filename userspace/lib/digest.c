// SPDX-License-Identifier: GPL-2.0
/*
 * SHA-256 and base64 through libcrypto; see digest.h. libcrypto is loaded
 * on first use, not linked: the pause agent is this same binary, and it
 * locks every page it maps (pfc_rt.c, mlockall), so a 4.7 MB library that
 * only show and fabric use would be locked resident in every agent.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "lib/digest.h"
#include "lib/util.h"

#define LIBCRYPTO "libcrypto.so.3"

static struct {
	int (*digest)(const void *, size_t, unsigned char *, unsigned int *,
		      const EVP_MD *, ENGINE *);
	const EVP_MD *(*sha256)(void);
	int (*encode)(unsigned char *, const unsigned char *, int);
	int (*decode)(unsigned char *, const unsigned char *, int);
	void *lib;
} crypto;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void crypto_load(void)
{
	void *lib = dlopen(LIBCRYPTO, RTLD_NOW | RTLD_LOCAL);

	if (!lib)
		return;
	*(void **)&crypto.digest = dlsym(lib, "EVP_Digest");
	*(void **)&crypto.sha256 = dlsym(lib, "EVP_sha256");
	*(void **)&crypto.encode = dlsym(lib, "EVP_EncodeBlock");
	*(void **)&crypto.decode = dlsym(lib, "EVP_DecodeBlock");
	if (crypto.digest && crypto.sha256 && crypto.encode && crypto.decode)
		crypto.lib = lib;
	else
		dlclose(lib);
}

static bool crypto_ok(void)
{
	pthread_once(&crypto_once, crypto_load);
	return crypto.lib;
}

int digest_sha256(const void *buf, size_t len, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	hex[0] = '\0';
	if (!crypto_ok() ||
	    !crypto.digest(buf, len, md, &n, crypto.sha256(), NULL) || n != 32)
		return -1;
	strcpy(hex, DIGEST_PREFIX);
	for (i = 0; i < n; i++)
		snprintf(hex + strlen(DIGEST_PREFIX) + 2 * i, 3, "%02x", md[i]);
	return 0;
}

char *base64_encode(const void *buf, size_t len)
{
	char *s;

	if (!crypto_ok() || len > (size_t)1 << 30)
		return NULL;
	s = xmalloc(4 * ((len + 2) / 3) + 1);
	crypto.encode((unsigned char *)s, buf, len);
	return s;
}

void *base64_decode(const char *s, size_t *len)
{
	size_t n = strlen(s), pad = 0;
	unsigned char *out;
	int got;

	if (!crypto_ok() || n % 4 || n > (size_t)1 << 30)
		return NULL;
	if (n && s[n - 1] == '=')
		pad++;
	if (n > 1 && s[n - 2] == '=')
		pad++;
	out = xmalloc(n / 4 * 3 + 1);
	/* EVP_DecodeBlock counts the padding as zero bytes: taken off. */
	got = crypto.decode(out, (const unsigned char *)s, n);
	if (got < 0 || (size_t)got < pad) {
		free(out);
		return NULL;
	}
	*len = got - pad;
	return out;
}
