// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of a live update: what one write into an array of maps costs
 * from user space. The kernel waits for an RCU grace period after every
 * such write (synchronize_rcu in kernel/bpf/syscall.c), so a loader that
 * swaps a table through a map of maps pays it at least once. Measured on
 * a fresh array of maps with two slots and two small inner arrays:
 *   plain   a write into a plain array (no wait), for comparison
 *   one     one map-in-map write
 *   serial  two map-in-map writes (into two outer maps), one after the
 *           other, as tagger switch update made them before
 *   pair    the same two side by side in two threads, as it makes them
 *           now
 * Root only. Prints the median and the fastest of N runs, in ms.
 *   build/bench/dp_gp [N]
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct job {
	int outer, inner;
	__u32 slot;
};

static void *put(void *arg)
{
	struct job *j = arg;

	if (bpf_map_update_elem(j->outer, &j->slot, &j->inner, BPF_ANY))
		perror("map-in-map update");
	return NULL;
}

static int outer_map(int inner)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .inner_map_fd = inner);

	return bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "gp_outer", 4, 4, 2,
			      &o);
}

static void report(const char *what, double *t, int n)
{
	qsort(t, n, sizeof(*t), cmp);
	printf("%-8s median %8.3f ms  fastest %8.3f ms  (%d runs)\n", what,
	       1e3 * t[n / 2], 1e3 * t[0], n);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20, k, inner[2], outer[2], plain;
	double *t = calloc(n > 0 ? n : 1, sizeof(double)), t0;
	struct job j[2];
	pthread_t th;
	__u32 zero = 0, v = 1;

	if (n < 1 || !t)
		return 2;
	for (k = 0; k < 2; k++)
		inner[k] = bpf_map_create(BPF_MAP_TYPE_ARRAY, "gp_inner", 4, 4,
					  1, NULL);
	plain = bpf_map_create(BPF_MAP_TYPE_ARRAY, "gp_plain", 4, 4, 1, NULL);
	outer[0] = outer_map(inner[0]);
	outer[1] = outer_map(inner[0]);
	if (inner[0] < 0 || inner[1] < 0 || plain < 0 || outer[0] < 0 ||
	    outer[1] < 0) {
		fprintf(stderr, "dp_gp: creating maps: %s (root?)\n",
			strerror(errno));
		return 3;
	}
	for (k = 0; k < n; k++) {
		t0 = now();
		bpf_map_update_elem(plain, &zero, &v, BPF_ANY);
		t[k] = now() - t0;
	}
	report("plain", t, n);
	for (k = 0; k < n; k++) {
		j[0] = (struct job){ outer[0], inner[k & 1], 0 };
		t0 = now();
		put(&j[0]);
		t[k] = now() - t0;
	}
	report("one", t, n);
	for (k = 0; k < n; k++) {
		j[0] = (struct job){ outer[0], inner[k & 1], 1 };
		j[1] = (struct job){ outer[1], inner[!(k & 1)], 1 };
		t0 = now();
		put(&j[0]);
		put(&j[1]);
		t[k] = now() - t0;
	}
	report("serial", t, n);
	for (k = 0; k < n; k++) {
		j[0] = (struct job){ outer[0], inner[k & 1], 1 };
		j[1] = (struct job){ outer[1], inner[!(k & 1)], 1 };
		t0 = now();
		if (pthread_create(&th, NULL, put, &j[0])) {
			perror("pthread_create");
			return 3;
		}
		put(&j[1]);
		pthread_join(th, NULL);
		t[k] = now() - t0;
	}
	report("pair", t, n);
	free(t);
	return 0;
}
