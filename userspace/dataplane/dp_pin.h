/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a node's data plane lives in bpffs, and the loader's lock.
 * <root>/<name>/ (mode 0700, pins 0600) holds the maps, programs and tcx
 * links of switch <name>, or <root>/<name>/<ifname>/ those of a host port.
 * The loader's state record is kept there too (dp_record.h).
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
 *   dp_lock(name)                  dp_root_prepare; locks this network
 *                                  namespace's DP_LOCK_DIR/net-<inode>.lock
 *                                  (shared by every mount namespace;
 *                                  dp_netlock.h, which also removes the
 *                                  files of namespaces that are gone), then
 *                                  creates the root (0700), checks it as
 *                                  dp_root_open, locks it shared and locks
 *                                  the node name's lock in it
 *                                  (dp_namelock.h: commands on other names
 *                                  under the root go on meanwhile), flocks
 *                                  all (a killed loader never leaves them
 *                                  held), waiting at most
 *                                  TAGGER_LOCK_TIMEOUT seconds (10) each;
 *                                  fd, or after p_err -EXIT_USAGE (a root
 *                                  or lock directory it must not use) or
 *                                  -EXIT_RUNTIME (no bpffs could be
 *                                  mounted, a lock was held or could not
 *                                  be taken)
 *   dp_unlock(fd)                  releases them (the name's lock
 *                                  directory goes if its node's did)
 *   dp_remove(dir)                 unpin everything under dir (the state
 *                                  last), remove it
 */
#ifndef __TAGGER_DP_PIN_H
#define __TAGGER_DP_PIN_H

#include <limits.h>
#include <stdbool.h>

#define DP_DEFAULT_ROOT "/sys/fs/bpf/tagger"
#define DP_LOCK_DIR "/run/tagger"

int dp_root_open(void);
int dp_root_prepare(void);
bool dp_root_private(void);
void dp_root_set(const char *dir);
const char *dp_root(void);
int dp_path(char *buf, const char *name, const char *sub);
int dp_lock(const char *name);
void dp_unlock(int fd);
int dp_remove(const char *dir);

#endif /* __TAGGER_DP_PIN_H */
