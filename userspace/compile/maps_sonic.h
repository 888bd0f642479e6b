/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch's per-port maps (model/maps.h) as SONiC config_db entries, the
 * tables and fields of SONiC's YANG models (sonic-net/sonic-buildimage,
 * src/sonic-yang-models/yang-models/: sonic-dscp-tc-map, sonic-tc-dscp-map,
 * sonic-tc-queue-map, sonic-tc-priority-group-map, sonic-port-qos-map,
 * sonic-buffer-profile, sonic-buffer-pg, sonic-cable-length, sonic-pfcwd):
 *
 *   DSCP_TO_TC_MAP            per in-port classify, all 64 DSCPs
 *   TC_TO_DSCP_MAP            per out-port rewrite, every class
 *   TC_TO_QUEUE_MAP           per out-port: class -> the new DSCP's priority
 *   TC_TO_PRIORITY_GROUP_MAP  class -> its priority, one map
 *   PORT_QOS_MAP              per port: the four maps, pfc_enable and
 *                             pfcwd_sw_enable (the port's lossless
 *                             priorities, ingress and egress)
 *   CABLE_LENGTH              "AZURE": every port's cable
 *   BUFFER_PROFILE            one lossless PG profile from the buffer model
 *   BUFFER_PG                 "port|prio" per lossless ingress priority
 *   PFC_WD                    per port with PFC, and GLOBAL's POLL_INTERVAL
 *
 * Identical maps are written once (names TAGGER_<KIND>_<n>). Values are
 * strings, as config_db holds them. The document refers to the device's
 * PORT table (the rules' port names) and to a BUFFER_POOL (pool), which it
 * does not define: it is merged into the device's config_db.
 *
 * API:
 *   maps_sonic_refusal(m, ms, why, len)
 *       false, or true with why: what SONiC cannot express for switch ms
 *       (too many classes or priorities, a port name SONiC reserves)
 *   maps_sonic_json(m, ms, b)   the config_db document (new reference)
 */
#ifndef __TAGGER_MAPS_SONIC_H
#define __TAGGER_MAPS_SONIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "model/maps.h"

/* What the buffer model gives, and the watchdog's settings. */
struct sonic_buffer {
	uint64_t rate_bps; /* the ports' speed */
	uint32_t cable_m;
	uint64_t xon; /* bytes */
	uint64_t headroom; /* bytes: SONiC's xoff */
	const char *pool; /* the ingress lossless pool's name */
	int dynamic_th; /* -8..7 */
	const char *wd_action; /* drop, forward, alert */
	int wd_detect_ms, wd_restore_ms;
};

bool maps_sonic_refusal(const struct maps *m, const struct maps_switch *ms,
			char *why, size_t len);
json_t *maps_sonic_json(const struct maps *m, const struct maps_switch *ms,
			const struct sonic_buffer *b);

#endif /* __TAGGER_MAPS_SONIC_H */
