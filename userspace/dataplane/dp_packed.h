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
 *                                     (DIGEST_STR bytes): the one kept in
 *                                     the record's map, else packed and
 *                                     hashed; 0 or -errno
 *   dp_packed_mark_fd(fd, rec)        keep the digest of record rec (read
 *                                     from state map fd) in that map
 *                                     (dp_record_digest_mark): an attach
 *                                     does, and the child an update of the
 *                                     eBPF data path starts (dp_inplace.h);
 *                                     0 or -errno
 *   dp_packed_mark(dir)               the same for dir's "state" pin,
 *                                     under the lock
 */
#ifndef __TAGGER_DP_PACKED_H
#define __TAGGER_DP_PACKED_H

#include <stddef.h>
#include <jansson.h>

void *dp_state_packed(const char *dir, json_t *rec, size_t *len);
int dp_state_digest(const char *dir, json_t *rec, char *hex);
int dp_packed_mark_fd(int fd, json_t *rec);
int dp_packed_mark(const char *dir);

#endif /* __TAGGER_DP_PACKED_H */
