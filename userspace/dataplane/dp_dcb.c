// SPDX-License-Identifier: GPL-2.0
/* The DCB data path of tagger switch; see dp_dcb.h. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_dcb.h"
#include "dataplane/dp_hold.h"
#include "dataplane/dp_job.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_table.h"
#include "dataplane/dp_union.h"
#include "lib/dcb_port.h"
#include "lib/dcb_state.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/dcb_map.h"
#include "tagger_maps.h"

int dp_dcb_map(const struct rules *r, int sw, json_t *links_doc,
	       struct dcb_map *m)
{
	struct dcb_peer *peers = xcalloc(r->sw[sw].nports + 1, sizeof(*peers));
	struct dp_links l;
	int has = json_object_get(links_doc, "links") ?
			  dp_links_from_json(links_doc, "rules", &l) :
			  0;

	if (has > 0) {
		dcb_peers(r, sw, l.a, l.b, l.n, peers);
		dp_links_free(&l);
	}
	dcb_map_build(r, sw, has > 0 ? peers : NULL, m);
	free(peers);
	return has < 0 ? -EINVAL : 0;
}

/* Every rule the DCB form cannot hold, named; EXIT_PROBLEM if any. */
static int refuse(const struct dcb_map *m, const char *name)
{
	if (!m->nproblems)
		return EXIT_OK;
	dcb_map_report(m);
	p_err("switch %s: %d rules cannot run on DCB (tagger switch check "
	      "%s RULES --datapath dcb lists them): nothing changed",
	      name, m->nproblems, name);
	return EXIT_PROBLEM;
}

/*
 * The buffers of a port whose lossless priorities are the mask lossless:
 * each lossless priority q in buffer q, of size bytes; every other
 * priority stays in the buffer it was found in, unless a lossless
 * priority now takes that one: then it moves to the lowest buffer none
 * takes. The other buffers keep the sizes found.
 */
static void model_buffer(struct dcbnl_buffer *b,
			 const struct dcbnl_buffer *saved, uint8_t lossless,
			 uint32_t size)
{
	int q, free_buf = 0;

	memcpy(b->prio2buffer, saved->prio2buffer, sizeof(b->prio2buffer));
	memcpy(b->buffer_size, saved->buffer_size, sizeof(b->buffer_size));
	while (free_buf < DCB_PRIOS - 1 && lossless >> free_buf & 1)
		free_buf++;
	for (q = 0; q < DCB_PRIOS; q++)
		if (lossless >> q & 1) {
			b->prio2buffer[q] = q;
			b->buffer_size[q] = size;
		} else if (b->prio2buffer[q] < DCB_PRIOS &&
			   lossless >> b->prio2buffer[q] & 1) {
			b->prio2buffer[q] = free_buf;
		}
}

/*
 * What port p holds under the map: a function of the state saved before
 * attach, the map and the recorded headroom model (model: NULL if none)
 * alone, so that attach, update and the repair of either write the same.
 * Every DSCP's app entry; rewr entries of the priorities the map sets,
 * the others' as saved; PFC on the map's priorities with the model's
 * delay (else the saved one); with the model the buffers of
 * model_buffer(), else the saved ones. ETS and the entries of other
 * selectors are left as they are now.
 */
static int port_want(struct dcb_nl *d, const char *ifname,
		     const struct dcb_map *m, int p,
		     const struct dcb_state *saved, const json_t *model,
		     struct dcb_state *want)
{
	int i, r = dcb_port_read(d, ifname, want);

	if (r)
		return r;
	if (m->rewr_set[p] && !(want->has & DCB_HAS_REWR))
		r = snprintf(d->err, sizeof(d->err),
			     "%s: the rewr table is not supported by this "
			     "kernel (it came with Linux 6.3)",
			     ifname);
	else if (!(want->has & DCB_HAS_PFC))
		r = snprintf(d->err, sizeof(d->err),
			     "%s: its driver reports no PFC", ifname);
	else if (model && !(want->has & DCB_HAS_BUFFER))
		r = snprintf(d->err, sizeof(d->err),
			     "%s: its driver reports no buffers (the headroom "
			     "model's sizes cannot be written)",
			     ifname);
	if (r)
		return -EOPNOTSUPP;
	for (i = 0; i < DCB_DSCPS; i++)
		want->app[i] = 1u << m->app[p * RULES_NTAGS + i];
	for (i = 0; i < DCB_PRIOS; i++)
		want->rewr[i] = m->rewr_set[p] >> i & 1 ?
					1ull << m->rewr[p * RULES_NPRIOS + i] :
					saved->rewr[i];
	want->pfc.pfc_en = m->pfc[p];
	want->pfc.delay = model ? json_integer_value(json_object_get(
					  model, "delay_bits")) :
				  saved->pfc.delay;
	if (model)
		model_buffer(&want->buffer, &saved->buffer, m->pfc[p],
			     json_integer_value(
				     json_object_get(model, "buffer_bytes")));
	else if (saved->has & DCB_HAS_BUFFER)
		model_buffer(&want->buffer, &saved->buffer, 0, 0);
	return 0;
}

/* Every port of the record's from the map; 0 or -errno after p_err. */
static int apply_all(json_t *state, const struct dcb_map *m)
{
	const json_t *model = json_object_get(state, "dcb_model");
	struct dcb_state saved, want;
	struct dcb_nl d;
	json_t *port;
	char why[256];
	size_t i;
	int err = dcb_nl_open(&d);

	if (err) {
		p_err("DCB netlink: %s", strerror(-err));
		return err;
	}
	json_array_foreach(json_object_get(state, "ports"), i, port) {
		const char *ifname =
			json_string_value(json_object_get(port, "ifname"));

		err = dcb_state_from_json(json_object_get(port, "dcb_saved"),
					  &saved, why, sizeof(why));
		if (err) {
			p_err("the DCB state saved for %s: %s", ifname, why);
			break;
		}
		err = port_want(&d, ifname, m, (int)i, &saved, model, &want);
		if (!err)
			err = dcb_port_restore(&d, ifname, &want);
		if (err < 0) {
			p_err("DCB on %s: %s", ifname, d.err);
			break;
		}
		err = 0;
	}
	dcb_nl_close(&d);
	return err;
}

/*
 * Each port's DCB state as found, into the record's ports ("dcb_saved"),
 * before anything is changed: what detach (or a killed attach's rollback)
 * puts back. 0 or -errno after p_err (a device without DCB: named).
 */
static int save_ports(json_t *state)
{
	struct dcb_state s;
	struct dcb_nl d;
	json_t *port;
	size_t i;
	int err = dcb_nl_open(&d);

	if (err) {
		p_err("DCB netlink: %s", strerror(-err));
		return err;
	}
	json_array_foreach(json_object_get(state, "ports"), i, port) {
		const char *ifname =
			json_string_value(json_object_get(port, "ifname"));

		err = dcb_port_read(&d, ifname, &s);
		if (err) {
			p_err("DCB on %s: %s", ifname, d.err);
			break;
		}
		json_object_set_new(port, "dcb_saved", dcb_state_json(&s));
	}
	dcb_nl_close(&d);
	return err;
}

static int map_of(const struct dp_job *j, struct dcb_map *m)
{
	if (dp_dcb_map(j->r, j->sw, j->doc, m)) {
		dcb_map_free(m);
		return EXIT_USAGE; /* p_err'd */
	}
	return refuse(m, j->r->sw[j->sw].name);
}

int dp_dcb_attach(const struct dp_opts *o, struct dp_job *j,
		  const struct dp_port *ports, int n,
		  struct dp_attach_report *rep)
{
	struct dp_table tab = { 0 };
	struct dcb_map m;
	int ret = map_of(j, &m), err;

	if (ret)
		return ret;
	json_object_set_new(j->state, "ports", dp_hold_ports_json(ports, n));
	if (o->dcb.set)
		json_object_set_new(
			j->state, "dcb_model",
			json_pack("{s:I, s:i, s:i, s:i, s:i}", "speed_bps",
				  (json_int_t)o->dcb.speed_bps, "cable_m",
				  (int)o->dcb.cable_m, "mtu", (int)o->dcb.mtu,
				  "delay_bits", (int)o->dcb.delay_bits,
				  "buffer_bytes", (int)o->dcb.buffer_bytes));
	err = save_ports(j->state);
	/* the found state in a record before the first change */
	err = err ?: dp_state_save(j->dir, DP_STATE_CUR, j->state);
	err = err ?: n ? dp_hold_setup(j->dir, ports[0].ifindex, 0) : -EINVAL;
	err = err ?: apply_all(j->state, &m);
	if (err) {
		dcb_map_free(&m);
		return EXIT_RUNTIME;
	}
	rep->sysctl_changed = dp_sysctl_prio(&rep->sysctl_was);
	json_object_set_new(j->state, "phase", json_string("attached"));
	json_object_set_new(j->state, "mode", json_string("tc")); /* holders */
	json_object_set_new(j->state, "generation", json_integer(0));
	dp_table_build(j->r, j->sw, ports, &tab);
	dp_switch_record_rules(j->state, o, j->doc, &tab);
	dp_table_free(&tab);
	dcb_map_free(&m);
	err = dp_state_save_rules(j->dir, DP_STATE_CUR, j->state, j->r);
	if (err)
		return dp_state_save_err(o, j->dir, err);
	rep->mode = DP_MODE_TC;
	rep->ports = n;
	rep->generation = 0;
	rep->table = dp_counts_get(json_object_get(j->state, "table"));
	if (!dp_root_private())
		snprintf(rep->pins, sizeof(rep->pins), "%s", j->dir);
	return EXIT_OK;
}

/*
 * DCB has no second table to swap to: the new maps are written over the
 * old, port by port (each app entry replaced, never removed first). The
 * record goes first ("state_new"), then the ports are written, then the
 * generation moves (the commit point), then the record is committed. The
 * writes come before the commit point because the anchor commits a
 * record by its generation alone (dp_anchor.h): a record of the running
 * generation is never seen as pending again, and nothing would repair
 * ports written after the move. So a kill before the move leaves a
 * pending record of the next generation, which the next command drops
 * and then repairs the ports back to the running one's maps; a kill
 * after it, ports that hold the new maps already. A write that fails
 * puts the running generation's maps back at once.
 */
/*
 * An update that did not go live: the running generation's maps back on
 * the ports, then its record dropped; if they cannot be written, the
 * record is left pending for the next command, which drops it and writes
 * them (dp_node_settle).
 */
static void back_out(const char *dir)
{
	json_t *cur = dp_record_load(dir);

	if (cur && !dp_dcb_repair(dir, cur, true))
		dp_state_drop(dir);
	else
		p_err("%s: the ports may hold some of the new maps: the next "
		      "command writes the running generation's again",
		      dir);
	json_decref(cur);
}

int dp_dcb_update(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		  struct dp_update_report *u, int64_t *gen)
{
	struct dp_table tab = { 0 };
	struct dp_port *ports;
	struct dcb_map m;
	int ret = map_of(j, &m), err, genfd, n;
	int64_t next;

	*gen = -1;
	if (ret)
		return ret;
	genfd = dp_pin_open(j->dir, tagger_str(TAGGER_GEN));
	next = genfd < 0 ? genfd : dp_table_next(genfd);
	ports = dp_state_ports(j->state, &n);
	dp_table_build(j->r, j->sw, ports, &tab);
	dp_free_ports(ports, n);
	json_object_set_new(j->state, "union_acyclic", json_boolean(acyclic));
	json_object_set_new(j->state, "generation", json_integer(next));
	dp_switch_record_rules(j->state, o, j->doc, &tab);
	dp_table_free(&tab);
	err = next < 0 ? (int)next :
			 dp_state_save_rules(j->dir, DP_STATE_NEXT, j->state,
					     j->r);
	if (!err) {
		err = apply_all(j->state, &m) ?: dp_table_go(genfd, next);
		if (err)
			back_out(j->dir);
	}
	if (!err) {
		*gen = next; /* committed: the next command completes it */
		err = dp_state_commit(j->dir);
	}
	if (genfd >= 0)
		close(genfd);
	dcb_map_free(&m);
	if (err == -EFBIG)
		return dp_state_save_err(o, j->dir, err);
	if (err) {
		if (*gen < 0)
			p_err("%s: %s", j->dir, strerror(-err));
		return EXIT_RUNTIME;
	}
	u->updated = true;
	u->generation = *gen;
	u->table = dp_counts_get(json_object_get(j->state, "table"));
	return EXIT_OK;
}

int dp_dcb_repair(const char *dir, json_t *state, bool interrupted)
{
	const char *name = json_string_value(json_object_get(state, "name"));
	struct rules *r;
	struct dcb_map m;
	int sw, err;

	if (!interrupted) /* a killed update leaves a pending record */
		return 0;
	r = dp_state_rules(dir, state);
	sw = r && name ? rules_find_switch(r, name) : -1;
	if (sw < 0) {
		p_err("%s: the attached rules cannot be read", dir);
		rules_free(r);
		return -EINVAL;
	}
	pr_warn("%s: writing generation %lld's DCB maps to every port again\n",
		dir, (long long)dp_record_gen(state));
	err = dp_dcb_map(r, sw, state, &m) ?: apply_all(state, &m);
	dcb_map_free(&m);
	rules_free(r);
	return err;
}

/* Each port's saved state put back, then the holders taken away. */
int dp_dcb_teardown(const char *dir, json_t *state)
{
	struct dcb_state s;
	struct dcb_nl d;
	char why[256];
	json_t *port, *saved;
	size_t i;
	int err = dcb_nl_open(&d), e;
	bool open = !err;

	if (err)
		p_err("DCB netlink: %s", strerror(-err));
	json_array_foreach(json_object_get(state, "ports"), i, port) {
		const char *ifname =
			json_string_value(json_object_get(port, "ifname"));

		saved = json_object_get(port, "dcb_saved");
		if (!open || !saved || !if_nametoindex(ifname ?: ""))
			continue; /* nothing changed there yet, or gone */
		e = dcb_state_from_json(saved, &s, why, sizeof(why));
		if (e)
			p_err("%s: the DCB state saved for %s: %s", dir, ifname,
			      why);
		else if ((e = dcb_port_restore(&d, ifname, &s)) < 0)
			p_err("restoring DCB on %s: %s", ifname, d.err);
		err = err ?: e < 0 ? e : 0;
	}
	if (open)
		dcb_nl_close(&d);
	e = dp_hold_teardown(dir, state);
	return err ?: e;
}

/* What the ports hold now, as read back; DCB keeps no counters per rule. */
int dp_dcb_show(const char *dir, json_t *state, json_t *j)
{
	struct tagger_port_stats none = { 0 };
	json_t *ports = json_array(), *port, *pj;
	struct dcb_state s;
	struct dcb_nl d;
	size_t i;
	int err = dcb_nl_open(&d);

	(void)dir;
	json_array_foreach(json_object_get(state, "ports"), i, port) {
		const char *ifname =
			json_string_value(json_object_get(port, "ifname"));

		pj = dp_show_port_json(port, json_array(), json_array(), &none);
		if (!err && !dcb_port_read(&d, ifname, &s))
			json_object_set_new(pj, "dcb", dcb_state_json(&s));
		else
			json_object_set_new(pj, "dcb", json_null());
		json_array_append_new(ports, pj);
	}
	if (!err)
		dcb_nl_close(&d);
	json_object_set_new(j, "ports", ports);
	return EXIT_OK;
}

/*
 * Quiet: a switch that is not attached, or whose record cannot be read,
 * is not attached with DCB as far as the caller can act on it.
 */
int dp_dcb_attached(const char *name)
{
	char dir[PATH_MAX];
	const char *path;
	json_t *st;
	int r;

	if (dp_path(dir, name, NULL) || dp_root_prepare())
		return -EINVAL;
	if (dp_root_private() && dp_anchor_sync(dir, "switch", name, NULL) < 0)
		return -EIO;
	st = dp_state_view(dir);
	if (!st)
		return errno == ENOENT ? 0 : -errno;
	path = json_string_value(json_object_get(st, "datapath"));
	r = dp_record_netns_here(st) && path && !strcmp(path, "dcb");
	json_decref(st);
	return r;
}

const struct dp_path dp_dcb_path = {
	.name = "dcb",
	.attach = dp_dcb_attach,
	.update = dp_dcb_update,
	.teardown = dp_dcb_teardown,
	.repair = dp_dcb_repair,
	.show = dp_dcb_show,
};
