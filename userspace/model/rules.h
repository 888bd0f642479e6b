/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tagging rules (Documentation/tagger-formats.7.rst, "tagger-rules/1") in memory,
 * and the lookups a switch does per packet: classify (switch, in-port, tag)
 * -> priority, rewrite (switch, tag, in-port, out-port) -> new tag.
 *
 * The model needs no topology: switches and ports are the names the file
 * gives, numbered in file order (switch index, port index within the
 * switch). The verifier maps topology port ids onto these once; the data
 * plane maps interface names onto them.
 *
 * Wildcards: a rule's port may be "*" (RULES_ANY). The most specific rule
 * answers: rewrite (in,out) > (in,*) > (*,out) > (*,*); classify in > *.
 * A rule may answer the lossy tag / lossy priority explicitly (an exception
 * under a wildcard). Anything no rule matches is lossy.
 *
 * API:
 *   rules_parse(path)                 NULL after "file:line:col: ..." or
 *                                     "file: json.path: ..." (exit 2)
 *   rules_load(path, &doc)            the same, and the parsed document
 *                                     (the caller's to json_decref)
 *   rules_from_json(root, name)       the same checks on a parsed document
 *   rules_new(name)                   empty rules, for readers of other
 *                                     forms (rules_blob.h)
 *   rules_index(r)                    the lookups (port names, rules by
 *                                     key) of rules whose arrays a reader
 *                                     filled itself; out-of-range rules
 *                                     and a key's second rule left out,
 *                                     for rules_check to find
 *                                     (rules_blob.c)
 *   rules_check(r)                    the semantic check every reader's
 *                                     rules go through (rules_check.c):
 *                                     false after "file: json.path: ..."
 *                                     (exit 2); fills rank and prio
 *   rules_free(r)
 *   rules_find_switch(r, name)        switch index or -1
 *   rules_find_port(r, sw, name)      port index within the switch or -1
 *   rules_find_host(r, name)          host index or -1
 *   rules_classify(r, sw, in, tag, &rule)       priority or RULES_LOSSY
 *   rules_rewrite(r, sw, tag, in, out, &rule)   new tag or RULES_LOSSY
 *   rules_tag_prio(r, tag)            priority of a lossless tag, else -1
 *   rules_classify_at(r, sw, in, tag)            the rule of exactly
 *   rules_rewrite_at(r, sw, tag, in, out)        this key (no wildcard
 *                                                fallback), or -1
 *   rules_tag_rank(r, tag)            index in "tags"; the lossy tag ranks
 *                                     above all (ntags); -1 if unknown
 * Lookups cost one to four hash probes; &rule gets the index of the
 * answering rule in the switch's array, or -1 when none matched.
 */
#ifndef __TAGGER_RULES_H
#define __TAGGER_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "lib/hmap.h"
#include "lib/strmap.h"

#define RULES_FORMAT "tagger-rules/1"
#define RULES_ANY 0xffff /* "*" as a port index */
#define RULES_MAX_PORTS 0xfff0 /* ports per switch */
#define RULES_MAX_SWITCHES 0xfffff0
#define RULES_MAX_BYTES \
	(256UL << 20) /* the file (jansson: ~10-20x in memory) */
#define RULES_MAX_IGNORED (16UL << 20) /* a top-level value the parser skips */
#define RULES_LOSSY (-1)
#define RULES_NTAGS 64 /* DSCP codepoints */
#define RULES_NPRIOS 8 /* 802.1p priorities */

/*
 * The rules' own layout is their compact form's (rules_blob.h): byte
 * aligned, so that a reader may use a blob's tables where they lie.
 */
struct rules_classify {
	uint16_t in; /* port index or RULES_ANY */
	uint8_t tag;
	uint8_t prio;
} __attribute__((packed));

struct rules_rewrite {
	uint16_t in; /* port index or RULES_ANY */
	uint16_t out; /* port index or RULES_ANY */
	uint8_t tag;
	uint8_t new_tag;
} __attribute__((packed));

struct rules_switch {
	char *name;
	char **ports;
	char *port_buf; /* ports' names in one block (rules_blob.c), or NULL */
	int nports;
	struct rules_classify *classify;
	int nclassify;
	struct rules_rewrite *rewrite;
	int nrewrite;
	bool wild_classify; /* some classify rule has in "*" */
	bool wild_rewrite; /* some rewrite rule has a "*" */
	/*
	 * Rules read from their compact form (rules_blob.h) of a switch
	 * without wildcards: rule index + 1 (0: none) by (in, tag) and by
	 * (in, out, tag), instead of entries in the rules' hash maps. The
	 * tag dimension holds only the tags the switch's keys use:
	 * dense_slot[DSCP] is the tag's index + 1 (0: no key has it), of
	 * dense_ntags.
	 */
	int32_t *dense_classify;
	int32_t *dense_rewrite;
	uint8_t *dense_slot;
	int dense_ntags;
};

struct rules_host {
	char *name;
	int tag; /* initial tag, -1 if not given */
	int *classes; /* initial tag per class, nclasses of them */
	int nclasses;
};

struct rules_tag {
	int tag;
	int prio;
};

struct rules {
	char *file;
	int lossy_tag;
	int lossy_prio;
	/*
	 * "cnp" (optional): the class of RoCEv2 congestion notifications, a
	 * DSCP and a priority of their own, never lossless and never
	 * rewritten (bpf/tagger_maps.h, TAGGER_CNP_ENTRY); -1: none.
	 */
	int cnp_tag;
	int cnp_prio;
	struct rules_tag *tags; /* lossless tags in rank order */
	int ntags;
	int *class_ids; /* "classes": class number and tag */
	int *class_tags;
	int nclasses;
	struct rules_host *hosts;
	int nhosts;
	struct rules_switch *sw;
	int nsw;
	int8_t rank[RULES_NTAGS]; /* -1 unknown, ntags for the lossy tag */
	int8_t prio[RULES_NTAGS]; /* priority of a lossless tag, else -1 */
	struct strmap sw_names; /* switch name -> index */
	struct strmap host_names; /* host name -> index */
	struct strmap port_names; /* "switch:port" -> port index */
	struct hmap classify; /* packed key -> rule index, see rules.c */
	struct hmap rewrite;
	/*
	 * A patch of base (rules_patch.h): its own are only sw[] and the
	 * rule tables that differ from base's; all else is base's.
	 */
	const struct rules *base;
	/*
	 * Tables that lie in a blob (rules_blob_decode_in, rules_patch)
	 * are not r's to free; the blob is, if tables_own.
	 */
	void *tables_buf;
	size_t tables_len;
	bool tables_own;
};

struct rules *rules_parse(const char *path);
struct rules *rules_from_json(json_t *root, const char *name);
struct rules *rules_load(const char *path, json_t **doc);
struct rules *rules_new(const char *name);
void rules_free(struct rules *r);
void rules_index(struct rules *r);
bool rules_check(struct rules *r);

int rules_find_switch(const struct rules *r, const char *name);
int rules_find_port(const struct rules *r, int sw, const char *name);
int rules_find_host(const struct rules *r, const char *name);
int rules_classify(const struct rules *r, int sw, int in, int tag, int *rule);
int rules_rewrite(const struct rules *r, int sw, int tag, int in, int out,
		  int *rule);
int rules_classify_at(const struct rules *r, int sw, int in, int tag);
int rules_rewrite_at(const struct rules *r, int sw, int tag, int in, int out);

/* Key layouts of the lookup maps (switch < 2^24, port < 2^16, tag < 2^6). */
static inline uint64_t rules_classify_key(int sw, int in, int tag)
{
	return ((uint64_t)sw << 22) | ((uint64_t)in << 6) | (uint64_t)tag;
}

static inline uint64_t rules_rewrite_key(int sw, int tag, int in, int out)
{
	return ((uint64_t)sw << 38) | ((uint64_t)in << 22) |
	       ((uint64_t)out << 6) | (uint64_t)tag;
}

static inline int rules_tag_prio(const struct rules *r, int tag)
{
	return tag >= 0 && tag < RULES_NTAGS ? r->prio[tag] : -1;
}

static inline int rules_tag_rank(const struct rules *r, int tag)
{
	return tag >= 0 && tag < RULES_NTAGS ? r->rank[tag] : -1;
}

static inline bool rules_tag_lossless(const struct rules *r, int tag)
{
	return rules_tag_prio(r, tag) >= 0;
}

/* A port index as the file writes it: its name, or "*". */
const char *rules_port_name(const struct rules *r, int sw, int port);

#endif /* __TAGGER_RULES_H */
