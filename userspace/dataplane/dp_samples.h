/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The samples of demoted packets (bpf/lib/sample.h) read from the
 * switch's TAGGER_SAMPLES ring, for tagger switch show and the metrics.
 *
 * The ring itself keeps the last TAGGER_SAMPLES_KEPT samples: a reader
 * reads every record from the consumer position to the producer's, and
 * moves the consumer position only past the older ones. So every reader
 * (show, a metrics scrape, another show at once) sees the same last
 * samples without a daemon or a file, and the ring never fills while
 * somebody reads it now and then. Readers take no lock: the consumer
 * position moves by compare-and-swap, only forward, and a record is
 * used only if the producer cannot have written over it while it was
 * copied (the producer writes at most a ring's size past the consumer
 * position).
 *
 * API:
 *   dp_samples_read(fd, out, max)   the last samples (at most max, oldest
 *                                   first) of the ring map fd into out; the
 *                                   number, or -errno
 *   dp_sample_json(s, in, out, now_ns)   one sample as show's JSON (ports
 *                                   by name; now_ns: CLOCK_MONOTONIC, for
 *                                   its age)
 *   dp_monotonic_ns()               CLOCK_MONOTONIC, the clock of the
 *                                   samples (bpf_ktime_get_ns)
 */
#ifndef __TAGGER_DP_SAMPLES_H
#define __TAGGER_DP_SAMPLES_H

#include <stdint.h>
#include <jansson.h>

#include "tagger_maps.h"

int dp_samples_read(int fd, struct tagger_sample *out, int max);
json_t *dp_sample_json(const struct tagger_sample *s, const char *in,
		       const char *out, uint64_t now_ns);
uint64_t dp_monotonic_ns(void);

#endif /* __TAGGER_DP_SAMPLES_H */
