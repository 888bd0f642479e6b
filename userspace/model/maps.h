/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-port maps ("tagger-maps/1", Documentation/tagger-formats.7.rst): a
 * switch's rules in the form switches that remark by (class, out-port)
 * hold (SONiC's DSCP_TO_TC_MAP and TC_TO_DSCP_MAP, Linux DCB's app and
 * rewr tables):
 *
 *   classify  (in-port, DSCP) -> class           per in-port
 *   priority  class -> priority (ingress PG)      per switch
 *   rewrite   (class, out-port) -> DSCP           per out-port
 *   queue     (class, out-port) -> the priority of the new DSCP (the one
 *             the next hop classifies into and pauses)
 *
 * Class 0 is the lossy class: the lossy priority, the lossy tag at every
 * out-port. compile/rules_maps.h builds the maps from rules,
 * analyze/maps_verify.h checks them against the rules.
 *
 * API:
 *   maps_free(m)
 *   maps_find(m, sw)               the maps of rules switch sw, or NULL
 *   maps_class(ms, in, dscp)       the class of (in-port, DSCP)
 *   maps_new_tag(ms, cls, out)     the DSCP class cls leaves port out with
 *   maps_known(ms)                 classes with maps (all unless saturated)
 *   maps_prio_lossless(r, prio)    prio is a lossless priority of r
 *   maps_queue(m, ms, cls, out)    the egress queue: the new DSCP's
 *                                  priority, the lossy one for a lossy DSCP
 *   maps_prio_mask(m, ms, port)    the lossless priorities on port: the
 *                                  classes classified there (ingress) and
 *                                  the queues out of it (egress)
 *   maps_set_limits(m, max_classes, max_prios)
 *                                  each switch's lossless priorities
 *                                  (prio_mask, nprios) and whether it is
 *                                  refused under these limits; how many are
 *   maps_json(m, src)              the "tagger-maps/1" document (new
 *                                  reference) of switches not refused;
 *                                  src names the rules file
 *   maps_shared_json(r, o)         the members the maps share with the
 *                                  rules ("lossy", "cnp", "tags",
 *                                  "classes", "hosts") from r into o
 *
 * Reading (maps_parse.c):
 *   maps_doc_load(path)            a document of either format, rules or
 *                                  maps (new reference; the caller looks
 *                                  at "format"), or NULL after
 *                                  "file:line:col: ..." (exit 2)
 *   maps_from_json(root, name, m)  the maps of a "tagger-maps/1" document
 *                                  into m, limited by its "max_classes";
 *                                  returns the rules m->r points at (new:
 *                                  the shared members and each switch's
 *                                  ports, no classify or rewrite rules),
 *                                  or NULL after "name: json.path: ..."
 *                                  (exit 2)
 */
#ifndef __TAGGER_MODEL_MAPS_H
#define __TAGGER_MODEL_MAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "model/rules.h"

#define MAPS_FORMAT "tagger-maps/1"
#define MAPS_MAX_CLASSES 16 /* SONiC's traffic classes, 0..15 */
#define MAPS_DEFAULT_CLASSES 8
#define MAPS_LOSSY_CLASS 0
/* Behaviours told apart per switch; a switch with more is refused. */
#define MAPS_COUNT_CAP 256

struct maps_switch {
	int sw; /* the switch in the rules */
	int nports;
	int nclasses; /* distinct behaviours: the minimum (see saturated) */
	uint16_t *cls; /* [in * RULES_NTAGS + dscp] -> class */
	uint8_t *rw; /* [class * nports + out] -> DSCP */
	int8_t *prio; /* [class] -> priority (the lossy one for class 0) */
	/* [class] -> its first pair, in * RULES_NTAGS + dscp, or UINT32_MAX */
	uint32_t *rep;
	bool saturated; /* more than MAPS_COUNT_CAP: nclasses is a bound */
	int nprios; /* lossless priorities used (ingress and egress) */
	uint32_t prio_mask;
	bool refused;
};

struct maps {
	const struct rules *r;
	int max_classes, max_prios;
	struct maps_switch *sw; /* one per rules switch, in order */
	int nsw;
	int refused; /* switches refused */
};

void maps_free(struct maps *m);
const struct maps_switch *maps_find(const struct maps *m, int sw);

static inline int maps_class(const struct maps_switch *ms, int in, int dscp)
{
	return ms->cls[in * RULES_NTAGS + dscp];
}

static inline int maps_new_tag(const struct maps_switch *ms, int cls, int out)
{
	return ms->rw[cls * ms->nports + out];
}

static inline int maps_known(const struct maps_switch *ms)
{
	return ms->nclasses - ms->saturated;
}

static inline bool maps_prio_lossless(const struct rules *r, int prio)
{
	return prio >= 0 && prio != r->lossy_prio;
}

int maps_queue(const struct maps *m, const struct maps_switch *ms, int cls,
	       int out);
uint32_t maps_prio_mask(const struct maps *m, const struct maps_switch *ms,
			int port);
int maps_set_limits(struct maps *m, int max_classes, int max_prios);
json_t *maps_json(const struct maps *m, const char *src);
void maps_shared_json(const struct rules *r, json_t *o);

json_t *maps_doc_load(const char *path);
struct rules *maps_from_json(json_t *root, const char *name, struct maps *m);

#endif /* __TAGGER_MODEL_MAPS_H */
