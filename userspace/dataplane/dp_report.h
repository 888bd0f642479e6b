/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -j documents of the data plane's reports (struct dp_report,
 * dp_switch.h): each made from the typed report alone, the one the plain
 * text is printed from, so a field cannot be in one and not the other.
 *
 * API:
 *   dp_table_counts(&tab)               a table's counts, as reports give
 *   dp_counts_set(obj, &counts)         them into obj: entries, classify,
 *                                       rewrite (the record's "table" and
 *                                       the attach and update documents)
 *   dp_counts_get(obj)                  the counts dp_counts_set put in obj
 *   dp_show_port_json(port, in, out, &stats)   one port of switch show -j:
 *                                       its record (port, ifname, ifindex),
 *                                       the in and out counter arrays
 *                                       (stolen), the lossy reasons and
 *                                       frames of stats; both data paths'
 *   dp_show_counter_json(tag, lossless, packets, bytes)   one entry of an
 *                                       in or out array
 *   dp_attach_json(&opts, &report)      switch attach
 *   dp_update_json(&opts, &report)      switch update, or its refusal
 *   dp_detach_json(&opts, &report)      switch detach
 *   dp_host_json(&opts, &report)        host attach and detach
 */
#ifndef __TAGGER_DP_REPORT_H
#define __TAGGER_DP_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_opts.h"

struct dp_table;
struct tagger_port_stats;

struct dp_table_counts dp_table_counts(const struct dp_table *tab);
void dp_counts_set(json_t *obj, const struct dp_table_counts *c);
struct dp_table_counts dp_counts_get(json_t *obj);
json_t *dp_show_port_json(json_t *port, json_t *in, json_t *out,
			  const struct tagger_port_stats *st);
json_t *dp_show_counter_json(int tag, bool lossless, uint64_t packets,
			     uint64_t bytes);
json_t *dp_attach_json(const struct dp_opts *o,
		       const struct dp_attach_report *rep);
json_t *dp_update_json(const struct dp_opts *o,
		       const struct dp_update_report *rep);
json_t *dp_detach_json(const struct dp_opts *o,
		       const struct dp_detach_report *rep);
json_t *dp_host_json(const struct dp_opts *o, const struct dp_host_report *rep);

#endif /* __TAGGER_DP_REPORT_H */
