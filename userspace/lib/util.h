/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers every module uses.
 *
 * API:
 *   xmalloc/xcalloc/xrealloc/xstrdup  allocate or abort: out of memory is not
 *                                     an input error and has no recovery
 *   VEC_PUSH                          append to a growable array
 *   now_ns, now_seconds               the monotonic clock (CLOCK_MONOTONIC,
 *                                     the BPF side's bpf_ktime_get_ns())
 *   cpu_seconds(thread)               CPU time of the calling thread or of
 *                                     the whole process (-v phase timings)
 *   parse_uint                        strict decimal parse
 *   split_list                        "1,2,5-7" -> array of ints
 *   valid_name                        [A-Za-z0-9_.-]+, at most NAME_MAX_LEN
 */
#ifndef __TAGGER_UTIL_H
#define __TAGGER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Grow-by-doubling append; arr, n and cap are lvalues. */
#define VEC_PUSH(arr, n, cap, val)                                        \
	do {                                                              \
		if ((n) == (cap)) {                                       \
			(cap) = (cap) ? 2 * (cap) : 8;                    \
			(arr) = xrealloc((arr),                           \
					 (size_t)(cap) * sizeof(*(arr))); \
		}                                                         \
		(arr)[(n)++] = (val);                                     \
	} while (0)

uint64_t now_ns(void);
double now_seconds(void);
double cpu_seconds(bool thread);
bool parse_uint(const char *s, unsigned long max, unsigned long *out);
int split_list(const char *s, int lo, int hi, int **out);
bool valid_name(const char *s);

/* Bytes in a node or port name (README "Input limits"); "node:port" fits 512. */
#define NAME_MAX_LEN 255

#endif /* __TAGGER_UTIL_H */
