// SPDX-License-Identifier: GPL-2.0
/* SHA-256 and base64 through libcrypto; see digest.h. */
#include <string.h>

#include <openssl/evp.h>

#include "lib/digest.h"
#include "lib/util.h"

int digest_sha256(const void *buf, size_t len, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	hex[0] = '\0';
	if (!EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL) || n != 32)
		return -1;
	strcpy(hex, DIGEST_PREFIX);
	for (i = 0; i < n; i++)
		snprintf(hex + strlen(DIGEST_PREFIX) + 2 * i, 3, "%02x", md[i]);
	return 0;
}

char *base64_encode(const void *buf, size_t len)
{
	char *s = xmalloc(4 * ((len + 2) / 3) + 1);

	EVP_EncodeBlock((unsigned char *)s, buf, len);
	return s;
}

void *base64_decode(const char *s, size_t *len)
{
	size_t n = strlen(s), pad = 0;
	unsigned char *out;
	int got;

	if (n % 4 || n > (size_t)1 << 30)
		return NULL;
	if (n && s[n - 1] == '=')
		pad++;
	if (n > 1 && s[n - 2] == '=')
		pad++;
	out = xmalloc(n / 4 * 3 + 1);
	/* EVP_DecodeBlock counts the padding as zero bytes: taken off. */
	got = EVP_DecodeBlock(out, (const unsigned char *)s, n);
	if (got < 0 || (size_t)got < pad) {
		free(out);
		return NULL;
	}
	*len = got - pad;
	return out;
}
