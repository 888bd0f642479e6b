/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A rule set as a small change of another, found from their compact
 * forms (rules_blob.h): a live update of a few rules of 100,000 need not
 * decode, index and check the attached rules whole when their blob and
 * the new rules' blob differ only inside a few rules. The attached rules
 * are then the new ones with those rules put back: the same switches,
 * ports, tags, hosts and counts, the same lookups.
 *
 * API:
 *   struct rules_change          one rule: its switch, table, index
 *   rules_blob_diff(r, blob, old, len, ch, max)   blob is rules_to_blob(r)
 *                                (len bytes, rules_blob_layout(r)), old
 *                                another blob of len bytes: the number of
 *                                rules whose bytes differ, each in ch (in
 *                                blob order); -1 if any other byte differs
 *                                or more than max rules do
 *   rules_change_at(r, c)        where c's table starts in r's blob
 *   rules_patch(r, old, mem, len, ch, n)   the rules old (len bytes in
 *                                mem, malloc'ed) holds: r with the tables
 *                                of the n changed rules as old has them
 *                                (where they lie in old: it takes mem,
 *                                rules_free frees it),
 *                                sharing everything else with r (which
 *                                must outlive it). NULL (mem still the
 *                                caller's) if a change
 *                                moves a rule to another key (port or
 *                                tag: r's lookups would not be old's) or
 *                                an old rule is not sound (rules_check's
 *                                tests of one rule): decode old instead
 */
#ifndef __TAGGER_RULES_PATCH_H
#define __TAGGER_RULES_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "model/rules.h"

struct rules_change {
	int sw;
	bool rewrite; /* else classify */
	int k; /* index in the switch's table */
};

int rules_blob_diff(const struct rules *r, const void *blob, const void *old,
		    size_t len, struct rules_change *ch, int max);
struct rules *rules_patch(const struct rules *r, const void *old, void *mem,
			  size_t len, const struct rules_change *ch, int n);
size_t rules_change_at(const struct rules *r, const struct rules_change *c);

#endif /* __TAGGER_RULES_PATCH_H */
