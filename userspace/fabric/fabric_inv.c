// SPDX-License-Identifier: GPL-2.0
/* The inventory of tagger fabric: Ansible's INI form; see fabric_inv.h. */
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric_inv.h"
#include "lib/lines.h"
#include "lib/log.h"
#include "lib/util.h"

/* key=value words as the file gives them, with their lines. */
struct kv {
	char *key, *val;
	int line;
};

struct kvs {
	struct kv *v;
	int n, cap;
};

struct group {
	char *name;
	struct kvs vars;
};

struct raw_host {
	char *name;
	struct kvs vars;
	int *groups; /* indexes into groups */
	int ngroups, gcap;
	int line;
};

struct parse {
	const char *file;
	struct group *g;
	int ng, gcap;
	struct raw_host *h;
	int nh, hcap;
	int all_vars; /* the group "all" */
};

bool fabric_word_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 253 || s[0] == '-')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_.:@-", *s)))
			return false;
	return true;
}

/* A name: a word without ':' or '@' (those are ssh's). */
static bool name_ok(const char *s)
{
	return fabric_word_ok(s) && !strpbrk(s, ":@") && strcmp(s, ".") &&
	       strcmp(s, "..");
}

/* An absolute path of plain words: no "..", blanks or shell characters. */
static bool path_ok(const char *s)
{
	const char *p;

	if (s[0] != '/' || strlen(s) > 1024 || strstr(s, "/../") ||
	    (strlen(s) >= 3 && !strcmp(s + strlen(s) - 3, "/..")))
		return false;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_.-/+", *p)))
			return false;
	return true;
}

static int group_of(struct parse *p, const char *name)
{
	int k;

	for (k = 0; k < p->ng; k++)
		if (!strcmp(p->g[k].name, name))
			return k;
	if (p->ng == p->gcap) {
		p->gcap = p->gcap ? 2 * p->gcap : 8;
		p->g = xrealloc(p->g, p->gcap * sizeof(*p->g));
	}
	p->g[p->ng] = (struct group){ .name = xstrdup(name) };
	return p->ng++;
}

/* key=value into kv (a later word for the same key on one line: error). */
static int kv_add(struct parse *p, struct kvs *kv, const char *word, int line)
{
	const char *eq = strchr(word, '=');
	char *val;
	size_t n;
	int k;

	if (!eq || eq == word) {
		input_err(p->file, line, "\"%s\": expected key=value", word);
		return -1;
	}
	val = xstrdup(eq + 1);
	n = strlen(val);
	/* Ansible strips one pair of quotes around a value. */
	if (n >= 2 && (val[0] == '"' || val[0] == '\'') &&
	    val[n - 1] == val[0]) {
		memmove(val, val + 1, n - 2);
		val[n - 2] = '\0';
	}
	for (k = 0; k < kv->n; k++)
		if (!strncmp(kv->v[k].key, word, eq - word) &&
		    !kv->v[k].key[eq - word]) {
			if (strcmp(kv->v[k].val, val)) {
				input_err(p->file, line,
					  "%.*s=%s, but line %d says %s",
					  (int)(eq - word), word, val,
					  kv->v[k].line, kv->v[k].val);
				free(val);
				return -1;
			}
			free(val);
			return 0;
		}
	if (kv->n == kv->cap) {
		kv->cap = kv->cap ? 2 * kv->cap : 8;
		kv->v = xrealloc(kv->v, kv->cap * sizeof(*kv->v));
	}
	kv->v[kv->n++] = (struct kv){ strndup(word, eq - word), val, line };
	return 0;
}

static void kvs_free(struct kvs *kv)
{
	int k;

	for (k = 0; k < kv->n; k++) {
		free(kv->v[k].key);
		free(kv->v[k].val);
	}
	free(kv->v);
}

static struct raw_host *host_of(struct parse *p, const char *name, int line)
{
	int k;

	for (k = 0; k < p->nh; k++)
		if (!strcmp(p->h[k].name, name))
			return &p->h[k];
	if (p->nh == FABRIC_MAX_HOSTS) {
		input_err(p->file, line, "more than %d hosts",
			  FABRIC_MAX_HOSTS);
		return NULL;
	}
	if (p->nh == p->hcap) {
		p->hcap = p->hcap ? 2 * p->hcap : 16;
		p->h = xrealloc(p->h, p->hcap * sizeof(*p->h));
	}
	p->h[p->nh] = (struct raw_host){ .name = xstrdup(name), .line = line };
	return &p->h[p->nh++];
}

/* "[name]" or "[name:vars]": the group and whether it is vars; -1 if bad. */
static int header(struct parse *p, struct lines *lr, bool *vars)
{
	char *s = lr->tok[0], *colon;
	size_t n = strlen(s);
	int g;

	if (lr->ntok != 1 || n < 3 || s[n - 1] != ']') {
		input_err(p->file, lr->line,
			  "expected a header \"[group]\" or \"[group:vars]\"");
		return -1;
	}
	s[n - 1] = '\0';
	s++;
	colon = strchr(s, ':');
	*vars = false;
	if (colon) {
		*colon = '\0';
		if (!strcmp(colon + 1, "children")) {
			input_err(p->file, lr->line,
				  "[%s:children]: groups of groups are not "
				  "supported by tagger fabric: list the hosts",
				  s);
			return -1;
		}
		if (strcmp(colon + 1, "vars")) {
			input_err(p->file, lr->line,
				  "[%s:%s]: expected [%s] or [%s:vars]", s,
				  colon + 1, s, s);
			return -1;
		}
		*vars = true;
	}
	if (!name_ok(s)) {
		input_err(p->file, lr->line, "bad group name \"%s\"", s);
		return -1;
	}
	g = group_of(p, s);
	if (!*vars && g == p->all_vars) {
		input_err(p->file, lr->line,
			  "[all] holds every host: name another group");
		return -1;
	}
	return g;
}

static int host_line(struct parse *p, struct lines *lr, int g)
{
	struct raw_host *h;
	int k;

	if (strpbrk(lr->tok[0], "[]")) {
		input_err(p->file, lr->line,
			  "\"%s\": host ranges are not supported by tagger "
			  "fabric: list the hosts",
			  lr->tok[0]);
		return -1;
	}
	if (!name_ok(lr->tok[0])) {
		input_err(p->file, lr->line,
			  "bad host name \"%s\" (letters, digits, \"_.-\", "
			  "not starting with \"-\")",
			  lr->tok[0]);
		return -1;
	}
	h = host_of(p, lr->tok[0], lr->line);
	if (!h)
		return -1;
	for (k = 1; k < lr->ntok; k++)
		if (kv_add(p, &h->vars, lr->tok[k], lr->line))
			return -1;
	if (g >= 0) {
		for (k = 0; k < h->ngroups && h->groups[k] != g; k++)
			;
		if (k == h->ngroups)
			VEC_PUSH(h->groups, h->ngroups, h->gcap, g);
	}
	return 0;
}

/* The value of key for host h: its own, its groups' (last wins), all's. */
static const struct kv *lookup(struct parse *p, struct raw_host *h,
			       const char *key)
{
	int k, i;
	struct kvs *kv;

	for (k = 0; k < h->vars.n; k++)
		if (!strcmp(h->vars.v[k].key, key))
			return &h->vars.v[k];
	for (i = h->ngroups - 1; i >= 0; i--) {
		kv = &p->g[h->groups[i]].vars;
		for (k = 0; k < kv->n; k++)
			if (!strcmp(kv->v[k].key, key))
				return &kv->v[k];
	}
	kv = &p->g[p->all_vars].vars;
	for (k = 0; k < kv->n; k++)
		if (!strcmp(kv->v[k].key, key))
			return &kv->v[k];
	return NULL;
}

static const char *const tagger_keys[] = {
	"tagger_netns",
	"tagger_switch",
	"tagger_bpf_root",
	"tagger_pfc",
	"tagger_path",
	"tagger_timeout",
	"tagger_lldpcli",
	"tagger_lldp_socket",
	"tagger_vtysh",
	"tagger_vty_socket",
	NULL,
};

/* Every tagger_* key of kv known; -1 after input_err. */
static int keys_known(struct parse *p, const struct kvs *kv)
{
	int k, i;

	for (k = 0; k < kv->n; k++) {
		if (strncmp(kv->v[k].key, "tagger_", 7))
			continue;
		for (i = 0;
		     tagger_keys[i] && strcmp(tagger_keys[i], kv->v[k].key);
		     i++)
			;
		if (!tagger_keys[i]) {
			input_err(p->file, kv->v[k].line,
				  "unknown key \"%s\" (tagger_netns, "
				  "tagger_switch, tagger_bpf_root, tagger_pfc, "
				  "tagger_path, tagger_timeout, "
				  "tagger_lldpcli, tagger_lldp_socket, "
				  "tagger_vtysh, tagger_vty_socket)",
				  kv->v[k].key);
			return -1;
		}
	}
	return 0;
}

/* A value through check, into *out (NULL if not given); -1 if bad. */
static int take(struct parse *p, struct raw_host *rh, const char *key,
		bool (*check)(const char *), const char *what, char **out)
{
	const struct kv *kv = lookup(p, rh, key);

	*out = NULL;
	if (!kv)
		return 0;
	if (!check(kv->val)) {
		input_err(p->file, kv->line, "%s=%s: %s", key, kv->val, what);
		return -1;
	}
	*out = xstrdup(kv->val);
	return 0;
}

static bool user_ok(const char *s)
{
	return name_ok(s) && !strchr(s, '.');
}

static int resolve(struct parse *p, struct raw_host *rh, struct fabric_host *h)
{
	const struct kv *kv;
	unsigned long v;
	char *tmp = NULL;

	h->name = xstrdup(rh->name);
	h->line = rh->line;
	h->timeout = FABRIC_TIMEOUT_DEFAULT;
	if (take(p, rh, "tagger_switch", name_ok, "not a switch name",
		 &h->sw) ||
	    take(p, rh, "tagger_netns", name_ok, "not a namespace name",
		 &h->netns) ||
	    take(p, rh, "tagger_bpf_root", path_ok,
		 "expected an absolute path of [A-Za-z0-9_.+-/]",
		 &h->bpf_root) ||
	    take(p, rh, "tagger_pfc", name_ok, "not a node name", &h->pfc) ||
	    take(p, rh, "tagger_path", path_ok, "expected an absolute path",
		 &h->tagger) ||
	    take(p, rh, "tagger_lldpcli", path_ok, "expected an absolute path",
		 &h->lldpcli) ||
	    take(p, rh, "tagger_lldp_socket", path_ok,
		 "expected an absolute path", &h->lldp_socket) ||
	    take(p, rh, "tagger_vtysh", path_ok, "expected an absolute path",
		 &h->vtysh) ||
	    take(p, rh, "tagger_vty_socket", path_ok,
		 "expected an absolute path", &h->vty_socket) ||
	    take(p, rh, "ansible_host", fabric_word_ok,
		 "not a host name or address", &h->host) ||
	    take(p, rh, "ansible_user", user_ok, "not a user name", &h->user) ||
	    take(p, rh, "ansible_port", fabric_word_ok, "not a port", &tmp))
		return -1;
	if (!h->sw)
		h->sw = xstrdup(h->name);
	if (tmp) {
		kv = lookup(p, rh, "ansible_port");
		if (!parse_uint(tmp, 65535, &v) || !v) {
			input_err(p->file, kv->line,
				  "ansible_port=%s: expected 1 to 65535", tmp);
			free(tmp);
			return -1;
		}
		h->port = v;
		free(tmp);
	}
	kv = lookup(p, rh, "tagger_timeout");
	if (kv) {
		if (!parse_uint(kv->val, 3600, &v) || !v) {
			input_err(p->file, kv->line,
				  "tagger_timeout=%s: expected 1 to 3600 "
				  "seconds",
				  kv->val);
			return -1;
		}
		h->timeout = v;
	}
	kv = lookup(p, rh, "ansible_connection");
	if (h->netns) {
		h->transport = FABRIC_NETNS;
		if (h->host) {
			input_err(p->file, rh->line,
				  "host %s: both tagger_netns and ansible_host",
				  h->name);
			return -1;
		}
	} else {
		h->transport = FABRIC_SSH;
		if (kv && strcmp(kv->val, "ssh")) {
			input_err(
				p->file, kv->line,
				"ansible_connection=%s: tagger fabric reaches "
				"a switch by ssh, or by tagger_netns",
				kv->val);
			return -1;
		}
		if (!h->host)
			h->host = xstrdup(h->name);
	}
	return 0;
}

static void parse_free(struct parse *p)
{
	int k;

	for (k = 0; k < p->ng; k++) {
		free(p->g[k].name);
		kvs_free(&p->g[k].vars);
	}
	free(p->g);
	for (k = 0; k < p->nh; k++) {
		free(p->h[k].name);
		kvs_free(&p->h[k].vars);
		free(p->h[k].groups);
	}
	free(p->h);
}

static int parse_lines(struct parse *p, struct lines *lr)
{
	int g = -1, got;
	bool vars = false;

	while ((got = lines_next(lr)) >= 0) {
		if (lr->tok[0][0] == ';') /* the other INI comment */
			continue;
		if (lr->tok[0][0] == '[') {
			g = header(p, lr, &vars);
			if (g < 0)
				return -1;
		} else if (vars) {
			if (lr->ntok != 1) {
				input_err(p->file, lr->line,
					  "expected one key=value a line in "
					  "[%s:vars]",
					  p->g[g].name);
				return -1;
			}
			if (kv_add(p, &p->g[g].vars, lr->tok[0], lr->line))
				return -1;
		} else if (host_line(p, lr, g)) {
			return -1;
		}
	}
	return got == LINES_ERR ? -1 : 0;
}

int fabric_inv_load(const char *path, struct fabric_inv *inv)
{
	struct parse p = { .file = path };
	struct lines lr;
	int k, j, ret = EXIT_USAGE;

	memset(inv, 0, sizeof(*inv));
	inv->path = path;
	if (lines_open_max(&lr, path, FABRIC_INV_MAX_BYTES))
		return EXIT_USAGE;
	p.all_vars = group_of(&p, "all");
	if (parse_lines(&p, &lr))
		goto out;
	for (k = 0; k < p.ng; k++)
		if (keys_known(&p, &p.g[k].vars))
			goto out;
	if (!p.nh) {
		input_err(path, lr.line, "no hosts");
		goto out;
	}
	inv->h = xcalloc(p.nh, sizeof(*inv->h));
	for (k = 0; k < p.nh; k++, inv->n++)
		if (keys_known(&p, &p.h[k].vars) ||
		    resolve(&p, &p.h[k], &inv->h[k])) {
			inv->n++;
			goto out;
		}
	/* One switch, one host: two hosts for one switch would split it. */
	for (k = 0; k < inv->n; k++)
		for (j = 0; j < k; j++)
			if (!strcmp(inv->h[k].sw, inv->h[j].sw)) {
				input_err(path, inv->h[k].line,
					  "switch %s is host %s too (line %d)",
					  inv->h[k].sw, inv->h[j].name,
					  inv->h[j].line);
				goto out;
			}
	ret = 0;
out:
	if (ret)
		fabric_inv_free(inv);
	inv->path = path;
	parse_free(&p);
	lines_close(&lr);
	return ret;
}

void fabric_inv_free(struct fabric_inv *inv)
{
	int k;

	for (k = 0; k < inv->n; k++) {
		struct fabric_host *h = &inv->h[k];

		free(h->name);
		free(h->sw);
		free(h->netns);
		free(h->host);
		free(h->user);
		free(h->bpf_root);
		free(h->pfc);
		free(h->tagger);
		free(h->lldpcli);
		free(h->lldp_socket);
		free(h->vtysh);
		free(h->vty_socket);
	}
	free(inv->h);
	memset(inv, 0, sizeof(*inv));
}

int fabric_inv_find(const struct fabric_inv *inv, const char *name)
{
	int k;

	for (k = 0; k < inv->n; k++)
		if (!strcmp(inv->h[k].name, name) ||
		    !strcmp(inv->h[k].sw, name))
			return k;
	return -1;
}
