/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the Check suites: parse topologies and path sets from
 * strings, and capture what a parser wrote to stderr.
 */
#ifndef __TAGGER_TESTLIB_H
#define __TAGGER_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/elp.h"
#include "model/rules.h"
#include "lib/lines.h"
#include "model/topo.h"
#include "lib/util.h"

static inline struct topo *topo_from_str(const char *s)
{
	struct lines lr;
	struct topo *t;

	lines_open_mem(&lr, "t.topo", s, strlen(s));
	t = topo_parse_lines(&lr);
	lines_close(&lr);
	return t;
}

/* Rules from JSON text (named t.json), and the document (*doc). */
static inline struct rules *rules_from_str(const char *s, json_t **doc)
{
	json_error_t e;
	struct rules *r;

	*doc = json_loads(s, 0, &e);
	ck_assert_msg(*doc != NULL, "%s", e.text);
	r = rules_from_json(*doc, "t.json");
	ck_assert_ptr_nonnull(r);
	return r;
}

static inline struct elp *elp_from_str(const struct topo *t, const char *s)
{
	struct lines lr;
	struct elp *e;

	lines_open_mem(&lr, "t.elp", s, strlen(s));
	e = elp_parse_lines(t, &lr);
	lines_close(&lr);
	return e;
}

/*
 * What a writer printed, as a string to free: the writer runs with f open
 * on memory, e.g. CAPTURE(f, topo_write(f, t)).
 */
#define CAPTURE(f, ...)                                         \
	({                                                      \
		char *_cap_buf = NULL;                          \
		size_t _cap_len = 0;                            \
		FILE *f = open_memstream(&_cap_buf, &_cap_len); \
		__VA_ARGS__;                                    \
		fclose(f);                                      \
		_cap_buf;                                       \
	})

/* A topology / path set in its file format, as a string to free. */
static inline char *topo_to_str(const struct topo *t)
{
	return CAPTURE(f, topo_write(f, t));
}

static inline char *elp_to_str(const struct topo *t, const struct elp *e)
{
	return CAPTURE(f, elp_write(f, t, e));
}

/* stderr goes to a temporary file between begin and end. */
static int saved_stderr = -1;
static char captured[4096];

static inline void capture_begin(void)
{
	FILE *tmp = tmpfile();

	fflush(stderr);
	saved_stderr = dup(2);
	dup2(fileno(tmp), 2);
	fclose(tmp);
}

static inline const char *capture_end(void)
{
	ssize_t n;

	fflush(stderr);
	lseek(2, 0, SEEK_SET);
	n = read(2, captured, sizeof(captured) - 1);
	captured[n > 0 ? n : 0] = '\0';
	dup2(saved_stderr, 2);
	close(saved_stderr);
	return captured;
}

/* The seeds' Clos of the Tagger paper: T1-T4, L1-L4, S1-S2, 8 hosts. */
#define SEED_CLOS_TOPO                                                                 \
	"switch S1 layer=2\nswitch S2 layer=2\n"                                       \
	"switch L1 layer=1\nswitch L2 layer=1\nswitch L3 layer=1\nswitch L4 layer=1\n" \
	"switch T1 layer=0\nswitch T2 layer=0\nswitch T3 layer=0\nswitch T4 layer=0\n" \
	"link L1:s1 S1:l1\nlink L2:s1 S1:l2\nlink L3:s1 S1:l3\nlink L4:s1 S1:l4\n"     \
	"link L1:s2 S2:l1\nlink L2:s2 S2:l2\nlink L3:s2 S2:l3\nlink L4:s2 S2:l4\n"     \
	"link T1:l1 L1:t1\nlink T1:l2 L2:t1\nlink T2:l1 L1:t2\nlink T2:l2 L2:t2\n"     \
	"link T3:l3 L3:t3\nlink T3:l4 L4:t3\nlink T4:l3 L3:t4\nlink T4:l4 L4:t4\n"     \
	"host h1\nhost h2\nhost h3\nhost h4\n"                                         \
	"link h1:eth0 T1:h\nlink h2:eth0 T2:h\nlink h3:eth0 T3:h\nlink h4:eth0 T4:h\n"

#endif /* __TAGGER_TESTLIB_H */
