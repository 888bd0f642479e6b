/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbers with tc(8) units, as the command line and the configuration
 * files take them: a decimal number (fractions allowed) and a unit, case
 * insensitive; at least 1 and at most 10^18 after scaling.
 *
 * API:
 *   parse_rate("100mbit", &bps)    bit/s: bit kbit mbit gbit tbit (powers
 *                                  of 1000), bps kbps mbps gbps (bytes/s)
 *   parse_size("64k", &bytes)      bytes: b k kb m mb g gb (powers of 1024)
 */
#ifndef __TAGGER_UNITS_H
#define __TAGGER_UNITS_H

#include <stdbool.h>
#include <stdint.h>

bool parse_rate(const char *s, uint64_t *bps);
bool parse_size(const char *s, uint64_t *bytes);

#endif /* __TAGGER_UNITS_H */
