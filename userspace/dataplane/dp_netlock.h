/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock files of the network namespaces: <dir>/net-<inode>.lock, one per
 * namespace a data-plane command ran in, and their removal once the
 * namespace is gone (else one file per namespace ever used piles up).
 *
 * A lock file may be unlinked by a sweep while another process has it open
 * and is about to flock it. So a lock is only held if, once flocked, the
 * file still is the one at the path (same inode); else it is taken again.
 * A sweep unlinks only files it holds the flock of, after the same check:
 * at any instant at most one process holds the lock file at the path.
 *
 * API:
 *   dp_flock_wait(fd, what, op)    flock fd (op LOCK_EX or LOCK_SH), at
 *                                  most TAGGER_LOCK_TIMEOUT seconds
 *                                  (DP_LOCK_TIMEOUT); 0 or -1 after p_err
 *   dp_still_at(dirfd, name, fd)   fd is the file at dirfd/name now (same
 *                                  type, device and inode), not one removed
 *                                  since
 *   dp_lock_at(dirfd, name, path, dir)
 *                                  flock dirfd/name exclusively (a file,
 *                                  or a directory if dir), made if missing,
 *                                  and only if it is still the one at the
 *                                  path once held (else again); path names
 *                                  it in messages; fd or -1 after p_err
 *   dp_netlock_take(dirfd, dir, ino)
 *                                  lock net-<ino>.lock in dirfd (dir names
 *                                  it in messages); fd or -1 after p_err
 *   dp_netlock_sweep(dirfd, keep, live)
 *                                  remove the lock files of dirfd but
 *                                  net-<keep>.lock that nobody holds and
 *                                  whose namespace live() does not find
 *                                  (at most DP_SWEEP_MAX); best effort,
 *                                  silent; the number removed
 *   dp_netns_live(ino, live, n)    live[i] = true for each ino[i] that is
 *                                  the network namespace of a task in
 *                                  /proc or of an nsfs mount (/run/netns)
 */
#ifndef __TAGGER_DP_NETLOCK_H
#define __TAGGER_DP_NETLOCK_H

#include <stdbool.h>

#define DP_LOCK_TIMEOUT 10.0
#define DP_SWEEP_MAX 128

typedef void (*dp_live_fn)(const unsigned long long *ino, bool *live, int n);

int dp_flock_wait(int fd, const char *what, int op);
bool dp_still_at(int dirfd, const char *name, int fd);
int dp_lock_at(int dirfd, const char *name, const char *path, bool dir);
int dp_netlock_take(int dirfd, const char *dir, unsigned long long ino);
int dp_netlock_sweep(int dirfd, unsigned long long keep, dp_live_fn live);
void dp_netns_live(const unsigned long long *ino, bool *live, int n);

#endif /* __TAGGER_DP_NETLOCK_H */
