// SPDX-License-Identifier: GPL-2.0
/* Rule tables of the switch port programs; see dp_table.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "dp_table.h"
#include "util.h"

static void add(struct dp_table *tab, uint8_t kind, uint32_t in, uint32_t out,
		uint8_t dscp, struct tagger_rule_val v)
{
	struct tagger_rule_key k = {
		.in_ifindex = in, .out_ifindex = out, .kind = kind, .dscp = dscp,
	};

	if (tab->n == tab->cap) {
		tab->cap = tab->cap ? 2 * tab->cap : 64;
		tab->keys = xrealloc(tab->keys, tab->cap * sizeof(*tab->keys));
		tab->vals = xrealloc(tab->vals, tab->cap * sizeof(*tab->vals));
	}
	tab->keys[tab->n] = k;
	tab->vals[tab->n++] = v;
}

static void add_classify(const struct rules *r, int sw, const struct dp_port *ports,
			 int in, int tag, struct dp_table *tab)
{
	int prio = rules_classify(r, sw, in, tag, NULL);
	struct tagger_rule_val v = { 0 };

	/* A miss and an explicit lossy answer act alike: no entry. */
	if (prio == RULES_LOSSY)
		return;
	v.prio = prio;
	v.flags = TAGGER_F_LOSSLESS;
	v.slot = ports[in].slot;
	add(tab, TAGGER_KIND_CLASSIFY, ports[in].ifindex, 0, tag, v);
	tab->nclassify++;
}

/* Explicit lossy answers get an entry so the demotion is counted as such. */
static void add_rewrite(const struct rules *r, int sw, const struct dp_port *ports,
			int tag, int in, int out, struct dp_table *tab)
{
	struct tagger_rule_val v = { 0 };
	int rule, nt = rules_rewrite(r, sw, tag, in, out, &rule);

	if (rule < 0)
		return;
	v.slot = ports[out].slot;
	if (nt == RULES_LOSSY || !rules_tag_lossless(r, nt)) {
		v.dscp = r->lossy_tag;
		v.prio = r->lossy_prio;
	} else {
		v.dscp = nt;
		v.prio = rules_tag_prio(r, nt);
		v.flags = TAGGER_F_LOSSLESS;
		tab->nrewrite++;
	}
	add(tab, TAGGER_KIND_REWRITE, ports[in].ifindex, ports[out].ifindex, tag, v);
}

/* Tags some rule of the switch matches: only these need expanding. */
static void tags_used(const struct rules_switch *s, bool cls[64], bool rw[64])
{
	int k;

	memset(cls, 0, 64);
	memset(rw, 0, 64);
	for (k = 0; k < s->nclassify; k++)
		cls[s->classify[k].tag & 63] = true;
	for (k = 0; k < s->nrewrite; k++)
		rw[s->rewrite[k].tag & 63] = true;
}

void dp_table_build(const struct rules *r, int sw, const struct dp_port *ports,
		    struct dp_table *tab)
{
	const struct rules_switch *s = &r->sw[sw];
	bool cls[64], rw[64];
	int i, o, t, k;

	memset(tab, 0, sizeof(*tab));
	for (i = 0; i < s->nports; i++) {
		struct tagger_rule_val v = {
			.prio = r->lossy_prio, .dscp = r->lossy_tag,
			.slot = ports[i].slot,
		};

		add(tab, TAGGER_KIND_PORT, ports[i].ifindex, 0, 0, v);
	}
	tags_used(s, cls, rw);
	if (s->wild_classify) {
		for (t = 0; t < 64; t++)
			for (i = 0; cls[t] && i < s->nports; i++)
				add_classify(r, sw, ports, i, t, tab);
	} else {
		for (k = 0; k < s->nclassify; k++)
			add_classify(r, sw, ports, s->classify[k].in,
				     s->classify[k].tag, tab);
	}
	if (s->wild_rewrite) {
		for (t = 0; t < 64; t++)
			for (i = 0; rw[t] && i < s->nports; i++)
				for (o = 0; o < s->nports; o++)
					add_rewrite(r, sw, ports, t, i, o, tab);
	} else {
		for (k = 0; k < s->nrewrite; k++)
			add_rewrite(r, sw, ports, s->rewrite[k].tag, s->rewrite[k].in,
				    s->rewrite[k].out, tab);
	}
}

int dp_table_create(const struct dp_table *tab)
{
	LIBBPF_OPTS(bpf_map_batch_opts, bopts);
	__u32 count, done = 0;
	int fd, err;

	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "tagger_table",
			    sizeof(struct tagger_rule_key),
			    sizeof(struct tagger_rule_val),
			    tab->n ? tab->n : 1, NULL);
	if (fd < 0)
		return -errno;
	while (done < tab->n) {
		count = tab->n - done;
		err = bpf_map_update_batch(fd, tab->keys + done, tab->vals + done,
					   &count, &bopts);
		done += count;
		if (err && errno != EINTR) {
			err = -errno;
			close(fd);
			return err;
		}
	}
	return fd;
}

int64_t dp_table_install(int outer_fd, int gen_fd, int inner_fd, int first)
{
	__u32 zero = 0, gen = 0, slot, next;
	__u32 ifd = inner_fd;

	if (!first && bpf_map_lookup_elem(gen_fd, &zero, &gen))
		return -errno;
	next = first ? 0 : gen + 1;
	slot = next & (TAGGER_RULE_SLOTS - 1);
	/* Fill the idle slot, then point new packets at it: one write. */
	if (bpf_map_update_elem(outer_fd, &slot, &ifd, BPF_ANY))
		return -errno;
	if (bpf_map_update_elem(gen_fd, &zero, &next, BPF_ANY))
		return -errno;
	return next;
}

void dp_table_free(struct dp_table *tab)
{
	free(tab->keys);
	free(tab->vals);
	memset(tab, 0, sizeof(*tab));
}
