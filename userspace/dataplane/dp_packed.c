// SPDX-License-Identifier: GPL-2.0
/* The attached rules in packed form, and their digest; see dp_packed.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dataplane/dp_packed.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_state.h"
#include "lib/digest.h"
#include "model/rules.h"
#include "model/rules_bin.h"
#include "model/rules_blob.h"

/* The packed file of blob and links: malloc'ed, or NULL with errno. */
static void *pack(const void *blob, size_t blen, json_t *links, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	int err;

	if (!f)
		return NULL;
	err = rules_bin_write_blob(f, blob, blen, links);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		free(buf);
		errno = -err;
		return NULL;
	}
	return buf;
}

void *dp_state_packed(const char *dir, json_t *rec, size_t *len)
{
	struct rules *r = dp_state_rules(dir, rec);
	json_t *links = json_object_get(dp_state_links_doc(rec), "links");
	size_t blen;
	void *blob, *buf;
	int err;

	if (!r)
		return NULL; /* errno set */
	blob = rules_to_blob(r, &blen);
	rules_free(r);
	buf = pack(blob, blen, links, len);
	err = errno;
	free(blob);
	errno = err;
	return buf;
}

/* hex of the packed bytes; 0 or -errno. */
static int digest_of(const void *buf, size_t len, char *hex)
{
	return digest_sha256(buf, len, hex) ? -EIO : 0;
}

int dp_state_digest(const char *dir, json_t *rec, char *hex)
{
	static const char *const names[] = { DP_STATE_CUR, DP_STATE_NEXT };
	size_t len;
	void *buf;
	json_t *other;
	int k, fd, err = -ENOENT;

	hex[0] = '\0';
	/* Kept in the record's map (dp_packed_mark): no pack, no hash. */
	for (k = 0; err && k < 2; k++) {
		fd = dp_pin_open(dir, names[k]);
		if (fd < 0)
			continue;
		other = dp_record_read_fd(fd);
		if (other && json_equal(other, rec))
			err = dp_record_digest(fd, hex);
		json_decref(other);
		close(fd);
	}
	if (!err)
		return 0;
	buf = dp_state_packed(dir, rec, &len);
	if (!buf)
		return -errno;
	err = digest_of(buf, len, hex);
	free(buf);
	return err;
}

int dp_packed_mark_fd(int fd, json_t *rec)
{
	json_t *links = json_object_get(dp_state_links_doc(rec), "links");
	char hex[DIGEST_STR];
	size_t blen, len;
	void *blob, *buf;
	int err;

	/* The record's blob is rules_to_blob's own bytes (dp_job_blob). */
	blob = dp_record_extra_fd(fd, rec, &blen);
	if (!blob)
		return -errno;
	buf = pack(blob, blen, links, &len);
	err = buf ? digest_of(buf, len, hex) : -errno;
	free(blob);
	free(buf);
	return err ?: dp_record_digest_mark(fd, hex);
}

int dp_packed_mark(const char *dir)
{
	int fd = dp_pin_open(dir, DP_STATE_CUR), err;
	json_t *rec;

	if (fd < 0)
		return fd;
	rec = dp_record_read_fd(fd);
	err = rec ? dp_packed_mark_fd(fd, rec) : -errno;
	json_decref(rec);
	close(fd);
	return err;
}
