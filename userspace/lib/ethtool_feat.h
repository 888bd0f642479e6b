/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network device's feature flag by name, as `ethtool -k` shows it
 * ("hw-tc-offload"), read with the SIOCETHTOOL ioctl: the names of the
 * ETH_SS_FEATURES string set (ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS), then
 * the feature words (ETHTOOL_GFEATURES). Reading needs no privilege; it
 * asks the caller's network namespace.
 *
 * API:
 *   ethtool_feature(ifname, name, &st)   0 with st (on: active now;
 *                                        changeable: ethtool -K may turn
 *                                        it; ethtool's "[fixed]" if not),
 *                                        -ENOENT if the kernel has no
 *                                        feature of that name, -ENODEV if
 *                                        no such device, else -errno
 *   ethtool_feature_index(strings, n, name)   the index of name among n
 *                                        ETH_GSTRING_LEN strings (not
 *                                        necessarily NUL-terminated), or -1
 */
#ifndef __TAGGER_ETHTOOL_FEAT_H
#define __TAGGER_ETHTOOL_FEAT_H

#include <stdbool.h>

struct ethtool_feat {
	bool on;
	bool changeable;
};

int ethtool_feature(const char *ifname, const char *name,
		    struct ethtool_feat *st);
int ethtool_feature_index(const char *strings, int n, const char *name);

#endif /* __TAGGER_ETHTOOL_FEAT_H */
