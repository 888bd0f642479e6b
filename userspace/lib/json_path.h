/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a parsed JSON document (jansson) with the location of every
 * value for messages: "file: switches.T1.rewrite[3].in: message". The path
 * is a stack of keys and indexes, formatted only when there is an error,
 * since a parser visits every field of every entry.
 *
 * API:
 *   struct jpath jp = { .file = name };
 *   old = jp_enter_key(&jp, key) / jp_enter_index(&jp, i); ...; jp_leave(&jp, old)
 *   jp_err(&jp, fmt, ...)                  message at the current path; false
 *   jp_want_type(&jp, v, type, "an array")  type check with a message
 *   jp_known_keys(&jp, obj, allowed)        every key in the NULL-ended list
 *   jp_get_int(&jp, obj, key, lo, hi, what, &out)   a present integer in range
 * Keys must outlive their use (jansson's own strings or literals).
 */
#ifndef __TAGGER_JSON_PATH_H
#define __TAGGER_JSON_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#define JPATH_DEPTH 16

struct jpath_seg {
	const char *key; /* NULL for an array index */
	size_t idx;
};

struct jpath {
	const char *file;
	struct jpath_seg path[JPATH_DEPTH];
	size_t len;
};

bool jp_err(struct jpath *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
size_t jp_enter_key(struct jpath *c, const char *key);
size_t jp_enter_index(struct jpath *c, size_t i);
void jp_leave(struct jpath *c, size_t old);
bool jp_want_type(struct jpath *jp, const json_t *v, json_type type,
		  const char *what);
bool jp_known_keys(struct jpath *jp, json_t *obj, const char *const *allowed);
bool jp_get_int(struct jpath *jp, json_t *obj, const char *key, int lo, int hi,
		const char *what, int *out);

#endif /* __TAGGER_JSON_PATH_H */
