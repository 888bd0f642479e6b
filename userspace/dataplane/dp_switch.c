// SPDX-License-Identifier: GPL-2.0
/* tagger switch attach / update / detach; see dp_switch.h. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_switch.h"
#include "dataplane/dp_table.h"
#include "lib/log.h"
#include "model/rules_bin.h"
#include "tagger_port.skel.h"
#include "lib/util.h"

#define SYSCTL_PRIO "/proc/sys/net/ipv4/ip_forward_update_priority"

/* One clock for the command: its phases are marked from several files. */
void dp_phase(const char *what)
{
	static struct phase_clock pc;

	phase_mark(&pc, what);
}

/* A failed dp_state_save: its exit code, after the error. */
int dp_state_save_err(const struct dp_opts *o, const char *dir, int err)
{
	if (err == -EFBIG) {
		p_err("%s: the rules take more than %u bytes as state (the cap)",
		      o->rules_file, DP_RECORD_MAX);
		return EXIT_USAGE;
	}
	p_err("saving state in %s: %s", dir, strerror(-err));
	return EXIT_RUNTIME;
}

/* The rules, the switch and what a state keeps: attach and update alike. */
int dp_switch_rules(const struct dp_opts *o, struct rules **rp, json_t **doc)
{
	struct rules *r;
	int sw;

	dp_phase(NULL);
	/* Compiled rules (tagger switch pack) by their magic, else JSON. */
	r = rules_bin_is(o->rules_file) ? rules_bin_load(o->rules_file, doc) :
					  rules_load(o->rules_file, doc);
	dp_phase("read and check the rules");
	if (!r)
		return -EXIT_USAGE;
	sw = rules_find_switch(r, o->name);
	if (sw < 0) {
		p_err("%s: no switch \"%s\" in the rules", o->rules_file,
		      o->name);
		goto err;
	}
	*rp = r;
	return sw;
err:
	rules_free(r);
	json_decref(*doc);
	*doc = NULL;
	return -EXIT_USAGE;
}

/* The sysctl's value, 0 if the kernel has none (before 4.19). */
int dp_sysctl_read(void)
{
	FILE *f = fopen(SYSCTL_PRIO, "r");
	int v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

int dp_sysctl_prio(int *old)
{
	int v = dp_sysctl_read();
	FILE *f;

	if (v == 0)
		return 0;
	f = fopen(SYSCTL_PRIO, "w");
	if (!f || fputs("0\n", f) < 0 || fclose(f)) {
		pr_warn("cannot set net.ipv4.ip_forward_update_priority=0: %s "
			"(the egress program sets the priority anyway)\n",
			strerror(errno));
		return 0;
	}
	*old = v;
	return 1;
}

void dp_sysctl_restore(int old)
{
	FILE *f = fopen(SYSCTL_PRIO, "w");

	if (f) {
		fprintf(f, "%d\n", old);
		fclose(f);
	}
}

void dp_free_ports(struct dp_port *ports, int n)
{
	int i;

	for (i = 0; ports && i < n; i++) {
		free(ports[i].name);
		free(ports[i].ifname);
	}
	free(ports);
}

/* The switch's ports and the interfaces they run on (PORT=IFNAME maps). */
static struct dp_port *resolve_ports(const struct rules *r, int sw,
				     const struct dp_opts *o)
{
	const struct rules_switch *s = &r->sw[sw];
	struct dp_port *ports = xcalloc(s->nports + 1, sizeof(*ports));
	int i, j, p;

	if (s->nports >= TAGGER_MAX_PORTS) {
		p_err("switch %s has %d ports; the data plane takes %d",
		      o->name, s->nports, TAGGER_MAX_PORTS - 1);
		goto err;
	}
	for (i = 0; i < s->nports; i++) {
		ports[i].name = xstrdup(s->ports[i]);
		ports[i].ifname = xstrdup(s->ports[i]);
		ports[i].slot = i + 1;
	}
	for (i = 0; i < o->nmaps; i++) {
		char *eq = strchr(o->maps[i], '=');

		*eq = '\0';
		p = rules_find_port(r, sw, o->maps[i]);
		*eq = '=';
		if (p < 0) {
			p_err("%s: switch %s has no port \"%.*s\"",
			      o->rules_file, o->name, (int)(eq - o->maps[i]),
			      o->maps[i]);
			goto err;
		}
		free(ports[p].ifname);
		ports[p].ifname = xstrdup(eq + 1);
	}
	for (i = 0; i < s->nports; i++) {
		ports[i].ifindex = if_nametoindex(ports[i].ifname);
		if (!ports[i].ifindex) {
			p_err("port %s: no interface \"%s\" in this network namespace "
			      "(map it with %s=IFNAME)",
			      ports[i].name, ports[i].ifname, ports[i].name);
			goto err;
		}
		if (ports[i].ifindex >= TAGGER_MAX_IFINDEX) {
			p_err("port %s: ifindex %d of %s is beyond what the data plane "
			      "indexes (%d)",
			      ports[i].name, ports[i].ifindex, ports[i].ifname,
			      TAGGER_MAX_IFINDEX - 1);
			goto err;
		}
		for (j = 0; j < i; j++)
			if (ports[j].ifindex == ports[i].ifindex) {
				p_err("ports %s and %s both map to %s",
				      ports[j].name, ports[i].name,
				      ports[i].ifname);
				goto err;
			}
	}
	return ports;
err:
	dp_free_ports(ports, s->nports);
	return NULL;
}

static json_t *ports_json(const struct dp_port *ports, int n,
			  const struct dp_attachment *att)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n; i++) {
		json_t *p =
			json_pack("{s:s,s:s,s:i,s:i}", "port", ports[i].name,
				  "ifname", ports[i].ifname, "ifindex",
				  ports[i].ifindex, "slot", ports[i].slot);

		if (att) {
			json_object_set_new(p, "ingress",
					    json_pack("[i,i]",
						      att[2 * i].handle,
						      att[2 * i].prio));
			json_object_set_new(p, "egress",
					    json_pack("[i,i]",
						      att[2 * i + 1].handle,
						      att[2 * i + 1].prio));
		}
		json_array_append_new(arr, p);
	}
	return arr;
}

/* The ports a state document records. */
struct dp_port *dp_state_ports(json_t *state, int *n)
{
	json_t *arr = json_object_get(state, "ports"), *v;
	struct dp_port *ports;
	size_t i;

	*n = json_array_size(arr);
	ports = xcalloc(*n + 1, sizeof(*ports));
	json_array_foreach(arr, i, v) {
		ports[i].name = xstrdup(
			json_string_value(json_object_get(v, "port")) ?: "?");
		ports[i].ifname = xstrdup(
			json_string_value(json_object_get(v, "ifname")) ?: "?");
		ports[i].ifindex =
			json_integer_value(json_object_get(v, "ifindex"));
		ports[i].slot = json_integer_value(json_object_get(v, "slot"));
	}
	return ports;
}

static void detach_all(const struct dp_port *ports, struct dp_attachment *att,
		       int natt)
{
	int k;

	for (k = 0; k < natt; k++) {
		int err = dp_detach(&att[k]);

		if (err && !dp_hook_gone(err))
			pr_warn("detach %s %s: %s\n", ports[k / 2].ifname,
				att[k].egress ? "egress" : "ingress",
				strerror(-err));
	}
}

static int attach_ports(struct tagger_port_bpf *skel,
			const struct dp_port *ports, int n, enum dp_mode mode,
			struct dp_attachment *att)
{
	int k, err,
		fds[2] = { bpf_program__fd(skel->progs.tagger_ingress),
			   bpf_program__fd(skel->progs.tagger_egress) };

	for (k = 0; k < 2 * n; k++) {
		err = dp_attach(fds[k & 1], ports[k / 2].ifindex, k & 1, mode,
				&att[k]);
		if (err) {
			p_err("attach to %s %s: %s", ports[k / 2].ifname,
			      k & 1 ? "egress" : "ingress", strerror(-err));
			detach_all(ports, att, k);
			return err;
		}
		/* Every port the same way: the first one decides. */
		mode = att[k].mode;
	}
	return 0;
}

static int load_programs(const char *dir, const struct dp_port *ports,
			 int nports, struct tagger_port_bpf **out)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = dir);
	struct tagger_port_bpf *skel;
	char path[PATH_MAX + 64];
	int err, tmpl;

	skel = tagger_port_bpf__open_opts(&oo);
	if (!skel)
		return -errno;
	tmpl = dp_prepare(skel, nports);
	err = tmpl < 0 ? tmpl : tagger_port_bpf__load(skel);
	if (tmpl >= 0)
		close(tmpl);
	if (!err)
		err = dp_ifslots_set(bpf_map__fd(skel->maps.tagger_ifslot),
				     ports, nports);
	if (!err)
		err = dp_pin_path(path, sizeof(path), dir, "prog_ingress") ?:
			      bpf_program__pin(skel->progs.tagger_ingress,
					       path);
	if (!err)
		err = dp_pin_path(path, sizeof(path), dir, "prog_egress") ?:
			      bpf_program__pin(skel->progs.tagger_egress, path);
	if (!err) {
		int fds[2] = { bpf_program__fd(skel->progs.tagger_ingress),
			       bpf_program__fd(skel->progs.tagger_egress) };

		err = dp_anchor_create(dir, fds, 2);
	}
	if (err) {
		tagger_port_bpf__destroy(skel);
		return err;
	}
	*out = skel;
	return 0;
}

void dp_set_counts(json_t *state, const struct dp_table *tab)
{
	json_object_set_new(state, "table",
			    json_pack("{s:I,s:I,s:I,s:I}", "entries",
				      (json_int_t)tab->n - 1, "classify",
				      (json_int_t)tab->nclassify, "rewrite",
				      (json_int_t)tab->nrewrite, "size",
				      (json_int_t)tab->size));
}

int dp_install_table(const struct rules *r, int sw, const struct dp_port *ports,
		     int outer_fd, int gen_fd, bool first, struct dp_table *tab,
		     int64_t *gen)
{
	int fd;

	dp_table_build(r, sw, ports, tab);
	fd = dp_table_create(tab);
	if (fd < 0)
		return fd;
	*gen = dp_table_install(outer_fd, gen_fd, fd, first);
	close(fd); /* the outer map holds the table now */
	return *gen < 0 ? (int)*gen : 0;
}

/*
 * Detach what a switch record names, restore the sysctl, remove dir (the
 * record last). A record without handles (attaching) has tc filters at
 * DP_TC_PRIO/DP_TC_HANDLE if any; none at all, nothing attached.
 */
int dp_switch_teardown(const char *dir, json_t *state,
		       const struct dp_node *node)
{
	static const char *const hook[2] = { "ingress", "egress" };
	enum dp_mode mode = dp_node_mode(state);
	json_t *port, *pv;
	char link[IF_NAMESIZE + 32];
	const char *ifname;
	int k, err, ret = 0;
	size_t i;

	json_array_foreach(json_object_get(state, "ports"), i, port) {
		ifname = json_string_value(json_object_get(port, "ifname")) ?:
									      "?";
		for (k = 0; k < 2; k++) {
			/* Format tagger-dataplane/1 pinned its tcx links here. */
			snprintf(link, sizeof(link), "link_%s_%s", ifname,
				 hook[k]);
			err = dp_hook_teardown(dir, ifname, k, link,
					       json_object_get(port, hook[k]),
					       mode);
			ret = ret ?: err;
		}
	}
	pv = json_object_get(state, "sysctl_prio_was");
	if (pv)
		dp_sysctl_restore(json_integer_value(pv));
	err = dp_remove(dir);
	if (err)
		p_err("removing %s: %s", dir, strerror(-err));
	return ret ?: err;
}

/* A switch as dp_node_settle sees it. */
static struct dp_node switch_node(const char *name)
{
	return (struct dp_node){ .kind = "switch",
				 .name = name,
				 .teardown = dp_switch_teardown };
}

int dp_switch_locked(const char *dir, const char *name, int *lock,
		     json_t **state, bool *leftover)
{
	struct dp_node node = switch_node(name);
	int err;

	*state = NULL;
	*leftover = false;
	*lock = dp_lock();
	dp_phase("lock");
	if (*lock < 0)
		return -*lock;
	err = dp_node_settle(dir, &node, state);
	dp_phase("load and settle the state");
	if (err < 0 && err != -ENOENT)
		return dp_settle_exit(err);
	*leftover = err == 1;
	return EXIT_OK;
}

/* The record written before anything is attached; see dp_state.h. */
static json_t *attaching_state(const struct dp_opts *o,
			       const struct dp_port *ports, int n,
			       int *prio_was)
{
	json_t *st = json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:o}", "format",
			       DP_STATE_FORMAT, "kind", "switch", "name",
			       o->name, "phase", "attaching", "netns",
			       dp_netns_json(), "mode", dp_mode_name(o->mode),
			       "ports", ports_json(ports, n, NULL));

	*prio_was = dp_sysctl_read();
	if (*prio_was) /* to restore, whatever happens after */
		json_object_set_new(st, "sysctl_prio_was",
				    json_integer(*prio_was));
	return st;
}

/* What attach -j prints; the plain text is rendered from it. */
static json_t *attached_report(const struct dp_opts *o, int n,
			       enum dp_mode mode, int changed, int old_prio,
			       int64_t gen, const struct dp_table *tab,
			       const char *dir)
{
	json_t *j = json_pack("{s:s,s:s,s:i,s:I,s:I,s:I,s:I,s:s?}", "switch",
			      o->name, "mode", dp_mode_name(mode), "ports", n,
			      "generation", (json_int_t)gen, "entries",
			      (json_int_t)tab->n - 1, "classify",
			      (json_int_t)tab->nclassify, "rewrite",
			      (json_int_t)tab->nrewrite, "pins",
			      dp_root_private() ? NULL : dir);

	if (changed)
		json_object_set_new(
			j, "changed",
			json_pack("{s:{s:i,s:i}}",
				  "net.ipv4.ip_forward_update_priority", "from",
				  old_prio, "to", 0));
	return j;
}

/*
 * Record "attaching" first, then load, attach and set the sysctl, then
 * record "attached": a kill anywhere leaves a record the next command
 * rolls back by (dp_switch_settled).
 */
int dp_switch_attach(const struct dp_opts *o, struct dp_report *rep)
{
	struct dp_attachment *att = NULL;
	struct tagger_port_bpf *skel = NULL;
	struct dp_port *ports = NULL;
	char dir[PATH_MAX], abs[PATH_MAX];
	int sw, n = 0, lock = -1, err, ret = EXIT_USAGE, changed = 0,
		old_prio = 0;
	struct dp_table tab = { 0 };
	struct rules *r = NULL;
	json_t *doc = NULL, *state = NULL;
	enum dp_mode mode;
	bool leftover;
	int64_t gen;

	sw = dp_switch_rules(o, &r, &doc);
	if (sw < 0)
		return -sw;
	n = r->sw[sw].nports;
	ports = resolve_ports(r, sw, o);
	if (!ports || dp_path(dir, o->name, NULL))
		goto out;
	ret = dp_switch_locked(dir, o->name, &lock, &state, &leftover);
	if (ret)
		goto out;
	if (state) {
		ret = EXIT_USAGE;
		p_err("switch %s is attached already (%s): use update or detach",
		      o->name, dir);
		goto out;
	}
	/* From here on what fails is the system's doing. */
	ret = EXIT_RUNTIME;
	if (mkdir(dir, 0700)) {
		p_err("mkdir %s: %s", dir, strerror(errno));
		goto out;
	}
	state = attaching_state(o, ports, n, &old_prio);
	err = dp_state_save(dir, DP_STATE_CUR, state);
	if (err) {
		p_err("saving state in %s: %s", dir, strerror(-err));
		goto fail;
	}
	err = load_programs(dir, ports, n, &skel);
	if (err) {
		p_err("loading the port programs: %s", strerror(-err));
		goto fail;
	}
	err = dp_install_table(
		r, sw, ports, bpf_map__fd(skel->maps.tagger_rules),
		bpf_map__fd(skel->maps.tagger_gen), true, &tab, &gen);
	if (err) {
		p_err("loading %zu rule table entries: %s", tab.n,
		      strerror(-err));
		goto fail;
	}
	att = xcalloc(2 * n + 1, sizeof(*att));
	if (attach_ports(skel, ports, n, o->mode, att))
		goto fail;
	mode = n ? att[0].mode : DP_MODE_TCX;
	changed = dp_sysctl_prio(&old_prio);
	json_object_set_new(state, "phase", json_string("attached"));
	json_object_set_new(state, "mode", json_string(dp_mode_name(mode)));
	json_object_set_new(state, "ports", ports_json(ports, n, att));
	json_object_set_new(state, "generation", json_integer(gen));
	dp_state_set_rules(state, doc);
	json_object_set_new(state, "rules_file",
			    json_string(realpath(o->rules_file, abs) ?
						abs :
						o->rules_file));
	dp_set_counts(state, &tab);
	err = dp_state_save_rules(dir, DP_STATE_CUR, state, r);
	if (err) {
		ret = dp_state_save_err(o, dir, err);
		goto fail;
	}
	rep->json =
		attached_report(o, n, mode, changed, old_prio, gen, &tab, dir);
	ret = EXIT_OK;
	goto out;
fail:
	/* The "attaching" record says what to undo (or nothing is there). */
	if (state && dp_switch_teardown(dir, state, NULL) == 0)
		goto out;
	dp_remove(dir);
out:
	if (skel)
		tagger_port_bpf__destroy(skel); /* pins and links keep them */
	dp_unlock(lock);
	free(att);
	dp_table_free(&tab);
	dp_free_ports(ports, n);
	rules_free(r);
	json_decref(doc);
	json_decref(state);
	return ret;
}

/* Record "detaching", then tear down: a killed detach is completed. */
int dp_switch_detach(const struct dp_opts *o, struct dp_report *rep)
{
	char dir[PATH_MAX];
	json_t *state;
	int lock, n = 0, err, ret = EXIT_OK;
	bool leftover;

	if (dp_path(dir, o->name, NULL))
		return EXIT_USAGE;
	ret = dp_switch_locked(dir, o->name, &lock, &state, &leftover);
	if (ret)
		goto out;
	if (!state) {
		if (leftover) {
			rep->leftover = true;
		} else {
			ret = EXIT_USAGE;
			p_err("switch %s is not attached (%s)", o->name, dir);
		}
		goto out;
	}
	rep->restored = json_object_get(state, "sysctl_prio_was");
	n = json_array_size(json_object_get(state, "ports"));
	json_object_set_new(state, "phase", json_string("detaching"));
	err = dp_state_save(dir, DP_STATE_CUR, state);
	if (err)
		pr_warn("marking %s detaching: %s\n", dir, strerror(-err));
	if (dp_switch_teardown(dir, state, NULL))
		ret = EXIT_RUNTIME;
out:
	if (ret == EXIT_OK || state) /* not for a refusal before teardown */
		rep->json = json_pack("{s:s,s:b,s:i}", "switch", o->name,
				      "detached", ret == EXIT_OK, "ports", n);
	dp_unlock(lock);
	json_decref(state);
	return ret;
}
