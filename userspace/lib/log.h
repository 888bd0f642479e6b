/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Leveled logging and the one error path of the command.
 *
 * API:
 *   pr_warn/pr_info/pr_debug  messages on stderr, filtered by log_level
 *   p_err                     "Error: ..." on stderr, or {"error": ...} into
 *                             the JSON stream under -j
 *   input_err                 "file:line: message" for bad input (exit 2),
 *                             and {"error": that} on stdout under -j
 *   json_emit(obj)            print a JSON document (-j, -p) on stdout
 *   log_libbpf()              route libbpf's messages here, one level down
 *   phase_mark(pc, name)      -v: "phase NAME  W ms wall  C ms CPU", the
 *                             time since pc's last mark (NULL name: start)
 *   log_quiet                 silences everything (fuzzing, probing)
 */
#ifndef __TAGGER_LOG_H
#define __TAGGER_LOG_H

#include <jansson.h>
#include <stdbool.h>

enum log_level {
	LOG_WARN = 0,
	LOG_INFO = 1,
	LOG_DEBUG = 2,
};

extern enum log_level log_level;
extern bool log_quiet;
extern bool json_output;
extern bool pretty_output;

void pr_log(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void json_emit(json_t *obj);
void log_libbpf(void);
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void input_err(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define pr_warn(...) pr_log(LOG_WARN, __VA_ARGS__)
#define pr_info(...) pr_log(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) pr_log(LOG_DEBUG, __VA_ARGS__)

/*
 * Phase timing under -v. Wall and CPU (all threads) time: on a busy machine
 * the CPU time is what a phase costs.
 */
struct phase_clock {
	double wall, cpu;
};

void phase_mark(struct phase_clock *pc, const char *name);

/* JSON documents printed on stdout so far (json_emit, errors under -j). */
extern int json_docs;

/* Exit codes of every subcommand, one meaning each. */
#define EXIT_OK 0
#define EXIT_PROBLEM 1 /* the check found a problem: CBD, not deadlock-free */
#define EXIT_USAGE 2 /* bad input or usage */
#define EXIT_RUNTIME \
	3 /* a system call or the kernel failed: socket, BPF load, netlink */

#endif /* __TAGGER_LOG_H */
