/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a node's data plane lives in bpffs, and the loader's state there.
 * <root>/<name>/ (mode 0700, pins 0600) holds the maps, programs and tcx
 * links of switch <name>, or <root>/<name>/<ifname>/ those of a host port.
 * The state (which ports, interfaces, attach mode, the rules file as
 * loaded) is a JSON document kept in a pinned array map, "state", because
 * bpffs holds no regular files; a second tagger process reads it there.
 * The root is TAGGER_BPF_ROOT, or --bpf-root, or /sys/fs/bpf/tagger.
 *
 * API:
 *   dp_root_set(dir) / dp_root()
 *   dp_path(buf, name, sub)        "<root>/<name>[/<sub>]"
 *   dp_root_open()                 the root, if it can be trusted: on a
 *                                  bpffs, a directory (not a symlink)
 *                                  owned by root, mode 0700, below
 *                                  directories only root can change (or
 *                                  sticky ones); fd or -1 after p_err
 *   dp_lock()                      creates the root (0700), checks it as
 *                                  dp_root_open, locks it (flock, so a
 *                                  killed loader never leaves it held),
 *                                  waiting at most TAGGER_LOCK_TIMEOUT
 *                                  seconds (10); fd or -1 after p_err
 *   dp_unlock(fd)
 *   dp_state_save(dir, name, json) pin json as dir/name: pinned as
 *                                  name_tmp, renamed over name (atomic);
 *                                  0 or -errno (-EFBIG over DP_STATE_MAX)
 *   dp_state_load(dir)             the document in dir/state, or NULL
 *                                  (errno ENOENT if nothing is there)
 *   dp_state_load_name(dir, name)  the same for dir/name
 *   dp_remove(dir)                 unpin everything under dir (the state
 *                                  last), remove it
 */
#ifndef __TAGGER_DP_PIN_H
#define __TAGGER_DP_PIN_H

#include <limits.h>
#include <jansson.h>

#define DP_DEFAULT_ROOT "/sys/fs/bpf/tagger"
#define DP_LOCK_TIMEOUT 10.0

int dp_root_open(void);
void dp_root_set(const char *dir);
const char *dp_root(void);
int dp_path(char *buf, const char *name, const char *sub);
int dp_lock(void);
void dp_unlock(int fd);
#define DP_STATE_CUR "state"
#define DP_STATE_NEXT "state_new"	/* bpffs refuses '.' in pin names */

int dp_state_save(const char *dir, const char *name, json_t *state);
json_t *dp_state_load(const char *dir);
json_t *dp_state_load_name(const char *dir, const char *name);
int dp_remove(const char *dir);

#endif /* __TAGGER_DP_PIN_H */
