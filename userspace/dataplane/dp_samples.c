// SPDX-License-Identifier: GPL-2.0
/* The demoted packets' samples, read from their ring; see dp_samples.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "dataplane/dp_samples.h"

/* The kernel's record header (BPF_RINGBUF_HDR_SZ): length, page offset. */
#define HDR_SZ 8

struct ring {
	unsigned long *cons; /* the consumer page, writable */
	void *prod_map; /* the producer page and the data mapped twice */
	unsigned long *prod;
	uint8_t *data;
	size_t size, page;
};

static int ring_map(int fd, struct ring *r)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	if (info.type != BPF_MAP_TYPE_RINGBUF || !info.max_entries)
		return -EINVAL;
	r->page = sysconf(_SC_PAGESIZE);
	r->size = info.max_entries;
	r->cons =
		mmap(NULL, r->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->cons == MAP_FAILED)
		return -errno;
	/* The data twice after the producer page: a record never wraps. */
	r->prod_map = mmap(NULL, r->page + 2 * r->size, PROT_READ, MAP_SHARED,
			   fd, r->page);
	if (r->prod_map == MAP_FAILED) {
		munmap(r->cons, r->page);
		return -errno;
	}
	r->prod = r->prod_map;
	r->data = (uint8_t *)r->prod_map + r->page;
	return 0;
}

static void ring_unmap(struct ring *r)
{
	munmap(r->prod_map, r->page + 2 * r->size);
	munmap(r->cons, r->page);
}

int dp_samples_read(int fd, struct tagger_sample *out, int max)
{
	struct tagger_sample got[TAGGER_SAMPLES_BYTES / 64];
	unsigned long pos_of[TAGGER_SAMPLES_BYTES / 64];
	unsigned long cons, prod, pos, want, now_prod;
	int n = 0, first, k, m = 0, err;
	struct ring r = { 0 };
	uint32_t len;

	err = ring_map(fd, &r);
	if (err)
		return err;
	cons = __atomic_load_n(r.cons, __ATOMIC_ACQUIRE);
	prod = __atomic_load_n(r.prod, __ATOMIC_ACQUIRE);
	for (pos = cons; pos < prod && n < (int)(sizeof(got) / sizeof(*got));) {
		const uint8_t *h = r.data + (pos & (r.size - 1));

		len = __atomic_load_n((const uint32_t *)h, __ATOMIC_ACQUIRE);
		if (len & BPF_RINGBUF_BUSY_BIT)
			break; /* being written: the next reader gets it */
		if (!(len & BPF_RINGBUF_DISCARD_BIT) &&
		    len == sizeof(struct tagger_sample)) {
			memcpy(&got[n], h + HDR_SZ, sizeof(got[n]));
			pos_of[n++] = pos;
		}
		len &= ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
		pos += (len + HDR_SZ + 7) & ~7ul;
	}
	/* Keep the last TAGGER_SAMPLES_KEPT in the ring: move past the rest. */
	first = n > TAGGER_SAMPLES_KEPT ? n - TAGGER_SAMPLES_KEPT : 0;
	want = first ? pos_of[first] : cons;
	if (want != cons)
		__atomic_compare_exchange_n(r.cons, &cons, want, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	/* What the producer may have written over while we copied is out. */
	now_prod = __atomic_load_n(r.prod, __ATOMIC_ACQUIRE);
	if (n - first > max)
		first = n - max;
	for (k = first; k < n; k++)
		if (now_prod - pos_of[k] <= r.size - HDR_SZ - sizeof(*out))
			out[m++] = got[k];
	ring_unmap(&r);
	return m;
}

uint64_t dp_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

json_t *dp_sample_json(const struct tagger_sample *s, const char *in,
		       const char *out, uint64_t now_ns)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	int af = s->family == 6 ? AF_INET6 : AF_INET;
	double age = now_ns > s->ns ? (now_ns - s->ns) / 1e9 : 0;

	inet_ntop(af, s->saddr, src, sizeof(src));
	inet_ntop(af, s->daddr, dst, sizeof(dst));
	return json_pack("{s:f,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:s,s:I}",
			 "age_seconds", age, "in_port", in, "out_port", out,
			 "src", src, "dst", dst, "proto", s->proto, "sport",
			 s->sport, "dport", s->dport, "tag", s->dscp, "reason",
			 s->reason == TAGGER_LOSSY_NO_REWRITE ? "no_rewrite" :
								"other",
			 "bytes", (json_int_t)s->len);
}
