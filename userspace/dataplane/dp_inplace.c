// SPDX-License-Identifier: GPL-2.0
/* The in-place update of a switch's table and record; see dp_inplace.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "dataplane/dp_inplace.h"
#include "dataplane/dp_packed.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "lib/util.h"

static int64_t gen_of(int gen_fd)
{
	__u32 zero = 0, g;

	return bpf_map_lookup_elem(gen_fd, &zero, &g) ? -1 : (int64_t)g;
}

bool dp_inplace_ready(const char *dir, json_t *state, int gen_fd)
{
	int64_t g = gen_of(gen_fd), q = -1;
	int fd;

	if (g < 0 || dp_record_gen(state) != g)
		return false;
	fd = dp_pin_open(dir, DP_STATE_CUR);
	if (fd >= 0) {
		q = dp_record_quiet(fd);
		close(fd);
	}
	return q == g;
}

/* The table in generation next's slot, if it is one tab fits exactly. */
static int idle_table(int outer_fd, int64_t next, const struct dp_table *tab)
{
	__u32 slot = next & (TAGGER_RULE_SLOTS - 1), other = !slot, id, len,
	      live_id;
	struct bpf_map_info mi;
	int fd;

	if (bpf_map_lookup_elem(outer_fd, &slot, &id))
		return -errno;
	if (!bpf_map_lookup_elem(outer_fd, &other, &live_id) && live_id == id)
		return -EBUSY; /* the live table itself */
	fd = bpf_map_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	memset(&mi, 0, sizeof(mi));
	len = sizeof(mi);
	if (bpf_obj_get_info_by_fd(fd, &mi, &len) ||
	    mi.type != BPF_MAP_TYPE_ARRAY ||
	    mi.value_size != sizeof(struct tagger_rule_val) ||
	    mi.max_entries != tab->size || !(mi.map_flags & BPF_F_MMAPABLE)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int dp_inplace_table(int outer_fd, int64_t next, const struct dp_table *tab,
		     size_t *written)
{
	/* An array's elements are 8-byte aligned: a 4-byte value, 8 apart. */
	const size_t stride = 8;
	long page = sysconf(_SC_PAGESIZE);
	size_t len, k;
	uint64_t *set;
	uint32_t v;
	uint8_t *mem;
	int fd = idle_table(outer_fd, next, tab);

	if (fd < 0)
		return fd;
	len = ((size_t)tab->size * stride + page - 1) / page * page;
	/* Every page is read: map them all at once, not fault by fault. */
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		   fd, 0);
	close(fd);
	if (mem == MAP_FAILED)
		return -errno;
	/*
	 * Whatever the slot holds (generation g - 1's table, or one half
	 * written by an update killed here) ends up equal to tab: its
	 * entries first, then every other entry zero (a bit per entry says
	 * which tab set: 14 KB, not a 440 KB image of the table). Each entry
	 * is one aligned 4-byte store: a queued packet's egress lookup (see
	 * dp_inplace.h) sees the old entry or the new one, never a mix.
	 */
	set = xcalloc(tab->size / 64 + 1, sizeof(*set));
	*written = 0;
	for (k = 0; k < tab->n; k++) {
		uint32_t *p = (uint32_t *)(mem + (size_t)tab->idx[k] * stride);

		memcpy(&v, &tab->vals[k], sizeof(v));
		set[tab->idx[k] / 64] |= 1ull << (tab->idx[k] % 64);
		if (__atomic_load_n(p, __ATOMIC_RELAXED) != v) {
			__atomic_store_n(p, v, __ATOMIC_RELAXED);
			(*written)++;
		}
	}
	for (k = 0; k < tab->size; k++) {
		uint32_t *p = (uint32_t *)(mem + k * stride);

		if (!(set[k / 64] & (1ull << (k % 64))) &&
		    __atomic_load_n(p, __ATOMIC_RELAXED)) {
			__atomic_store_n(p, 0, __ATOMIC_RELAXED);
			(*written)++;
		}
	}
	free(set);
	munmap(mem, len);
	return 0;
}

int dp_grace_period(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	__u32 zero = 0;
	int inner, outer, err = 0;

	inner = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tagger_gp", sizeof(__u32),
			       sizeof(__u32), 1, NULL);
	if (inner < 0)
		return -errno;
	opts.inner_map_fd = inner;
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "tagger_gp_outer",
			       sizeof(__u32), sizeof(__u32), 1, &opts);
	if (outer < 0)
		err = -errno;
	/* kernel/bpf/syscall.c: synchronize_rcu() after this write returns. */
	else if (bpf_map_update_elem(outer, &zero, &inner, BPF_ANY))
		err = -errno;
	if (outer >= 0)
		close(outer);
	close(inner);
	return err;
}

static void *grace_run(void *arg)
{
	*(int *)arg = dp_grace_period();
	return NULL;
}

static void quiesce(int state_fd, int gen_fd, int64_t gen)
{
	int null = open("/dev/null", O_RDWR), gp = -1;
	pthread_t th;
	json_t *rec;

	/* Nobody waits for this child's output: a caller's pipe closes. */
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	rec = dp_record_read_fd(state_fd);
	/*
	 * It holds the lock (inherited): the generation cannot move. While
	 * it waits for the grace period it keeps the rules' digest in the
	 * record, which switch show would pack and hash for every scrape.
	 */
	if (dp_record_gen(rec) == gen) {
		if (pthread_create(&th, NULL, grace_run, &gp)) {
			gp = dp_grace_period();
			dp_packed_mark_fd(state_fd, rec);
		} else {
			dp_packed_mark_fd(state_fd, rec);
			pthread_join(th, NULL);
		}
		if (!gp && gen_of(gen_fd) == gen)
			dp_record_quiet_mark(state_fd, gen);
	}
	json_decref(rec);
}

void dp_inplace_quiesce(const char *dir, int gen_fd, int64_t gen)
{
	int fd;
	pid_t pid;

	fd = dp_pin_open(dir, DP_STATE_CUR);
	if (fd < 0)
		return; /* no mark: the next update replaces the table */
	pid = fork();
	if (pid == 0) {
		quiesce(fd, gen_fd, gen);
		_exit(0);
	}
	close(fd);
}
