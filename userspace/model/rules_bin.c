// SPDX-License-Identifier: GPL-2.0
/* The compiled rules file; see rules_bin.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "lib/lines.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules_bin.h"
#include "model/rules_blob.h"

struct bin_head {
	char magic[8];
	uint32_t version;
	uint32_t flags;
	uint64_t body_len;
	uint32_t crc;
	uint32_t nlinks;
};

_Static_assert(sizeof(struct bin_head) == 32, "header layout");

#define BIN_F_LINKS 1u /* the document had "links" (maybe none) */

int rules_bin_is(const char *path)
{
	char magic[8];
	FILE *f = fopen(path, "rb");
	int is;

	if (!f)
		return 0;
	is = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	     !memcmp(magic, RULES_BIN_MAGIC, sizeof(magic));
	fclose(f);
	return is;
}

static uint32_t crc_of(const void *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);
	const Bytef *b = p;

	/* zlib takes lengths as uInt: feed big bodies in pieces */
	while (n) {
		uInt k = n > (1u << 30) ? 1u << 30 : (uInt)n;

		c = crc32(c, b, k);
		b += k;
		n -= k;
	}
	return (uint32_t)c;
}

static void put(uint8_t **buf, size_t *len, size_t *cap, const void *p,
		size_t n)
{
	if (*len + n > *cap) {
		*cap = *cap * 2 + n + 4096;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, p, n);
	*len += n;
}

static void put_str(uint8_t **buf, size_t *len, size_t *cap, const char *s)
{
	uint32_t n = strlen(s);

	put(buf, len, cap, &n, sizeof(n));
	put(buf, len, cap, s, n);
}

static bool end_ok(json_t *v)
{
	const char *s = json_string_value(v), *c;

	return s && strlen(s) <= RULES_BIN_MAX_NAME && (c = strchr(s, ':')) &&
	       c > s && c[1];
}

int rules_bin_links_ok(json_t *links)
{
	json_t *l;
	size_t i;

	if (!links)
		return -1;
	if (!json_is_array(links))
		return 0;
	json_array_foreach(links, i, l) {
		if (!json_is_array(l) || json_array_size(l) != 2 ||
		    !end_ok(json_array_get(l, 0)) ||
		    !end_ok(json_array_get(l, 1)))
			return (int)i;
	}
	return -1;
}

int rules_bin_write(FILE *f, const struct rules *r, json_t *links)
{
	size_t blen;
	void *blob = rules_to_blob(r, &blen);
	int err = rules_bin_write_blob(f, blob, blen, links);

	free(blob);
	return err;
}

int rules_bin_write_blob(FILE *f, const void *blob, size_t blen, json_t *links)
{
	struct bin_head h = { .version = RULES_BIN_VERSION };
	size_t len = 0, cap = 0, i;
	uint8_t *body = NULL;
	json_t *l;
	bool ok;

	if (rules_bin_links_ok(links) >= 0)
		return -EINVAL;
	if (json_is_array(links))
		h.flags |= BIN_F_LINKS;
	json_array_foreach(links, i, l) {
		put_str(&body, &len, &cap,
			json_string_value(json_array_get(l, 0)));
		put_str(&body, &len, &cap,
			json_string_value(json_array_get(l, 1)));
		h.nlinks++;
	}
	put(&body, &len, &cap, blob, blen);
	memcpy(h.magic, RULES_BIN_MAGIC, sizeof(h.magic));
	h.body_len = len;
	h.crc = crc_of(body, len);
	ok = fwrite(&h, 1, sizeof(h), f) == sizeof(h) &&
	     fwrite(body, 1, len, f) == len;
	free(body);
	return ok ? 0 : -EIO;
}

/* One "node:port" at *off; NULL after input_err. */
static json_t *get_end(const uint8_t *b, size_t len, size_t *off,
		       const char *name, uint32_t k)
{
	uint32_t n;
	char s[RULES_BIN_MAX_NAME + 1];
	const char *c;

	if (len - *off < sizeof(n)) {
		input_err(name, 0, "links[%u]: truncated", k);
		return NULL;
	}
	memcpy(&n, b + *off, sizeof(n));
	*off += sizeof(n);
	if (n > RULES_BIN_MAX_NAME || n > len - *off) {
		input_err(name, 0,
			  "links[%u]: a name of %u bytes (at most %d, and "
			  "within the file)",
			  k, n, RULES_BIN_MAX_NAME);
		return NULL;
	}
	memcpy(s, b + *off, n);
	s[n] = '\0';
	*off += n;
	c = strchr(s, ':');
	if (strlen(s) != n || !c || c == s || !c[1]) {
		input_err(name, 0, "links[%u]: expected \"node:port\"", k);
		return NULL;
	}
	return json_string(s);
}

static json_t *get_links(const uint8_t *b, size_t len, size_t *off,
			 uint32_t nlinks, const char *name)
{
	json_t *links, *a, *z;
	uint32_t k;

	/* Each link takes at least 2 x (4 + 3) bytes: no huge allocation. */
	if (nlinks > len / 14) {
		input_err(name, 0, "%u links do not fit in %zu bytes", nlinks,
			  len);
		return NULL;
	}
	links = json_array();
	for (k = 0; k < nlinks; k++) {
		a = get_end(b, len, off, name, k);
		z = a ? get_end(b, len, off, name, k) : NULL;
		if (!z) {
			json_decref(a);
			json_decref(links);
			return NULL;
		}
		json_array_append_new(links, json_pack("[o,o]", a, z));
	}
	return links;
}

static bool head_ok(const struct bin_head *h, size_t len, const char *name)
{
	if (memcmp(h->magic, RULES_BIN_MAGIC, sizeof(h->magic))) {
		input_err(name, 0, "not a compiled rules file (magic)");
		return false;
	}
	if (h->version != RULES_BIN_VERSION || (h->flags & ~BIN_F_LINKS) ||
	    (!(h->flags & BIN_F_LINKS) && h->nlinks)) {
		input_err(name, 0,
			  "compiled rules of version %u (flags %#x): this "
			  "tagger reads version %d; compile them again",
			  h->version, h->flags, RULES_BIN_VERSION);
		return false;
	}
	if (h->body_len != len - sizeof(*h)) {
		input_err(name, 0,
			  "truncated or extended: the header says %llu bytes "
			  "follow it, %zu do",
			  (unsigned long long)h->body_len, len - sizeof(*h));
		return false;
	}
	return true;
}

/* The rules from the file's bytes; *at: where their blob starts. */
static struct rules *bin_read(const void *buf, size_t len, const char *name,
			      json_t **doc, size_t *at, bool keep)
{
	const uint8_t *body = (const uint8_t *)buf + sizeof(struct bin_head);
	struct bin_head h;
	struct rules *r;
	json_t *links;
	size_t off = 0;

	if (len < sizeof(h)) {
		input_err(name, 0, "truncated: %zu bytes, no header", len);
		return NULL;
	}
	memcpy(&h, buf, sizeof(h));
	if (!head_ok(&h, len, name))
		return NULL;
	len -= sizeof(h);
	if (crc_of(body, len) != h.crc) {
		input_err(name, 0, "damaged: the checksum does not match");
		return NULL;
	}
	links = get_links(body, len, &off, h.nlinks, name);
	if (!links)
		return NULL;
	r = keep ? rules_blob_decode_in(body + off, len - off, name) :
		   rules_blob_decode(body + off, len - off, name);
	if (!r)
		input_err(name, 0,
			  "the rules at byte %zu are damaged or of another "
			  "tagger (compile them again)",
			  sizeof(h) + off);
	if (!r || !rules_check(r)) {
		rules_free(r);
		json_decref(links);
		return NULL;
	}
	*doc = json_object();
	if (h.flags & BIN_F_LINKS)
		json_object_set(*doc, "links", links);
	json_decref(links);
	*at = sizeof(h) + off;
	return r;
}

struct rules *rules_bin_read(const void *buf, size_t len, const char *name,
			     json_t **doc)
{
	size_t at;

	return bin_read(buf, len, name, doc, &at, false);
}

struct rules *rules_bin_load_blob(const char *path, json_t **doc, void **mem,
				  const void **blob, size_t *len)
{
	struct lines lr;
	struct rules *r;
	size_t at = 0;

	*mem = NULL;
	*blob = NULL;
	*len = 0;
	if (lines_open_max(&lr, path, RULES_MAX_BYTES))
		return NULL;
	r = bin_read(lr.buf, lr.len, path, doc, &at, true);
	if (r) {
		*mem = lr.buf; /* the rules' tables lie in it: no copy */
		lr.buf = NULL;
	}
	if (r && rules_blob_layout(r, NULL, NULL) == lr.len - at) {
		*blob = (char *)*mem + at;
		*len = lr.len - at;
	}
	lines_close(&lr);
	return r;
}

struct rules *rules_bin_load(const char *path, json_t **doc)
{
	struct lines lr;
	struct rules *r;

	if (lines_open_max(&lr, path, RULES_MAX_BYTES))
		return NULL;
	r = rules_bin_read(lr.buf, lr.len, path, doc);
	lines_close(&lr);
	return r;
}
