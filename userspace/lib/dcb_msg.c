// SPDX-License-Identifier: GPL-2.0
/* DCB netlink requests and answers, without a socket; see dcb_msg.h. */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "lib/dcb_msg.h"

_Static_assert(sizeof(struct dcb_app) == 4, "struct dcb_app is 4 bytes");
_Static_assert(DCB_NL_REWR_TABLE == 12, "the rewr table is attribute 12");

struct nlmsghdr *dcb_msg(char *buf, int type, int cmd, const char *ifname)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct dcbmsg *d;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	return nlh;
}

struct nlmsghdr *dcb_msg_get(char *buf, const char *ifname)
{
	return dcb_msg(buf, RTM_GETDCB, DCB_CMD_IEEE_GET, ifname);
}

struct nlmsghdr *dcb_msg_apps(char *buf, int cmd, int table, const char *ifname,
			      const struct dcb_app *apps, int n)
{
	struct nlmsghdr *nlh = dcb_msg(buf, RTM_SETDCB, cmd, ifname);
	struct nlattr *ieee, *tab;
	int i;

	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	tab = mnl_attr_nest_start(nlh, table);
	for (i = 0; i < n; i++)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(apps[i]), &apps[i]);
	mnl_attr_nest_end(nlh, tab);
	mnl_attr_nest_end(nlh, ieee);
	return nlh;
}

static struct nlmsghdr *set_one(char *buf, const char *ifname, int attr,
				size_t len, const void *data)
{
	struct nlmsghdr *nlh =
		dcb_msg(buf, RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
	struct nlattr *ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);

	mnl_attr_put(nlh, attr, len, data);
	mnl_attr_nest_end(nlh, ieee);
	return nlh;
}

struct nlmsghdr *dcb_msg_pfc(char *buf, const char *ifname,
			     const struct ieee_pfc *pfc)
{
	return set_one(buf, ifname, DCB_ATTR_IEEE_PFC, sizeof(*pfc), pfc);
}

struct nlmsghdr *dcb_msg_ets(char *buf, const char *ifname,
			     const struct ieee_ets *ets)
{
	return set_one(buf, ifname, DCB_ATTR_IEEE_ETS, sizeof(*ets), ets);
}

struct nlmsghdr *dcb_msg_buffer(char *buf, const char *ifname,
				const struct dcbnl_buffer *b)
{
	return set_one(buf, ifname, DCB_ATTR_DCB_BUFFER, sizeof(*b), b);
}

struct parse {
	struct dcb_state *s;
	bool rewr;
};

/*
 * One entry of the app or rewr table. Only DSCP entries whose numbers
 * fit are ours; the rest (EtherType, ports, PCP, or values out of range
 * from some driver) are counted and left alone.
 */
static int entry(const struct nlattr *a, void *data)
{
	struct parse *p = data;
	struct dcb_app app;
	bool dscp;

	if (mnl_attr_get_payload_len(a) < sizeof(app))
		return MNL_CB_ERROR;
	memcpy(&app, mnl_attr_get_payload(a), sizeof(app));
	dscp = mnl_attr_get_type(a) == DCB_ATTR_IEEE_APP &&
	       app.selector == IEEE_8021QAZ_APP_SEL_DSCP &&
	       app.protocol < DCB_DSCPS && app.priority < DCB_PRIOS;
	if (!dscp)
		(*(p->rewr ? &p->s->rewr_other : &p->s->app_other))++;
	else if (p->rewr)
		p->s->rewr[app.priority] |= 1ull << app.protocol;
	else
		p->s->app[app.protocol] |= 1u << app.priority;
	return MNL_CB_OK;
}

static int copy(const struct nlattr *a, void *to, size_t len)
{
	/* Longer is a later kernel's extension of the struct; shorter is not
	 * the struct. */
	if (mnl_attr_get_payload_len(a) < len)
		return MNL_CB_ERROR;
	memcpy(to, mnl_attr_get_payload(a), len);
	return MNL_CB_OK;
}

static int ieee_attr(const struct nlattr *a, void *data)
{
	struct parse *p = data;
	struct dcb_state *s = p->s;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_PFC:
		s->has |= DCB_HAS_PFC;
		return copy(a, &s->pfc, sizeof(s->pfc));
	case DCB_ATTR_IEEE_ETS:
		s->has |= DCB_HAS_ETS;
		return copy(a, &s->ets, sizeof(s->ets));
	case DCB_ATTR_DCB_BUFFER:
		s->has |= DCB_HAS_BUFFER;
		return copy(a, &s->buffer, sizeof(s->buffer));
	case DCB_ATTR_IEEE_APP_TABLE:
		p->rewr = false;
		return mnl_attr_parse_nested(a, entry, p);
	case DCB_NL_REWR_TABLE:
		s->has |= DCB_HAS_REWR;
		p->rewr = true;
		return mnl_attr_parse_nested(a, entry, p);
	}
	return MNL_CB_OK;
}

static int top_attr(const struct nlattr *a, void *data)
{
	struct parse *p = data;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IFNAME:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0 ||
		    mnl_attr_get_payload_len(a) > sizeof(p->s->ifname))
			return MNL_CB_ERROR;
		strcpy(p->s->ifname, mnl_attr_get_str(a));
		return MNL_CB_OK;
	case DCB_ATTR_IEEE:
		return mnl_attr_parse_nested(a, ieee_attr, p);
	}
	return MNL_CB_OK;
}

static const struct dcbmsg *dcb_hdr(const struct nlmsghdr *nlh, int type)
{
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(struct dcbmsg) ||
	    nlh->nlmsg_type != type)
		return NULL;
	return mnl_nlmsg_get_payload(nlh);
}

/*
 * mnl_nlmsg_ok() takes a length of 2^32 - 1 for -1, and checks nlmsg_len
 * unpadded while mnl_attr_parse() walks to the padded end: an attribute
 * may reach up to 3 bytes past nlmsg_len (found by fuzz_dcb_answer).
 */
bool dcb_msg_whole(const struct nlmsghdr *h, int n)
{
	return n > 0 && mnl_nlmsg_ok(h, n) &&
	       MNL_ALIGN((size_t)h->nlmsg_len) <= (size_t)n;
}

int dcb_parse_state(const struct nlmsghdr *nlh, struct dcb_state *s)
{
	const struct dcbmsg *d = dcb_hdr(nlh, RTM_GETDCB);
	struct parse p = { .s = s };

	memset(s, 0, sizeof(*s));
	if (!d || d->cmd != DCB_CMD_IEEE_GET)
		return -EINVAL;
	if (mnl_attr_parse(nlh, sizeof(*d), top_attr, &p) != MNL_CB_OK) {
		memset(s, 0, sizeof(*s));
		return -EINVAL;
	}
	return 0;
}

struct status {
	int err;
	bool seen;
};

static int status_attr(const struct nlattr *a, void *data)
{
	struct status *st = data;
	int8_t v;

	if (mnl_attr_get_type(a) != DCB_ATTR_IEEE)
		return MNL_CB_OK;
	if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
		return MNL_CB_ERROR;
	/* The kernel stores its int error in this u8: -95 arrives as 161. */
	v = (int8_t)mnl_attr_get_u8(a);
	st->err = v < 0 ? v : -v;
	st->seen = true;
	return MNL_CB_STOP;
}

int dcb_parse_status(const struct nlmsghdr *nlh)
{
	const struct dcbmsg *d = dcb_hdr(nlh, RTM_SETDCB);
	struct status st = { 0 };

	if (!d || mnl_attr_parse(nlh, sizeof(*d), status_attr, &st) < 0 ||
	    !st.seen)
		return -EINVAL;
	return st.err;
}

int dcb_state_apps(const struct dcb_state *s, int table, struct dcb_app *apps,
		   int max)
{
	int n = 0, d, p;

	for (d = 0; d < DCB_DSCPS; d++)
		for (p = 0; p < DCB_PRIOS; p++) {
			bool on = table == DCB_NL_REWR_TABLE ?
					  s->rewr[p] >> d & 1 :
					  s->app[d] >> p & 1;

			if (!on || n >= max)
				continue;
			apps[n++] = (struct dcb_app){
				.selector = IEEE_8021QAZ_APP_SEL_DSCP,
				.priority = p,
				.protocol = d,
			};
		}
	return n;
}
