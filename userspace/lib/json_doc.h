/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document of one of tagger's own formats (rules, maps) read
 * whole: one read under a size limit, no NUL byte (jansson would take it
 * for the end), every top-level key the reader does not read held to
 * max_ignored bytes before jansson builds it (json_skim.h: jansson needs
 * 10-20 times the text in memory), duplicate keys refused. Errors are
 * "file:line:col: message" for the JSON syntax, "file: message" for the
 * limits (exit 2).
 *
 * API:
 *   json_doc_load(path, max, read, max_ignored)
 *       the document (new reference), or NULL after the message; read
 *       lists the top-level keys the reader reads, NULL-ended (they may
 *       hold up to max bytes)
 */
#ifndef __TAGGER_JSON_DOC_H
#define __TAGGER_JSON_DOC_H

#include <stddef.h>
#include <jansson.h>

json_t *json_doc_load(const char *path, size_t max, const char *const *read,
		      size_t max_ignored);

#endif /* __TAGGER_JSON_DOC_H */
