// SPDX-License-Identifier: GPL-2.0
/*
 * What the readers refuse before it costs memory (README "Input limits"):
 * NUL bytes (they used to end a line silently), files over the size limit
 * (1 GiB for topology and ELP, 256 MiB for rules), endless devices and
 * pipes, and big values under rules keys the parser ignores. Each check
 * that read everything before runs in a child with a small address space,
 * so a regression fails instead of eating the machine.
 */
#include <check.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "lib/json_skim.h"
#include "model/rules.h"
#include "testlib.h"

static struct topo *topo_from_mem(const char *s, size_t len)
{
	struct lines lr;
	struct topo *t;

	lines_open_mem(&lr, "t.topo", s, len);
	t = topo_parse_lines(&lr);
	lines_close(&lr);
	return t;
}

START_TEST(nul_byte_in_a_topology_line)
{
	static const char text[] = "switch a\nswitch b\0 c\nlink a:1 b:1\n";
	const char *out;
	struct topo *t;

	capture_begin();
	t = topo_from_mem(text, sizeof(text) - 1);
	out = capture_end();
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(out, "t.topo:2: NUL byte"), "got \"%s\"", out);
}
END_TEST

START_TEST(nul_byte_in_an_elp_line)
{
	static const char text[] = "sw1 sw2\0 sw3\n";
	struct topo *t = topo_from_str("switch sw1\nswitch sw2\nswitch sw3\n"
				       "link sw1:a sw2:a\nlink sw2:b sw3:b\n");
	struct lines lr;
	const char *out;
	struct elp *e;

	lines_open_mem(&lr, "t.elp", text, sizeof(text) - 1);
	capture_begin();
	e = elp_parse_lines(t, &lr);
	out = capture_end();
	lines_close(&lr);
	ck_assert_ptr_null(e);
	ck_assert_msg(strstr(out, "t.elp:1: NUL byte"), "got \"%s\"", out);
	topo_free(t);
}
END_TEST

static size_t vm_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;

	if (!f || fscanf(f, "%lu", &pages) != 1)
		abort();
	fclose(f);
	return pages * (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * In a child with 128 MiB more address space than now: a reader that
 * reads the whole input fails there. The child exits 0 if which() failed
 * with a message containing want.
 */
static void in_small_child(int which, const char *path, const char *want)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl;
		const char *out;
		bool failed;

		rl.rlim_cur = rl.rlim_max = vm_bytes() + (128u << 20);
		setrlimit(RLIMIT_AS, &rl);
		capture_begin();
		if (which == 0)
			failed = !topo_parse(path);
		else
			failed = !rules_parse(path);
		out = capture_end();
		if (!failed || !strstr(out, want)) {
			fprintf(stderr, "%s: got \"%.200s\", want \"%s\"\n",
				path, out, want);
			_exit(1);
		}
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s: no \"%s\" within 128 MiB (status %d)", path, want,
		      status);
}

START_TEST(devices_end_with_a_message)
{
	in_small_child(0, "/dev/zero", "/dev/zero:1: NUL byte");
	in_small_child(1, "/dev/zero", "/dev/zero:1: NUL byte");
	/* random bytes hold a NUL within the first chunk; either way, an error */
	in_small_child(0, "/dev/urandom", "/dev/urandom:");
}
END_TEST

static char dir[] = "/tmp/tagger-limits-XXXXXX";

/* A sparse file of `size` bytes: fstat sees the size, the disk nothing. */
static const char *sparse_file(const char *name, off_t size)
{
	static char path[sizeof(dir) + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, size), 0);
	close(fd);
	return path;
}

START_TEST(files_over_the_limit)
{
	const char *p = sparse_file("big.topo", LINES_MAX_BYTES + 1);

	in_small_child(0, p,
		       "big.topo: larger than the input limit of 1024 MiB");
	unlink(p);
	p = sparse_file("big.json", RULES_MAX_BYTES + 1);
	in_small_child(1, p,
		       "big.json: larger than the input limit of 256 MiB");
	unlink(p);
}
END_TEST

/* An endless pipe (think `yes`) stops at the limit, not at out-of-memory. */
START_TEST(endless_pipe_stops_at_the_limit)
{
	char path[64], chunk[4096];
	struct rlimit rl;
	struct lines lr;
	const char *out;
	int fds[2], rc;
	pid_t pid;

	/* Check runs each test in its own process: the limit stays here */
	rl.rlim_cur = rl.rlim_max = vm_bytes() + (128u << 20);
	setrlimit(RLIMIT_AS, &rl);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		memset(chunk, 'a', sizeof(chunk));
		while (write(fds[1], chunk, sizeof(chunk)) > 0)
			;
		_exit(0);
	}
	close(fds[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	capture_begin();
	rc = lines_open_max(&lr, path, 1 << 20);
	out = capture_end();
	close(fds[0]);
	waitpid(pid, NULL, 0);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(out, "larger than the input limit of 1 MiB"),
		      "got \"%s\"", out);
}
END_TEST

static const char *write_file(const char *name, const char *head, size_t fill,
			      const char *tail)
{
	static char path[sizeof(dir) + 32];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(head, f);
	for (i = 0; i < fill; i++)
		fputs(i ? ",1" : "1", f);
	fputs(tail, f);
	fclose(f);
	return path;
}

#define RULES_HEAD                                                                    \
	"{\"format\": \"tagger-rules/1\", \"lossy\": {\"tag\": 0, \"priority\": 0}, " \
	"\"tags\": [], \"switches\": {}, \"junk\": ["

/* A value the parser ignores: 9M integers would be ~400 MB in jansson. */
START_TEST(big_ignored_rules_key_is_refused)
{
	const char *p = write_file("junk.json", RULES_HEAD, 9 << 20, "]}");
	struct rules *r;

	in_small_child(1, p, "junk.json: top-level key \"junk\" holds");
	unlink(p);
	/* small unknown keys stay accepted: newer writers may add some */
	p = write_file("small.json", RULES_HEAD, 1000, "]}");
	r = rules_parse(p);
	ck_assert_ptr_nonnull(r);
	rules_free(r);
	unlink(p);
}
END_TEST

static int collect_span(const char *key, size_t keylen, size_t span, void *arg)
{
	char *out = arg;

	snprintf(out + strlen(out), 256 - strlen(out), "%.*s=%zu ", (int)keylen,
		 key, span);
	return 0;
}

/* Braces in strings, escaped quotes, nesting, scalars, a value cut short. */
START_TEST(skim_spans_follow_the_structure)
{
	static const char text[] =
		" {\"a\": \"}\\\"{\", \"b\":{\"c\":[1,{}]} , \"d\": 12,\"e\":[1,";
	char out[256] = "";

	json_skim_top(text, sizeof(text) - 1, collect_span, out);
	ck_assert_str_eq(out, "a=6 b=12 d=2 e=3 ");
}
END_TEST

static void setup(void)
{
	if (!mkdtemp(dir))
		abort();
}

static void teardown(void)
{
	rmdir(dir);
}

Suite *input_limits_suite(void)
{
	Suite *s = suite_create("input_limits");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nul_byte_in_a_topology_line);
	tcase_add_test(tc, nul_byte_in_an_elp_line);
	tcase_add_test(tc, devices_end_with_a_message);
	tcase_add_test(tc, files_over_the_limit);
	tcase_add_test(tc, endless_pipe_stops_at_the_limit);
	tcase_add_test(tc, big_ignored_rules_key_is_refused);
	tcase_add_test(tc, skim_spans_follow_the_structure);
	suite_add_tcase(s, tc);
	return s;
}
