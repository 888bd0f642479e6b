// SPDX-License-Identifier: GPL-2.0
/* Numbers with tc(8) units; see units.h. */
#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#include "lib/units.h"

static bool parse_scaled(const char *s, const char *const *units,
			 const uint64_t *mult, uint64_t *out)
{
	char *end;
	double v;
	int i;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	for (i = 0; units[i]; i++) {
		if (!strcasecmp(end, units[i])) {
			double r = v * mult[i];

			if (r < 1 || r > 1e18)
				return false;
			*out = (uint64_t)(r + 0.5);
			return true;
		}
	}
	return false;
}

/* tc(8) rate units: bit kbit mbit gbit tbit, bps kbps mbps (bytes). */
bool parse_rate(const char *s, uint64_t *bps)
{
	static const char *const u[] = { "",	 "bit",	 "kbit", "mbit",
					 "gbit", "tbit", "bps",	 "kbps",
					 "mbps", "gbps", NULL };
	static const uint64_t m[] = { 1,
				      1,
				      1000ull,
				      1000000ull,
				      1000000000ull,
				      1000000000000ull,
				      8,
				      8000ull,
				      8000000ull,
				      8000000000ull };

	return parse_scaled(s, u, m, bps);
}

/* tc(8) size units: b k kb m mb g gb (powers of 1024). */
bool parse_size(const char *s, uint64_t *bytes)
{
	static const char *const u[] = { "",   "b", "k",  "kb", "m",
					 "mb", "g", "gb", NULL };
	static const uint64_t m[] = { 1,       1,	1024,	 1024,
				      1 << 20, 1 << 20, 1 << 30, 1 << 30 };

	return parse_scaled(s, u, m, bytes);
}
