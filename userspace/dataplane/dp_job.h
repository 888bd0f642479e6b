/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tagger switch command's job (the rules, the switch's directory, the
 * lock, its record), and what a data path (dp_path.h) uses of it while
 * it attaches or updates. dp_switch_int.h makes and ends jobs.
 *
 * API:
 *   struct dp_job                        what attach and update hold
 *   dp_job_blob(&job, &len)              the rules in their compact form
 *                                        (rules_blob.h), made once
 *   dp_switch_record_rules(state, &opts, doc, &tab)   what a record keeps
 *                                        of the rules: their links, the
 *                                        rules file and the table's counts
 *   dp_state_ports(state, &n)            the ports a record names
 *   dp_free_ports(ports, n)
 *   dp_ports_json(ports, n)              the ports as records keep them:
 *                                        port, ifname, ifindex, slot
 *   dp_sysctl_read(), dp_sysctl_prio(&old)   net.ipv4.ip_forward_update_
 *                                        priority; prio sets it to 0: 1 if
 *                                        changed (old set)
 *   dp_sysctl_restore(old)
 *   dp_state_save_err(&opts, dir, err)   a failed dp_state_save: p_err,
 *                                        its exit code (over the cap: 2)
 *   dp_phase(what)                       -v: the time since the last
 *                                        phase, named what (NULL: start)
 */
#ifndef __TAGGER_DP_JOB_H
#define __TAGGER_DP_JOB_H

#include <limits.h>
#include <stdbool.h>
#include <jansson.h>

#include "dataplane/dp_opts.h"

struct dp_job {
	struct rules *r;
	json_t *doc; /* the rules document */
	int sw; /* the switch's index in r */
	char dir[PATH_MAX];
	int lock;
	json_t *state; /* the attached record; NULL: not attached */
	bool leftover; /* not attached: an interrupted command's was removed */
	void *mem; /* the compiled file's bytes: r's tables lie in them */
	const void *blob; /* r's compact form: in mem, or made by */
	size_t blob_len; /* dp_job_blob in blob_mem */
	void *blob_mem;
};

struct dp_port;
struct dp_table;

const void *dp_job_blob(struct dp_job *j, size_t *len);
void dp_switch_record_rules(json_t *state, const struct dp_opts *o, json_t *doc,
			    const struct dp_table *tab);
struct dp_port *dp_state_ports(json_t *state, int *n);
void dp_free_ports(struct dp_port *ports, int n);
json_t *dp_ports_json(const struct dp_port *ports, int n);
int dp_sysctl_read(void);
int dp_sysctl_prio(int *old);
void dp_sysctl_restore(int old);
int dp_state_save_err(const struct dp_opts *o, const char *dir, int err);
void dp_phase(const char *what);

#endif /* __TAGGER_DP_JOB_H */
