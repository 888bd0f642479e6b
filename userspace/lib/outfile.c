// SPDX-License-Identifier: GPL-2.0
/* Whole-or-nothing output files; see outfile.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/util.h"

/*
 * Only a regular file (or a new one) is replaced by rename; devices, pipes
 * and symlinks (/dev/null, /dev/stdout, a fifo) are written in place.
 */
static bool in_place(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && !S_ISREG(st.st_mode);
}

int outfile_open(struct outfile *o, const char *path)
{
	int fd;

	*o = (struct outfile){ .f = stdout };
	if (!path || !strcmp(path, "-"))
		return 0;
	o->path = path;
	if (in_place(path)) {
		o->f = fopen(path, "w");
		if (!o->f) {
			p_err("cannot write %s: %m", path);
			return -1;
		}
		return 0;
	}
	o->tmp = xmalloc(strlen(path) + 8);
	strcpy(o->tmp, path);
	strcat(o->tmp, ".XXXXXX");
	fd = mkstemp(o->tmp);
	o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o->f) {
		p_err("cannot write %s: %m", path);
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

/* mkstemp makes 0600; give the file what a plain fopen would have. */
static int usual_mode(FILE *f)
{
	mode_t mask = umask(0);

	umask(mask);
	return fchmod(fileno(f), 0666 & ~mask);
}

int outfile_close(struct outfile *o, bool ok)
{
	int err;

	if (!o->path || !o->tmp) {
		err = fflush(o->f) || ferror(o->f);
		if (o->path)
			err |= fclose(o->f);
		if (err && ok)
			p_err("cannot write %s: %m",
			      o->path ? o->path : "stdout");
		return err && ok ? -1 : 0;
	}
	/* on disk before the rename, so a crash never leaves an empty file */
	err = fflush(o->f) || ferror(o->f) || usual_mode(o->f) ||
	      (ok && fsync(fileno(o->f)));
	err |= fclose(o->f);
	if (ok && !err && rename(o->tmp, o->path))
		err = 1;
	if (!ok || err)
		unlink(o->tmp);
	if (ok && err)
		p_err("cannot write %s: %m", o->path);
	free(o->tmp);
	o->tmp = NULL;
	return ok && err ? -1 : 0;
}

int outfile_write(const char *path, int (*fill)(FILE *f, const void *arg),
		  const void *arg)
{
	struct outfile o;
	int err;

	if (outfile_open(&o, path))
		return -1;
	if (!fill(o.f, arg))
		return outfile_close(&o, true);
	/* the failed write's errno, not what discarding the file left */
	err = errno;
	outfile_close(&o, false);
	errno = err;
	p_err("cannot write %s: %m", o.path ? o.path : "stdout");
	return -1;
}
