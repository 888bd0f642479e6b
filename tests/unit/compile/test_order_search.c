// SPDX-License-Identifier: GPL-2.0
/*
 * The order algorithm on one very long path: memory must stay linear in
 * the path's length (it once listed a path per visit of a port and
 * collected the whole path for each entry: quadratic events), and the
 * local search must stop after a pass that improves nothing (its count
 * histogram once drifted on paths with more than TAG_MAX backward edges,
 * so it ran until its work budget), and an edge switch's host port,
 * decided from its successors alone, must move as a sweep would move it.
 * No timing: an address-space limit, the number of passes, positions.
 */
#include <check.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "lib/log.h"
#include "compile/tag_order.h"
#include "compile/tagging.h"
#include "testlib.h"

#define LINE3 "switch a\nswitch b\nswitch c\nlink a:p1 b:p1\nlink b:p2 c:p1\n"

/* "a b a b ... a b": hops alternate between two ports, each visited n times. */
static struct elp *bouncing_path(const struct topo *t, int hops)
{
	size_t len = 2 * (size_t)(hops + 1) + 2, k;
	char *s = xmalloc(len);
	struct elp *e;

	for (k = 0; k <= (size_t)hops; k++) {
		s[2 * k] = k % 2 ? 'b' : 'a';
		s[2 * k + 1] = ' ';
	}
	s[2 * k - 1] = '\n';
	s[2 * k] = '\0';
	e = elp_from_str(t, s);
	free(s);
	return e;
}

/* Pages of address space in use now, from /proc/self/statm. */
static size_t vm_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	return pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* 20,000 hops took 3.1 GB; linear memory needs well under 64 MiB more. */
START_TEST(long_path_compiles_in_bounded_memory)
{
	struct topo *t = topo_from_str(LINE3);
	struct elp *e = bouncing_path(t, 20000);
	int status;
	pid_t pid;

	ck_assert_ptr_nonnull(e);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl;
		struct tagging tg;

		rl.rlim_cur = rl.rlim_max = vm_bytes() + (64u << 20);
		setrlimit(RLIMIT_AS, &rl);
		log_quiet = true;
		tagging_run(&tg, t, e, 1, &tag_algo_order);
		tagging_free(&tg);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(
		WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"the order algorithm ran out of a 64 MiB address-space budget");
	elp_free(e);
	topo_free(t);
}
END_TEST

static int count_lines(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* More than TAG_MAX backward edges on one path: the search stops at once. */
START_TEST(search_stops_when_nothing_improves)
{
	struct topo *t = topo_from_str(LINE3);
	struct elp *e = bouncing_path(t, 2000);
	struct tagging tg = { .t = t, .e = e };
	int *pos = xmalloc(t->nports * sizeof(int)), i, top;
	const char *out;

	tg.forwards = xcalloc(t->nnodes, sizeof(bool));
	for (i = 0; i < t->nnodes; i++)
		tg.forwards[i] = true;
	for (i = 0; i < t->nports; i++)
		pos[i] = i;
	log_level = LOG_DEBUG;
	capture_begin();
	top = order_search(&tg, pos, 200000000ULL);
	out = capture_end();
	log_level = LOG_WARN;
	ck_assert_int_eq(top, TAG_MAX);
	ck_assert_int_ge(order_backward(&tg, pos, 0), TAG_MAX);
	ck_assert_msg(count_lines(out, "order: pass:") <= 2,
		      "the search kept passing without improving:\n%.300s",
		      out);
	free(pos);
	free(tg.forwards);
	elp_free(e);
	topo_free(t);
}
END_TEST

/*
 * An edge switch's host port is entered from no forwarding node: the
 * search decides it from its few successors, without its visits, and
 * must decide as a sweep of its visits does. Host port a:h after its
 * successor b:p1, and visited first (lower port id): the move that
 * removes the backward edge is a:h's, to the front, not b:p1's.
 */
START_TEST(host_port_moves_to_the_front)
{
	struct topo *t = topo_from_str("switch a\nswitch b\nhost ha\n"
				       "link ha:e a:h\nlink a:p1 b:p1\n");
	struct elp *e = elp_from_str(t, "ha a b\n");
	struct tagging tg = { .t = t, .e = e };
	int *pos = xmalloc(t->nports * sizeof(int)), i;
	int ah = topo_find_port(t, topo_find_node(t, "a"), "h"),
	    bp = topo_find_port(t, topo_find_node(t, "b"), "p1");

	ck_assert_ptr_nonnull(e);
	ck_assert_int_lt(ah, bp);
	tg.forwards = elp_forwarding(t, e);
	for (i = 0; i < t->nports; i++)
		pos[i] = i < ah ? i : i == ah ? t->nports - 1 : i - 1;
	ck_assert_int_eq(order_backward(&tg, pos, 0), 1);
	log_quiet = true;
	ck_assert_int_eq(order_search(&tg, pos, 200000000ULL), 0);
	log_quiet = false;
	ck_assert_int_eq(pos[ah], 0);
	ck_assert_int_eq(pos[bp], t->nports - 1);
	free(pos);
	free(tg.forwards);
	elp_free(e);
	topo_free(t);
}
END_TEST

Suite *order_search_suite(void)
{
	Suite *s = suite_create("order_search");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, long_path_compiles_in_bounded_memory);
	tcase_add_test(tc, search_stops_when_nothing_improves);
	tcase_add_test(tc, host_port_moves_to_the_front);
	suite_add_tcase(s, tc);
	return s;
}
