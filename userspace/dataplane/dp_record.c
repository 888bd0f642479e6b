// SPDX-License-Identifier: GPL-2.0
/* A node's state record kept in a pinned array map; see dp_record.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <zlib.h>

#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "lib/digest.h"
#include "lib/json_skim.h"
#include "lib/log.h"
#include "lib/util.h"

#define STATE_CHUNK DP_STATE_CHUNK
#define STATE_MAGIC 0x74677273u /* "tgrs" */
#define STATE_SLACK(n) ((n) / 8 + 2)

/*
 * Chunk 0 of a state map. Older taggers read magic and len only (and
 * write zeros after them); quiet and digest are marks set after the
 * record is written (dp_record_quiet_mark, dp_record_digest_mark), none
 * in a record as written. digest_sum is the CRC-32 of len and digest: a
 * reader that reads the chunk while it is rewritten (one copy, no lock)
 * finds it wrong and takes no digest.
 */
struct state_head {
	uint32_t magic;
	uint32_t len;
	uint64_t quiet; /* generation + 1 whose idle table is quiescent */
	char digest[DIGEST_STR]; /* the rules' (dp_packed.h), "" if none */
	uint32_t digest_sum;
};

_Static_assert(sizeof(struct state_head) <= STATE_CHUNK, "head in chunk 0");

/* Write text from chunk k on; 0 or -errno. */
static int write_chunks(int fd, uint32_t k, const char *text, size_t len,
			char *chunk)
{
	size_t off, n;

	for (off = 0; off < len; off += STATE_CHUNK, k++) {
		n = len - off < STATE_CHUNK ? len - off : STATE_CHUNK;
		memset(chunk + n, 0, STATE_CHUNK - n);
		memcpy(chunk, text + off, n);
		if (bpf_map_update_elem(fd, &k, chunk, BPF_ANY))
			return -errno;
	}
	return 0;
}

/*
 * The record's text; extra bytes (the rules, dp_state_rules) follow it
 * in the same map from chunk "rules_at"[0] on, "rules_at"[1] of them, so
 * readers of the record (every command, the anchor search) skip them.
 */
static char *record_text(json_t *state, size_t extra_len, uint32_t *at)
{
	json_t *rec = json_copy(state);
	char *text;

	json_object_del(rec, "rules_at");
	*at = 0;
	if (extra_len) {
		/* Where they start depends on the record's length. */
		text = json_dumps(rec, JSON_COMPACT);
		*at = 1 + (strlen(text) + 64 + STATE_CHUNK - 1) / STATE_CHUNK;
		free(text);
		json_object_set_new(rec, "rules_at",
				    json_pack("[I,I]", (json_int_t)*at,
					      (json_int_t)extra_len));
	}
	text = json_dumps(rec, JSON_COMPACT);
	json_decref(rec);
	return text;
}

/* Chunks after chunk 0 that a record of len bytes and its extra take. */
static size_t record_chunks(uint32_t at, size_t len, size_t extra_len)
{
	return at ? at - 1 + (extra_len + STATE_CHUNK - 1) / STATE_CHUNK :
		    (len + STATE_CHUNK - 1) / STATE_CHUNK;
}

int dp_record_write(const char *dir, const char *name, json_t *rec,
		    const void *extra, size_t extra_len)
{
	uint32_t at, k;
	char *text = record_text(rec, extra_len, &at);
	size_t len = strlen(text);
	size_t nchunks = record_chunks(at, len, extra_len);
	struct state_head head = { .magic = STATE_MAGIC, .len = (uint32_t)len };
	char *chunk = xcalloc(1, STATE_CHUNK);
	int fd = -1, err = 0;

	if (len + extra_len > DP_RECORD_MAX) {
		err = -EFBIG;
		goto out;
	}
	/* An inner map of the anchor (dp_anchor.h): any size fits it. */
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = BPF_F_INNER_MAP);
	/* Room to grow: the next update but one rewrites it in place. */
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tagger_state",
			    sizeof(uint32_t), STATE_CHUNK,
			    nchunks + 1 + STATE_SLACK(nchunks), &mo);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	memcpy(chunk, &head, sizeof(head));
	k = 0;
	if (bpf_map_update_elem(fd, &k, chunk, BPF_ANY))
		err = -errno;
	if (!err)
		err = write_chunks(fd, 1, text, len, chunk);
	if (!err && at)
		err = write_chunks(fd, at, extra, extra_len, chunk);
	/*
	 * Pinned whole under a temporary name, then renamed over the old one:
	 * a reader (or a loader killed here) sees the old or the new record,
	 * never none. A temporary pin left by a killed loader goes first.
	 */
	if (!err)
		err = dp_record_pin_fd(dir, name, fd);
out:
	if (err && fd >= 0)
		close(fd);
	free(chunk);
	free(text);
	return err ? err : fd;
}

/* Chunks k.. of buf (one run of the batch), text copied in, zero padded. */
static void fill_chunks(char *buf, uint32_t *keys, uint32_t k, const void *p,
			size_t len, uint32_t *n)
{
	size_t off, m;

	for (off = 0; off < len; off += STATE_CHUNK, k++, (*n)++) {
		m = len - off < STATE_CHUNK ? len - off : STATE_CHUNK;
		memcpy(buf + (size_t)*n * STATE_CHUNK, (const char *)p + off,
		       m);
		keys[*n] = k;
	}
}

static int put_head(int fd, const struct state_head *head)
{
	char *chunk = xcalloc(1, STATE_CHUNK);
	uint32_t zero = 0;
	int err;

	memcpy(chunk, head, sizeof(*head));
	err = bpf_map_update_elem(fd, &zero, chunk, BPF_ANY) ? -errno : 0;
	free(chunk);
	return err;
}

/*
 * Invalid first (a reader, whichever tagger it is, finds no record there),
 * the body in one batch, the valid header last: killed at any point the
 * map holds the new record whole or none.
 */
int dp_record_rewrite_fd(int fd, json_t *state, const void *extra,
			 size_t extra_len)
{
	struct bpf_map_info mi = { 0 };
	__u32 ilen = sizeof(mi), n = 0, m;
	uint32_t at, *keys, k;
	char *text = record_text(state, extra_len, &at), *buf;
	size_t len = strlen(text), nchunks = record_chunks(at, len, extra_len),
	       whole;
	int err;

	if (bpf_obj_get_info_by_fd(fd, &mi, &ilen))
		err = -errno;
	else if (mi.type != BPF_MAP_TYPE_ARRAY ||
		 mi.value_size != STATE_CHUNK || nchunks + 1 > mi.max_entries ||
		 len + extra_len > DP_RECORD_MAX)
		err = -ENOSPC;
	else
		err = put_head(fd, &(struct state_head){ 0 });
	if (err) {
		free(text);
		return err;
	}
	/*
	 * The extra bytes' whole chunks are written from where they lie
	 * (one batch, no copy of 600 KB); the text and their last, partial
	 * chunk from a padded copy (a second batch).
	 */
	whole = at ? extra_len / STATE_CHUNK : 0;
	buf = xcalloc(nchunks - whole, STATE_CHUNK);
	keys = xcalloc(nchunks, sizeof(*keys));
	fill_chunks(buf, keys, 1, text, len, &n);
	if (at)
		fill_chunks(buf, keys, at + whole,
			    (const char *)extra + whole * STATE_CHUNK,
			    extra_len % STATE_CHUNK, &n);
	if (n && bpf_map_update_batch(fd, keys, buf, &n, NULL))
		err = -errno;
	for (k = 0; k < whole; k++)
		keys[k] = at + k;
	m = whole;
	if (!err && m && bpf_map_update_batch(fd, keys, extra, &m, NULL))
		err = -errno;
	if (!err)
		err = put_head(fd,
			       &(struct state_head){ .magic = STATE_MAGIC,
						     .len = (uint32_t)len });
	free(keys);
	free(buf);
	free(text);
	return err;
}

int dp_record_pin_fd(const char *dir, const char *name, int fd)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 64], tmp_name[NAME_MAX + 1];

	snprintf(tmp_name, sizeof(tmp_name), "%s_tmp", name);
	if (dp_pin_path(path, sizeof(path), dir, name) ||
	    dp_pin_path(tmp, sizeof(tmp), dir, tmp_name))
		return -ENAMETOOLONG;
	if (unlink(tmp) && errno != ENOENT)
		return -errno;
	if (bpf_obj_pin(fd, tmp) || rename(tmp, path))
		return -errno;
	return 0;
}

static int get_head(int fd, struct state_head *head)
{
	char *chunk = xmalloc(STATE_CHUNK);
	uint32_t zero = 0;
	int err = bpf_map_lookup_elem(fd, &zero, chunk) ? -errno : 0;

	memcpy(head, chunk, sizeof(*head));
	free(chunk);
	return err;
}

int64_t dp_record_quiet(int fd)
{
	struct state_head head;

	if (get_head(fd, &head) || head.magic != STATE_MAGIC || !head.quiet)
		return -1;
	return (int64_t)(head.quiet - 1);
}

int dp_record_quiet_mark(int fd, int64_t gen)
{
	struct state_head head;
	int err = get_head(fd, &head);

	if (err)
		return err;
	if (head.magic != STATE_MAGIC)
		return -EINVAL;
	head.quiet = (uint64_t)gen + 1;
	return put_head(fd, &head);
}

static uint32_t digest_sum(const struct state_head *h)
{
	uLong c = crc32(0L, Z_NULL, 0);

	c = crc32(c, (const Bytef *)&h->len, sizeof(h->len));
	return (uint32_t)crc32(c, (const Bytef *)h->digest, sizeof(h->digest));
}

int dp_record_digest_mark(int fd, const char *hex)
{
	struct state_head head;
	int err = get_head(fd, &head);

	if (err)
		return err;
	if (head.magic != STATE_MAGIC || strlen(hex) >= sizeof(head.digest))
		return -EINVAL;
	memset(head.digest, 0, sizeof(head.digest));
	strcpy(head.digest, hex);
	head.digest_sum = digest_sum(&head);
	return put_head(fd, &head);
}

int dp_record_digest(int fd, char *hex)
{
	struct state_head head;

	hex[0] = '\0';
	if (get_head(fd, &head) || head.magic != STATE_MAGIC ||
	    !head.digest[0] || head.digest[sizeof(head.digest) - 1] ||
	    head.digest_sum != digest_sum(&head))
		return -ENOENT;
	strcpy(hex, head.digest);
	return 0;
}

json_t *dp_record_load(const char *dir)
{
	return dp_record_load_name(dir, DP_STATE_CUR);
}

/* The state map pinned as dir/name: an fd, or -1 with errno. */
static int pin_fd(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	struct stat st;

	if (dp_pin_path(path, sizeof(path), dir, name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (lstat(path, &st))
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = ELOOP; /* pins are regular inodes, never symlinks */
		return -1;
	}
	return bpf_obj_get(path);
}

json_t *dp_record_load_name(const char *dir, const char *name)
{
	int fd = pin_fd(dir, name);
	json_t *doc;

	if (fd < 0)
		return NULL;
	doc = dp_record_read_fd(fd);
	close(fd);
	return doc;
}

/*
 * Chunks k.. in one BPF_MAP_LOOKUP_BATCH (its in_batch is the key before
 * the first it returns); NULL if the kernel gives fewer or other ones.
 */
static char *read_batch(int fd, uint32_t k, size_t len)
{
	__u32 n = (len + STATE_CHUNK - 1) / STATE_CHUNK, count = n,
	      prev = k - 1, next, *keys = xmalloc(n * sizeof(*keys));
	char *text = xmalloc((size_t)n * STATE_CHUNK + 1);
	int err = bpf_map_lookup_batch(fd, &prev, &next, keys, text, &count,
				       NULL);

	if ((err && errno != ENOENT) || count != n || keys[0] != k ||
	    keys[n - 1] != k + n - 1) {
		free(text);
		text = NULL;
	}
	free(keys);
	return text;
}

/* len bytes from chunk k on, NUL-terminated; NULL with errno. */
static char *read_chunks(int fd, uint32_t k, size_t len)
{
	char *chunk, *text;
	size_t off, n;

	/* Many chunks (the rules): one syscall, not one each. */
	if (len > 2 * STATE_CHUNK && k >= 1) {
		text = read_batch(fd, k, len);
		if (text) {
			text[len] = '\0';
			return text;
		}
	}
	chunk = xmalloc(STATE_CHUNK);
	text = xmalloc(len + 1);

	for (off = 0; off < len; off += STATE_CHUNK, k++) {
		n = len - off < STATE_CHUNK ? len - off : STATE_CHUNK;
		if (bpf_map_lookup_elem(fd, &k, chunk)) {
			free(text);
			text = NULL;
			break;
		}
		memcpy(text + off, chunk, n);
	}
	free(chunk);
	if (text)
		text[len] = '\0';
	return text;
}

static json_t *parse_text(char *text)
{
	json_t *doc = text ? json_loads(text, 0, NULL) : NULL;

	if (text && !doc)
		errno = EINVAL;
	free(text);
	return doc;
}

/* The record's text, NUL-terminated (*len bytes); NULL with errno. */
static char *read_text(int fd, size_t *len)
{
	struct state_head head;
	char *chunk = xmalloc(STATE_CHUNK);
	uint32_t k = 0;
	int err;

	err = bpf_map_lookup_elem(fd, &k, chunk);
	memcpy(&head, chunk, sizeof(head));
	free(chunk);
	if (err)
		return NULL;
	if (head.magic != STATE_MAGIC || head.len > DP_RECORD_MAX) {
		errno = EINVAL;
		return NULL;
	}
	*len = head.len;
	return read_chunks(fd, 1, head.len);
}

json_t *dp_record_read_fd(int fd)
{
	size_t len;

	return parse_text(read_text(fd, &len));
}

struct peek {
	const char *const *keys;
	json_t *out;
};

/* A member peek wants: its value parsed alone ("key[0]": its first element). */
static int peek_member(const char *key, size_t keylen, size_t span, void *arg)
{
	struct peek *p = arg;
	const char *v = key + keylen + 1, *const * k;
	size_t n;
	json_t *val;

	for (k = p->keys; *k; k++) {
		n = strcspn(*k, "[");
		if (n != keylen || strncmp(*k, key, n))
			continue;
		while (*v == ' ' || *v == ':' || *v == '\n' || *v == '\t' ||
		       *v == '\r')
			v++;
		if ((*k)[n] == '[') /* the array's first element only */
			val = *v == '[' ?
				      json_loadb(v + 1, span - 1,
						 JSON_DECODE_ANY |
							 JSON_DISABLE_EOF_CHECK,
						 NULL) :
				      NULL;
		else
			val = json_loadb(v, span, JSON_DECODE_ANY, NULL);
		if (val)
			json_object_set_new(p->out, *k, val);
	}
	return 0;
}

json_t *dp_record_peek_fd(int fd, const char *const *keys)
{
	struct peek p = { keys, NULL };
	size_t len;
	char *text = read_text(fd, &len);

	if (!text)
		return NULL;
	p.out = json_object();
	json_skim_top(text, len, peek_member, &p);
	free(text);
	return p.out;
}

json_t *dp_record_peek(const char *dir, const char *name,
		       const char *const *keys)
{
	int fd = pin_fd(dir, name);
	json_t *doc;

	if (fd < 0)
		return NULL;
	doc = dp_record_peek_fd(fd, keys);
	close(fd);
	return doc;
}

void *dp_record_extra_fd(int fd, json_t *rec, size_t *len)
{
	json_t *at = json_object_get(rec, "rules_at");
	json_int_t k = json_integer_value(json_array_get(at, 0));
	json_int_t n = json_integer_value(json_array_get(at, 1));

	if (k < 1 || n < 1 || n > DP_RECORD_MAX) {
		errno = ENOENT;
		return NULL;
	}
	*len = n;
	return read_chunks(fd, k, n);
}

void *dp_record_extra(const char *dir, json_t *rec, size_t *len)
{
	static const char *const names[] = { DP_STATE_CUR, DP_STATE_NEXT };
	void *extra = NULL;
	json_t *other;
	int k, fd;

	errno = ENOENT;
	for (k = 0; !extra && k < 2; k++) {
		fd = dp_pin_open(dir, names[k]);
		if (fd < 0)
			continue;
		other = dp_record_read_fd(fd);
		if (other && json_equal(other, rec))
			extra = dp_record_extra_fd(fd, other, len);
		json_decref(other);
		close(fd);
	}
	return extra;
}

/* Fields of the record's schema (dp_state.h says what they mean). */
static int netns_self(struct stat *st)
{
	return stat("/proc/self/ns/net", st);
}

bool dp_record_netns_here(json_t *rec)
{
	json_t *ns = json_object_get(rec, "netns");
	struct stat st;

	return json_is_object(ns) && !netns_self(&st) &&
	       (uint64_t)json_integer_value(json_object_get(ns, "dev")) ==
		       st.st_dev &&
	       (uint64_t)json_integer_value(json_object_get(ns, "ino")) ==
		       st.st_ino;
}

const char *dp_record_phase(json_t *rec)
{
	return json_string_value(json_object_get(rec, "phase")) ?: "attached";
}

int64_t dp_record_gen(json_t *rec)
{
	json_t *g = json_object_get(rec, "generation");

	return json_is_integer(g) ? json_integer_value(g) : -1;
}
