// SPDX-License-Identifier: GPL-2.0
/* A document of tagger's own JSON formats read whole; see json_doc.h. */
#include <string.h>

#include "lib/json_doc.h"
#include "lib/json_skim.h"
#include "lib/lines.h"
#include "lib/log.h"

struct skim {
	const char *path;
	const char *const *read;
	size_t max_ignored;
};

static int check_ignored(const char *key, size_t keylen, size_t span, void *arg)
{
	const struct skim *s = arg;
	size_t i;

	for (i = 0; s->read[i]; i++)
		if (strlen(s->read[i]) == keylen &&
		    !memcmp(s->read[i], key, keylen))
			return 0;
	if (span <= s->max_ignored)
		return 0;
	input_err(s->path, 0,
		  "top-level key \"%.*s\" holds %zu bytes; keys this reader "
		  "ignores may hold at most %zu MiB",
		  (int)(keylen < 64 ? keylen : 64), key, span,
		  s->max_ignored >> 20);
	return 1;
}

json_t *json_doc_load(const char *path, size_t max, const char *const *read,
		      size_t max_ignored)
{
	struct skim s = { path, read, max_ignored };
	json_error_t jerr;
	struct lines lr;
	json_t *root;

	/* One read and an in-memory parse: jansson's file reader goes by getc. */
	if (lines_open_max(&lr, path, max))
		return NULL;
	if (lines_nul_line(&lr))
		input_err(path, lines_nul_line(&lr), "NUL byte");
	if (lines_nul_line(&lr) ||
	    json_skim_top(lr.buf, lr.len, check_ignored, &s)) {
		lines_close(&lr);
		return NULL;
	}
	root = json_loadb(lr.buf, lr.len, JSON_REJECT_DUPLICATES, &jerr);
	lines_close(&lr);
	if (!root) {
		if (jerr.line > 0)
			input_err(path, jerr.line, "%d: %s", jerr.column,
				  jerr.text);
		else
			input_err(path, 0, "%s", jerr.text);
	}
	return root;
}
