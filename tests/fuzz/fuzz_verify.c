// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the verifier never crashes or leaks, whatever rules it
 * is given for a topology and a path set. Input: a topology, a line "%%",
 * an ELP, a line "%%", rules JSON. Without separators the input is the
 * rules for a fixed ring of three switches with hosts.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "model/elp.h"
#include "fuzz_common.h"
#include "lib/log.h"
#include "model/rules.h"
#include "model/topo.h"
#include "analyze/verify.h"

static const char topo_fallback[] =
	"switch A\nswitch B\nswitch C\nhost ha\nhost hc\n"
	"link A:2 B:1\nlink B:2 C:1\nlink C:2 A:1\nlink ha:e A:h\nlink hc:e C:h\n";
static const char elp_fallback[] =
	"A B C\nB C A\nC A B\nha A B C hc\nhc C A ha\n";

static void run(const char *topo, size_t tlen, const char *paths, size_t plen,
		const char *rules, size_t rlen)
{
	struct verify_opts o = { .max_problems = 3 };
	struct verify_result res;
	struct rules *r = NULL;
	struct elp *e = NULL;
	struct topo *t;
	json_t *root;

	t = fuzz_topo(topo, tlen);
	if (!t)
		return;
	e = fuzz_elp(t, paths, plen);
	root = json_loadb(rules, rlen, JSON_REJECT_DUPLICATES, NULL);
	if (root)
		r = rules_from_json(root, "rules");
	json_decref(root);
	if (e && r && verify_rules(t, e, r, &o, &res) != EXIT_USAGE) {
		json_decref(verify_result_json(t, e, r, &res));
		verify_result_free(&res);
	}
	rules_free(r);
	elp_free(e);
	topo_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *s1, *s2;

	log_quiet = true;
	s1 = memmem(in, size, "%%\n", 3);
	s2 = s1 ? memmem(s1 + 3, size - (s1 + 3 - in), "%%\n", 3) : NULL;
	if (!s2) {
		run(topo_fallback, sizeof(topo_fallback) - 1, elp_fallback,
		    sizeof(elp_fallback) - 1, in, size);
		return 0;
	}
	run(in, s1 - in, s1 + 3, s2 - s1 - 3, s2 + 3, size - (s2 + 3 - in));
	return 0;
}
