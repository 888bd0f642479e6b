// SPDX-License-Identifier: GPL-2.0
/* Line and token reader for the text formats; see lines.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "log.h"
#include "util.h"

static int slurp(FILE *f, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	char *buf = xmalloc(cap + 1);

	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
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

int lines_open(struct lines *lr, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int err;

	memset(lr, 0, sizeof(*lr));
	lr->name = path;
	if (!f) {
		input_err(path, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	err = slurp(f, &lr->buf, &lr->len);
	if (f != stdin)
		fclose(f);
	if (err) {
		input_err(path, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void lines_open_mem(struct lines *lr, const char *name, const char *buf, size_t len)
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
		char *p = lr->buf + lr->pos, *end = memchr(p, '\n', lr->len - lr->pos);
		char *hash;

		if (!end)
			end = lr->buf + lr->len;
		*end = '\0';
		lr->pos = end - lr->buf + 1;
		lr->line++;
		/* An embedded NUL ends the line early; that is still safe. */
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

void lines_close(struct lines *lr)
{
	free(lr->buf);
	free(lr->tok);
	memset(lr, 0, sizeof(*lr));
}
