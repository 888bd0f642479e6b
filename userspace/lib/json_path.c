// SPDX-License-Identifier: GPL-2.0
/* JSON values with their location, for messages; see json_path.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/log.h"

static void jp_format_path(const struct jpath *c, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < c->len && i < JPATH_DEPTH && n < size; i++) {
		int w = c->path[i].key ?
				snprintf(buf + n, size - n, "%s%s",
					 i ? "." : "", c->path[i].key) :
				snprintf(buf + n, size - n, "[%zu]",
					 c->path[i].idx);

		n += w > 0 ? (size_t)w : 0;
	}
}

bool jp_err(struct jpath *c, const char *fmt, ...)
{
	char msg[1024], path[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jp_format_path(c, path, sizeof(path));
	if (c->len)
		input_err(c->file, 0, "%s: %s", path, msg);
	else
		input_err(c->file, 0, "%s", msg);
	return false;
}

/* Descend into key (".key") or index ("[i]"); jp_leave() restores the path. */
size_t jp_enter_key(struct jpath *c, const char *key)
{
	if (c->len < JPATH_DEPTH)
		c->path[c->len] = (struct jpath_seg){ .key = key };
	return c->len++;
}

size_t jp_enter_index(struct jpath *c, size_t i)
{
	if (c->len < JPATH_DEPTH)
		c->path[c->len] = (struct jpath_seg){ .idx = i };
	return c->len++;
}

void jp_leave(struct jpath *c, size_t old)
{
	c->len = old;
}

static const char *jp_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number with a fraction";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

bool jp_want_type(struct jpath *c, const json_t *v, json_type type,
		  const char *what)
{
	if (v && json_typeof(v) == type)
		return true;
	return jp_err(c, "expected %s, found %s", what, jp_type_name(v));
}

/* Every key of obj must be one of allowed (NULL-terminated). */
bool jp_known_keys(struct jpath *c, json_t *obj, const char *const *allowed)
{
	const char *key;
	json_t *v;
	int i;

	json_object_foreach(obj, key, v) {
		for (i = 0; allowed[i] && strcmp(allowed[i], key); i++)
			;
		if (!allowed[i])
			return jp_err(c, "unknown key \"%s\"", key);
	}
	return true;
}

/* obj[key] as an integer in [lo, hi]; what names the range in messages. */
bool jp_get_int(struct jpath *c, json_t *obj, const char *key, int lo, int hi,
		const char *what, int *out)
{
	json_t *v = json_object_get(obj, key);
	size_t old;
	bool ok = true;

	if (!v)
		return jp_err(c, "missing \"%s\"", key);
	old = jp_enter_key(c, key);
	if (!jp_want_type(c, v, JSON_INTEGER, "an integer"))
		ok = false;
	else if (json_integer_value(v) < lo || json_integer_value(v) > hi)
		ok = jp_err(c, "%lld is not %s (%d..%d)",
			    (long long)json_integer_value(v), what, lo, hi);
	else
		*out = (int)json_integer_value(v);
	jp_leave(c, old);
	return ok;
}
