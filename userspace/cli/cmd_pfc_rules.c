// SPDX-License-Identifier: GPL-2.0
/*
 * tagger pfc agent ... --backend dcb --rules RULES [--switch NAME]: each
 * port's DCB maps from a switch's compiled rules (model/dcb_map.h, the
 * same form and refusals as `tagger switch attach --datapath dcb`), into
 * the agent's configuration; see cmd_pfc.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_pfc.h"
#include "dataplane/dp_dcb.h"
#include "lib/log.h"
#include "model/dcb_map.h"
#include "model/rules.h"
#include "model/rules_bin.h"
#include "pfc/pfc_config.h"

/* Every rule DCB cannot express, named; EXIT_USAGE if any. */
static int refused(const struct dcb_map *m, const char *sw)
{
	dcb_map_report(m);
	p_err("--rules: switch %s: %d rules cannot run on DCB (tagger switch "
	      "check %s RULES --datapath dcb lists them): the agent did not "
	      "start",
	      sw, m->nproblems, sw);
	return EXIT_USAGE;
}

/* The agent's ports by the rules' port names; the maps of each. */
static int fill(struct pfc_config *c, const struct rules *r, int sw,
		const struct dcb_map *m)
{
	uint8_t any = 0;
	int i, p, q;

	for (i = 0; i < c->nports; i++) {
		p = rules_find_port(r, sw, c->ports[i].name);
		if (p < 0) {
			p_err("--rules: switch %s of %s has no port \"%s\" (the "
			      "agent's PORT names a port of the rules)",
			      c->dcb_switch, c->dcb_rules_file,
			      c->ports[i].name);
			return EXIT_USAGE;
		}
		memcpy(c->dcb_app[i], &m->app[p * RULES_NTAGS], RULES_NTAGS);
		for (q = 0; q < PFC_PRIOS; q++)
			c->dcb_rewr[i][q] =
				m->rewr_set[p] >> q & 1 ?
					(int8_t)m->rewr[p * RULES_NPRIOS + q] :
					-1;
		c->dcb_pfc[i] = m->pfc[p];
		any |= m->pfc[p];
	}
	/* The watchdog watches the priorities the rules make lossless. */
	c->lossless_mask = any;
	c->dcb_rules = true;
	return EXIT_OK;
}

int pfc_rules_maps(struct pfc_config *c)
{
	const char *file = c->dcb_rules_file;
	struct dcb_map m = { 0 };
	json_t *doc = NULL;
	struct rules *r;
	int sw, ret;

	if (!c->dcb_switch)
		c->dcb_switch = c->node;
	if (c->backend != PFC_BACKEND_DCB) {
		p_err("--rules: needs --backend dcb (the software backends "
		      "classify by --dscp-map)");
		return EXIT_USAGE;
	}
	log_libbpf(); /* the search for the switch's record: at -v */
	ret = dp_dcb_attached(c->dcb_switch);
	if (ret > 0) {
		p_err("--rules: switch %s is attached with --datapath dcb: that "
		      "data path programs its ports' app, rewr and PFC already, "
		      "and the agent would write over them (run the agent "
		      "without --backend dcb, or detach the switch)",
		      c->dcb_switch);
		return EXIT_USAGE;
	}
	if (ret < 0)
		pr_warn("--rules: whether switch %s is attached cannot be told "
			"(%s)\n",
			c->dcb_switch, strerror(-ret));
	r = rules_bin_is(file) ? rules_bin_load(file, &doc) :
				 rules_load(file, &doc);
	if (!r)
		return EXIT_USAGE;
	sw = rules_find_switch(r, c->dcb_switch);
	if (sw < 0) {
		p_err("%s: no switch \"%s\"", file, c->dcb_switch);
		ret = EXIT_USAGE;
	} else if (dp_dcb_map(r, sw, doc, &m)) {
		ret = EXIT_USAGE; /* p_err'd */
	} else if (m.nproblems) {
		ret = refused(&m, c->dcb_switch);
	} else {
		ret = fill(c, r, sw, &m);
	}
	dcb_map_free(&m);
	rules_free(r);
	json_decref(doc);
	return ret;
}
