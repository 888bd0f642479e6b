/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pin of a node's directory by its name: "<dir>/<name>" (dp_pin.h says
 * where the directories are). Every file of the data plane names its pins
 * through these two, so none builds the path by hand.
 *
 * API:
 *   dp_pin_path(buf, len, dir, name)   the path in buf; 0, or -ENAMETOOLONG
 *                                      if it takes len bytes or more
 *   dp_pin_open(dir, name)             the pinned object's fd, or -errno
 */
#ifndef __TAGGER_DP_PIN_PATH_H
#define __TAGGER_DP_PIN_PATH_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include <bpf/bpf.h>

static inline int dp_pin_path(char *buf, size_t len, const char *dir,
			      const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n >= 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

static inline int dp_pin_open(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	int fd, err = dp_pin_path(path, sizeof(path), dir, name);

	if (err)
		return err;
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

#endif /* __TAGGER_DP_PIN_PATH_H */
