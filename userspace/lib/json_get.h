/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fields of a JSON object we built ourselves, for rendering plain output
 * from the same object -j prints (so the two cannot disagree). A missing
 * field reads as "", 0, 0.0 or false: the renderers know what they built.
 *
 * API:
 *   jget_str(o, key) / jget_int(o, key) / jget_real(o, key) / jget_bool(o, key)
 */
#ifndef __TAGGER_JSON_GET_H
#define __TAGGER_JSON_GET_H

#include <stdbool.h>
#include <jansson.h>

static inline const char *jget_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static inline long long jget_int(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static inline double jget_real(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static inline bool jget_bool(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

#endif /* __TAGGER_JSON_GET_H */
