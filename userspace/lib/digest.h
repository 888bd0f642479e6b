/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SHA-256 digests and base64, from OpenSSL's libcrypto (nothing of either
 * is implemented here): the digests that name a rules version across a
 * fabric (tagger-fabric(8)) and the base64 that carries compiled rules in
 * a JSON document. libcrypto (libcrypto.so.3) is loaded at the first
 * call, so that processes that never digest never map it.
 *
 * API:
 *   digest_sha256(buf, len, hex)   hex: "sha256:" and 64 hex digits, NUL
 *                                  ended (DIGEST_STR bytes); 0, or -1 if
 *                                  libcrypto failed (hex is "")
 *   base64_encode(buf, len)        malloc'ed string, NUL ended; NULL if
 *                                  libcrypto cannot be loaded
 *   base64_decode(s, &len)         malloc'ed bytes and their count, or
 *                                  NULL if s is not base64 (padding,
 *                                  alphabet, length) or without libcrypto
 */
#ifndef __TAGGER_DIGEST_H
#define __TAGGER_DIGEST_H

#include <stddef.h>

#define DIGEST_PREFIX "sha256:"
#define DIGEST_STR (sizeof(DIGEST_PREFIX) + 64) /* with the NUL */

int digest_sha256(const void *buf, size_t len, char *hex);
char *base64_encode(const void *buf, size_t len);
void *base64_decode(const char *s, size_t *len);

#endif /* __TAGGER_DIGEST_H */
