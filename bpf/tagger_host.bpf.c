// SPDX-License-Identifier: GPL-2.0
/*
 * Tagger on a host's egress: packets of the lossless class leave with the
 * initial tag of the host and the priority the first switch classifies
 * that tag into. The class is chosen by the DSCP the application sent (a
 * table of 64 entries, ECN kept) or by a UDP destination port range (for
 * RoCEv2, 4791). Entries left unset keep the packet as it was. A
 * group-addressed packet of the class (lib/mcast.h) is never lossless: it
 * leaves with the lossy tag and priority, so neither this host's NIC nor
 * the first switch holds it under PFC.
 *
 * RoCEv2 CNPs (UDP 4791, BTH opcode 0x81) share the data's UDP port, so a
 * selector that picks the data picks them too; they never get the tag of
 * the class, which would queue them behind the data they are meant to
 * slow down. With a "cnp" in the rules every CNP leaves with its DSCP and
 * priority (see TAGGER_CNP_ENTRY in tagger_maps.h); without, a CNP the
 * selector picks leaves with the lossy tag and priority, as a
 * group-addressed packet does, and other CNPs as they were sent.
 */
#include "lib/dscp.h"
#include "lib/mcast.h"
#include "lib/parse.h"
#include "tagger_maps.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TAGGER_HOST_TAG_ENTRIES);
	__type(key, __u32);
	__type(value, struct tagger_host_tag);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_HOST_TAGS SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tagger_host_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_HOST_CFG SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TAGGER_DSCP_MAX);
	__type(key, __u32);
	__type(value, struct tagger_counter);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_HOST_COUNTERS SEC(".maps");

/*
 * The entry of TAGGER_HOST_TAGS for the packet; *cnp set for a RoCEv2 CNP.
 * Every whole UDP datagram's header is read, whatever the selector: a CNP
 * is told by its port and BTH, not by the DSCP it was sent with.
 */
static __always_inline __u32
tagger_host_entry(struct __sk_buff *skb, const struct tagger_pkt *p,
		  const struct tagger_host_cfg *cfg, int *cnp)
{
	__u32 payload;
	__u16 port;

	*cnp = 0;
	if (tagger_udp(skb, p, &port, &payload))
		return p->tos >> 2;
	*cnp = tagger_roce_cnp(skb, port, payload);
	if (cfg && cfg->udp_hi && port >= cfg->udp_lo && port <= cfg->udp_hi)
		return TAGGER_HOST_UDP_ENTRY;
	return p->tos >> 2;
}

SEC("tc")
int tagger_host_egress(struct __sk_buff *skb)
{
	struct tagger_host_cfg *cfg;
	struct tagger_host_tag *t;
	struct tagger_counter *c;
	struct tagger_pkt p = {};
	__u32 idx = 0;
	int kind, cnp;

	kind = tagger_parse(skb, &p);
	if (kind != TAGGER_PKT_IP4 && kind != TAGGER_PKT_IP6)
		return TAGGER_TC_NEXT;
	cfg = bpf_map_lookup_elem(&TAGGER_HOST_CFG, &idx);
	idx = tagger_host_entry(skb, &p, cfg, &cnp);
	t = bpf_map_lookup_elem(&TAGGER_HOST_TAGS, &idx);
	if (cnp && cfg && cfg->cnp_set) {
		tagger_set_dscp(skb, &p, kind, cfg->cnp_dscp);
		skb->priority = cfg->cnp_prio;
	} else if (t && t->set) {
		if (cfg && cfg->lossy_set &&
		    (cnp || tagger_group_addressed(skb, &p, kind))) {
			tagger_set_dscp(skb, &p, kind, cfg->lossy_dscp);
			skb->priority = cfg->lossy_prio;
		} else {
			tagger_set_dscp(skb, &p, kind, t->dscp);
			skb->priority = t->prio;
		}
	}
	idx = p.tos >> 2;
	c = bpf_map_lookup_elem(&TAGGER_HOST_COUNTERS, &idx);
	if (c) {
		c->packets++;
		c->bytes += skb->len;
	}
	return TAGGER_TC_NEXT;
}
