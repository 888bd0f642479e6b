/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger host: the initial tag on a host's egress. Packets of the lossless
 * class leave with the host's initial tag (the rules' "hosts") and the
 * priority the first switch classifies that tag into; which packets are
 * the class: those the application sent with one of the --class-dscp
 * codepoints, or to a --udp-dport range (RoCEv2: 4791), or every IP packet
 * when neither is given. Other packets leave as they were sent. An RDMA
 * device on the interface is told the tag too (dp_rdma.h).
 *
 * API:
 *   dp_host_attach(&opts, &report), dp_host_detach(&opts, &report)
 *       exit codes and reports as dp_switch.h's
 */
#ifndef __TAGGER_DP_HOST_H
#define __TAGGER_DP_HOST_H

#include "dataplane/dp_switch.h"

int dp_host_attach(const struct dp_opts *o, struct dp_report *rep);
int dp_host_detach(const struct dp_opts *o, struct dp_report *rep);

#endif /* __TAGGER_DP_HOST_H */
