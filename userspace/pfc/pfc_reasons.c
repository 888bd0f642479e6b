// SPDX-License-Identifier: GPL-2.0
/* The kernel's skb drop reasons, from its BTF; see pfc_reasons.h. */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "pfc_maps.h"
#include "pfc/pfc_reasons.h"

#define PREFIX "SKB_DROP_REASON_"

/* Calls fn(name, value) for each enumerator; false without BTF. */
static bool each_reason(void (*fn)(const char *, uint32_t, void *), void *arg)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	const struct btf_enum *e;
	int id, i;

	if (!btf)
		return false;
	id = btf__find_by_name_kind(btf, "skb_drop_reason", BTF_KIND_ENUM);
	if (id > 0) {
		t = btf__type_by_id(btf, id);
		e = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++) {
			const char *n = btf__name_by_offset(btf, e[i].name_off);

			if (n)
				fn(n, (uint32_t)e[i].val, arg);
		}
	}
	btf__free(btf);
	return id > 0;
}

/*
 * Qdisc drops are in the qdisc's own statistics already. "No route"
 * drops happen when failures leave a destination without a path: a loss
 * to the failure, like packets flushed with a link that went down, not a
 * buffer overflow.
 */
static void kind_of(const char *n, uint32_t v, void *arg)
{
	volatile uint8_t *tbl = arg;

	if (v >= 256)
		return;
	if (!strncmp(n, PREFIX "QDISC", strlen(PREFIX "QDISC")))
		tbl[v] = PFC_DROP_QDISC;
	else if (strstr(n, "NOROUTE"))
		tbl[v] = PFC_DROP_FAILURE;
}

void pfc_drop_kinds(volatile uint8_t *tbl)
{
	each_reason(kind_of, (void *)tbl);
}

struct lookup {
	uint32_t want;
	char *buf;
	size_t len;
	bool found;
};

static void name_of(const char *n, uint32_t v, void *arg)
{
	struct lookup *l = arg;

	if (v != l->want || l->found)
		return;
	if (!strncmp(n, PREFIX, strlen(PREFIX)))
		n += strlen(PREFIX);
	snprintf(l->buf, l->len, "%s", n);
	l->found = true;
}

const char *pfc_drop_reason_name(uint32_t reason, char *buf, size_t len)
{
	struct lookup l = { .want = reason, .buf = buf, .len = len };

	each_reason(name_of, &l);
	if (!l.found)
		snprintf(buf, len, "%u", reason);
	return buf;
}
