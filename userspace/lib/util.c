// SPDX-License-Identifier: GPL-2.0
/* Allocation, clock and string helpers; see util.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util.h"

static void oom(size_t n)
{
	fprintf(stderr, "Error: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom(strlen(s));
	return d;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

double now_seconds(void)
{
	return now_ns() / 1e9;
}

double cpu_seconds(bool thread)
{
	struct timespec ts;

	clock_gettime(thread ? CLOCK_THREAD_CPUTIME_ID :
			       CLOCK_PROCESS_CPUTIME_ID,
		      &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

/* Parse "a,b,c-d" into ints within [lo, hi]; returns the count or -1. */
int split_list(const char *s, int lo, int hi, int **out)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	int n = 0, cap = 0, *arr = NULL;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long a, b;
		char *dash = strchr(tok, '-');

		if (dash)
			*dash = '\0';
		if (!parse_uint(tok, hi, &a) ||
		    (dash && !parse_uint(dash + 1, hi, &b)))
			goto bad;
		if (!dash)
			b = a;
		if ((int)a < lo || a > b)
			goto bad;
		for (; a <= b; a++)
			VEC_PUSH(arr, n, cap, (int)a);
	}
	free(copy);
	if (!n) {
		free(arr);
		return -1;
	}
	*out = arr;
	return n;
bad:
	free(copy);
	free(arr);
	return -1;
}

/*
 * Names and ports of the topology grammar: [A-Za-z0-9_.-]+, but not "." or
 * "..": a node name becomes a directory (bpffs pins, the pause agent's
 * state) and those two would name the directory itself or its parent.
 */
bool valid_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, "..") ||
	    strlen(s) > NAME_MAX_LEN)
		return false;
	for (; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return false;
	}
	return true;
}
