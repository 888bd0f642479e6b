// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD for the DCB tests: a device with DCB operations where there
 * is none. Neither this host nor the VM has a DCB-capable NIC, so the
 * kernel answers every DCB request for a veth or dummy with -EOPNOTSUPP;
 * this library replaces that refusal with what a DCB-capable port would
 * answer. Two ways:
 *
 * Without DCB_FAKE_STATE (tests/shell/test_dcb_vm.sh): only an RTM_GETDCB
 * is answered, always with the same port, so that `dcb pfc set` and `dcb
 * buffer set`, which read before they write, send their SET (captured by
 * nlmon, refused by the kernel in turn). The same for the tagger library,
 * which reads first too. The port: PFC capable of 8 priorities, none
 * enabled, delay 0; ETS of 8 classes; a buffer of 1 MiB; app entries DSCP
 * 26 -> 0 and EtherType 0x8906 -> 3; with DCB_FAKE=rewr also a rewr table
 * (priority 0 -> DSCP 0), as kernel 6.3+ reports it; with DCB_FAKE=ok a
 * SET or DEL the kernel refused is answered as done (status 0), so that a
 * sequence of changes (a restore) is sent to its end.
 *
 * With DCB_FAKE_STATE=FILE (tests/shell/test_dcb_path.sh): every device
 * the request names that exists is a DCB port of kernel 6.3+ whose state
 * lives in FILE, so the data path runs end to end. A request is still
 * sent to the kernel (nlmon sees it); right after the send, as the kernel
 * would, a SET or DEL changes FILE and a GET reads it, under flock(2), so
 * that concurrent processes see one device; the kernel's -EOPNOTSUPP is
 * then replaced by that answer. A process killed before its send changed
 * nothing, one killed after it changed the port. FILE, written sorted:
 *   {"IFNAME": {"app": [[selector, protocol, priority], ...],
 *               "rewr": [[selector, protocol, priority], ...],
 *               "pfc": {"cap", "en", "mbc", "delay"},
 *               "ets": "HEX of struct ieee_ets",
 *               "buffer": {"prio2buffer": [8], "size": [8], "total"}},
 *    "IFNAME2": false, ...}
 * and for the pause agent's watchdog (tests/shell/test_pfc_dcb.sh), PFC's
 * counters and a storm: "pfc" also has "requests" and "indications" (8
 * each, the PFC frames sent and received per priority); a port's
 * "storm": {"PRIO": UNTIL_MS, ...} makes every GET before UNTIL_MS
 * (CLOCK_REALTIME, in ms) count one more PAUSE received for PRIO, as a
 * peer that pauses without end (the time of the last such GET in
 * "last_pause_ms"); and a port with a "pfc_log" array gets every SET of
 * PFC that changes its enabled priorities appended there as [MS, EN].
 * A port missing from FILE starts as the port above (with the rewr
 * entry); one that is false has no DCB (the kernel's refusal passes). As
 * the kernel's own table does, a SET of an entry there already is
 * -EEXIST, a DEL of one not there -ENOENT, and a SET stops at its first
 * error; the answer's status is that error.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libmnl/libmnl.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define REWR_TABLE (DCB_ATTR_DCB_BUFFER + 2)

static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int,
			      const struct sockaddr *, socklen_t);

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

/* --- the stateful port of DCB_FAKE_STATE --- */

#define MAX_ENTRIES 1024
#define ANSWER_MAX 16384

struct port {
	struct dcb_app app[MAX_ENTRIES], rewr[MAX_ENTRIES];
	int napp, nrewr;
	struct ieee_pfc pfc;
	struct ieee_ets ets;
	struct dcbnl_buffer buf;
};

/* The answer a request sent on fd got, until the kernel's refusal comes. */
static struct pending {
	int fd;
	uint32_t seq;
	size_t len;
	char buf[ANSWER_MAX];
} pend;

static void default_port(struct port *p)
{
	memset(p, 0, sizeof(*p));
	p->pfc.pfc_cap = 8;
	p->ets.ets_cap = 8;
	p->buf.total_size = 1 << 20;
	p->app[p->napp++] =
		(struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 0, 26 };
	p->app[p->napp++] =
		(struct dcb_app){ IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3, 0x8906 };
	p->rewr[p->nrewr++] =
		(struct dcb_app){ IEEE_8021QAZ_APP_SEL_DSCP, 0, 0 };
}

static int entry_cmp(const void *a, const void *b)
{
	const struct dcb_app *x = a, *y = b;

	if (x->selector != y->selector)
		return x->selector - y->selector;
	if (x->protocol != y->protocol)
		return x->protocol - y->protocol;
	return x->priority - y->priority;
}

static json_t *entries_json(struct dcb_app *e, int n)
{
	json_t *a = json_array();
	int i;

	qsort(e, n, sizeof(*e), entry_cmp);
	for (i = 0; i < n; i++)
		json_array_append_new(a,
				      json_pack("[iii]", e[i].selector,
						e[i].protocol, e[i].priority));
	return a;
}

static int entries_from(json_t *a, struct dcb_app *e)
{
	json_t *v;
	size_t i;
	int n = 0;

	json_array_foreach(a, i, v)
		if (n < MAX_ENTRIES)
			e[n++] = (struct dcb_app){
				json_integer_value(json_array_get(v, 0)),
				json_integer_value(json_array_get(v, 2)),
				json_integer_value(json_array_get(v, 1))
			};
	return n;
}

static json_t *u32s(const uint32_t *v)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < 8; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static json_t *u64s(const __u64 *v)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < 8; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static json_t *port_json(struct port *p)
{
	uint32_t p2b[8];
	char hex[2 * sizeof(p->ets) + 1];
	size_t i;

	for (i = 0; i < 8; i++)
		p2b[i] = p->buf.prio2buffer[i];
	for (i = 0; i < sizeof(p->ets); i++)
		sprintf(hex + 2 * i, "%02x", ((unsigned char *)&p->ets)[i]);
	return json_pack(
		"{s:o, s:o, s:{s:i, s:i, s:i, s:i, s:o, s:o}, s:s, s:{s:o, s:o, "
		"s:I}}",
		"app", entries_json(p->app, p->napp), "rewr",
		entries_json(p->rewr, p->nrewr), "pfc", "cap", p->pfc.pfc_cap,
		"en", p->pfc.pfc_en, "mbc", p->pfc.mbc, "delay", p->pfc.delay,
		"requests", u64s(p->pfc.requests), "indications",
		u64s(p->pfc.indications), "ets", hex, "buffer", "prio2buffer",
		u32s(p2b), "size", u32s(p->buf.buffer_size), "total",
		(json_int_t)p->buf.total_size);
}

static void port_from(json_t *j, struct port *p)
{
	json_t *pfc = json_object_get(j, "pfc"),
	       *b = json_object_get(j, "buffer");
	const char *hex = json_string_value(json_object_get(j, "ets"));
	unsigned int x;
	size_t i;

	memset(p, 0, sizeof(*p));
	p->napp = entries_from(json_object_get(j, "app"), p->app);
	p->nrewr = entries_from(json_object_get(j, "rewr"), p->rewr);
	p->pfc.pfc_cap = json_integer_value(json_object_get(pfc, "cap"));
	p->pfc.pfc_en = json_integer_value(json_object_get(pfc, "en"));
	p->pfc.mbc = json_integer_value(json_object_get(pfc, "mbc"));
	p->pfc.delay = json_integer_value(json_object_get(pfc, "delay"));
	for (i = 0; i < 8; i++) {
		p->pfc.requests[i] = json_integer_value(
			json_array_get(json_object_get(pfc, "requests"), i));
		p->pfc.indications[i] = json_integer_value(
			json_array_get(json_object_get(pfc, "indications"), i));
	}
	for (i = 0;
	     hex && i < sizeof(p->ets) && sscanf(hex + 2 * i, "%2x", &x) == 1;
	     i++)
		((unsigned char *)&p->ets)[i] = x;
	for (i = 0; i < 8; i++) {
		p->buf.prio2buffer[i] = json_integer_value(
			json_array_get(json_object_get(b, "prio2buffer"), i));
		p->buf.buffer_size[i] = json_integer_value(
			json_array_get(json_object_get(b, "size"), i));
	}
	p->buf.total_size = json_integer_value(json_object_get(b, "total"));
}

/* FILE.lock, flock'ed: FILE itself is replaced by rename(2). */
static int state_lock(const char *file)
{
	char lock[4096];
	int fd;

	snprintf(lock, sizeof(lock), "%s.lock", file);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void state_write(const char *file, json_t *root)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	if (!json_dump_file(root, tmp, JSON_SORT_KEYS | JSON_INDENT(1)))
		rename(tmp, file);
}

/* An entry added (SET) or removed (DEL), as the kernel's own table. */
static int entry_change(struct dcb_app *e, int *n, const struct dcb_app *a,
			bool del)
{
	int i;

	for (i = 0; i < *n; i++)
		if (e[i].selector == a->selector &&
		    e[i].protocol == a->protocol &&
		    e[i].priority == a->priority)
			break;
	if (del) {
		if (i == *n)
			return -ENOENT;
		e[i] = e[--*n];
		return 0;
	}
	if (i < *n)
		return -EEXIST;
	if (*n == MAX_ENTRIES)
		return -ENOMEM;
	e[(*n)++] = *a;
	return 0;
}

static int table_change(struct port *p, const struct nlattr *tab, bool rewr,
			bool del)
{
	const struct nlattr *a;
	struct dcb_app app;
	int err = 0;

	mnl_attr_for_each_nested(a, tab)
	{
		if (mnl_attr_get_type(a) != DCB_ATTR_IEEE_APP ||
		    mnl_attr_get_payload_len(a) < sizeof(app))
			continue;
		memcpy(&app, mnl_attr_get_payload(a), sizeof(app));
		err = rewr ? entry_change(p->rewr, &p->nrewr, &app, del) :
			     entry_change(p->app, &p->napp, &app, del);
		if (err)
			break;
	}
	return err;
}

static const struct nlattr *nested(const struct nlattr *ieee, int type)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, ieee) if (mnl_attr_get_type(a) ==
					      type) return a;
	return NULL;
}

/* A SET or DEL, in the order of the kernel's dcbnl_ieee_set and _del. */
static int port_change(struct port *p, const struct nlattr *ieee, bool del)
{
	const struct nlattr *a;
	int err = 0;

	if (!del && (a = nested(ieee, DCB_ATTR_IEEE_ETS)) &&
	    mnl_attr_get_payload_len(a) >= sizeof(p->ets)) {
		__u8 cap = p->ets.ets_cap;

		memcpy(&p->ets, mnl_attr_get_payload(a), sizeof(p->ets));
		p->ets.ets_cap = cap;
	}
	if (!del && (a = nested(ieee, DCB_ATTR_IEEE_PFC)) &&
	    mnl_attr_get_payload_len(a) >= sizeof(p->pfc)) {
		const struct ieee_pfc *n = mnl_attr_get_payload(a);

		p->pfc.pfc_en = n->pfc_en;
		p->pfc.mbc = n->mbc;
		p->pfc.delay = n->delay;
	}
	if (!del && (a = nested(ieee, DCB_ATTR_DCB_BUFFER)) &&
	    mnl_attr_get_payload_len(a) >= sizeof(p->buf)) {
		const struct dcbnl_buffer *n = mnl_attr_get_payload(a);

		memcpy(p->buf.prio2buffer, n->prio2buffer,
		       sizeof(n->prio2buffer));
		memcpy(p->buf.buffer_size, n->buffer_size,
		       sizeof(n->buffer_size));
	}
	if ((a = nested(ieee, DCB_ATTR_IEEE_APP_TABLE)))
		err = table_change(p, a, false, del);
	if (!err && (a = nested(ieee, REWR_TABLE)))
		err = table_change(p, a, true, del);
	return err;
}

static void put_table(struct nlmsghdr *nlh, int type, const struct dcb_app *e,
		      int n)
{
	struct nlattr *tab = mnl_attr_nest_start(nlh, type);
	int i;

	for (i = 0; i < n; i++)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(e[i]), &e[i]);
	mnl_attr_nest_end(nlh, tab);
}

/* The GET's answer, or a SET's status, and the ACK, into pend. */
static void answer(const struct nlmsghdr *req, const char *ifname,
		   const struct port *p, int status)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(pend.buf);
	struct dcbmsg *d;
	struct nlattr *ieee;

	nlh->nlmsg_type = req->nlmsg_type;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = req->nlmsg_pid;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = ((const struct dcbmsg *)mnl_nlmsg_get_payload(req))->cmd;
	if (req->nlmsg_type == RTM_SETDCB) {
		mnl_attr_put_u8(nlh, DCB_ATTR_IEEE, (uint8_t)status);
	} else {
		mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
		ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(p->ets), &p->ets);
		mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(p->pfc), &p->pfc);
		mnl_attr_put(nlh, DCB_ATTR_DCB_BUFFER, sizeof(p->buf), &p->buf);
		put_table(nlh, DCB_ATTR_IEEE_APP_TABLE, p->app, p->napp);
		put_table(nlh, REWR_TABLE, p->rewr, p->nrewr);
		mnl_attr_nest_end(nlh, ieee);
	}
	pend.len = ack(pend.buf, nlh->nlmsg_len, req);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/*
 * A GET during a storm: one more PAUSE received for each PRIO in it.
 * Whether one was: its time goes into the port's "last_pause_ms".
 */
static bool storm(struct port *p, json_t *st)
{
	bool any = false;
	const char *k;
	json_t *v;
	int prio;

	json_object_foreach(st, k, v) {
		prio = atoi(k);
		if (prio >= 0 && prio < 8 && now_ms() < json_integer_value(v)) {
			p->pfc.indications[prio]++;
			any = true;
		}
	}
	return any;
}

/*
 * The simulation's keys, carried from the old object was to the new one
 * now; changed: the port whose enabled priorities a SET just changed.
 */
static void sim(json_t *now, json_t *was, const struct port *changed)
{
	json_t *log = json_object_get(was, "pfc_log");

	if (json_object_get(was, "storm"))
		json_object_set(now, "storm", json_object_get(was, "storm"));
	if (json_object_get(was, "last_pause_ms"))
		json_object_set(now, "last_pause_ms",
				json_object_get(was, "last_pause_ms"));
	if (!log)
		return;
	log = json_copy(log);
	if (changed)
		json_array_append_new(
			log, json_pack("[Ii]", now_ms(), changed->pfc.pfc_en));
	json_object_set_new(now, "pfc_log", log);
}

/*
 * A DCB request just sent on fd: run it on FILE's port, as the kernel
 * would have run it for a device with DCB operations.
 */
static void run_request(int fd, const void *buf, size_t len)
{
	static struct port p;
	const char *file = getenv("DCB_FAKE_STATE");
	const struct nlmsghdr *nlh = buf;
	const struct dcbmsg *d;
	const struct nlattr *a, *ieee = NULL;
	const char *ifname = NULL;
	int dom = 0, lock, status = 0;
	socklen_t dl = sizeof(dom);
	json_error_t jerr;
	json_t *root, *j, *pj;
	bool paused = false;
	__u8 en;

	if (len < NLMSG_HDRLEN + sizeof(*d) || nlh->nlmsg_len > len ||
	    (nlh->nlmsg_type != RTM_GETDCB && nlh->nlmsg_type != RTM_SETDCB) ||
	    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &dl) ||
	    dom != AF_NETLINK)
		return;
	d = mnl_nlmsg_get_payload(nlh);
	if (d->cmd != DCB_CMD_IEEE_GET && d->cmd != DCB_CMD_IEEE_SET &&
	    d->cmd != DCB_CMD_IEEE_DEL)
		return;
	mnl_attr_for_each(a, nlh, sizeof(*d))
	{
		if (mnl_attr_get_type(a) == DCB_ATTR_IFNAME &&
		    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
			ifname = mnl_attr_get_str(a);
		if (mnl_attr_get_type(a) == DCB_ATTR_IEEE)
			ieee = a;
	}
	if (!ifname || !if_nametoindex(ifname))
		return; /* the kernel's -ENODEV stands */
	lock = state_lock(file);
	if (lock < 0)
		return;
	root = json_load_file(file, 0, &jerr);
	if (!root && !access(file, F_OK)) {
		fprintf(stderr, "dcb_fake: %s:%d: %s\n", file, jerr.line,
			jerr.text);
		close(lock);
		return; /* the kernel's refusal stands */
	}
	root = root ?: json_object();
	j = json_object_get(root, ifname);
	if (json_is_false(j))
		goto out; /* no DCB: the kernel's refusal stands */
	if (j)
		port_from(j, &p);
	else
		default_port(&p);
	en = p.pfc.pfc_en;
	if (d->cmd != DCB_CMD_IEEE_GET && ieee)
		status = port_change(&p, ieee, d->cmd == DCB_CMD_IEEE_DEL);
	else if (d->cmd == DCB_CMD_IEEE_GET)
		paused = storm(&p, json_object_get(j, "storm"));
	pj = port_json(&p);
	sim(pj, j, en != p.pfc.pfc_en ? &p : NULL);
	if (paused)
		json_object_set_new(pj, "last_pause_ms",
				    json_integer(now_ms()));
	json_object_set_new(root, ifname, pj);
	state_write(file, root);
	pend.fd = fd;
	pend.seq = nlh->nlmsg_seq;
	answer(nlh, ifname, &p, status);
out:
	json_decref(root);
	close(lock);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *to, socklen_t tolen)
{
	ssize_t n;

	if (!real_sendto)
		real_sendto = (ssize_t(*)(int, const void *, size_t, int,
					  const struct sockaddr *,
					  socklen_t))dlsym(RTLD_NEXT, "sendto");
	n = real_sendto(fd, buf, len, flags, to, tolen);
	if (n >= 0 && getenv("DCB_FAKE_STATE"))
		run_request(fd, buf, len);
	return n;
}

/* The kernel refused what the port of FILE answered: its answer instead. */
static ssize_t stateful(struct msghdr *m, ssize_t n, int fd)
{
	const struct nlmsghdr *h = m->msg_iov[0].iov_base;
	const struct nlmsgerr *e = NLMSG_DATA(h);

	if (h->nlmsg_type != NLMSG_ERROR || e->error != -EOPNOTSUPP ||
	    !pend.len || pend.fd != fd || pend.seq != e->msg.nlmsg_seq ||
	    m->msg_iov[0].iov_len < pend.len)
		return n;
	memcpy(m->msg_iov[0].iov_base, pend.buf, pend.len);
	n = pend.len;
	pend.len = 0;
	return n;
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
	if (getenv("DCB_FAKE_STATE"))
		return stateful(m, n, fd);
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
