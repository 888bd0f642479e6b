// SPDX-License-Identifier: GPL-2.0
/* The DCB backend's maps on the agent's ports; see pfc_dcb_ports.h. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/dcb_port.h"
#include "lib/dcb_state.h"
#include "lib/log.h"
#include "pfc/pfc_dcb_ports.h"

uint8_t pfc_dcb_lossless(const struct pfc_config *c, int port)
{
	return c->dcb_rules ? c->dcb_pfc[port] : (uint8_t)c->lossless_mask;
}

static int saved_path(const char *dir, const char *name, char *buf)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n >= 0 && n < PATH_MAX ? 0 : -ENAMETOOLONG;
}

/* The node's directory is trusted (pfc_state.h): no symlink followed. */
static int save_file(const char *dir, json_t *doc)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	FILE *f;
	int fd, r;

	r = saved_path(dir, PFC_DCB_SAVED ".new", tmp) ?:
		    saved_path(dir, PFC_DCB_SAVED, path);
	if (r)
		return r;
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	r = json_dumpf(doc, f, JSON_INDENT(1)) || fflush(f) || fsync(fd) ?
		    -EIO :
		    0;
	if (fclose(f) && !r)
		r = -errno;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

static json_t *load_file(const char *path)
{
	json_error_t jerr;
	json_t *doc;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	doc = json_loadfd(fd, 0, &jerr);
	if (!doc)
		p_err("%s:%d: %s", path, jerr.line, jerr.text);
	close(fd);
	return doc;
}

int pfc_dcb_restore(const char *dir)
{
	char path[PATH_MAX], why[256];
	struct dcb_state s;
	struct dcb_nl d;
	json_t *doc, *port;
	size_t i;
	int err, e;

	err = saved_path(dir, PFC_DCB_SAVED, path);
	if (err || access(path, F_OK))
		return err;
	doc = load_file(path);
	if (!doc)
		return -EINVAL;
	err = dcb_nl_open(&d);
	if (err) {
		p_err("DCB netlink: %s", strerror(-err));
		json_decref(doc);
		return err;
	}
	json_array_foreach(json_object_get(doc, "ports"), i, port) {
		e = dcb_state_from_json(port, &s, why, sizeof(why));
		if (e) {
			p_err("%s: ports[%zu]: %s", path, i, why);
		} else if (!if_nametoindex(s.ifname)) {
			pr_info("%s: gone; its DCB state is not restored\n",
				s.ifname);
			continue;
		} else if ((e = dcb_port_restore(&d, s.ifname, &s)) < 0) {
			p_err("restoring DCB on %s: %s", s.ifname, d.err);
		} else if (e > 0) {
			pr_info("%s: DCB state as found restored (%d "
				"changes)\n",
				s.ifname, e);
		}
		err = err ?: e < 0 ? e : 0;
	}
	dcb_nl_close(&d);
	json_decref(doc);
	if (!err)
		unlink(path);
	return err;
}

/* What port holds under the maps: as read, the maps written over it. */
static int port_want(struct dcb_nl *d, const struct pfc_config *c, int port,
		     struct dcb_state *want)
{
	const char *ifname = c->ports[port].ifname;
	bool rewr = false;
	int i, r = dcb_port_read(d, ifname, want);

	if (r)
		return r;
	for (i = 0; c->dcb_rules && i < PFC_PRIOS; i++)
		rewr |= c->dcb_rewr[port][i] >= 0;
	if (rewr && !(want->has & DCB_HAS_REWR)) {
		snprintf(d->err, sizeof(d->err),
			 "%s: the rewr table is not supported by this kernel "
			 "(it came with Linux 6.3)",
			 ifname);
		return -EOPNOTSUPP;
	}
	if (!(want->has & DCB_HAS_PFC)) {
		snprintf(d->err, sizeof(d->err),
			 "%s: its driver reports no PFC", ifname);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < DCB_DSCPS; i++)
		want->app[i] = 1u << (c->dcb_rules ? c->dcb_app[port][i] :
						     c->dscp_prio[i]);
	for (i = 0; c->dcb_rules && i < PFC_PRIOS; i++)
		if (c->dcb_rewr[port][i] >= 0)
			want->rewr[i] = 1ull << c->dcb_rewr[port][i];
	want->pfc.pfc_en = pfc_dcb_lossless(c, port);
	return 0;
}

int pfc_dcb_setup(const struct pfc_config *c)
{
	json_t *doc = json_object(), *ports = json_array();
	struct dcb_state s;
	struct dcb_nl d;
	int i, err;

	json_object_set_new(doc, "ports", ports);
	/* A dead agent's first: what it saved is what the ports held. */
	err = pfc_dcb_restore(c->dir);
	if (!err)
		err = dcb_nl_open(&d);
	if (err) {
		json_decref(doc);
		return err;
	}
	for (i = 0; !err && i < c->nports; i++) {
		err = dcb_port_read(&d, c->ports[i].ifname, &s);
		if (err)
			p_err("dcb: %s", d.err);
		else
			json_array_append_new(ports, dcb_state_json(&s));
	}
	if (!err) {
		err = save_file(c->dir, doc);
		if (err)
			p_err("%s/%s: %s", c->dir, PFC_DCB_SAVED,
			      strerror(-err));
	}
	for (i = 0; !err && i < c->nports; i++) {
		err = port_want(&d, c, i, &s);
		if (!err)
			err = dcb_port_restore(&d, c->ports[i].ifname, &s);
		if (err < 0)
			p_err("dcb: %s", d.err);
		else
			err = 0;
	}
	dcb_nl_close(&d);
	json_decref(doc);
	return err;
}

int pfc_dcb_pfc(struct dcb_nl *d, const struct pfc_config *c, int port,
		uint8_t off)
{
	return dcb_port_pfc(d, c->ports[port].ifname,
			    pfc_dcb_lossless(c, port) & ~off, -1);
}
