// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD for tests/shell/test_dcb_vm.sh: a device with DCB operations
 * where there is none. The VM has no DCB-capable NIC, so the kernel
 * answers every DCB request with -EOPNOTSUPP; `dcb pfc set` and `dcb
 * buffer set` read the port before they write, and stop at that refusal
 * without sending their SET. This library turns the kernel's refusal of an
 * RTM_GETDCB (and only that) into the answer a DCB-capable port would
 * give, so that the SET after it is sent (and captured by nlmon, and
 * refused by the kernel in turn). The same for the tagger library, which
 * reads first too.
 *
 * The port it pretends: PFC capable of 8 priorities, none enabled, delay
 * 0; ETS of 8 classes; a buffer of 1 MiB; app entries DSCP 26 -> 0 and
 * EtherType 0x8906 -> 3; with DCB_FAKE=rewr also a rewr table (priority
 * 0 -> DSCP 0), as kernel 6.3+ reports it; with DCB_FAKE=ok a SET or DEL
 * the kernel refused is answered as done (status 0), so that a sequence
 * of changes (a restore) is sent to its end.
 */
#include <dlfcn.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define REWR_TABLE (DCB_ATTR_DCB_BUFFER + 2)

static ssize_t (*real_recvmsg)(int, struct msghdr *, int);

static void put_app(struct nlmsghdr *nlh, int sel, int prio, int proto)
{
	struct dcb_app a = { .selector = sel,
			     .priority = prio,
			     .protocol = proto };

	mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(a), &a);
}

/*
 * The ACK a request that asked for one gets after its answer (the
 * kernel's refusal it replaces was both).
 */
static size_t ack(char *buf, size_t at, const struct nlmsghdr *req)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	if (!(req->nlmsg_flags & NLM_F_ACK))
		return at;
	nlh = mnl_nlmsg_put_header(buf + at);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = req->nlmsg_pid;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = 0;
	e->msg = *req;
	return at + nlh->nlmsg_len;
}

static ssize_t fake(char *buf, const struct nlmsgerr *e)
{
	struct ieee_pfc pfc = { .pfc_cap = 8 };
	struct ieee_ets ets = { .ets_cap = 8 };
	struct dcbnl_buffer b = { .total_size = 1 << 20 };
	const char *env = getenv("DCB_FAKE");
	struct nlmsghdr req = e->msg, *nlh;
	struct nlattr *ieee, *tab;
	struct dcbmsg *d;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_seq = req.nlmsg_seq;
	nlh->nlmsg_pid = req.nlmsg_pid;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "fake");
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	mnl_attr_put(nlh, DCB_ATTR_DCB_BUFFER, sizeof(b), &b);
	tab = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	put_app(nlh, IEEE_8021QAZ_APP_SEL_DSCP, 0, 26);
	put_app(nlh, IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3, 0x8906);
	mnl_attr_nest_end(nlh, tab);
	if (env && strstr(env, "rewr")) {
		tab = mnl_attr_nest_start(nlh, REWR_TABLE);
		put_app(nlh, IEEE_8021QAZ_APP_SEL_DSCP, 0, 0);
		mnl_attr_nest_end(nlh, tab);
	}
	mnl_attr_nest_end(nlh, ieee);
	return ack(buf, nlh->nlmsg_len, &req);
}

/* The status a SET or DEL of a DCB-capable port is answered with. */
static ssize_t done(char *buf, const struct nlmsgerr *e)
{
	struct nlmsghdr req = e->msg, *nlh = mnl_nlmsg_put_header(buf);
	struct dcbmsg *d;

	nlh->nlmsg_type = RTM_SETDCB;
	nlh->nlmsg_seq = req.nlmsg_seq;
	nlh->nlmsg_pid = req.nlmsg_pid;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = DCB_CMD_IEEE_SET;
	mnl_attr_put_u8(nlh, DCB_ATTR_IEEE, 0);
	return ack(buf, nlh->nlmsg_len, &req);
}

ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	const struct nlmsghdr *h;
	const struct nlmsgerr *e;
	ssize_t n;

	if (!real_recvmsg)
		real_recvmsg = (ssize_t(*)(int, struct msghdr *, int))dlsym(
			RTLD_NEXT, "recvmsg");
	n = real_recvmsg(fd, m, flags);
	if (n < (ssize_t)(NLMSG_HDRLEN + sizeof(*e)) || m->msg_iovlen != 1 ||
	    m->msg_iov[0].iov_len < 1024)
		return n;
	h = m->msg_iov[0].iov_base;
	e = NLMSG_DATA(h);
	if (h->nlmsg_type != NLMSG_ERROR || e->error != -EOPNOTSUPP)
		return n;
	if (e->msg.nlmsg_type == RTM_GETDCB)
		return fake(m->msg_iov[0].iov_base, e);
	if (e->msg.nlmsg_type == RTM_SETDCB && getenv("DCB_FAKE") &&
	    strstr(getenv("DCB_FAKE"), "ok"))
		return done(m->msg_iov[0].iov_base, e);
	return n;
}
