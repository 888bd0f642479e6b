/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger switch: the programs on every port of a switch, its rules in
 * them, live updates, counters, detach. Each function is one subcommand:
 * it does the work, fills a report and returns its exit code (EXIT_OK,
 * EXIT_PROBLEM: the union check refused an update, EXIT_USAGE: bad input,
 * EXIT_RUNTIME: the kernel or the system failed). It prints errors and
 * warnings, never the command's output: the command line prints the
 * report (cli/cmd_switch.c).
 *
 * API:
 *   struct dp_opts                       what the command line gave
 *   struct dp_report                     what a subcommand did
 *   dp_switch_attach/update/detach(&opts, &report)
 *   dp_switch_json(&opts, &out)          what show -j prints (tagger
 *                                        metrics reads it too)
 *   dp_switch_rules(&opts, &r, &doc)     the rules file: its rules and
 *                                        document; switch index, or
 *                                        -EXIT_USAGE after p_err
 *   dp_sysctl_prio(&old)                 net.ipv4.ip_forward_update_priority
 *                                        to 0; 1 if changed (old set)
 *   dp_sysctl_restore(old)
 *   dp_switch_locked(dir, name, &lock, &state, &leftover)   dp_lock,
 *                                        then dp_node_settle (dp_settle.h):
 *                                        EXIT_OK with the attached record
 *                                        in *state (NULL: not attached;
 *                                        *leftover: what an interrupted
 *                                        command left was removed), or the
 *                                        exit code of a failed lock or
 *                                        settle, after p_err
 *   dp_state_save_err(&opts, dir, err)  a failed dp_state_save: p_err,
 *                                        its exit code (over the cap: 2)
 *   dp_phase(what)                       -v: the time since the last
 *                                        phase, named what (NULL: start)
 *   dp_switch_teardown(dir, state, node)   detach what a record names,
 *                                        restore the sysctl, remove dir;
 *                                        struct dp_node's teardown
 * update lives in dp_update.c, show in dp_show.c.
 */
#ifndef __TAGGER_DP_SWITCH_H
#define __TAGGER_DP_SWITCH_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_attach.h"
#include "model/rules.h"

struct dp_opts {
	const char *name;
	const char *ifname; /* host */
	const char *rules_file;
	char **maps; /* PORT=IFNAME */
	int nmaps;
	enum dp_mode mode;
	const char *topo_file;
	bool force;
	const char *class_dscp; /* host: "26,34" */
	const char *udp_dport; /* host: "4791" or "4791-4792" */
	int class_id; /* host: -1 unless --class */
};

/*
 * json: what -j prints, NULL for nothing (an error was printed); the plain
 * text is rendered from it, and from what plain text says and -j never
 * did: leftover (detach: only what an interrupted command left was
 * removed), restored (detach: the sysctl was put back).
 */
struct dp_report {
	json_t *json;
	bool leftover;
	bool restored;
};

int dp_switch_attach(const struct dp_opts *o, struct dp_report *rep);
int dp_switch_update(const struct dp_opts *o, struct dp_report *rep);
int dp_switch_detach(const struct dp_opts *o, struct dp_report *rep);
int dp_switch_json(const struct dp_opts *o, json_t **out);
int dp_switch_rules(const struct dp_opts *o, struct rules **r, json_t **doc);

/* Shared by dp_switch.c and dp_update.c. */
struct dp_port;
struct dp_table;
struct dp_port *dp_state_ports(json_t *state, int *n);
void dp_free_ports(struct dp_port *ports, int n);
void dp_set_counts(json_t *state, const struct dp_table *tab);
int dp_install_table(const struct rules *r, int sw, const struct dp_port *ports,
		     int outer_fd, int gen_fd, bool first, struct dp_table *tab,
		     int64_t *gen);
int dp_sysctl_read(void);
int dp_sysctl_prio(int *old);
void dp_sysctl_restore(int old);
struct dp_node;
int dp_switch_teardown(const char *dir, json_t *state,
		       const struct dp_node *node);
void dp_phase(const char *what);
int dp_state_save_err(const struct dp_opts *o, const char *dir, int err);
int dp_switch_locked(const char *dir, const char *name, int *lock,
		     json_t **state, bool *leftover);

#endif /* __TAGGER_DP_SWITCH_H */
