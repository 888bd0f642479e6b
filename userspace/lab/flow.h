/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lossless-class test flows for the lab: constant-rate UDP like RoCE
 * without congestion control, and a receiver that samples every flow's
 * throughput at a fixed interval and counts lost datagrams.
 *
 * Each datagram starts with struct flow_hdr (big endian). The sender keeps
 * its rate on an absolute schedule and blocks when the host's queue is
 * paused (a blocking socket whose send buffer fills behind a closed gate),
 * as a NIC stalls under PFC. Late wake-ups are made up by sending back to
 * back, at most 20 ms worth, so a longer stall is not followed by a burst.
 * The receiver counts a datagram lost when a later sequence number of its
 * flow arrived first and it never came (a reordered datagram that arrives
 * late is taken back off the count).
 *
 * API:
 *   flow_send(&opts)   runs until the duration ends or SIGINT/SIGTERM;
 *                      writes a JSON summary line to opts.out
 *   flow_recv(&opts)   one JSON line per flow per interval to opts.out,
 *                      then a summary line per flow
 */
#ifndef __TAGGER_FLOW_H
#define __TAGGER_FLOW_H

#include <stdint.h>
#include <stdio.h>

#define FLOW_MAGIC 0x54474657u /* "TGFW" */
#define FLOW_PORT 4791 /* RoCEv2's UDP port */
#define FLOW_MAX 256

struct flow_hdr {
	uint32_t magic;
	uint32_t flow;
	uint64_t seq;
	uint64_t send_ns;
} __attribute__((packed));

struct flow_send_opts {
	const char *dst; /* IPv4 address */
	int port;
	uint32_t flow;
	double mbit; /* UDP payload rate */
	int size; /* UDP payload bytes */
	int dscp;
	int prio; /* SO_PRIORITY, -1 to leave it */
	double seconds; /* 0: until a signal */
	FILE *out;
};

struct flow_recv_opts {
	int port;
	int interval_ms;
	double seconds; /* 0: until a signal */
	FILE *out;
};

int flow_send(const struct flow_send_opts *o);
int flow_recv(const struct flow_recv_opts *o);

#endif /* __TAGGER_FLOW_H */
