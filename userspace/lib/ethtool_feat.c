// SPDX-License-Identifier: GPL-2.0
/* A device's feature flag by name through SIOCETHTOOL; see ethtool_feat.h. */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/ethtool_feat.h"

/* More than any kernel has (about 70 in 6.x); a bound on what we allocate. */
#define FEATURES_MAX 4096

static int ioctl_on(int fd, const char *ifname, void *data)
{
	struct ifreq ifr = { 0 };

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENODEV;
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

int ethtool_feature_index(const char *strings, int n, const char *name)
{
	size_t len = strlen(name);
	int i;

	if (len > ETH_GSTRING_LEN)
		return -1;
	for (i = 0; i < n; i++) {
		const char *s = strings + (size_t)i * ETH_GSTRING_LEN;

		if (!memcmp(s, name, len) &&
		    (len == ETH_GSTRING_LEN || s[len] == '\0'))
			return i;
	}
	return -1;
}

/* How many features the kernel names, or -errno. */
static int feature_count(int fd, const char *ifname)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			    .sset_mask = 1ULL << ETH_SS_FEATURES } };
	int r = ioctl_on(fd, ifname, &info);

	if (r)
		return r;
	if (!(info.hdr.sset_mask & (1ULL << ETH_SS_FEATURES)))
		return -EOPNOTSUPP;
	return info.len > FEATURES_MAX ? -E2BIG : (int)info.len;
}

static int find_feature(int fd, const char *ifname, const char *name, int *nf)
{
	struct ethtool_gstrings *gs;
	int n = feature_count(fd, ifname), r;

	if (n < 0)
		return n;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	if (!gs)
		return -ENOMEM;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = n;
	r = ioctl_on(fd, ifname, gs);
	if (!r) {
		/* The kernel says how many it wrote: never read past them. */
		*nf = gs->len < (uint32_t)n ? (int)gs->len : n;
		r = ethtool_feature_index((const char *)gs->data, *nf, name);
		if (r < 0)
			r = -ENOENT;
	}
	free(gs);
	return r;
}

int ethtool_feature(const char *ifname, const char *name,
		    struct ethtool_feat *st)
{
	struct ethtool_gfeatures *gf;
	int fd, idx, nf = 0, blocks, r;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	idx = find_feature(fd, ifname, name, &nf);
	if (idx < 0) {
		close(fd);
		return idx;
	}
	blocks = (nf + 31) / 32;
	gf = calloc(1, sizeof(*gf) + blocks * sizeof(gf->features[0]));
	if (!gf) {
		close(fd);
		return -ENOMEM;
	}
	gf->cmd = ETHTOOL_GFEATURES;
	gf->size = blocks;
	r = ioctl_on(fd, ifname, gf);
	if (!r) {
		uint32_t bit = 1u << (idx % 32);
		const struct ethtool_get_features_block *b =
			&gf->features[idx / 32];

		st->on = b->active & bit;
		st->changeable =
			(b->available & bit) && !(b->never_changed & bit);
	}
	free(gf);
	close(fd);
	return r;
}
