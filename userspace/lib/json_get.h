/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fields of a JSON object we built ourselves, for rendering plain output
 * from the same object -j prints (so the two cannot disagree; the show
 * documents are also what the metrics read). A null field reads as "",
 * 0, 0.0 or false. A field that is not there at all is a renderer asking
 * for a key its builder never writes (a typo): it reads as the same
 * default, and under $TAGGER_STRICT_FIELDS (the test suites set it) it
 * aborts naming the key, so every test that renders text catches it.
 *
 * API:
 *   jget_str(o, key) / jget_int(o, key) / jget_real(o, key) / jget_bool(o, key)
 *   jget_field(o, key)        the field, checked as above (NULL if absent)
 */
#ifndef __TAGGER_JSON_GET_H
#define __TAGGER_JSON_GET_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>

static inline json_t *jget_field(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v && json_is_object(o) && getenv("TAGGER_STRICT_FIELDS")) {
		fprintf(stderr,
			"tagger: a renderer reads \"%s\", which its "
			"document does not have\n",
			key);
		abort();
	}
	return v;
}

static inline const char *jget_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(jget_field(o, key));

	return s ? s : "";
}

static inline long long jget_int(const json_t *o, const char *key)
{
	return json_integer_value(jget_field(o, key));
}

static inline double jget_real(const json_t *o, const char *key)
{
	return json_number_value(jget_field(o, key));
}

static inline bool jget_bool(const json_t *o, const char *key)
{
	return json_is_true(jget_field(o, key));
}

#endif /* __TAGGER_JSON_GET_H */
