/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the verifier suites: hand-written rules documents (with '
 * for "), one verifier run over a topology, paths and rules given as
 * text, and the problem of a kind it reported; the ring of three switches
 * and the rule fragments the documents are built from.
 */
#ifndef __TAGGER_VERIFY_CHECK_H
#define __TAGGER_VERIFY_CHECK_H

#include <check.h>
#include <jansson.h>

#include "analyze/verify.h"
#include "lib/log.h"
#include "model/rules.h"
#include "testlib.h"

/* Test documents use ' for " so they stay readable. */
static inline struct rules *rules_str(const char *doc)
{
	char *s = xstrdup(doc), *p;
	json_error_t jerr;
	struct rules *r;
	json_t *root;

	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	root = json_loads(s, 0, &jerr);
	ck_assert_msg(root != NULL, "bad test JSON: %s at %d:%d", jerr.text,
		      jerr.line, jerr.column);
	r = rules_from_json(root, "r.json");
	ck_assert_ptr_nonnull(r);
	json_decref(root);
	free(s);
	return r;
}

struct run {
	struct topo *t;
	struct elp *e;
	struct rules *r;
	struct verify_result res;
	int rc;
};

static inline void run(struct run *x, const char *topo, const char *paths,
		       const char *rules, bool allow_lossy)
{
	struct verify_opts o = { .allow_lossy = allow_lossy };

	x->t = topo_from_str(topo);
	ck_assert_ptr_nonnull(x->t);
	x->e = elp_from_str(x->t, paths);
	ck_assert_ptr_nonnull(x->e);
	x->r = rules_str(rules);
	x->rc = verify_rules(x->t, x->e, x->r, &o, &x->res);
}

static inline void done(struct run *x)
{
	if (x->rc != EXIT_USAGE)
		verify_result_free(&x->res);
	rules_free(x->r);
	elp_free(x->e);
	topo_free(x->t);
}

/* The problem of a kind whose text contains s, or NULL. */
static inline const struct verify_problem *
problem(const struct run *x, enum verify_kind k, const char *s)
{
	int i;

	for (i = 0; i < x->res.nproblems; i++)
		if (x->res.problems[i].kind == k &&
		    strstr(x->res.problems[i].text, s))
			return &x->res.problems[i];
	return NULL;
}

#define assert_problem(x, k, s)                                               \
	ck_assert_msg(problem(x, k, s), "no problem \"%s\" (%d problems)", s, \
		      (x)->res.nproblems)

/* Three switches in a ring, every one enters by port 1 and leaves by 2. */
#define RING3                            \
	"switch A\nswitch B\nswitch C\n" \
	"link A:2 B:1\nlink B:2 C:1\nlink C:2 A:1\n"
#define RING3_PATHS "A B C\nB C A\nC A B\n"

#define TAGS2                                                             \
	"'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0}," \
	"'tags': [{'tag': 10, 'priority': 3}, {'tag': 11, 'priority': 4}]"
#define RING_SW(cl, rw) \
	"{'ports': ['1', '2'], 'classify': [" cl "], 'rewrite': [" rw "]}"
#define CL_BOTH \
	"{'in': '1', 'tag': 10, 'priority': 3}, {'in': '1', 'tag': 11, 'priority': 4}"
#define RW_UP "{'tag': 10, 'in': '1', 'out': '2', 'new_tag': 11}"
#define RW_KEEP "{'tag': 10, 'in': '1', 'out': '2', 'new_tag': 10}"
#define KEEP(t) "{'tag': " #t ", 'in': '*', 'out': '*', 'new_tag': " #t "}"
#define CL_ANY \
	"{'in': '*', 'tag': 10, 'priority': 3}, {'in': '*', 'tag': 11, 'priority': 4}"

#endif /* __TAGGER_VERIFY_CHECK_H */
