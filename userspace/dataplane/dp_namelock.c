// SPDX-License-Identifier: GPL-2.0
/* The lock of one node name under the bpffs root; see dp_namelock.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataplane/dp_namelock.h"
#include "dataplane/dp_netlock.h"
#include "lib/log.h"

static int lock_name(char *buf, size_t len, const char *name)
{
	return snprintf(buf, len, DP_NAMELOCK_PREFIX "%s", name) < (int)len ?
		       0 :
		       -1;
}

int dp_namelock_take(int rootfd, const char *root, const char *name)
{
	char lname[NAME_MAX + 1], path[PATH_MAX];

	if (lock_name(lname, sizeof(lname), name)) {
		p_err("node name too long for a lock: %s", name);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", root, lname);
	return dp_lock_at(rootfd, lname, path, true);
}

void dp_namelock_release(int rootfd, const char *name, int fd)
{
	char lname[NAME_MAX + 1];
	struct stat st;

	if (fd < 0)
		return;
	/* Still held here: nobody else can be holding it as it goes. */
	if (rootfd >= 0 && !lock_name(lname, sizeof(lname), name) &&
	    fstatat(rootfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	    errno == ENOENT && dp_still_at(rootfd, lname, fd))
		unlinkat(rootfd, lname, AT_REMOVEDIR);
	close(fd);
}
