/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A look at the top level of a JSON text before jansson builds it: the
 * byte span of each member's value, without allocating anything. jansson
 * needs about 40 bytes per array element, so a 100 MB value that a reader
 * ignores anyway would cost 2 GB; skimming lets the reader refuse it first.
 *
 * Only the structure is followed (strings, brackets); anything malformed
 * ends the skim quietly and jansson's parse reports the real error. A value
 * cut short by the end of the text spans to the end.
 *
 * API:
 *   json_skim_top(buf, len, fn, arg)   fn(key, keylen, span, arg) per member
 *                                      of a top-level object, in order; a
 *                                      nonzero return stops and is returned
 */
#ifndef __TAGGER_JSON_SKIM_H
#define __TAGGER_JSON_SKIM_H

#include <stddef.h>

typedef int (*json_skim_fn)(const char *key, size_t keylen, size_t span,
			    void *arg);

int json_skim_top(const char *buf, size_t len, json_skim_fn fn, void *arg);

#endif /* __TAGGER_JSON_SKIM_H */
