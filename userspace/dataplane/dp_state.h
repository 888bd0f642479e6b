/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a node's state record says beyond its contents, and keeping it true
 * across a loader killed at any point. The record ("state" pin, dp_pin.h)
 * of format tagger-dataplane/2 carries:
 *   "netns"       {"dev", "ino"} of the network namespace it was attached
 *                 in: interfaces, tc filters and the sysctl are that
 *                 namespace's, so every command refuses to run elsewhere
 *   "phase"       "attaching": written before anything is attached (with
 *                 the ports and the sysctl value to restore), so a killed
 *                 attach is rolled back; "attached"; "detaching": written
 *                 before anything is detached, so a killed detach is
 *                 completed
 *   "generation"  the generation (TAGGER_GEN) whose rules it keeps
 *   "links"       the rules document's "links" (the union check's)
 *   "rules_at"    where its rules are, in compact form, in its map
 *   "union_acyclic"  true if its rules alone were found deadlock-free over
 *                 its "links" (by the update that wrote it): the next
 *                 update may check only its change (dp_union.h)
 * An update writes the new record as "state_new" first, then bumps the
 * generation, then renames it over "state". The generation in the kernel
 * is the truth: a "state_new" of the running generation is committed,
 * any other dropped (dp_state_settle).
 *
 * Legacy: what tagger 0.1.0 wrote before the formats above settled. Every
 * branch that reads one says "legacy:" and its name here. Remove the
 * branches and the line at the first release after 0.1.0 whose upgrade
 * requires every node to be detached first (no such node is left then):
 *   format /1        records of format tagger-dataplane/1 (tagger 0.1.0
 *                    before 2026-11-23) have none of the fields above:
 *                    attached, anywhere, any generation
 *   link pins        tcx links pinned as link_<ifname>_<hook> (a host's:
 *                    link_egress), by tagger 0.1.0 before 2026-11-23;
 *                    later ones attach without links
 *   rules document   records of format tagger-dataplane/2 written by
 *                    tagger 0.1.0 before 2026-11-25 keep the rules
 *                    document as "rules", not "links" and "rules_at"
 *   slot-0 anchors   anchors of tagger 0.1.0 before 2026-11-25 keep the
 *                    committed record in slot 0 and a pending one in slot
 *                    1, whatever the generation (dp_anchor.h)
 *
 * This file owns that transaction: the record's storage is dp_record.h,
 * the kernel-held copy dp_anchor.h, the generation dp_table.h, and every
 * write here goes to the pin first and to the anchor second (dp_anchor.h
 * says why either order of the two is repaired by dp_state_settle).
 *
 * API:
 *   dp_netns_json()                this process's namespace as recorded
 *   dp_state_netns_ok(state, what) true if state is of this namespace, else
 *                                  false after p_err (what: "switch sw1")
 *   dp_state_save(dir, name, state)   write the record (dp_record_write),
 *                                  then put it in the anchor's slot, if the
 *                                  node has an anchor: the live slot for
 *                                  "state", the other one for "state_new";
 *                                  0 or -errno
 *   dp_state_commit(dir)           "state_new" renamed over "state" (in
 *                                  the anchor the kernel's generation picks
 *                                  the live slot: no write); 0 or -errno
 *   dp_state_drop(dir)             "state_new" removed, from the anchor too
 *   dp_state_settle(dir)           under the lock: commit or drop a pending
 *                                  "state_new" by the kernel's generation;
 *                                  1 if there was one, 0 if not, -errno
 *   dp_state_view(dir)             without the lock: the record that
 *                                  describes what runs (state_new if it
 *                                  is of the running generation); NULL
 *                                  with errno as dp_record_load
 *   dp_state_set_rules(state, doc) what a record keeps of a rules document
 *                                  as JSON: its "links"
 *   dp_state_save_rules(dir, name, state, r)   dp_state_save, with the
 *                                  rules r in their compact form
 *                                  (rules_blob.h) after the record; -EFBIG
 *                                  over DP_RECORD_MAX bytes in all
 *   dp_state_rules(dir, rec)       the rules of a record loaded from dir
 *                                  (legacy: rules document);
 *                                  NULL with errno
 *   dp_state_rules_near(dir, rec, r, blob, len, &n)   the same, under
 *                                  the lock, for rec loaded from dir's
 *                                  "state" pin; found as a patch of the
 *                                  rules r (blob: their
 *                                  rules_to_blob, len bytes) where the
 *                                  record's rules differ from them only
 *                                  in a few rules (rules_patch.h; n: how
 *                                  many, the caller frees the result
 *                                  before r); else (n -1) read whole as
 *                                  dp_state_rules does. TAGGER_UPDATE_FULL
 *                                  set in the environment: always whole
 *   dp_state_save_blob(dir, name, state, blob, len)   dp_state_save_rules
 *                                  with the rules' blob made already
 *   dp_state_links_doc(rec)        the document whose "links" are the
 *                                  attached rules' (rec, or an older
 *                                  tagger's "rules")
 *   dp_links_same(a, b)            1 if both docs' "links" are the same
 *                                  set, 0 if not, -1 if one has none
 */
#ifndef __TAGGER_DP_STATE_H
#define __TAGGER_DP_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define DP_STATE_FORMAT "tagger-dataplane/2"

json_t *dp_netns_json(void);
bool dp_state_netns_ok(json_t *state, const char *what);
int dp_state_save(const char *dir, const char *name, json_t *state);
int dp_state_commit(const char *dir);
int dp_state_drop(const char *dir);
int dp_state_settle(const char *dir);
json_t *dp_state_view(const char *dir);
struct rules;
void dp_state_set_rules(json_t *state, json_t *doc);
int dp_state_save_rules(const char *dir, const char *name, json_t *state,
			const struct rules *r);
struct rules *dp_state_rules(const char *dir, json_t *rec);
struct rules *dp_state_rules_near(const char *dir, json_t *rec,
				  const struct rules *r, const void *blob,
				  size_t len, int *n);
int dp_state_save_blob(const char *dir, const char *name, json_t *state,
		       const void *blob, size_t len);
json_t *dp_state_links_doc(json_t *rec);
int dp_links_same(json_t *a, json_t *b);

#endif /* __TAGGER_DP_STATE_H */
