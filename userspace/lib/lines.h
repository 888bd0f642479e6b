/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Line-oriented reading of the text formats (topology, ELP): the whole file
 * in memory, one line at a time, '#' comments stripped, split on blanks.
 *
 * API:
 *   lines_open(&lr, path)       "-" is stdin; -1 with a message on error,
 *                               among them a file over LINES_MAX_BYTES
 *   lines_open_max(&lr, path, max)        the same with another size limit
 *   lines_open_mem(&lr, name, buf, len)   for tests and fuzzing
 *   lines_next(&lr)             tokens of the next non-empty line, -1 at
 *                               the end, or LINES_ERR after "file:line: NUL
 *                               byte"; lr.tok[0..n-1], lr.line is 1-based
 *   lines_nul_line(&lr)         line of the first NUL byte, 0 if none (for
 *                               readers that take the whole buffer)
 *   lines_close(&lr)
 *
 * Limits (README "Input limits"): a file of at most LINES_MAX_BYTES, read
 * with no more memory than that (pipes and devices too); no NUL bytes.
 */
#ifndef __TAGGER_LINES_H
#define __TAGGER_LINES_H

#include <stddef.h>

#define LINES_MAX_BYTES (1UL << 30) /* 1 GiB: topology and ELP files */
#define LINES_ERR (-2)

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
int lines_open_max(struct lines *lr, const char *path, size_t max);
void lines_open_mem(struct lines *lr, const char *name, const char *buf,
		    size_t len);
int lines_next(struct lines *lr);
int lines_nul_line(const struct lines *lr);
void lines_close(struct lines *lr);

#endif /* __TAGGER_LINES_H */
