/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock of one node name under the bpffs root: the directory
 * <root>/lock@<name>, flocked. No node can be called "lock@..." (names
 * are valid_name(): no '@'), so a lock never is a node's directory.
 * Commands on different names under one root (a lab's 200 nodes) so do
 * not wait for each other; the root itself is flocked shared by them and
 * exclusively by whatever needs every name still (dp_pin.h).
 *
 * The lock directory stays while its node's directory does, and goes with
 * it: the holder that finds no node directory left removes the lock's
 * (else one is left per name ever used). A waiter may hold the directory
 * open when it goes; so, as with the namespaces' lock files
 * (dp_netlock.h), a lock is held only if, once flocked, the directory
 * still is the one at the path; else it is taken again. Only a holder
 * removes one, so at any instant at most one process holds the lock of a
 * name. One killed while holding lets go with its last fd (flock); a
 * directory it leaves is taken by the next command on the name.
 *
 * API:
 *   dp_namelock_take(rootfd, root, name)
 *                                  lock <root>/lock@<name> (rootfd is the
 *                                  root, root names it in messages),
 *                                  waiting at most TAGGER_LOCK_TIMEOUT
 *                                  seconds; fd or -1 after p_err
 *   dp_namelock_release(rootfd, name, fd)
 *                                  unlock; the lock's directory is removed
 *                                  first if <root>/<name> is gone
 */
#ifndef __TAGGER_DP_NAMELOCK_H
#define __TAGGER_DP_NAMELOCK_H

#define DP_NAMELOCK_PREFIX "lock@"

int dp_namelock_take(int rootfd, const char *root, const char *name);
void dp_namelock_release(int rootfd, const char *name, int fd);

#endif /* __TAGGER_DP_NAMELOCK_H */
