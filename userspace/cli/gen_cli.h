/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kind tables of "tagger topo" (cmd_topo.c) and "tagger paths"
 * (cmd_paths.c). A kind is one table line plus one function, which may
 * live in its own file:
 *
 *   topo:  int make_x(int argc, char **argv, struct topo **out)
 *          argv: the words after the kind, -o already removed; parse them
 *          with opts_parse() and build the topology. EXIT_OK with *out
 *          set, or EXIT_USAGE after p_err() (the kind's usage follows).
 *   paths: int run_x(const struct paths_job *job, int argc, char **argv)
 *          argv: the words after TOPO, -o and --between already removed.
 *          Parse them with opts_parse(), take the endpoints with
 *          paths_job_ends(), and sink_emit() every path into job->sink.
 *          EXIT_OK, or EXIT_USAGE after p_err().
 */
#ifndef __TAGGER_GEN_CLI_H
#define __TAGGER_GEN_CLI_H

#include <jansson.h>

#include "gen/gen.h"

struct paths_job {
	const struct topo *t;
	enum gen_between between; /* --between, shared by every kind */
	int k; /* K of NAME=K kinds */
	struct path_sink *sink;
	json_t *extra; /* kind's own -j summary fields, or NULL */
};

typedef int topo_make_fn(int argc, char **argv, struct topo **out);
typedef int paths_run_fn(const struct paths_job *job, int argc, char **argv);

/* Endpoints by --between; EXIT_OK or EXIT_USAGE after p_err(). */
int paths_job_ends(const struct paths_job *job, bool relay,
		   struct gen_ends *ends);

#endif /* __TAGGER_GEN_CLI_H */
