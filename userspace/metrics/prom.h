/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Prometheus text exposition format (version 0.0.4): metric families
 * gathered in any order, written with one # HELP and one # TYPE line each
 * and all of a family's samples together (collectors walk node by node,
 * the format wants family by family). Names and label names are checked,
 * counters must end in _total, label values and help texts are escaped.
 * The families are kept as a JSON document, which is also what -j prints:
 *   [{"name", "type", "help", "samples": [{"labels": {...}, "value"}]}]
 *
 * API:
 *   struct prom_label { name, value }
 *   prom_new() / prom_free(p)
 *   prom_add(p, name, type, help, labels, n, value)
 *                                 a sample; 0, or -EINVAL (bad name, label
 *                                 name, a counter without _total, a type
 *                                 other than the family's first)
 *   prom_write(p, f)              the text exposition
 *   prom_json(p)                  the families (borrowed)
 *   prom_escape(s, help, out, n)  escape a label value (help: a help text,
 *                                 where '"' stays); bytes needed, as
 *                                 snprintf
 *   prom_valid_name(s) / prom_valid_label(s)
 */
#ifndef __TAGGER_PROM_H
#define __TAGGER_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

enum prom_type { PROM_COUNTER, PROM_GAUGE };

struct prom_label {
	const char *name, *value;
};

struct prom;

struct prom *prom_new(void);
void prom_free(struct prom *p);
int prom_add(struct prom *p, const char *name, enum prom_type type,
	     const char *help, const struct prom_label *labels, int n,
	     double value);
void prom_write(const struct prom *p, FILE *f);
json_t *prom_json(const struct prom *p);
size_t prom_escape(const char *s, bool help, char *out, size_t n);
bool prom_valid_name(const char *s);
bool prom_valid_label(const char *s);

#endif /* __TAGGER_PROM_H */
