// SPDX-License-Identifier: GPL-2.0
/*
 * The holder of a switch whose rules run as tc flower filters (the flower
 * data path, dataplane/dp_flower.h). No packet is classified here: the
 * two programs exist so the kernel keeps the node's state with them. The
 * loader binds the node's anchor (its state record, dataplane/dp_anchor.h)
 * to them and attaches them, as cls_bpf filters, to the first port's
 * chain 0 behind the flower entry filter, which takes every packet
 * first; a later tagger finds the node there by the same search that
 * finds the eBPF data plane's programs, even after its pins are gone.
 *
 * They read the generation map (TAGGER_GEN), which holds the generation
 * the record's filters are of (entry 0) and whether an update is moving
 * the ports to it (entry 1, TAGGER_HOLD_FLUX: the next command repairs
 * what a kill left half moved), so the kernel keeps it with them and the
 * search finds it among their maps. Should a packet ever reach them
 * (a kernel without the entry filter's chain), they let it pass on.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "tagger_maps.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_GEN SEC(".maps");

static __always_inline int pass_on(void)
{
	__u32 zero = 0;

	bpf_map_lookup_elem(&TAGGER_GEN, &zero);
	return TC_ACT_UNSPEC;
}

/* Names of at most 15 characters: the kernel keeps no more of them. */
SEC("tc")
int hold_ingress(struct __sk_buff *skb)
{
	return pass_on();
}

SEC("tc")
int hold_egress(struct __sk_buff *skb)
{
	return pass_on();
}
