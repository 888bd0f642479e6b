// SPDX-License-Identifier: GPL-2.0
/* The reports' -j documents; see dp_report.h. */
#include <jansson.h>
#include <string.h>

#include "dataplane/dp_report.h"
#include "tagger_maps.h"
#include "dataplane/dp_table.h"

struct dp_table_counts dp_table_counts(const struct dp_table *tab)
{
	return (struct dp_table_counts){ .entries = (long long)tab->n - 1,
					 .classify = (long long)tab->nclassify,
					 .rewrite = (long long)tab->nrewrite };
}

void dp_counts_set(json_t *obj, const struct dp_table_counts *c)
{
	json_object_set_new(obj, "entries", json_integer(c->entries));
	json_object_set_new(obj, "classify", json_integer(c->classify));
	json_object_set_new(obj, "rewrite", json_integer(c->rewrite));
}

static const char *const reason_names[TAGGER_LOSSY_REASONS] = {
	[TAGGER_LOSSY_NO_CLASSIFY] = "no_classify",
	[TAGGER_LOSSY_NO_REWRITE] = "no_rewrite",
	[TAGGER_LOSSY_REWRITE] = "rewrite_lossy",
	[TAGGER_LOSSY_BAD_HEADER] = "bad_header",
	[TAGGER_LOSSY_NO_TABLE] = "no_table",
	[TAGGER_LOSSY_UNCLASSIFIED] = "unclassified",
	[TAGGER_LOSSY_MULTICAST] = "multicast",
};

json_t *dp_show_port_json(json_t *port, json_t *in, json_t *out,
			  const struct tagger_port_stats *st)
{
	json_t *lossy = json_object();
	int k;

	for (k = 0; k < TAGGER_LOSSY_REASONS; k++)
		json_object_set_new(lossy, reason_names[k],
				    json_integer(st->lossy[k]));
	return json_pack("{s:O,s:O,s:O,s:o,s:o,s:o,s:I,s:I,s:I,s:I}", "port",
			 json_object_get(port, "port"), "ifname",
			 json_object_get(port, "ifname"), "ifindex",
			 json_object_get(port, "ifindex"), "in", in, "out", out,
			 "lossy", lossy, "pfc_frames",
			 (json_int_t)st->pfc_frames, "pause_frames",
			 (json_int_t)st->pause_frames, "non_ip",
			 (json_int_t)st->non_ip, "cnp", (json_int_t)st->cnp);
}

json_t *dp_show_counter_json(int tag, bool lossless, uint64_t packets,
			     uint64_t bytes)
{
	return json_pack("{s:i,s:b,s:I,s:I}", "tag", tag, "lossless", lossless,
			 "packets", (json_int_t)packets, "bytes",
			 (json_int_t)bytes);
}

struct dp_table_counts dp_counts_get(json_t *obj)
{
	return (struct dp_table_counts){
		.entries = json_integer_value(json_object_get(obj, "entries")),
		.classify =
			json_integer_value(json_object_get(obj, "classify")),
		.rewrite = json_integer_value(json_object_get(obj, "rewrite")),
	};
}

json_t *dp_attach_json(const struct dp_opts *o,
		       const struct dp_attach_report *rep)
{
	json_t *j = json_pack("{s:s,s:s,s:i,s:I}", "switch", o->name, "mode",
			      dp_mode_name(rep->mode), "ports", rep->ports,
			      "generation", (json_int_t)rep->generation);

	dp_counts_set(j, &rep->table);
	json_object_set_new(j, "datapath", json_string(rep->datapath));
	if (!strcmp(rep->datapath, "flower")) {
		json_object_set_new(j, "filters", json_integer(rep->filters));
		json_object_set_new(j, "in_hw", json_integer(rep->in_hw));
		json_object_set_new(j, "shared_blocks",
				    json_boolean(o->shared_blocks));
		json_object_set_new(j, "blocks", json_integer(rep->blocks));
	}
	if (rep->pins[0])
		json_object_set_new(j, "pins", json_string(rep->pins));
	if (rep->sysctl_changed)
		json_object_set_new(
			j, "changed",
			json_pack("{s:{s:i,s:i}}",
				  "net.ipv4.ip_forward_update_priority", "from",
				  rep->sysctl_was, "to", 0));
	return j;
}

static json_t *union_json(const struct dp_union_report *u)
{
	if (!u->checked)
		return json_pack("{s:b}", "checked", 0);
	return json_pack("{s:b,s:b,s:b,s:I,s:I,s:O}", "checked", 1, "acyclic",
			 u->acyclic, "incremental", u->incremental, "buffers",
			 (json_int_t)u->buffers, "dependencies",
			 (json_int_t)u->dependencies, "cycle",
			 u->cycle ? u->cycle : json_null());
}

json_t *dp_update_json(const struct dp_opts *o,
		       const struct dp_update_report *rep)
{
	json_t *j = json_pack("{s:s}", "switch", o->name);

	if (rep->gated)
		json_object_set_new(j, "union", union_json(&rep->union_));
	json_object_set_new(j, "updated", json_boolean(rep->updated));
	if (!rep->updated)
		return j;
	json_object_set_new(j, "generation", json_integer(rep->generation));
	dp_counts_set(j, &rep->table);
	json_object_set_new(j, "in_place", json_boolean(rep->in_place));
	json_object_set_new(j, "swap_seconds", json_real(rep->swap_seconds));
	json_object_set_new(j, "seconds", json_real(rep->seconds));
	return j;
}

json_t *dp_detach_json(const struct dp_opts *o,
		       const struct dp_detach_report *rep)
{
	return json_pack("{s:s,s:b,s:i}", "switch", o->name, "detached",
			 rep->detached, "ports", rep->ports);
}

json_t *dp_host_json(const struct dp_opts *o, const struct dp_host_report *rep)
{
	if (rep->detached)
		return json_pack("{s:s,s:s,s:b}", "host", o->name, "ifname",
				 o->ifname, "detached", 1);
	return json_pack("{s:s,s:s,s:s,s:i,s:i,s:s,s:O?,s:o}", "host", o->name,
			 "ifname", o->ifname, "mode", dp_mode_name(rep->mode),
			 "tag", rep->tag, "priority", rep->priority, "selects",
			 rep->selects, "rdma", rep->rdma, "cnp",
			 rep->cnp_tag < 0 ?
				 json_null() :
				 json_pack("{s:i,s:i}", "tag", rep->cnp_tag,
					   "priority", rep->cnp_prio));
}
