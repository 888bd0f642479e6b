// SPDX-License-Identifier: GPL-2.0
/* A port's IEEE DCB settings over DCB netlink; see dcb_port.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dcb_port.h"
#include "lib/dcb_state.h"

static int got_state(const struct nlmsghdr *h, void *arg)
{
	return dcb_parse_state(h, arg) ? -EBADMSG : MNL_CB_OK;
}

int dcb_port_read(struct dcb_nl *d, const char *ifname, struct dcb_state *s)
{
	char buf[DCB_MSG_BUF];
	int r = dcb_nl_talk(d, dcb_msg_get(buf, ifname), got_state, s);

	if (r == -EBADMSG)
		snprintf(d->err, sizeof(d->err),
			 "%s: the kernel's DCB answer does not parse", ifname);
	return r;
}

static int got_status(const struct nlmsghdr *h, void *arg)
{
	*(int *)arg = dcb_parse_status(h);
	return MNL_CB_OK;
}

/*
 * A SET or DEL: the kernel ran it when it answers with a status, which
 * is the driver's (or the kernel's own table's) verdict.
 */
static int change(struct dcb_nl *d, const char *ifname, struct nlmsghdr *nlh,
		  const char *what)
{
	int st = 0, r = dcb_nl_talk(d, nlh, got_status, &st);

	if (r)
		return r;
	if (st == -EOPNOTSUPP)
		snprintf(d->err, sizeof(d->err),
			 "%s: its driver cannot set %s (%s)", ifname, what,
			 strerror(-st));
	else if (st)
		snprintf(d->err, sizeof(d->err), "%s: setting %s: %s", ifname,
			 what, strerror(-st));
	return st;
}

/* Before 6.3 a SET of the rewr table is ignored without a word: ask. */
static int need_rewr(struct dcb_nl *d, const char *ifname,
		     const struct dcb_state *s)
{
	if (s->has & DCB_HAS_REWR)
		return 0;
	snprintf(d->err, sizeof(d->err),
		 "%s: the rewr table is not supported by this kernel (it "
		 "came with Linux 6.3)",
		 ifname);
	return -EOPNOTSUPP;
}

static int lacks(struct dcb_nl *d, const char *ifname, const char *what)
{
	snprintf(d->err, sizeof(d->err), "%s: its driver reports no %s", ifname,
		 what);
	return -EOPNOTSUPP;
}

static int apps(struct dcb_nl *d, const char *ifname, int cmd, int table,
		const struct dcb_app *a, int n)
{
	char buf[DCB_MSG_BUF];
	bool rewr = table == DCB_NL_REWR_TABLE;
	const char *what = cmd == DCB_CMD_IEEE_DEL ?
				   (rewr ? "rewr entries (delete)" :
					   "app entries (delete)") :
				   (rewr ? "rewr entries" : "app entries");

	if (!n)
		return 0; /* as dcb: no request without entries */
	return change(d, ifname, dcb_msg_apps(buf, cmd, table, ifname, a, n),
		      what);
}

int dcb_port_apps(struct dcb_nl *d, const char *ifname, int cmd, int table,
		  const struct dcb_app *a, int n)
{
	struct dcb_state s;
	int r;

	if (n < 0 || n > DCB_ENTRIES_MAX ||
	    (cmd != DCB_CMD_IEEE_SET && cmd != DCB_CMD_IEEE_DEL) ||
	    (table != DCB_ATTR_IEEE_APP_TABLE && table != DCB_NL_REWR_TABLE)) {
		snprintf(d->err, sizeof(d->err), "%s: bad app request", ifname);
		return -EINVAL;
	}
	if (table == DCB_NL_REWR_TABLE) {
		r = dcb_port_read(d, ifname, &s);
		if (r || (r = need_rewr(d, ifname, &s)))
			return r;
	}
	return apps(d, ifname, cmd, table, a, n);
}

/*
 * Every change that turns now into want, adds first. PFC and the buffer
 * go back as read with want's settings in them (what dcb sends); ETS
 * keeps the port's own capability.
 */
static int apply(struct dcb_nl *d, const char *ifname,
		 const struct dcb_state *now, const struct dcb_state *want)
{
	struct dcb_plan *p = malloc(sizeof(*p));
	char buf[DCB_MSG_BUF];
	int n, r;

	if (!p)
		return -ENOMEM;
	n = dcb_plan(now, want, p);
	if (n < 0) {
		snprintf(d->err, sizeof(d->err),
			 "%s: the port no longer reports every setting saved "
			 "(%s%s%s%s)",
			 ifname,
			 want->has & ~now->has & DCB_HAS_PFC ? " pfc" : "",
			 want->has & ~now->has & DCB_HAS_ETS ? " ets" : "",
			 want->has & ~now->has & DCB_HAS_BUFFER ? " buffer" :
								  "",
			 want->has & ~now->has & DCB_HAS_REWR ? " rewr" : "");
		free(p);
		return n;
	}
	r = apps(d, ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_APP_TABLE,
		 p->app_add, p->n_app_add);
	if (!r)
		r = apps(d, ifname, DCB_CMD_IEEE_SET, DCB_NL_REWR_TABLE,
			 p->rewr_add, p->n_rewr_add);
	if (!r)
		r = apps(d, ifname, DCB_CMD_IEEE_DEL, DCB_ATTR_IEEE_APP_TABLE,
			 p->app_del, p->n_app_del);
	if (!r)
		r = apps(d, ifname, DCB_CMD_IEEE_DEL, DCB_NL_REWR_TABLE,
			 p->rewr_del, p->n_rewr_del);
	if (!r && p->pfc) {
		struct ieee_pfc pfc = now->pfc;

		pfc.pfc_en = want->pfc.pfc_en;
		pfc.mbc = want->pfc.mbc;
		pfc.delay = want->pfc.delay;
		r = change(d, ifname, dcb_msg_pfc(buf, ifname, &pfc), "PFC");
	}
	if (!r && p->ets) {
		struct ieee_ets ets = want->ets;

		ets.ets_cap = now->ets.ets_cap;
		r = change(d, ifname, dcb_msg_ets(buf, ifname, &ets), "ETS");
	}
	if (!r && p->buffer) {
		struct dcbnl_buffer b = want->buffer;

		b.total_size = now->buffer.total_size;
		r = change(d, ifname, dcb_msg_buffer(buf, ifname, &b),
			   "the buffer");
	}
	free(p);
	return r ? r : n;
}

int dcb_port_dscp(struct dcb_nl *d, const char *ifname,
		  const int8_t prio[DCB_DSCPS])
{
	struct dcb_state now, want;
	int r = dcb_port_read(d, ifname, &now), i;

	if (r)
		return r;
	want = now;
	for (i = 0; i < DCB_DSCPS; i++)
		if (prio[i] >= DCB_PRIOS) {
			snprintf(d->err, sizeof(d->err),
				 "%s: DSCP %d: priority %d is not 0..7", ifname,
				 i, prio[i]);
			return -EINVAL;
		} else if (prio[i] >= 0) {
			want.app[i] = 1u << prio[i];
		}
	r = apply(d, ifname, &now, &want);
	return r < 0 ? r : 0;
}

int dcb_port_rewr(struct dcb_nl *d, const char *ifname,
		  const int8_t dscp[DCB_PRIOS])
{
	struct dcb_state now, want;
	int r = dcb_port_read(d, ifname, &now), i;

	if (r || (r = need_rewr(d, ifname, &now)))
		return r;
	want = now;
	for (i = 0; i < DCB_PRIOS; i++)
		if (dscp[i] >= DCB_DSCPS) {
			snprintf(d->err, sizeof(d->err),
				 "%s: priority %d: DSCP %d is not 0..63",
				 ifname, i, dscp[i]);
			return -EINVAL;
		} else if (dscp[i] >= 0) {
			want.rewr[i] = 1ull << dscp[i];
		}
	r = apply(d, ifname, &now, &want);
	return r < 0 ? r : 0;
}

int dcb_port_pfc(struct dcb_nl *d, const char *ifname, uint8_t en, int delay)
{
	char buf[DCB_MSG_BUF];
	struct dcb_state s;
	int r;

	if (delay > UINT16_MAX) {
		snprintf(d->err, sizeof(d->err),
			 "%s: PFC delay %d is more than its 16 bits hold",
			 ifname, delay);
		return -ERANGE;
	}
	r = dcb_port_read(d, ifname, &s);
	if (r)
		return r;
	if (!(s.has & DCB_HAS_PFC))
		return lacks(d, ifname, "PFC");
	s.pfc.pfc_en = en;
	if (delay >= 0)
		s.pfc.delay = delay;
	return change(d, ifname, dcb_msg_pfc(buf, ifname, &s.pfc), "PFC");
}

int dcb_port_buffer(struct dcb_nl *d, const char *ifname,
		    const uint8_t *prio2buffer, const uint32_t *size)
{
	char buf[DCB_MSG_BUF];
	struct dcb_state s;
	int r, i;

	for (i = 0; prio2buffer && i < DCB_PRIOS; i++)
		if (prio2buffer[i] >= DCBX_MAX_BUFFERS) {
			snprintf(d->err, sizeof(d->err),
				 "%s: priority %d: buffer %d is not 0..7",
				 ifname, i, prio2buffer[i]);
			return -EINVAL;
		}
	r = dcb_port_read(d, ifname, &s);
	if (r)
		return r;
	if (!(s.has & DCB_HAS_BUFFER))
		return lacks(d, ifname, "buffers");
	if (prio2buffer)
		memcpy(s.buffer.prio2buffer, prio2buffer,
		       sizeof(s.buffer.prio2buffer));
	if (size)
		memcpy(s.buffer.buffer_size, size,
		       sizeof(s.buffer.buffer_size));
	return change(d, ifname, dcb_msg_buffer(buf, ifname, &s.buffer),
		      "the buffer");
}

int dcb_port_restore(struct dcb_nl *d, const char *ifname,
		     const struct dcb_state *saved)
{
	struct dcb_state now;
	int r = dcb_port_read(d, ifname, &now);

	return r ? r : apply(d, ifname, &now, saved);
}

int dcb_pfc_delay_bits(uint64_t rate_bps, uint64_t t_wire_ns, uint16_t *bits)
{
	/* Up the cable and back, rounded up: a bit short is a frame lost. */
	unsigned __int128 b =
		((unsigned __int128)2 * rate_bps * t_wire_ns + 999999999) /
		1000000000;

	if (b > UINT16_MAX)
		return -ERANGE;
	*bits = b;
	return 0;
}
