// SPDX-License-Identifier: GPL-2.0
/* Line and token reader for the text formats; see lines.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/lines.h"
#include "lib/log.h"
#include "lib/util.h"

#define TOO_BIG (-2)

/*
 * Read at most max bytes. A regular file's size is known up front; pipes
 * and devices are read until max, so /dev/urandom cannot eat the memory.
 * Reading stops at the first chunk with a NUL byte: no text format has
 * one, and the parser reports the line it is on (/dev/zero ends at once).
 */
static int slurp(FILE *f, size_t max, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	struct stat st;
	char *buf;

	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size > max)
			return TOO_BIG;
		if ((size_t)st.st_size >= cap)
			cap = (size_t)st.st_size + 1;
	}
	buf = xmalloc(cap + 1);
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		bool nul = memchr(buf + n, '\0', r);

		n += r;
		if (n > max) {
			free(buf);
			return TOO_BIG;
		}
		if (nul)
			break;
		if (n == cap) {
			/* one byte past max is enough to know it is too big */
			cap = cap < max / 2 ? cap * 2 : max + 1;
			buf = xrealloc(buf, cap + 1);
		}
	}
	if (ferror(f)) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int lines_open_max(struct lines *lr, const char *path, size_t max)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int err;

	memset(lr, 0, sizeof(*lr));
	lr->name = path;
	if (!f) {
		input_err(path, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	err = slurp(f, max, &lr->buf, &lr->len);
	if (f != stdin)
		fclose(f);
	if (err == TOO_BIG) {
		input_err(path, 0, "larger than the input limit of %zu MiB",
			  max >> 20);
		return -1;
	}
	if (err) {
		input_err(path, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int lines_open(struct lines *lr, const char *path)
{
	return lines_open_max(lr, path, LINES_MAX_BYTES);
}

void lines_open_mem(struct lines *lr, const char *name, const char *buf,
		    size_t len)
{
	memset(lr, 0, sizeof(*lr));
	lr->name = name;
	lr->buf = xmalloc(len + 1);
	memcpy(lr->buf, buf, len);
	lr->buf[len] = '\0';
	lr->len = len;
}

static inline int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Tokenise in place: separators become NUL, so tokens stay valid until
 * lines_close() and the reader makes exactly one pass.
 */
int lines_next(struct lines *lr)
{
	while (lr->pos < lr->len) {
		char *p = lr->buf + lr->pos,
		     *end = memchr(p, '\n', lr->len - lr->pos);
		char *hash;

		if (!end)
			end = lr->buf + lr->len;
		lr->pos = end - lr->buf + 1;
		lr->line++;
		/* A NUL would silently end the line early: refuse it. */
		if (memchr(p, '\0', end - p)) {
			input_err(lr->name, lr->line, "NUL byte");
			lr->pos = lr->len;
			return LINES_ERR;
		}
		*end = '\0';
		hash = strchr(p, '#');
		if (hash)
			*hash = '\0';
		lr->ntok = 0;
		while (*p) {
			while (is_blank(*p))
				p++;
			if (!*p)
				break;
			VEC_PUSH(lr->tok, lr->ntok, lr->tok_cap, p);
			while (*p && !is_blank(*p))
				p++;
			if (*p)
				*p++ = '\0';
		}
		if (lr->ntok)
			return lr->ntok;
	}
	return -1;
}

int lines_nul_line(const struct lines *lr)
{
	const char *nul = memchr(lr->buf, '\0', lr->len), *p;
	int line = 1;

	if (!nul)
		return 0;
	for (p = lr->buf; (p = memchr(p, '\n', nul - p)); p++)
		line++;
	return line;
}

void lines_close(struct lines *lr)
{
	free(lr->buf);
	free(lr->tok);
	memset(lr, 0, sizeof(*lr));
}
