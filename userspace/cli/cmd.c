// SPDX-License-Identifier: GPL-2.0
/* Subcommand dispatch helpers; see cmd.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "lib/log.h"

const char *bin_name = "tagger";
bool help_asked;

/* Remembered, so that main() can print the null of -j for every help. */
bool is_help(const char *arg)
{
	bool h = !strcmp(arg, "help") || !strcmp(arg, "-h") ||
		 !strcmp(arg, "--help");

	help_asked |= h;
	return h;
}

int cmd_select(const struct cmd *cmds, int argc, char **argv,
	       int (*help)(int argc, char **argv))
{
	int i;

	if (argc < 1)
		return usage_err(help, "a command is missing");
	if (is_help(argv[0]))
		return help(argc - 1, argv + 1);
	for (i = 0; cmds[i].cmd; i++)
		if (!strcmp(argv[0], cmds[i].cmd))
			return cmds[i].func(argc - 1, argv + 1);
	return usage_err(help, "What is \"%s\"?", argv[0]);
}

int usage_err(int (*help)(int argc, char **argv), const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p_err("%s", buf);
	if (help && !json_output)
		help(0, NULL);
	return EXIT_USAGE;
}

int usage_help(int (*help)(int argc, char **argv))
{
	if (!json_output)
		help(0, NULL);
	return EXIT_USAGE;
}
