/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fabric's inventory: the switches and how to reach each, in Ansible's
 * INI inventory form, so that a playbook can use the same file
 * (tagger-fabric(8), INVENTORY):
 *
 *   [leaves]
 *   leaf1 tagger_netns=lab-leaf1 tagger_bpf_root=/run/lab/bpffs/tagger
 *   leaf2 ansible_host=10.0.0.2 ansible_user=admin tagger_pfc=leaf2
 *   [leaves:vars]
 *   tagger_timeout=5
 *
 * Host lines (a name and key=value words) under [group] headers; [G:vars]
 * and [all:vars] give their hosts' defaults (a host's own words win); a
 * host under several groups is one host. Keys other than ansible_* and
 * tagger_* are Ansible's business and ignored; an unknown tagger_* key,
 * [G:children], host ranges (leaf[1:4]), names or values a command line
 * could take for options or shell words are "file:line: ..." errors.
 * Every name and value is checked here, before any command runs: the
 * transport passes them as argv words, and ssh's remote shell sees them.
 *
 * API:
 *   fabric_inv_load(path, &inv)     0, or EXIT_USAGE after input_err
 *   fabric_inv_free(&inv)
 *   fabric_inv_find(&inv, name)     host index by inventory or switch
 *                                   name, or -1
 *   fabric_word_ok(s)               a name or host word: [A-Za-z0-9_.:@-],
 *                                   at most 253 bytes, not "-..."
 */
#ifndef __TAGGER_FABRIC_INV_H
#define __TAGGER_FABRIC_INV_H

#include <stdbool.h>

#define FABRIC_INV_MAX_BYTES (16UL << 20)
#define FABRIC_MAX_HOSTS 65536
#define FABRIC_TIMEOUT_DEFAULT 10 /* seconds per command */

enum fabric_transport {
	FABRIC_NETNS, /* enter /run/netns/NS, exec tagger_path */
	FABRIC_SSH, /* ssh -o BatchMode=yes [-l user] [-p port] host */
};

struct fabric_host {
	char *name; /* inventory name */
	char *sw; /* the switch's name in the rules (tagger_switch) */
	enum fabric_transport transport;
	char *netns; /* FABRIC_NETNS */
	char *host, *user; /* FABRIC_SSH; user may be NULL */
	int port; /* 0: ssh's */
	char *bpf_root; /* NULL: the switch's default */
	char *pfc; /* the PFC agent's node, NULL: none checked */
	char *tagger; /* the tagger binary there (NULL: the default) */
	char *lldpcli; /* lldpcli there (NULL: "lldpcli" in the PATH) */
	char *lldp_socket; /* lldpd's control socket (NULL: lldpd's) */
	char *vtysh; /* FRR's vtysh there (NULL: "vtysh" in the PATH) */
	char *vty_socket; /* FRR's vty socket directory (NULL: FRR's) */
	int timeout; /* seconds */
	int line; /* where it was first listed */
};

struct fabric_inv {
	const char *path;
	struct fabric_host *h;
	int n;
};

int fabric_inv_load(const char *path, struct fabric_inv *inv);
void fabric_inv_free(struct fabric_inv *inv);
int fabric_inv_find(const struct fabric_inv *inv, const char *name);
bool fabric_word_ok(const char *s);

#endif /* __TAGGER_FABRIC_INV_H */
