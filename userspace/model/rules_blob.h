/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rules in a compact binary form, for a loader that keeps the rules it
 * checked (the data plane's state): written from a struct rules and read
 * back without any JSON, an order of magnitude faster than parsing the
 * document again. Not a file format: the writer and the reader are the
 * same tagger; a blob of another version is refused (NULL), as is one
 * whose counts, indexes or strings do not fit it.
 *
 * API:
 *   rules_to_blob(r, &len)          malloc'ed bytes
 *   rules_blob_decode(buf, len, name)   the rules as the blob gives
 *                                   them, not yet checked (lookups as
 *                                   rules_from_json builds them), or NULL
 *                                   without a message: not a blob of
 *                                   this tagger (cut, grown, a count the
 *                                   rest cannot hold, another version)
 *   rules_blob_decode_in(buf, len, name)   the same, its rule tables
 *                                   left where they lie in buf, which
 *                                   must outlive the rules (rules_free
 *                                   frees them not): no copy of 100,000
 *                                   rules
 *   rules_from_blob(buf, len, name) decoded and through rules_check(),
 *                                   the document's own check: NULL also
 *                                   after its "name: json.path: ..." 
 *   rules_switch_json(r, sw)        switch sw's "ports", "classify" and
 *                                   "rewrite" as tagger-rules/1 writes them
 *   rules_blob_layout(r, cls, rw)   the length of r's blob (what
 *                                   rules_to_blob writes); cls and rw, if
 *                                   not NULL (r->nsw each), get where each
 *                                   switch's classify and rewrite rules
 *                                   start in it. A blob decoded into r
 *                                   whose length is this is the very
 *                                   bytes rules_to_blob(r) writes
 */
#ifndef __TAGGER_RULES_BLOB_H
#define __TAGGER_RULES_BLOB_H

#include <stddef.h>
#include <jansson.h>

#include "model/rules.h"

void *rules_to_blob(const struct rules *r, size_t *len);
struct rules *rules_blob_decode(const void *buf, size_t len, const char *name);
struct rules *rules_blob_decode_in(const void *buf, size_t len,
				   const char *name);
struct rules *rules_from_blob(const void *buf, size_t len, const char *name);
json_t *rules_switch_json(const struct rules *r, int sw);
size_t rules_blob_layout(const struct rules *r, size_t *cls, size_t *rw);

#endif /* __TAGGER_RULES_BLOB_H */
