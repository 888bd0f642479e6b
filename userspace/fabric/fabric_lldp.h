/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The neighbours lldpd heard on a switch's ports, from the JSON of
 * "lldpcli -f json show neighbors" (lldpd 0.9.x to 1.0.x; not -f json0).
 * lldpcli folds its document: a list of one member is that member, and
 * an object with a "name" is keyed by that name, so
 *
 *   {"lldp": {"interface": {"eth0": {"chassis": {"sw2": {...}},
 *                                    "port": {"id": {"type": "ifname",
 *                                                    "value": "eth1"},
 *                                             "descr": "eth1"}}}}}
 *
 * is one neighbour, and several are a list of such {"IFNAME": {...}}
 * objects ("interface": [...]); a port with two neighbours is listed
 * twice. {"lldp": {}} (or no "interface") is no neighbour.
 *
 * A neighbour's system is the chassis's name (SysName); its port is the
 * port id where its type is "ifname" or "local", else the port
 * description (lldpd sends the MAC address as the id by default and the
 * interface name as the description). Every name must be a topology name
 * ([A-Za-z0-9_.-], tagger-formats(7)): the topology format has no quoting,
 * so a name with blanks, newlines or slashes is refused, not escaped.
 *
 * API:
 *   lldp_parse(file, buf, len, &nb, &n)  0, or EXIT_USAGE after
 *                                        "file: lldp.interface[1].eth0.
 *                                        port: message"; at most
 *                                        LLDP_MAX_BYTES of input and
 *                                        LLDP_MAX_NEIGHBOURS records
 *   lldp_free(nb, n)
 */
#ifndef __TAGGER_FABRIC_LLDP_H
#define __TAGGER_FABRIC_LLDP_H

#include <stddef.h>

#define LLDP_MAX_BYTES (16UL << 20)
#define LLDP_MAX_NEIGHBOURS 65536

struct lldp_nb {
	char *port; /* the local interface */
	char *sys; /* the neighbour's system name */
	char *rport; /* the neighbour's port */
};

int lldp_parse(const char *file, const char *buf, size_t len,
	       struct lldp_nb **nb, int *n);
void lldp_free(struct lldp_nb *nb, int n);

#endif /* __TAGGER_FABRIC_LLDP_H */
