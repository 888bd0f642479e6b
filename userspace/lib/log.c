// SPDX-License-Identifier: GPL-2.0
/* Leveled logging and error reporting; see log.h. */
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>

#include "lib/log.h"
#include "lib/util.h"

enum log_level log_level = LOG_WARN;
bool log_quiet;
bool json_output;
bool pretty_output;
int json_docs;

void pr_log(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	if (log_quiet || level > log_level)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* Bytes of the valid UTF-8 sequence at s, or 0 (RFC 3629 table). */
static int utf8_len(const unsigned char *s)
{
	int n, k;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (k = 1; k < n; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/*
 * Keep stdout parseable: under -j the error is a JSON document. Input
 * (a name, a file path) may hold bytes that are not UTF-8, which jansson
 * refuses; they become '?' rather than an empty line.
 */
static void json_error(char *msg)
{
	unsigned char *s = (unsigned char *)msg;
	json_t *o;

	while (*s) {
		int n = utf8_len(s);

		if (!n)
			*s++ = '?';
		else
			s += n;
	}
	o = json_pack("{s:s}", "error", msg);
	json_dumpf(o, stdout, JSON_COMPACT);
	fputc('\n', stdout);
	json_docs++;
	fflush(stdout);
	json_decref(o);
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
	fprintf(stderr, "Error: %s\n", buf);
	if (json_output)
		json_error(buf);
}

void input_err(const char *file, int line, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	if (log_quiet)
		return;
	if (line > 0)
		n = snprintf(buf, sizeof(buf), "%s:%d: ", file, line);
	else
		n = snprintf(buf, sizeof(buf), "%s: ", file);
	if (n < 0 || n >= (int)sizeof(buf))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", buf);
	if (json_output)
		json_error(buf);
}

void json_emit(json_t *obj)
{
	size_t flags = pretty_output ? JSON_INDENT(2) : JSON_COMPACT;

	json_dumpf(obj, stdout,
		   flags | JSON_ENCODE_ANY | JSON_REAL_PRECISION(6));
	fputc('\n', stdout);
	fflush(stdout);
	json_decref(obj);
	json_docs++;
}

/*
 * libbpf's messages, one level below ours (as xdp-tools does): its warnings
 * are our info (-v), its info and debug our debug (-vv), and -q silences
 * them. A few kernel answers that attach and teardown provoke on purpose
 * (a clsact hook that exists already, a filter or qdisc that is not there
 * to delete, a search for our filter on a hook without it) are not worth
 * a line even then.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	enum log_level l = level == LIBBPF_WARN ? LOG_INFO : LOG_DEBUG;
	char buf[1024];

	if (log_quiet || log_level < l)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (l < LOG_DEBUG &&
	    (strstr(buf, "Exclusivity flag on") ||
	     strstr(buf, "Cannot find specified filter chain") ||
	     strstr(buf, "Parent Qdisc doesn't exist") ||
	     strstr(buf, "Filter with specified priority/protocol not found")))
		return 0;
	pr_log(l, "libbpf: %s", buf);
	return 0;
}

void log_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}

void phase_mark(struct phase_clock *pc, const char *name)
{
	double w = now_seconds(), c = cpu_seconds(false);

	if (name && pc->wall > 0)
		pr_info("phase %-34s %8.2f ms wall %8.2f ms CPU\n", name,
			1e3 * (w - pc->wall), 1e3 * (c - pc->cpu));
	pc->wall = w;
	pc->cpu = c;
}
