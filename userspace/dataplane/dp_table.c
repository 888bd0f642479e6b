// SPDX-License-Identifier: GPL-2.0
/* Rule tables of the switch port programs; see dp_table.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_table.h"
#include "tagger_port.skel.h"
#include "lib/util.h"

static void add(struct dp_table *tab, uint32_t idx, struct tagger_rule_val v)
{
	if (tab->n == tab->cap) {
		tab->cap = tab->cap ? 2 * tab->cap : 64;
		tab->idx = xrealloc(tab->idx, tab->cap * sizeof(*tab->idx));
		tab->vals = xrealloc(tab->vals, tab->cap * sizeof(*tab->vals));
	}
	tab->idx[tab->n] = idx;
	tab->vals[tab->n++] = v;
}

/* prio: what rules_classify answers for (in, tag). */
static void add_classify(const struct dp_port *ports, int in, int tag, int prio,
			 struct dp_table *tab)
{
	struct tagger_rule_val v = { 0 };

	/* A miss and an explicit lossy answer act alike: no entry. */
	if (prio == RULES_LOSSY)
		return;
	v.prio = prio;
	v.flags = TAGGER_F_LOSSLESS | TAGGER_F_RULE;
	add(tab, tagger_classify_index(ports[in].slot, tag), v);
	tab->nclassify++;
}

/*
 * Explicit lossy answers get an entry so the demotion is counted as such.
 * nt: what rules_rewrite answers for (tag, in, out); rule < 0 if no rule.
 */
static void add_rewrite(const struct rules *r, const struct dp_port *ports,
			int tag, int in, int out, int nt, int rule,
			struct dp_table *tab)
{
	struct tagger_rule_val v = { .flags = TAGGER_F_RULE };

	if (rule < 0)
		return;
	if (nt == RULES_LOSSY || !rules_tag_lossless(r, nt)) {
		v.dscp = r->lossy_tag;
		v.prio = r->lossy_prio;
	} else {
		v.dscp = nt;
		v.prio = rules_tag_prio(r, nt);
		v.flags |= TAGGER_F_LOSSLESS;
		tab->nrewrite++;
	}
	add(tab,
	    tagger_rewrite_index(tab->nslots, ports[in].slot, ports[out].slot,
				 tag),
	    v);
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
	int i, o, t, k, nt, rule;

	memset(tab, 0, sizeof(*tab));
	/* Without wildcards one entry a rule: no growing on the way. */
	if (!s->wild_classify && !s->wild_rewrite) {
		tab->cap = (size_t)s->nclassify + s->nrewrite + 2;
		tab->idx = xmalloc(tab->cap * sizeof(*tab->idx));
		tab->vals = xmalloc(tab->cap * sizeof(*tab->vals));
	}
	tab->nslots = s->nports + 1;
	tab->size = tagger_table_size(tab->nslots);
	/* Entry 0 (slot 0 is no port): the lossy tag and priority. */
	add(tab, 0,
	    (struct tagger_rule_val){ .prio = r->lossy_prio,
				      .dscp = r->lossy_tag });
	/* Entry TAGGER_CNP_ENTRY: the CNP class, if the rules have one. */
	if (r->cnp_tag >= 0)
		add(tab, TAGGER_CNP_ENTRY,
		    (struct tagger_rule_val){ .prio = r->cnp_prio,
					      .dscp = r->cnp_tag,
					      .flags = TAGGER_F_CNP });
	tags_used(s, cls, rw);
	/*
	 * Without wildcards each rule is the answer for its own key (keys
	 * are unique): no lookups. With them, ask the model for every key.
	 */
	if (s->wild_classify) {
		for (t = 0; t < 64; t++)
			for (i = 0; cls[t] && i < s->nports; i++)
				add_classify(ports, i, t,
					     rules_classify(r, sw, i, t, NULL),
					     tab);
	} else {
		for (k = 0; k < s->nclassify; k++) {
			const struct rules_classify *c = &s->classify[k];

			add_classify(ports, c->in, c->tag,
				     c->prio == r->lossy_prio ? RULES_LOSSY :
								c->prio,
				     tab);
		}
	}
	if (s->wild_rewrite) {
		for (t = 0; t < 64; t++)
			for (i = 0; rw[t] && i < s->nports; i++)
				for (o = 0; o < s->nports; o++) {
					nt = rules_rewrite(r, sw, t, i, o,
							   &rule);
					add_rewrite(r, ports, t, i, o, nt, rule,
						    tab);
				}
	} else {
		for (k = 0; k < s->nrewrite; k++) {
			const struct rules_rewrite *w = &s->rewrite[k];

			add_rewrite(r, ports, w->tag, w->in, w->out,
				    w->new_tag == r->lossy_tag ? RULES_LOSSY :
								 w->new_tag,
				    k, tab);
		}
	}
}

/*
 * libbpf 1.1 cannot resize an inner map definition, so the template is a
 * map of the right size made here; the caller closes it after load.
 */
int dp_prepare(struct tagger_port_bpf *skel, int nports)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_MMAPABLE);
	uint32_t nslots = nports + 1;
	int fd, err;

	skel->rodata->tagger_nslots = nslots;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tagger_tmpl", sizeof(uint32_t),
			    sizeof(struct tagger_rule_val),
			    tagger_table_size(nslots), &opts);
	if (fd < 0)
		return -errno;
	err = bpf_map__set_inner_map_fd(skel->maps.tagger_rules, fd);
	if (!err)
		err = bpf_map__set_max_entries(
			skel->maps.tagger_counters,
			nslots * TAGGER_COUNTERS_PER_PORT);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int dp_ifslots_set(int fd, const struct dp_port *ports, int n)
{
	uint32_t key, slot;
	int i;

	for (i = 0; i < n; i++) {
		key = ports[i].ifindex;
		slot = ports[i].slot;
		if (bpf_map_update_elem(fd, &key, &slot, BPF_ANY))
			return -errno;
	}
	return 0;
}

int dp_table_create(const struct dp_table *tab)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_MMAPABLE);
	size_t stride = (sizeof(struct tagger_rule_val) + 7) & ~7ul, len, k;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *mem;
	int fd, err;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tagger_table",
			    sizeof(uint32_t), sizeof(struct tagger_rule_val),
			    tab->size, &opts);
	if (fd < 0)
		return -errno;
	/* A new array is all zero (no rule): write only the entries. */
	len = ((size_t)tab->size * stride + page - 1) / page * page;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	for (k = 0; k < tab->n; k++)
		memcpy(mem + (size_t)tab->idx[k] * stride, &tab->vals[k],
		       sizeof(tab->vals[k]));
	munmap(mem, len);
	return fd;
}

int64_t dp_table_next(int gen_fd)
{
	__u32 zero = 0, gen;

	if (bpf_map_lookup_elem(gen_fd, &zero, &gen))
		return -errno;
	return (int64_t)gen + 1;
}

int dp_table_put(int outer_fd, int64_t next, int inner_fd)
{
	__u32 slot = next & (TAGGER_RULE_SLOTS - 1), ifd = inner_fd;

	/* The idle slot: no packet looks at it until the generation moves. */
	return bpf_map_update_elem(outer_fd, &slot, &ifd, BPF_ANY) ? -errno : 0;
}

int64_t dp_table_stage(int outer_fd, int gen_fd, int inner_fd, int first)
{
	int64_t next = first ? 0 : dp_table_next(gen_fd);
	int err = next < 0 ? (int)next : dp_table_put(outer_fd, next, inner_fd);

	return err ? err : next;
}

int dp_table_go(int gen_fd, int64_t next)
{
	__u32 zero = 0, g = next;

	return bpf_map_update_elem(gen_fd, &zero, &g, BPF_ANY) ? -errno : 0;
}

int64_t dp_table_install(int outer_fd, int gen_fd, int inner_fd, int first)
{
	int64_t next = dp_table_stage(outer_fd, gen_fd, inner_fd, first);
	int err;

	/* Fill the idle slot, then point new packets at it: one write. */
	if (next < 0)
		return next;
	err = dp_table_go(gen_fd, next);
	return err ? err : next;
}

void dp_table_free(struct dp_table *tab)
{
	free(tab->idx);
	free(tab->vals);
	memset(tab, 0, sizeof(*tab));
}

int64_t dp_table_gen(const char *dir)
{
	uint32_t zero = 0, gen;
	int fd, err;

	fd = dp_pin_open(dir, tagger_str(TAGGER_GEN));
	if (fd < 0)
		return -1;
	err = bpf_map_lookup_elem(fd, &zero, &gen);
	close(fd);
	return err ? -1 : gen;
}
