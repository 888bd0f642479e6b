/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compiled rules: a file holding a rules document's rules in their binary
 * form (rules_blob.h) and its "links", which a loader reads two orders of
 * magnitude faster than the JSON (no parser, no document). It holds the
 * whole network's rules, not one switch's: the union check before a live
 * update follows dependencies through every switch the rules name.
 *
 * Layout (little-endian, the host's; a file of the other order is refused
 * by its magic):
 *   header  magic "tagger-b" (8 bytes), version (u32, 1), flags (u32:
 *           1 if the document had "links", even none; no other bit),
 *           body length (u64), CRC-32 of the body (u32, zlib's), the
 *           number of links (u32)
 *   body    the links, each two strings "node:port" (u32 length, bytes),
 *           then the rules blob up to the end
 * The reader trusts nothing: a wrong magic, version, flag, length or CRC,
 * a link string longer than RULES_BIN_MAX_NAME or without "node:port",
 * more links than the body can hold, and a blob rules_blob_decode cannot
 * read are each an error with the offending field named; the rules it
 * decodes then go through rules_check(), the document's own check.
 *
 * API:
 *   rules_bin_is(path)               1 if the file starts with the magic,
 *                                    0 if not (or unreadable: the JSON
 *                                    reader reports it)
 *   rules_bin_links_ok(links)        -1 if links (a document's "links",
 *                                    or NULL) can be written, else the
 *                                    index of the first that cannot (not
 *                                    ["node:port", "node:port"] or a name
 *                                    too long); 0 if links is no array
 *   rules_bin_write(f, r, links)     write it: 0, -EINVAL (links not ok),
 *                                    -EIO (a write failed)
 *   rules_bin_write_blob(f, blob, len, links)   the same with the rules'
 *                                    blob made already (rules_to_blob's)
 *   rules_bin_load(path, &doc)       the rules and a document holding only
 *                                    their "links" (as rules_load's doc);
 *                                    NULL after input_err (exit 2)
 *   rules_bin_read(buf, len, name, &doc)   the same from memory
 *   rules_bin_load_blob(path, &doc, &mem, &blob, &len)   rules_bin_load
 *                                    with the rules' tables left in the
 *                                    file's bytes (mem: the caller frees
 *                                    it after the rules), and the file's
 *                                    rules blob where it is rules_to_blob's
 *                                    own bytes (blob, len: in mem), else
 *                                    blob NULL
 */
#ifndef __TAGGER_RULES_BIN_H
#define __TAGGER_RULES_BIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "model/rules.h"

#define RULES_BIN_MAGIC "tagger-b"
#define RULES_BIN_VERSION 1
#define RULES_BIN_MAX_NAME 1023 /* bytes of one "node:port" */

int rules_bin_is(const char *path);
int rules_bin_links_ok(json_t *links);
int rules_bin_write(FILE *f, const struct rules *r, json_t *links);
int rules_bin_write_blob(FILE *f, const void *blob, size_t blen, json_t *links);
struct rules *rules_bin_load(const char *path, json_t **doc);
struct rules *rules_bin_read(const void *buf, size_t len, const char *name,
			     json_t **doc);
struct rules *rules_bin_load_blob(const char *path, json_t **doc, void **mem,
				  const void **blob, size_t *len);

#endif /* __TAGGER_RULES_BIN_H */
