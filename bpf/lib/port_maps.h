/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maps of the switch port programs (layouts in tagger_maps.h). All are
 * pinned by name under the switch's directory; the loader sets the pin
 * root and sizes the counters to the switch's ports before loading.
 */
#ifndef __TAGGER_LIB_PORT_MAPS_H
#define __TAGGER_LIB_PORT_MAPS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "tagger_maps.h"

/* Ports + 1 (slot 0 is no port); set by the loader before load. */
const volatile __u32 tagger_nslots = 1;

/*
 * Template of one rule table; the loader sizes it to tagger_table_size()
 * before load and creates the real ones alike (mmapable, so they are
 * written with memcpy).
 */
struct tagger_rules_inner_def {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	/* Sizes, not types: clang emits only forward BTF for these here. */
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct tagger_rule_val));
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TAGGER_MAX_IFINDEX);
	__type(key, __u32);
	__type(value, __u32);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_IFSLOT SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, TAGGER_RULE_SLOTS);
	__type(key, __u32);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
	__array(values, struct tagger_rules_inner_def);
} TAGGER_RULES_OUTER SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_GEN SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 64 * TAGGER_COUNTERS_PER_PORT);
	__type(key, __u32);
	__type(value, struct tagger_counter);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_COUNTERS SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TAGGER_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct tagger_port_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_PORT_STATS SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TAGGER_SAMPLES_BYTES);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_SAMPLES SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TAGGER_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct tagger_sample_gate);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} TAGGER_SAMPLE_GATE SEC(".maps");

#endif /* __TAGGER_LIB_PORT_MAPS_H */
