// SPDX-License-Identifier: GPL-2.0
/* Per-queue watchdog settings; see pfc_wd_config.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "pfc/pfc_wd_config.h"

int pfc_wd_parse_action(const char *s, enum pfc_wd_action *action)
{
	static const struct {
		const char *name;
		enum pfc_wd_action a;
	} names[] = { { "alert", PFC_WD_ALERT },
		      { "forward", PFC_WD_FORWARD },
		      { "drop", PFC_WD_DROP },
		      { "report", PFC_WD_ALERT },
		      { "ignore", PFC_WD_FORWARD } };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i].name)) {
			*action = names[i].a;
			return 0;
		}
	}
	return -1;
}

/* A port of the node by its name, or -1. */
static int port_of(const struct pfc_config *c, const char *name)
{
	int i;

	for (i = 0; i < c->nports; i++)
		if (!strcmp(c->ports[i].name, name))
			return i;
	return -1;
}

/* A time in milliseconds, 1 to PFC_WD_MAX_MS. */
static int ms_of(const char *s, uint32_t *ms)
{
	unsigned long v;

	if (!parse_uint(s, PFC_WD_MAX_MS, &v) || !v)
		return -1;
	*ms = v;
	return 0;
}

/* One spec into c->wd[][]; NULL, or what is wrong with it. */
static const char *apply(struct pfc_config *c, char *spec)
{
	char *f[5], *save = NULL, *t;
	enum pfc_wd_action action;
	struct pfc_wd_cfg w = { .set = 1 };
	unsigned long prio;
	int n = 0, port, i;

	for (t = strtok_r(spec, ":", &save); t && n < 5;
	     t = strtok_r(NULL, ":", &save))
		f[n++] = t;
	if (n != 5 || t)
		return "needs PORT:PRIO:DETECT_MS:RESTORE_MS:ACTION";
	port = strcmp(f[0], "*") ? port_of(c, f[0]) : -1;
	if (strcmp(f[0], "*") && port < 0)
		return "no such port of the node";
	if (!parse_uint(f[1], PFC_PRIOS - 1, &prio))
		return "bad priority (0-7)";
	if (!((c->lossless_mask >> prio) & 1))
		return "the priority is not lossless (--lossless)";
	if (ms_of(f[2], &w.detect_ms))
		return "bad detection time (1-3600000 ms)";
	if (ms_of(f[3], &w.restore_ms))
		return "bad restoration time (1-3600000 ms)";
	if (pfc_wd_parse_action(f[4], &action))
		return "bad action (alert, forward or drop)";
	w.action = action;
	for (i = 0; i < c->nports; i++)
		if (port < 0 || i == port)
			c->wd[i][prio] = w;
	return NULL;
}

int pfc_wd_specs_apply(struct pfc_config *c, char *why, size_t len)
{
	const char *err;
	char *dup;
	int i;

	for (i = 0; i < c->wd_nspecs; i++) {
		dup = xstrdup(c->wd_spec[i]);
		err = apply(c, dup);
		free(dup);
		if (err) {
			snprintf(why, len, "--watchdog %s: %s", c->wd_spec[i],
				 err);
			return -1;
		}
	}
	return 0;
}

struct pfc_wd_cfg pfc_wd_of(const struct pfc_config *c, int port, int prio)
{
	struct pfc_wd_cfg d = { c->wd_detect_ms, c->wd_restore_ms, c->wd_action,
				0 };

	return c->wd[port][prio].set ? c->wd[port][prio] : d;
}

uint32_t pfc_wd_tick_ms(const struct pfc_config *c)
{
	uint32_t ms = c->wd_detect_ms;
	int port, p;

	for (port = 0; port < c->nports; port++)
		for (p = 0; p < PFC_PRIOS; p++)
			if (((c->lossless_mask >> p) & 1) &&
			    c->wd[port][p].set && c->wd[port][p].detect_ms < ms)
				ms = c->wd[port][p].detect_ms;
	return ms;
}
