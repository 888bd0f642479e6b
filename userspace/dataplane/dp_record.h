/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node's state record as storage (which ports, interfaces, attach mode,
 * the rules as loaded): a JSON document kept in a pinned array map,
 * "state", in the node's directory (dp_pin.h), because bpffs holds no
 * regular files; a second tagger process reads it there. The map is an
 * array of DP_STATE_CHUNK-byte chunks: chunk 0 a header (magic, length,
 * the in-place update's quiescence mark), then the text, then optional
 * extra bytes (the rules in compact form).
 *
 * This file only stores and reads records; it knows nothing of the anchor
 * or of the update's transaction, which dp_state.h owns (a record written
 * here is in no anchor until dp_state puts it there). What the record's
 * fields mean: dp_state.h; the readers of three of them are here, because
 * the anchor's search needs them and sits below the transaction.
 *
 * API:
 *   dp_record_write(dir, name, rec, extra, len)   a new state map holding
 *                                  rec and len extra bytes after it (its
 *                                  "rules_at"), pinned as name_tmp and
 *                                  renamed over dir/name (atomic); the
 *                                  map's fd (the caller closes it) or
 *                                  -errno (-EFBIG over DP_RECORD_MAX)
 *   dp_record_load(dir)            the document in dir/state, or NULL
 *                                  (errno ENOENT if nothing is there)
 *   dp_record_load_name(dir, name) the same for dir/name
 *   dp_record_read_fd(fd)          the same for a state map's fd
 *   dp_record_peek_fd(fd, keys)    only the top-level members named in
 *                                  keys (NULL-terminated; "name[0]": the
 *                                  first element of array member name),
 *                                  each parsed alone: a record of 40 ports
 *                                  is 4 KB of JSON that every command
 *                                  would parse whole for one field
 *   dp_record_peek(dir, name, keys)   the same for the pin dir/name
 *   dp_record_extra(dir, rec, &len)   the extra bytes of record rec as
 *                                  loaded from dir (the pin holding an
 *                                  equal record); malloc'ed, or NULL with
 *                                  errno
 *   dp_record_extra_fd(fd, rec, &len)   the same from the record's map
 *   dp_record_rewrite_fd(fd, rec, extra, len)   write the record into an
 *                                  existing state map in place (no new
 *                                  map, no pin, no anchor write): its header
 *                                  is made invalid first and valid last, so
 *                                  the map holds the new record or none;
 *                                  -ENOSPC if it does not fit the map
 *   dp_record_pin_fd(dir, name, fd)   pin a state map as dir/name (a
 *                                  temporary pin renamed over it)
 *   dp_record_quiet(fd)            the generation the record's quiescence
 *                                  mark names, or -1 (none: a record as
 *                                  written has none)
 *   dp_record_quiet_mark(fd, gen)  set it (dp_inplace.h); 0 or -errno
 *   dp_record_digest_mark(fd, hex)   keep the digest of the record's rules
 *                                  (dp_packed.h) in its chunk 0; 0 or
 *                                  -errno
 *   dp_record_digest(fd, hex)      that digest into hex (DIGEST_STR bytes):
 *                                  0, or -ENOENT if the record has none
 *                                  (as written, or by an older tagger)
 *   dp_record_gen(rec)             its "generation", -1 if none
 *   dp_record_phase(rec)           "attaching", "attached" or "detaching"
 *   dp_record_netns_here(rec)      true if rec records this process's
 *                                  network namespace
 */
#ifndef __TAGGER_DP_RECORD_H
#define __TAGGER_DP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define DP_STATE_CHUNK 4096
#define DP_STATE_CUR "state"
#define DP_STATE_NEXT "state_new" /* bpffs refuses '.' in pin names */
#define DP_RECORD_MAX (16u << 20)

int dp_record_write(const char *dir, const char *name, json_t *rec,
		    const void *extra, size_t extra_len);
json_t *dp_record_load(const char *dir);
json_t *dp_record_load_name(const char *dir, const char *name);
json_t *dp_record_read_fd(int fd);
json_t *dp_record_peek_fd(int fd, const char *const *keys);
json_t *dp_record_peek(const char *dir, const char *name,
		       const char *const *keys);
void *dp_record_extra(const char *dir, json_t *rec, size_t *len);
void *dp_record_extra_fd(int fd, json_t *rec, size_t *len);
int dp_record_rewrite_fd(int fd, json_t *rec, const void *extra,
			 size_t extra_len);
int dp_record_pin_fd(const char *dir, const char *name, int fd);
int64_t dp_record_quiet(int fd);
int dp_record_quiet_mark(int fd, int64_t gen);
int dp_record_digest_mark(int fd, const char *hex);
int dp_record_digest(int fd, char *hex);
int64_t dp_record_gen(json_t *rec);
const char *dp_record_phase(json_t *rec);
bool dp_record_netns_here(json_t *rec);

#endif /* __TAGGER_DP_RECORD_H */
