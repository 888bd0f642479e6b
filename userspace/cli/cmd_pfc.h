/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by cmd_pfc.c and cmd_pfc_show.c.
 *
 * API:
 *   do_pfc_show(argc, argv)                  tagger pfc show NAME [dir DIR]
 *   pfc_node_dir(argc, argv, buf, len, help) NAME [--dir DIR] -> state dir,
 *                                            and NAME into argv[0]
 *   pfc_node_dir_words(argc, argv, words, n, &got, buf, len, help)
 *                                            the same, NAME and up to n - 1
 *                                            words after it into words[]
 *   pfc_stop(node, dir)                      stop the agent, or clean up
 *   pfc_help(argc, argv)                     the usage of `tagger pfc`
 *   pfc_node_opts                            show's and stop's options
 *   pfc_t_pro_opt(o, v), pfc_cable_opt(o, v) the headroom model's --t-pro
 *                                            (into the struct pfc_config at
 *                                            o->out) and cable length (into
 *                                            the double at o->out), for
 *                                            every command that takes them
 *   pfc_port_model(c, rate_bps, mtu)         the headroom model of one port
 *                                            of a hardware switch (export
 *                                            sonic, switch attach
 *                                            --datapath dcb): c's cable
 *                                            and t_pro kept, the rest
 *                                            from rate_bps and frames of
 *                                            mtu + 18; 0, or -1 if XON
 *                                            is not below XOFF
 *   PFC_HW_*                                 its defaults: SONiC's port
 *   pfc_prio_mask(s, &mask)                  "3,4", "0-7", "none"; -1 if bad
 *   pfc_agent_args(c, argc, argv, &trace, &dir)
 *                                            the agent's options, NAME and
 *                                            ports into c; 0 or an exit code
 *                                            after the message
 *   pfc_rules_maps(c)                        --rules: each port's DCB
 *                                            maps from c->dcb_rules_file's
 *                                            switch c->dcb_switch (NULL:
 *                                            the node's name); refused if
 *                                            DCB cannot express them or the
 *                                            switch is attached with the
 *                                            dcb data path; 0 or an exit
 *                                            code after the message
 *   pfc_headroom_args(c, &h, argc, argv)     the same for `headroom`
 *   pfc_options_usage(f, headroom)           the agent's options, or those
 *                                            headroom does not share with
 *                                            it, from the tables that
 *                                            pfc_*_args() parse with
 */
#ifndef __TAGGER_PFC_CMD_H
#define __TAGGER_PFC_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <jansson.h>

#include "cli/opts.h"

struct pfc_config;

#define PFC_HW_RATE 100000000000ull /* 100 Gbit/s */
#define PFC_HW_MTU 9100 /* SONiC's port MTU */
#define PFC_HW_CABLE_M 5
#define PFC_HW_T_PRO_Q 60 /* the hardware cap of PAUSE processing */

/* What `headroom` takes besides the options it shares with the agent. */
struct pfc_headroom_args {
	int mtu, frame, ports;
	uint64_t buffer;
};

int do_pfc_show(int argc, char **argv);
extern const struct opt pfc_node_opts[];
int pfc_t_pro_opt(const struct opt *o, const char *v);
int pfc_cable_opt(const struct opt *o, const char *v);
int pfc_node_dir(int argc, char **argv, char *buf, size_t len,
		 int (*help)(int argc, char **argv));
int pfc_node_dir_words(int argc, char **argv, char **words, int nwords,
		       int *got, char *buf, size_t len,
		       int (*help)(int argc, char **argv));
int pfc_stop(const char *node, const char *dir);
int pfc_help(int argc, char **argv);
int pfc_port_model(struct pfc_config *c, uint64_t rate_bps, int mtu);
int pfc_prio_mask(const char *s, uint32_t *mask);
int pfc_agent_args(struct pfc_config *c, int argc, char **argv,
		   const char **trace, const char **dir);
int pfc_rules_maps(struct pfc_config *c);
int pfc_headroom_args(struct pfc_config *c, struct pfc_headroom_args *h,
		      int argc, char **argv);
void pfc_options_usage(FILE *f, bool headroom);

#endif /* __TAGGER_PFC_CMD_H */
