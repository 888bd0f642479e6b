// SPDX-License-Identifier: GPL-2.0
/* A node's state record as a transaction: save, commit, drop, settle; see dp_state.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_table.h"
#include "model/rules_blob.h"
#include "model/rules_patch.h"
#include "lib/log.h"
#include "lib/util.h"

static int netns_self(struct stat *st)
{
	return stat("/proc/self/ns/net", st);
}

json_t *dp_netns_json(void)
{
	struct stat st;

	if (netns_self(&st))
		return json_null();
	return json_pack("{s:I,s:I}", "dev", (json_int_t)st.st_dev, "ino",
			 (json_int_t)st.st_ino);
}

bool dp_state_netns_ok(json_t *state, const char *what)
{
	json_t *ns = json_object_get(state, "netns");
	struct stat st;

	if (!json_is_object(ns) || netns_self(&st))
		return true; /* legacy: format /1 (dp_state.h): anywhere */
	if (dp_record_netns_here(state))
		return true;
	p_err("%s was attached in another network namespace (net:[%lld]); run "
	      "this command there (nsenter --net=...)",
	      what, json_integer_value(json_object_get(ns, "ino")));
	return false;
}

/*
 * The transaction's invariant (dp_anchor.h): every record goes to its pin
 * first and into the anchor second. Killed between the two, the pin is
 * ahead of the anchor, and dp_state_settle (or dp_anchor_sync, from the
 * kernel's side) puts them in step again by the kernel's generation.
 */
static int save(const char *dir, const char *name, json_t *state,
		const void *extra, size_t extra_len)
{
	int fd = dp_record_write(dir, name, state, extra, extra_len), err;

	if (fd < 0)
		return fd;
	err = dp_anchor_set(dir, strcmp(name, DP_STATE_CUR) != 0, fd);
	close(fd);
	return err;
}

int dp_state_save(const char *dir, const char *name, json_t *state)
{
	return save(dir, name, state, NULL, 0);
}

int dp_state_commit(const char *dir)
{
	char cur[PATH_MAX + 16], next[PATH_MAX + 16];

	if (dp_pin_path(cur, sizeof(cur), dir, DP_STATE_CUR) ||
	    dp_pin_path(next, sizeof(next), dir, DP_STATE_NEXT))
		return -ENAMETOOLONG;
	/*
	 * The anchor needs no write: its slot of the kernel's generation is
	 * the live record already (dp_anchor.h). One map-in-map write less
	 * is one RCU grace period less.
	 */
	return rename(next, cur) ? -errno : 0;
}

int dp_state_drop(const char *dir)
{
	char next[PATH_MAX + 16];

	if (dp_pin_path(next, sizeof(next), dir, DP_STATE_NEXT))
		return -ENAMETOOLONG;
	if (unlink(next))
		return -errno;
	return dp_anchor_set(dir, 1, -1);
}

int dp_state_settle(const char *dir)
{
	json_t *pending =
		dp_record_peek(dir, DP_STATE_NEXT,
			       (const char *const[]){ "generation", NULL });
	int64_t g;

	if (!pending)
		return 0;
	g = dp_record_gen(pending);
	json_decref(pending);
	if (g >= 0 && g == dp_table_gen(dir)) {
		pr_warn("%s: an update was interrupted after generation %lld went "
			"live: its state is committed now\n",
			dir, (long long)g);
		return dp_state_commit(dir) ?: 1;
	}
	pr_warn("%s: an update was interrupted before its swap: generation %lld "
		"did not go live, its state is dropped\n",
		dir, (long long)g);
	return dp_state_drop(dir) ?: 1;
}

static json_t *view_once(const char *dir)
{
	json_t *s = dp_record_load_name(dir, DP_STATE_NEXT);

	if (s && dp_record_gen(s) >= 0 && dp_record_gen(s) == dp_table_gen(dir))
		return s; /* swapped in, not yet committed */
	json_decref(s);
	return dp_record_load_name(dir, DP_STATE_CUR);
}

/* Read twice if an update (under its lock) moved on between the reads. */
json_t *dp_state_view(const char *dir)
{
	json_t *s = view_once(dir);
	int tries;

	for (tries = 0; s && tries < 3; tries++) {
		if (dp_record_gen(s) < 0 ||
		    dp_record_gen(s) == dp_table_gen(dir))
			break;
		json_decref(s);
		usleep(1000);
		s = view_once(dir);
	}
	return s;
}

struct rules *dp_state_rules(const char *dir, json_t *rec)
{
	json_t *doc = json_object_get(rec, "rules");
	struct rules *r;
	size_t len;
	void *blob;

	if (doc) /* legacy: rules document (dp_state.h) */
		return rules_from_json(doc, "attached rules");
	blob = dp_record_extra(dir, rec, &len);
	if (!blob)
		return NULL;
	r = rules_from_blob(blob, len, "attached rules");
	free(blob);
	if (!r)
		errno = EINVAL;
	return r;
}

/*
 * Rules that differ past this count are read whole: a patch costs per
 * rule, reading whole per rule of the set (100,000 rules: about 1 ms).
 */
#define NEAR_MAX 4096

struct rules *dp_state_rules_near(const char *dir, json_t *rec,
				  const struct rules *r, const void *blob,
				  size_t len, int *n)
{
	struct rules_change *ch;
	struct rules *old = NULL;
	size_t olen;
	char *ob;
	int fd;

	*n = -1;
	/* legacy: rules document (dp_state.h), read whole */
	if (json_object_get(rec, "rules") || getenv("TAGGER_UPDATE_FULL"))
		return dp_state_rules(dir, rec);
	/* Under the lock the "state" pin holds rec: no need to compare. */
	fd = dp_pin_open(dir, DP_STATE_CUR);
	ob = fd < 0 ? NULL : dp_record_extra_fd(fd, rec, &olen);
	if (fd >= 0)
		close(fd);
	if (!ob)
		return NULL;
	if (olen == len) {
		ch = xmalloc(NEAR_MAX * sizeof(*ch));
		*n = rules_blob_diff(r, blob, ob, len, ch, NEAR_MAX);
		old = *n >= 0 ? rules_patch(r, ob, ob, len, ch, *n) : NULL;
		free(ch);
	}
	if (old)
		return old; /* ob is old's */
	*n = -1;
	old = rules_from_blob(ob, olen, "attached rules");
	if (!old)
		errno = EINVAL;
	free(ob);
	return old;
}

json_t *dp_state_links_doc(json_t *rec)
{
	return json_object_get(rec, "rules") ?: rec;
}

void dp_state_set_rules(json_t *state, json_t *doc)
{
	json_t *links = json_object_get(doc, "links");

	json_object_del(state, "rules"); /* legacy: rules document */
	if (links)
		json_object_set(state, "links", links);
	else
		json_object_del(state, "links");
}

int dp_state_save_rules(const char *dir, const char *name, json_t *state,
			const struct rules *r)
{
	size_t len;
	void *blob = rules_to_blob(r, &len);
	int err = save(dir, name, state, blob, len);

	free(blob);
	return err;
}

int dp_state_save_blob(const char *dir, const char *name, json_t *state,
		       const void *blob, size_t len)
{
	return save(dir, name, state, blob, len);
}

static json_t *link_set(json_t *doc)
{
	json_t *set = json_object(), *l;
	char key[1024];
	const char *a, *b;
	size_t i;

	json_array_foreach(json_object_get(doc, "links"), i, l) {
		a = json_string_value(json_array_get(l, 0)) ?: "";
		b = json_string_value(json_array_get(l, 1)) ?: "";
		if (strcmp(a, b) > 0) {
			const char *t = a;

			a = b;
			b = t;
		}
		snprintf(key, sizeof(key), "%s %s", a, b);
		json_object_set_new(set, key, json_true());
	}
	return set;
}

int dp_links_same(json_t *a, json_t *b)
{
	json_t *sa, *sb;
	int same;

	if (!json_is_array(json_object_get(a, "links")) ||
	    !json_is_array(json_object_get(b, "links")))
		return -1;
	sa = link_set(a);
	sb = link_set(b);
	same = json_equal(sa, sb);
	json_decref(sa);
	json_decref(sb);
	return same;
}
