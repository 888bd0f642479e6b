// SPDX-License-Identifier: GPL-2.0
/* Leveled logging and error reporting; see log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <jansson.h>

#include "log.h"

enum log_level log_level = LOG_WARN;
bool log_quiet;
bool json_output;
bool pretty_output;

void pr_log(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	if (log_quiet || level > log_level)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void p_err(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (json_output) {
		/* Keep stdout parseable: the error is the JSON document. */
		json_t *o = json_pack("{s:s}", "error", buf);

		json_dumpf(o, stdout, JSON_COMPACT);
		fputc('\n', stdout);
		json_decref(o);
	}
	fprintf(stderr, "Error: %s\n", buf);
}

void input_err(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (log_quiet)
		return;
	if (line > 0)
		fprintf(stderr, "%s:%d: ", file, line);
	else
		fprintf(stderr, "%s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
