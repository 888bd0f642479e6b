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

static __always_inline __u32
tagger_host_entry(struct __sk_buff *skb, const struct tagger_pkt *p,
		  const struct tagger_host_cfg *cfg)
{
	__u16 port;

	if (cfg && cfg->udp_hi && !tagger_udp_dport(skb, p, &port) &&
	    port >= cfg->udp_lo && port <= cfg->udp_hi)
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
	int kind;

	kind = tagger_parse(skb, &p);
	if (kind != TAGGER_PKT_IP4 && kind != TAGGER_PKT_IP6)
		return TAGGER_TC_NEXT;
	cfg = bpf_map_lookup_elem(&TAGGER_HOST_CFG, &idx);
	idx = tagger_host_entry(skb, &p, cfg);
	t = bpf_map_lookup_elem(&TAGGER_HOST_TAGS, &idx);
	if (t && t->set) {
		if (cfg && cfg->lossy_set &&
		    tagger_group_addressed(skb, &p, kind)) {
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
