// SPDX-License-Identifier: GPL-2.0
/* Top-level member spans of a JSON text; see json_skim.h. */
#include <stdbool.h>

#include "lib/json_skim.h"

static size_t skip_ws(const char *b, size_t len, size_t i)
{
	while (i < len &&
	       (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
		i++;
	return i;
}

/* b[i] is '"': the index after the closing quote (len if there is none). */
static size_t skip_string(const char *b, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (b[i] == '\\')
			i++;
		else if (b[i] == '"')
			return i + 1;
	}
	return len;
}

/* One value from b[i]: nested brackets are counted, strings skipped. */
static size_t skip_value(const char *b, size_t len, size_t i)
{
	size_t depth = 0;

	while (i < len) {
		char c = b[i];

		if (c == '"') {
			i = skip_string(b, len, i);
			if (!depth)
				return i;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return i;
			if (!--depth)
				return i + 1;
		} else if (!depth && (c == ',' || c == ' ' || c == '\t' ||
				      c == '\n' || c == '\r')) {
			return i;
		}
		i++;
	}
	return len;
}

int json_skim_top(const char *b, size_t len, json_skim_fn fn, void *arg)
{
	size_t i = skip_ws(b, len, 0), key, keyend, val;
	int ret;

	if (i >= len || b[i] != '{')
		return 0;
	for (i++;;) {
		i = skip_ws(b, len, i);
		if (i >= len || b[i] != '"')
			return 0;
		key = i + 1;
		i = skip_string(b, len, i);
		keyend = i > key ? i - 1 : key;
		i = skip_ws(b, len, i);
		if (i >= len || b[i] != ':')
			return 0;
		val = skip_ws(b, len, i + 1);
		i = skip_value(b, len, val);
		ret = fn(b + key, keyend - key, i - val, arg);
		if (ret)
			return ret;
		i = skip_ws(b, len, i);
		if (i >= len || b[i] != ',')
			return 0;
		i++;
	}
}
