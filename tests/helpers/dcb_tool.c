// SPDX-License-Identifier: GPL-2.0
/*
 * The DCB library (lib/dcb_port.h) from the shell, for
 * tests/shell/test_dcb_vm.sh: the requests it sends are compared with
 * dcb's. Not a user command (the data path drives the library).
 *
 *   dcb_tool show DEV                     the port's state, JSON
 *   dcb_tool app-add DEV DSCP:PRIO...     SET of app entries, as given
 *   dcb_tool app-del DEV DSCP:PRIO...     DEL of app entries
 *   dcb_tool rewr-add DEV PRIO:DSCP...    SET of rewr entries
 *   dcb_tool dscp DEV DSCP:PRIO...        replace the DSCPs' priorities
 *   dcb_tool pfc DEV MASK DELAY           PFC on MASK, delay in bits
 *   dcb_tool buffer DEV P2B SIZES         8 comma-separated values each,
 *                                         "-" keeps them
 *   dcb_tool restore DEV FILE             put a `show` back
 * Exit 0, 2 on bad arguments, 3 when the kernel or driver refuses
 * ("Error: ..." on stderr).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dcb_port.h"
#include "lib/dcb_state.h"

static int usage(void)
{
	fprintf(stderr, "Usage: dcb_tool { show | app-add | app-del | "
			"rewr-add | dscp | pfc | buffer | restore } DEV ...\n");
	return 2;
}

/* K:V pairs into apps; rewr pairs are priority:DSCP. */
static int pairs(int argc, char **argv, bool rewr, struct dcb_app *apps)
{
	int i, k, v;

	for (i = 0; i < argc; i++) {
		if (sscanf(argv[i], "%d:%d", &k, &v) != 2 || k < 0 || v < 0 ||
		    k > (rewr ? 7 : 63) || v > (rewr ? 63 : 7)) {
			fprintf(stderr, "dcb_tool: what is \"%s\"?\n", argv[i]);
			return -1;
		}
		apps[i] =
			(struct dcb_app){ .selector = IEEE_8021QAZ_APP_SEL_DSCP,
					  .priority = rewr ? k : v,
					  .protocol = rewr ? v : k };
	}
	return argc;
}

static int list8(const char *s, uint32_t *v)
{
	char *end;
	int i;

	if (!strcmp(s, "-"))
		return 0;
	for (i = 0; i < 8; i++) {
		v[i] = strtoul(s, &end, 0);
		if (end == s || *end != (i < 7 ? ',' : '\0'))
			return -1;
		s = end + 1;
	}
	return 1;
}

static int run(struct dcb_nl *d, const char *cmd, const char *dev, int argc,
	       char **argv)
{
	struct dcb_app apps[DCB_ENTRIES_MAX];
	struct dcb_state s;
	int n;

	if (!strcmp(cmd, "show")) {
		json_t *j;

		n = dcb_port_read(d, dev, &s);
		if (n)
			return n;
		j = dcb_state_json(&s);
		json_dumpf(j, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(j);
		return 0;
	}
	if (!strcmp(cmd, "app-add") || !strcmp(cmd, "app-del") ||
	    !strcmp(cmd, "rewr-add")) {
		bool rewr = cmd[0] == 'r';

		n = pairs(argc, argv, rewr, apps);
		if (n < 0)
			return -EINVAL;
		return dcb_port_apps(d, dev,
				     strcmp(cmd, "app-del") ? DCB_CMD_IEEE_SET :
							      DCB_CMD_IEEE_DEL,
				     rewr ? DCB_NL_REWR_TABLE :
					    DCB_ATTR_IEEE_APP_TABLE,
				     apps, n);
	}
	if (!strcmp(cmd, "dscp")) {
		int8_t prio[DCB_DSCPS];
		int i;

		memset(prio, -1, sizeof(prio));
		n = pairs(argc, argv, false, apps);
		if (n < 0)
			return -EINVAL;
		for (i = 0; i < n; i++)
			prio[apps[i].protocol] = apps[i].priority;
		return dcb_port_dscp(d, dev, prio);
	}
	if (!strcmp(cmd, "pfc") && argc == 2)
		return dcb_port_pfc(d, dev, strtoul(argv[0], NULL, 0),
				    atoi(argv[1]));
	if (!strcmp(cmd, "buffer") && argc == 2) {
		uint32_t p2b[8], size[8];
		uint8_t p[8];
		int a = list8(argv[0], p2b), b = list8(argv[1], size), i;

		if (a < 0 || b < 0)
			return -EINVAL;
		for (i = 0; i < 8; i++)
			p[i] = p2b[i] > 255 ? 255 : p2b[i];
		return dcb_port_buffer(d, dev, a ? p : NULL, b ? size : NULL);
	}
	if (!strcmp(cmd, "restore") && argc == 1) {
		json_error_t e;
		json_t *j = json_load_file(argv[0], 0, &e);
		char why[256];

		if (!j) {
			fprintf(stderr, "%s:%d: %s\n", argv[0], e.line, e.text);
			return -EINVAL;
		}
		n = dcb_state_from_json(j, &s, why, sizeof(why));
		json_decref(j);
		if (n) {
			fprintf(stderr, "%s: %s\n", argv[0], why);
			return n;
		}
		n = dcb_port_restore(d, dev, &s);
		if (n >= 0)
			printf("%d changes\n", n);
		return n < 0 ? n : 0;
	}
	return usage(), -EINVAL;
}

int main(int argc, char **argv)
{
	struct dcb_nl d;
	int r;

	if (argc < 3)
		return usage();
	r = dcb_nl_open(&d);
	if (r) {
		fprintf(stderr, "Error: netlink: %s\n", strerror(-r));
		return 3;
	}
	r = run(&d, argv[1], argv[2], argc - 3, argv + 3);
	if (r && d.err[0])
		fprintf(stderr, "Error: %s\n", d.err);
	dcb_nl_close(&d);
	return r == -EINVAL && !d.err[0] ? 2 : r ? 3 : 0;
}
