/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch's rules as ordered match-action filter lists, one list per port
 * and direction, in the shape tc flower (and a switch ASIC's ACL stages)
 * can run: match on the DSCP, the ingress port and whether the packet is
 * group addressed; act by setting the skb priority and mark, rewriting
 * the DSCP (ECN kept) and counting under a lossy reason. The first match
 * of a chain answers; a filter may go to another chain.
 *
 * The packet's answer equals the eBPF data plane's (bpf/tagger_port.bpf.c)
 * with one difference in where the lossy tag is written: a packet that is
 * not lossless at its in-port leaves the ingress list already carrying
 * the lossy tag, instead of getting it at egress. The tag it leaves the
 * switch with is the same; what differs is only what a local receiver
 * on the switch itself would see. That choice is what lets egress trust
 * the tag: a lossless tag there was classified lossless at ingress, so
 * an egress rule needs no mark from ingress (ASIC pipelines carry none),
 * and a packet caught between two generations of the table gets all of
 * its answer from one of them (see Documentation/running-on-a-switch.md).
 *
 * Ingress of port in, chain FLOWER_MAIN:
 *   behind two VLAN tags        -> lossy priority, DSCP kept; BAD_HEADER
 *   group addressed             -> goto FLOWER_GROUP
 *   dscp t, lossless at in      -> priority prio(t), mark lossless
 *   dscp = lossy tag            -> lossy priority (arrived lossy)
 *   any IP                      -> lossy tag and priority; NO_CLASSIFY
 * chain FLOWER_GROUP: dscp t lossless at in -> lossy; MULTICAST, the lossy
 *   tag -> lossy, anything else -> lossy; NO_CLASSIFY.
 * Egress of port out, chain FLOWER_MAIN:
 *   behind two VLAN tags        -> lossy priority, DSCP kept
 *   indev p, for each port p    -> goto FLOWER_REWRITE
 *   any IP                      -> lossy tag and priority; UNCLASSIFIED
 * chain FLOWER_REWRITE: group addressed -> lossy; one filter per (in, tag)
 *   rewrite, or one per tag without indev where every in-port answers
 *   alike; the lossy tag -> lossy priority; any IP -> lossy; NO_REWRITE.
 * A rewrite filter exists only for an (in, tag) that ingress classifies
 * lossless, so egress answers right even if it matched the DSCP a packet
 * arrived with rather than the one ingress wrote.
 *
 * API:
 *   flower_port_build(r, sw, port, &fp)   both lists of one port; -ENOMEM
 *   flower_port_free(&fp)
 *   flower_eval(list, pkt, &verdict)      the answer of a list for pkt:
 *                                         the matching filter's index,
 *                                         -1 when none (not IP)
 *   flower_list_entries(list)             tc filters the list takes once
 *                                         each family and VLAN encapsulation
 *                                         has its own
 */
#ifndef __TAGGER_FLOWER_TABLE_H
#define __TAGGER_FLOWER_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/rules.h"

#define FLOWER_ANY (-1) /* a dscp or indev not matched */
#define FLOWER_NO_REASON (-1)
/*
 * IPv4 and IPv6, each untagged and behind one 802.1Q tag. Behind two tags
 * (QinQ, 802.1ad) flower finds no IP header that pedit can write: such
 * packets get one filter per direction that makes them lossy and keeps
 * their DSCP (a qinq filter), and count as bad headers at ingress.
 */
#define FLOWER_FAMILIES 2
#define FLOWER_ENCAPS 2
/* eth I/G, and per family IPv4 224/4 and 255.255.255.255, IPv6 ff00::/8 */
#define FLOWER_GROUP_KEYS 4

enum flower_chain {
	FLOWER_MAIN,
	FLOWER_GROUP, /* ingress: group-addressed packets */
	FLOWER_REWRITE, /* egress: packets from a port of the switch */
	FLOWER_CHAINS,
};

enum flower_act {
	FLOWER_GOTO, /* to chain goto */
	FLOWER_LOSSLESS, /* priority prio, mark lossless; new_dscp if >= 0 */
	FLOWER_LOSSY, /* priority prio, mark lossy; new_dscp if >= 0 */
};

struct flower_filter {
	uint8_t chain;
	uint8_t act;
	uint8_t goto_chain;
	bool group; /* matches only group-addressed packets */
	bool qinq; /* matches only packets behind two VLAN tags */
	int8_t dscp; /* or FLOWER_ANY */
	int32_t indev; /* port index, or FLOWER_ANY */
	int8_t new_dscp; /* or -1: kept */
	uint8_t prio;
	int8_t reason; /* TAGGER_LOSSY_* counted on a match, or none */
};

struct flower_list {
	struct flower_filter *f;
	int n, cap;
};

struct flower_port {
	struct flower_list in, out;
};

struct flower_pkt {
	bool ip; /* IPv4 or IPv6 with a whole header */
	bool group;
	bool qinq; /* behind two VLAN tags: only qinq filters see it */
	int dscp;
	int indev; /* port index of the switch, or FLOWER_ANY (another) */
};

struct flower_verdict {
	int act; /* FLOWER_LOSSLESS or FLOWER_LOSSY */
	int prio;
	int dscp; /* the DSCP the packet leaves with */
	int reason;
};

int flower_port_build(const struct rules *r, int sw, int port,
		      struct flower_port *fp);
void flower_port_free(struct flower_port *fp);
int flower_eval(const struct flower_list *l, const struct flower_pkt *pkt,
		struct flower_verdict *v);
long flower_list_entries(const struct flower_list *l);

#endif /* __TAGGER_FLOWER_TABLE_H */
