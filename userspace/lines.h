/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Line-oriented reading of the text formats (topology, ELP): the whole file
 * in memory, one line at a time, '#' comments stripped, split on blanks.
 *
 * API:
 *   lines_open(&lr, path)       "-" is stdin; -1 with a message on error
 *   lines_open_mem(&lr, name, buf, len)   for tests and fuzzing
 *   lines_next(&lr)             tokens of the next non-empty line, or -1 at
 *                               the end; lr.tok[0..n-1], lr.line is 1-based
 *   lines_close(&lr)
 */
#ifndef __TAGGER_LINES_H
#define __TAGGER_LINES_H

#include <stddef.h>

struct lines {
	const char *name;
	char *buf;
	size_t len;
	size_t pos;
	int line;
	char **tok;
	int ntok;
	int tok_cap;
};

int lines_open(struct lines *lr, const char *path);
void lines_open_mem(struct lines *lr, const char *name, const char *buf, size_t len);
int lines_next(struct lines *lr);
void lines_close(struct lines *lr);

#endif /* __TAGGER_LINES_H */
