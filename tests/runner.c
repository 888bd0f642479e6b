// SPDX-License-Identifier: GPL-2.0
/*
 * Runs every Check suite of tests/unit and tests/bpf. Suites are found by
 * file name (tests/<area>/test_<name>.c defines Suite *<name>_suite(void));
 * the Makefile writes the list into build/tests/suites.h.
 *
 *	build/test_runner            all suites
 *	build/test_runner -t NAME    one suite (repeatable)
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE(name) Suite *name##_suite(void);
#include "tests/suites.h"
#undef SUITE

struct suite_entry {
	const char *name;
	Suite *(*make)(void);
};

#define SUITE(name) { #name, name##_suite },
static const struct suite_entry suites[] = {
#include "tests/suites.h"
	{ NULL, NULL }
};
#undef SUITE

static int wanted(const char *name, int argc, char **argv)
{
	int i, any = 0;

	for (i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "-t"))
			continue;
		any = 1;
		if (!strcmp(argv[i + 1], name))
			return 1;
	}
	return !any;
}

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int i, failed;

	for (i = 0; suites[i].name; i++) {
		if (!wanted(suites[i].name, argc, argv))
			continue;
		if (!sr)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	if (!sr) {
		fprintf(stderr, "no such suite\n");
		return 2;
	}
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
