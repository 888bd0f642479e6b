/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Expected lossless paths (ELP): a set of paths over a topology.
 *
 * A path of m+1 nodes is stored as its m hops, each the id of the port the
 * packet leaves a node by; the port it enters the next node by is that
 * port's peer. Paths are packed in one array (millions of paths fit in tens
 * of megabytes and are walked without pointer chasing).
 *
 * API:
 *   elp_new/elp_free
 *   elp_add(e, hops, n, line)    append a path
 *   elp_append(e, o)             append all of o's paths
 *   elp_len(e, i), elp_hops(e, i)
 *   elp_parse(t, path)           NULL after "file:line: ..." (exit 2)
 *   elp_parse_files(tp, ep, &t)  a command's TOPO and ELP: the ELP and *t,
 *                                or NULL (message printed, nothing kept)
 *   elp_parse_lines(t, lr)
 *   elp_write(f, t, e)           one path a line, node names, ports named
 *                                only where parallel links need them
 *   elp_path_text(t, e, i)       path i as that line (malloc'd), for messages
 *   elp_forwarding(t, e)         per node, does it forward (malloc'd)
 */
#ifndef __TAGGER_ELP_H
#define __TAGGER_ELP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/lines.h"
#include "model/topo.h"

struct elp {
	char *file;
	int npaths;
	int paths_cap;
	uint32_t *off; /* npaths + 1 offsets into hops */
	int32_t *hops; /* egress port ids */
	uint32_t nhops;
	uint32_t hops_cap;
	int *line; /* source line of each path (0 if generated) */
};

struct elp *elp_new(const char *file);
void elp_free(struct elp *e);
void elp_add(struct elp *e, const int32_t *hops, int n, int line);
void elp_append(struct elp *e, const struct elp *o);

static inline int elp_len(const struct elp *e, int i)
{
	return (int)(e->off[i + 1] - e->off[i]);
}

static inline const int32_t *elp_hops(const struct elp *e, int i)
{
	return e->hops + e->off[i];
}

struct elp *elp_parse(const struct topo *t, const char *path);
struct elp *elp_parse_files(const char *topo_path, const char *elp_path,
			    struct topo **t);
struct elp *elp_parse_lines(const struct topo *t, struct lines *lr);
int elp_write(FILE *f, const struct topo *t, const struct elp *e);
void elp_write_path(FILE *f, const struct topo *t, const int32_t *hops, int n);
int elp_max_len(const struct elp *e);
char *elp_path_text(const struct topo *t, const struct elp *e, int i);
bool *elp_forwarding(const struct topo *t, const struct elp *e);

#endif /* __TAGGER_ELP_H */
