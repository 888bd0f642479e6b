/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch's attached rules as the file "tagger switch pack" writes
 * (model/rules_bin.h): the whole network's rules and the "links" its
 * record keeps, read back from the pins. The same rules document gives
 * the same bytes whether it was attached as JSON or packed, so the
 * SHA-256 of these bytes names a rules version across switches: "switch
 * show" prints it as "rules_digest", and tagger-fabric(8) compares them.
 *
 * API:
 *   dp_state_packed(dir, rec, &len)   malloc'ed bytes of the rules of
 *                                     record rec (loaded from dir), or
 *                                     NULL with errno (the rules cannot
 *                                     be read: dp_state_rules; EINVAL:
 *                                     links that cannot be packed)
 *   dp_state_digest(dir, rec, hex)    their digest_sha256 into hex
 *                                     (DIGEST_STR bytes); 0 or -errno
 */
#ifndef __TAGGER_DP_PACKED_H
#define __TAGGER_DP_PACKED_H

#include <stddef.h>
#include <jansson.h>

void *dp_state_packed(const char *dir, json_t *rec, size_t *len);
int dp_state_digest(const char *dir, json_t *rec, char *hex);

#endif /* __TAGGER_DP_PACKED_H */
