/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Flattened Clos kinds of tagger topo and tagger paths, as functions the
 * generic tables of cmd_topo.c and cmd_paths.c call.
 *
 * API:
 *   topo_fc_make(argc, argv, &out)           tagger topo fc ...
 *   topo_fc_opts, paths_fc_opts, paths_edst_opts
 *                                            their option tables (usage)
 *   paths_fc_run(t, between, sink, argc, argv, &extra)
 *   paths_edst_run(t, between, sink, argc, argv, &extra)
 *   do_paths_stats(argc, argv)               tagger paths stats TOPO ELP
 *   fc_layout_opt, fc_between_hosts, fc_emit  shared by the FC kinds
 * EXIT_OK, or EXIT_USAGE after p_err(). *extra: statistics merged into the
 * -j summary (may stay NULL).
 */
#ifndef __TAGGER_FC_CMD_H
#define __TAGGER_FC_CMD_H

#include <jansson.h>

#include "cli/opts.h"
#include "gen/gen.h"
#include "model/topo.h"

#define TOPO_FC_USAGE                                                  \
	"N [--hosts H] [--fabric S] [--layers K | --split L1,..,Lk]\n" \
	"               [--min-paths M] [--seed S] [--threads T] | testbed [--hosts H]"

extern const char topo_fc_doc[];
extern const struct opt topo_fc_opts[];
extern const char paths_fc_doc[];
extern const struct opt paths_fc_opts[];
extern const char paths_edst_doc[];
extern const struct opt paths_edst_opts[];

int topo_fc_make(int argc, char **argv, struct topo **out);
int paths_fc_run(const struct topo *t, enum gen_between between,
		 struct path_sink *sink, int argc, char **argv, json_t **extra);
int paths_edst_run(const struct topo *t, enum gen_between between,
		   struct path_sink *sink, int argc, char **argv,
		   json_t **extra);
int do_paths_stats(int argc, char **argv);

/* Shared by the FC kinds. */
struct fc_layout;
int fc_layout_opt(const struct topo *t, const char *split, struct fc_layout *L);
bool fc_between_hosts(const struct topo *t, enum gen_between between);
int fc_emit(const struct topo *t, const struct elp *e, bool hosts,
	    struct path_sink *sink);

#endif /* __TAGGER_FC_CMD_H */
