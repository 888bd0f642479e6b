// SPDX-License-Identifier: GPL-2.0
/* The attached rules in packed form, and their digest; see dp_packed.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "dataplane/dp_packed.h"
#include "dataplane/dp_state.h"
#include "lib/digest.h"
#include "model/rules.h"
#include "model/rules_bin.h"

void *dp_state_packed(const char *dir, json_t *rec, size_t *len)
{
	struct rules *r = dp_state_rules(dir, rec);
	json_t *links = json_object_get(dp_state_links_doc(rec), "links");
	char *buf = NULL;
	FILE *f;
	int err;

	if (!r)
		return NULL; /* errno set */
	f = open_memstream(&buf, len);
	if (!f) {
		err = errno;
		rules_free(r);
		errno = err;
		return NULL;
	}
	err = rules_bin_write(f, r, links);
	rules_free(r);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		free(buf);
		errno = -err;
		return NULL;
	}
	return buf;
}

int dp_state_digest(const char *dir, json_t *rec, char *hex)
{
	size_t len;
	void *buf = dp_state_packed(dir, rec, &len);
	int err;

	hex[0] = '\0';
	if (!buf)
		return -errno;
	err = digest_sha256(buf, len, hex) ? -EIO : 0;
	free(buf);
	return err;
}
