/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bytes of DCB netlink (RTM_GETDCB, RTM_SETDCB with the IEEE commands)
 * and the reading of the kernel's answers, without a socket: what
 * iproute2's `dcb` sends, attribute for attribute, so that a port set up by
 * tagger and one set up by hand are told the same thing.
 *
 * Every request asks for an ACK, as dcb's do (NLM_F_REQUEST | NLM_F_ACK):
 * the kernel answers a DCB command with a message of its own (the GET's
 * state, or a SET's status in a u8 DCB_ATTR_IEEE: the driver's verdict)
 * and then the ACK; with an NLMSG_ERROR alone when it refused before the
 * command ran (no device, no DCB operations, no CAP_NET_ADMIN). An IEEE
 * request names its device by DCB_ATTR_IFNAME (DCB has no ifindex) and
 * carries one DCB_ATTR_IEEE nest:
 *   GET                    nothing
 *   SET, DEL app entries   DCB_ATTR_IEEE_APP_TABLE { DCB_ATTR_IEEE_APP... }
 *   SET, DEL rewr entries  DCB_ATTR_DCB_REWR_TABLE { DCB_ATTR_IEEE_APP... }
 *   SET PFC                DCB_ATTR_IEEE_PFC (struct ieee_pfc)
 *   SET ETS                DCB_ATTR_IEEE_ETS (struct ieee_ets)
 *   SET buffer             DCB_ATTR_DCB_BUFFER (struct dcbnl_buffer)
 * A port's state as one struct: DSCP app entries (the table is a
 * multimap: a DSCP may map to several priorities, the driver picks) as a
 * priority bitmap per DSCP, rewr entries (priority -> DSCP, kernel 6.3+)
 * as a DSCP bitmap per priority; entries of other selectors are counted
 * and never touched.
 *
 * API:
 *   dcb_msg(buf, type, cmd, ifname)      a request's header, dcbmsg and
 *                                        DCB_ATTR_IFNAME in buf
 *                                        (DCB_MSG_BUF bytes)
 *   dcb_msg_get(buf, ifname)             the IEEE GET of every setting
 *   dcb_msg_apps(buf, cmd, table, ifname, apps, n)
 *                                        SET or DEL of n entries of the
 *                                        app or rewr table
 *   dcb_msg_pfc(buf, ifname, pfc)        SET of PFC
 *   dcb_msg_ets(buf, ifname, ets)        SET of ETS
 *   dcb_msg_buffer(buf, ifname, b)       SET of the buffer
 *   dcb_msg_whole(h, n)                  h is a whole message of the n
 *                                        bytes read, its padding too (the
 *                                        kernel's messages carry theirs,
 *                                        and libmnl walks attributes up to
 *                                        the padded end): true or false
 *   (the readers take a whole message, as dcb_msg_whole says)
 *   dcb_parse_state(nlh, s)              a GET answer into s: 0, -EINVAL
 *   dcb_parse_status(nlh)                a SET or DEL answer: 0 or the
 *                                        driver's -errno; -EINVAL if it
 *                                        has no status
 *   dcb_state_apps(s, table, apps, max)  the DSCP entries of s's app or
 *                                        rewr table as struct dcb_app:
 *                                        how many
 */
#ifndef __TAGGER_DCB_MSG_H
#define __TAGGER_DCB_MSG_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>

/*
 * Kernel 6.3 added the rewrite table after DCB_ATTR_DCB_BUFFER (and the
 * trust table between): Debian 12's uapi headers end at the buffer. Named
 * apart from the kernel's enum so that newer headers do not clash.
 */
#define DCB_NL_TRUST_TABLE (DCB_ATTR_DCB_BUFFER + 1)
#define DCB_NL_REWR_TABLE (DCB_ATTR_DCB_BUFFER + 2)
#define DCB_NL_APP_PCP 2 /* DCB_ATTR_DCB_APP: the PCP selector's entries */

#define DCB_PRIOS 8
#define DCB_DSCPS 64
#define DCB_ENTRIES_MAX (DCB_PRIOS * DCB_DSCPS)
/* A request of DCB_ENTRIES_MAX entries (8 bytes each) and its headers. */
#define DCB_MSG_BUF 8192

/* What a GET answer had beside the app table. */
enum {
	DCB_HAS_PFC = 1 << 0,
	DCB_HAS_ETS = 1 << 1,
	DCB_HAS_BUFFER = 1 << 2,
	DCB_HAS_REWR = 1 << 3, /* the kernel has the rewr table (6.3+) */
};

struct dcb_state {
	char ifname[IF_NAMESIZE];
	unsigned int has; /* DCB_HAS_* */
	struct ieee_pfc pfc; /* as read: a SET sends it back modified */
	struct ieee_ets ets;
	struct dcbnl_buffer buffer;
	uint8_t app[DCB_DSCPS]; /* bit p of app[d]: DSCP d -> priority p */
	uint64_t rewr[DCB_PRIOS]; /* bit d of rewr[p]: priority p -> DSCP d */
	int app_other; /* entries of other selectors (kept as they are) */
	int rewr_other;
};

struct nlmsghdr *dcb_msg(char *buf, int type, int cmd, const char *ifname);
struct nlmsghdr *dcb_msg_get(char *buf, const char *ifname);
struct nlmsghdr *dcb_msg_apps(char *buf, int cmd, int table, const char *ifname,
			      const struct dcb_app *apps, int n);
struct nlmsghdr *dcb_msg_pfc(char *buf, const char *ifname,
			     const struct ieee_pfc *pfc);
struct nlmsghdr *dcb_msg_ets(char *buf, const char *ifname,
			     const struct ieee_ets *ets);
struct nlmsghdr *dcb_msg_buffer(char *buf, const char *ifname,
				const struct dcbnl_buffer *b);
bool dcb_msg_whole(const struct nlmsghdr *h, int n);
int dcb_parse_state(const struct nlmsghdr *nlh, struct dcb_state *s);
int dcb_parse_status(const struct nlmsghdr *nlh);
int dcb_state_apps(const struct dcb_state *s, int table, struct dcb_app *apps,
		   int max);

#endif /* __TAGGER_DCB_MSG_H */
