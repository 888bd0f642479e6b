/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a node's data plane lives in bpffs, and the loader's state there.
 * <root>/<name>/ (mode 0700, pins 0600) holds the maps, programs and tcx
 * links of switch <name>, or <root>/<name>/<ifname>/ those of a host port.
 * The state (which ports, interfaces, attach mode, the rules file as
 * loaded) is a JSON document kept in a pinned array map, "state", because
 * bpffs holds no regular files; a second tagger process reads it there.
 * The root is TAGGER_BPF_ROOT, or --bpf-root, or /sys/fs/bpf/tagger; where
 * no bpffs is at /sys/fs/bpf (none mounted, or "ip netns exec" remounted
 * /sys), the default root is on a bpffs of this process's own (a mount
 * namespace of its own), rebuilt from what the kernel holds (dp_anchor.h).
 *
 * API:
 *   dp_root_set(dir) / dp_root()
 *   dp_root_prepare()              mount the private bpffs if needed (the
 *                                  default root and no bpffs); 0 or -1
 *                                  after p_err (a runtime failure)
 *   dp_root_private()              true if pins die with this process
 *   dp_path(buf, name, sub)        "<root>/<name>[/<sub>]"
 *   dp_root_open()                 the root, if it can be trusted: on a
 *                                  bpffs, a directory (not a symlink)
 *                                  owned by root, mode 0700, below
 *                                  directories only root can change (or
 *                                  sticky ones); fd or -1 after p_err
 *   dp_lock()                      dp_root_prepare; locks this network
 *                                  namespace's DP_LOCK_DIR/net-<inode>.lock
 *                                  (shared by every mount namespace), then
 *                                  creates the root (0700), checks it as
 *                                  dp_root_open and locks it (flocks, so a
 *                                  killed loader never leaves them held),
 *                                  waiting at most TAGGER_LOCK_TIMEOUT
 *                                  seconds (10) each; fd, or after p_err
 *                                  -EXIT_USAGE (a root or lock directory
 *                                  it must not use) or -EXIT_RUNTIME (no
 *                                  bpffs could be mounted, the lock was
 *                                  held or could not be taken)
 *   dp_unlock(fd)                  releases both
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
 *   dp_remove(dir)                 unpin everything under dir (the state
 *                                  last), remove it
 */
#ifndef __TAGGER_DP_PIN_H
#define __TAGGER_DP_PIN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#define DP_DEFAULT_ROOT "/sys/fs/bpf/tagger"
#define DP_LOCK_TIMEOUT 10.0
#define DP_LOCK_DIR "/run/tagger"
#define DP_STATE_CHUNK 4096

int dp_root_open(void);
int dp_root_prepare(void);
bool dp_root_private(void);
void dp_root_set(const char *dir);
const char *dp_root(void);
int dp_path(char *buf, const char *name, const char *sub);
int dp_lock(void);
void dp_unlock(int fd);
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
int dp_remove(const char *dir);

#endif /* __TAGGER_DP_PIN_H */
