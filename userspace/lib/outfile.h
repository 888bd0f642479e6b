/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files that appear whole or not at all: written to a temporary
 * file next to the target and renamed over it on success, so a failed or
 * interrupted run leaves an existing file as it was. "-" or NULL is stdout;
 * devices, pipes and symlinks are written in place.
 *
 * API:
 *   outfile_open(&o, path)     0, or -1 after p_err(); o.f is the stream
 *   outfile_close(&o, ok)      ok: flush, fsync, rename into place; else
 *                              discard. 0, or -1 after p_err() on a write
 *                              error
 *   outfile_write(path, fill, arg)
 *                              open, fill(f, arg), close: the file whole
 *                              if fill returned 0 and every write went
 *                              through, else left as it was; 0, or -1
 *                              after p_err() naming the file and errno
 */
#ifndef __TAGGER_OUTFILE_H
#define __TAGGER_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct outfile {
	FILE *f;
	const char *path; /* NULL for stdout */
	char *tmp; /* NULL when written in place */
};

int outfile_open(struct outfile *o, const char *path);
int outfile_close(struct outfile *o, bool ok);
int outfile_write(const char *path, int (*fill)(FILE *f, const void *arg),
		  const void *arg);

#endif /* __TAGGER_OUTFILE_H */
