// SPDX-License-Identifier: GPL-2.0
/* The Prometheus text exposition format; see prom.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/prom.h"
#include "lib/util.h"

struct prom {
	json_t *fams; /* in order of first appearance */
	json_t *index; /* name -> position in fams */
};

static const char *const type_names[] = {
	[PROM_COUNTER] = "counter",
	[PROM_GAUGE] = "gauge",
};

static bool name_char(char c, bool first, bool colon)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return true;
	if (c == ':')
		return colon;
	return !first && c >= '0' && c <= '9';
}

static bool valid(const char *s, bool colon)
{
	const char *c;

	if (!s || !*s)
		return false;
	for (c = s; *c; c++)
		if (!name_char(*c, c == s, colon))
			return false;
	return true;
}

bool prom_valid_name(const char *s)
{
	return valid(s, true);
}

/* Names beginning with "__" are Prometheus' own. */
bool prom_valid_label(const char *s)
{
	return valid(s, false) && strncmp(s, "__", 2);
}

size_t prom_escape(const char *s, bool help, char *out, size_t n)
{
	size_t len = 0;

	for (; *s; s++) {
		const char *e = *s == '\\'	   ? "\\\\" :
				*s == '\n'	   ? "\\n" :
				*s == '"' && !help ? "\\\"" :
						     NULL;
		char one[2] = { *s, 0 };

		for (e = e ?: one; *e; e++, len++)
			if (len + 1 < n)
				out[len] = *e;
	}
	if (n)
		out[len < n ? len : n - 1] = '\0';
	return len;
}

static void put_escaped(FILE *f, const char *s, bool help)
{
	size_t len = prom_escape(s, help, NULL, 0);
	char *buf = xmalloc(len + 1);

	prom_escape(s, help, buf, len + 1);
	fputs(buf, f);
	free(buf);
}

struct prom *prom_new(void)
{
	struct prom *p = xcalloc(1, sizeof(*p));

	p->fams = json_array();
	p->index = json_object();
	return p;
}

void prom_free(struct prom *p)
{
	if (!p)
		return;
	json_decref(p->fams);
	json_decref(p->index);
	free(p);
}

static json_t *family(struct prom *p, const char *name, enum prom_type type,
		      const char *help)
{
	json_t *at = json_object_get(p->index, name), *fam;

	if (at) {
		fam = json_array_get(p->fams, json_integer_value(at));
		return strcmp(json_string_value(json_object_get(fam, "type")),
			      type_names[type]) ?
			       NULL :
			       fam;
	}
	fam = json_pack("{s:s,s:s,s:s,s:[]}", "name", name, "type",
			type_names[type], "help", help ?: "", "samples");
	json_object_set_new(p->index, name,
			    json_integer(json_array_size(p->fams)));
	json_array_append_new(p->fams, fam);
	return fam;
}

/* Counts as JSON integers: they print exactly, whatever the precision. */
static json_t *number(double v)
{
	if (!isfinite(v))
		return json_null();
	if (fabs(v) < 9007199254740992.0 && v == (double)(json_int_t)v)
		return json_integer((json_int_t)v);
	return json_real(v);
}

int prom_add(struct prom *p, const char *name, enum prom_type type,
	     const char *help, const struct prom_label *labels, int n,
	     double value)
{
	size_t len = name ? strlen(name) : 0;
	json_t *fam, *lab;
	int i;

	if (!prom_valid_name(name) ||
	    (type == PROM_COUNTER &&
	     (len < 6 || strcmp(name + len - 6, "_total"))))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!prom_valid_label(labels[i].name) || !labels[i].value)
			return -EINVAL;
	fam = family(p, name, type, help);
	if (!fam)
		return -EINVAL;
	lab = json_object();
	for (i = 0; i < n; i++)
		json_object_set_new(lab, labels[i].name,
				    json_string(labels[i].value));
	json_array_append_new(
		json_object_get(fam, "samples"),
		json_pack("{s:o,s:o}", "labels", lab, "value", number(value)));
	return 0;
}

/* The shortest form that reads back as the same double. */
static void put_value(FILE *f, json_t *v)
{
	double d = json_number_value(v);
	char buf[32];
	int prec;

	if (json_is_null(v)) {
		fputs("NaN", f);
		return;
	}
	if (json_is_integer(v)) {
		fprintf(f, "%lld", json_integer_value(v));
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, d);
	fputs(buf, f);
}

static void put_sample(FILE *f, const char *name, json_t *s)
{
	json_t *labels = json_object_get(s, "labels"), *v;
	const char *k;
	bool first = true;

	fputs(name, f);
	json_object_foreach(labels, k, v) {
		fprintf(f, "%s%s=\"", first ? "{" : ",", k);
		put_escaped(f, json_string_value(v), false);
		fputc('"', f);
		first = false;
	}
	fputs(first ? " " : "} ", f);
	put_value(f, json_object_get(s, "value"));
	fputc('\n', f);
}

void prom_write(const struct prom *p, FILE *f)
{
	json_t *fam, *s;
	size_t i, k;

	json_array_foreach(p->fams, i, fam) {
		const char *name =
			json_string_value(json_object_get(fam, "name"));

		fprintf(f, "# HELP %s ", name);
		put_escaped(f, json_string_value(json_object_get(fam, "help")),
			    true);
		fprintf(f, "\n# TYPE %s %s\n", name,
			json_string_value(json_object_get(fam, "type")));
		json_array_foreach(json_object_get(fam, "samples"), k, s)
			put_sample(f, name, s);
	}
}

json_t *prom_json(const struct prom *p)
{
	return p->fams;
}
