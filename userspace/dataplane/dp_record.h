/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node's state record (which ports, interfaces, attach mode, the rules
 * file as loaded): a JSON document kept in a pinned array map, "state",
 * in the node's directory (dp_pin.h), because bpffs holds no regular
 * files; a second tagger process reads it there. The map is an array of
 * DP_STATE_CHUNK-byte chunks: chunk 0 a header (magic, length, the
 * in-place update's quiescence mark), then the text, then optional extra
 * bytes (the rules in compact form). What the record says: dp_state.h.
 *
 * API:
 *   dp_state_save(dir, name, json) pin json as dir/name: pinned as
 *                                  name_tmp, renamed over name (atomic);
 *                                  0 or -errno (-EFBIG over DP_STATE_MAX);
 *                                  then into the anchor's slot, if any
 *   dp_state_commit(dir)           state_new renamed over state (in the
 *                                  anchor the kernel's generation picks the
 *                                  live slot: dp_anchor.h); dp_state_drop
 *                                  (dir) drops it, from the anchor too
 *   dp_state_load(dir)             the document in dir/state, or NULL
 *                                  (errno ENOENT if nothing is there)
 *   dp_state_load_name(dir, name)  the same for dir/name
 *   dp_state_read_fd(fd)           the same for a state map's fd
 *   dp_state_save_extra(dir, name, json, extra, len)   the same, with
 *                                  bytes kept after the record in its map
 *                                  (its "rules_at"), read only by who needs
 *                                  them (the rules: dp_state.h)
 *   dp_state_extra(dir, rec, &len) those bytes of record rec as loaded from
 *                                  dir (the pin holding an equal record);
 *                                  malloc'ed, or NULL with errno
 *   dp_state_extra_fd(fd, rec, &len)   the same from the record's map
 *   dp_state_rewrite_fd(fd, json, extra, len)   write the record into an
 *                                  existing state map in place (no new
 *                                  map, no anchor write): its header is
 *                                  made invalid first and valid last, so
 *                                  the map holds the new record or none;
 *                                  -ENOSPC if it does not fit the map
 *   dp_state_pin_fd(dir, name, fd) pin a state map as dir/name (a
 *                                  temporary pin renamed over it)
 *   dp_state_quiet(fd)             the generation the record's quiescence
 *                                  mark names, or -1 (none: a record as
 *                                  written has none)
 *   dp_state_quiet_mark(fd, gen)   set it (dp_inplace.h); 0 or -errno
 */
#ifndef __TAGGER_DP_RECORD_H
#define __TAGGER_DP_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define DP_STATE_CHUNK 4096
#define DP_STATE_CUR "state"
#define DP_STATE_NEXT "state_new" /* bpffs refuses '.' in pin names */

int dp_state_save(const char *dir, const char *name, json_t *state);
json_t *dp_state_load(const char *dir);
json_t *dp_state_load_name(const char *dir, const char *name);
json_t *dp_state_read_fd(int fd);
int dp_state_save_extra(const char *dir, const char *name, json_t *state,
			const void *extra, size_t extra_len);
void *dp_state_extra(const char *dir, json_t *rec, size_t *len);
void *dp_state_extra_fd(int fd, json_t *rec, size_t *len);
int dp_state_rewrite_fd(int fd, json_t *state, const void *extra,
			size_t extra_len);
int dp_state_pin_fd(const char *dir, const char *name, int fd);
int64_t dp_state_quiet(int fd);
int dp_state_quiet_mark(int fd, int64_t gen);
int dp_state_commit(const char *dir);
int dp_state_drop(const char *dir);

#endif /* __TAGGER_DP_RECORD_H */
