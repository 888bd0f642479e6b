// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled rules (tagger switch pack) are checked like the document: each
 * case below is a rule set the document reader refuses (its JSON twin,
 * where JSON can hold it), written as a CRC-valid compiled file as an
 * editor of a packed file would make it; the compiled reader must refuse
 * it too, naming the file and the item. Before one check served both
 * forms, 18 of these 24 were attached with exit 0 (C5) and the other 6
 * refused as "damaged" without saying what was wrong.
 */
#include <check.h>
#include <jansson.h>
#include <malloc.h>

#include "model/rules_bin.h"
#include "model/rules_blob.h"
#include "testlib.h"

/* Heap bytes per byte of blob, at most (measured: 9-10 wide, 15 tiny). */
#define BLOB_MEM_FACTOR 16

static const char *base_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":5,\"priority\":1},{\"tag\":9,\"priority\":2}],"
	"\"classes\":[{\"class\":1,\"tag\":5}],"
	"\"hosts\":{\"h1\":{\"tag\":5},\"h2\":{\"tag\":9,\"classes\":[9]}},"
	"\"switches\":{"
	"\"A\":{\"ports\":[\"x\",\"y\",\"z\"],"
	"\"classify\":[{\"in\":\"x\",\"tag\":5,\"priority\":1},"
	"{\"in\":\"y\",\"tag\":9,\"priority\":2}],"
	"\"rewrite\":[{\"tag\":5,\"in\":\"x\",\"out\":\"y\",\"new_tag\":9},"
	"{\"tag\":9,\"in\":\"*\",\"out\":\"z\",\"new_tag\":5}]},"
	"\"B\":{\"ports\":[\"a\"],\"classify\":[],\"rewrite\":[]}}}";

#define OBJ(doc, ...) json_path_get(doc, (const char *[]){ __VA_ARGS__, NULL })

static json_t *json_path_get(json_t *v, const char **keys)
{
	for (; *keys; keys++)
		v = json_object_get(v, *keys);
	return v;
}

/* The rules of the base document, written compiled and read back. */
static struct rules *bin_round(const struct rules *r, const char **err)
{
	char *buf = NULL;
	size_t len = 0;
	json_t *doc = NULL;
	struct rules *back;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(rules_bin_write(f, r, NULL), 0);
	fclose(f);
	capture_begin();
	back = rules_bin_read(buf, len, "t.trb", &doc);
	*err = capture_end();
	free(buf);
	json_decref(doc);
	return back;
}

static void set_name(char **name, const char *s)
{
	free(*name);
	*name = xstrdup(s);
}

static void rename_key(json_t *obj, const char *from, const char *to)
{
	json_t *v = json_incref(json_object_get(obj, from));

	json_object_del(obj, from);
	json_object_set_new(obj, to, v);
}

struct twin {
	const char *what;
	void (*edit)(struct rules *r); /* the compiled file's edit */
	void (*json)(
		json_t *doc); /* its JSON twin, NULL if JSON cannot hold it */
	const char *expect; /* in the compiled reader's message */
};

static void lossy_is_lossless(struct rules *r)
{
	r->lossy_tag = 5;
}

static void lossy_is_lossless_j(json_t *d)
{
	json_object_set_new(OBJ(d, "lossy"), "tag", json_integer(5));
}

static void rewrite_to_63(struct rules *r)
{
	r->sw[0].rewrite[0].new_tag = 63;
}

static void rewrite_to_63_j(json_t *d)
{
	json_object_set_new(
		json_array_get(OBJ(d, "switches", "A", "rewrite"), 0),
		"new_tag", json_integer(63));
}

/* n more copies of the lossless tag 9 */
static void tags_twice(struct rules *r, int n)
{
	int k;

	r->tags = xrealloc(r->tags, (r->ntags + n + 1) * sizeof(*r->tags));
	for (k = 0; k < n; k++)
		r->tags[r->ntags++] = (struct rules_tag){ 9, 2 };
}

static void tags_twice_j(json_t *d, int n)
{
	while (n--)
		json_array_append_new(
			OBJ(d, "tags"),
			json_pack("{s:i,s:i}", "tag", 9, "priority", 2));
}

static void tag_twice(struct rules *r)
{
	tags_twice(r, 1);
}

static void tag_twice_j(json_t *d)
{
	tags_twice_j(d, 1);
}

static void tag_200_times(struct rules *r)
{
	tags_twice(r, 200);
}

static void tag_200_times_j(json_t *d)
{
	tags_twice_j(d, 200);
}

static void host_name_path(struct rules *r)
{
	set_name(&r->hosts[0].name, "h 1/..");
}

static void host_name_path_j(json_t *d)
{
	rename_key(OBJ(d, "hosts"), "h1", "h 1/..");
}

/* 2^32-1 in the file: the "no tag" of a host with classes, but h1 has none */
static void host_tag_max(struct rules *r)
{
	r->hosts[0].tag = (int)0xffffffffu;
}

static void host_tag_max_j(json_t *d)
{
	json_object_set_new(OBJ(d, "hosts", "h1"), "tag",
			    json_integer(0xffffffffLL));
}

static void switch_name_utf8(struct rules *r)
{
	set_name(&r->sw[1].name, "B\xff\xfe");
}

static void port_name(struct rules *r, const char *s)
{
	set_name(&r->sw[0].ports[2], s);
}

static void port_name_j(json_t *d, const char *s)
{
	json_array_set_new(OBJ(d, "switches", "A", "ports"), 2, json_string(s));
}

static void port_space(struct rules *r)
{
	port_name(r, "et h2");
}

static void port_space_j(json_t *d)
{
	port_name_j(d, "et h2");
}

static void port_dotdot(struct rules *r)
{
	port_name(r, "..");
}

static void port_dotdot_j(json_t *d)
{
	port_name_j(d, "..");
}

static void port_path(struct rules *r)
{
	port_name(r, "../../x");
}

static void port_path_j(json_t *d)
{
	port_name_j(d, "../../x");
}

static void port_newline(struct rules *r)
{
	port_name(r, "eth2\nfake 1");
}

static void port_newline_j(json_t *d)
{
	port_name_j(d, "eth2\nfake 1");
}

static void port_quote(struct rules *r)
{
	port_name(r, "eth2\"} 1");
}

static void port_quote_j(json_t *d)
{
	port_name_j(d, "eth2\"} 1");
}

static char long_name[301];

static void port_long(struct rules *r)
{
	port_name(r, long_name);
}

static void port_long_j(json_t *d)
{
	port_name_j(d, long_name);
}

static void port_empty(struct rules *r)
{
	port_name(r, "");
}

static void port_empty_j(json_t *d)
{
	port_name_j(d, "");
}

static void port_twice(struct rules *r)
{
	port_name(r, "x");
}

static void port_twice_j(json_t *d)
{
	port_name_j(d, "x");
}

static void lossy_tag_lossless_prio(struct rules *r)
{
	r->sw[0].classify[0].tag = 0;
}

static void lossy_tag_lossless_prio_j(json_t *d)
{
	json_object_set_new(
		json_array_get(OBJ(d, "switches", "A", "classify"), 0), "tag",
		json_integer(0));
}

static void class_tag_lossy(struct rules *r)
{
	r->class_tags[0] = 0;
}

static void class_tag_lossy_j(json_t *d)
{
	json_object_set_new(json_array_get(OBJ(d, "classes"), 0), "tag",
			    json_integer(0));
}

static void host_class_tag_unknown(struct rules *r)
{
	r->hosts[1].classes[0] = 7;
}

static void host_class_tag_unknown_j(json_t *d)
{
	json_array_set_new(OBJ(d, "hosts", "h2", "classes"), 0,
			   json_integer(7));
}

static void rule_twice(struct rules *r)
{
	r->sw[0].rewrite[1] = r->sw[0].rewrite[0];
}

static void rule_twice_j(json_t *d)
{
	json_t *rw = OBJ(d, "switches", "A", "rewrite");

	json_array_set(rw, 1, json_array_get(rw, 0));
}

static void port_index_out(struct rules *r)
{
	r->sw[0].classify[1].in = 3;
}

static void switch_twice(struct rules *r)
{
	set_name(&r->sw[1].name, "A");
}

static void host_twice(struct rules *r)
{
	set_name(&r->hosts[1].name, "h1");
}

static void prio_out(struct rules *r)
{
	r->tags[1].prio = 8;
}

static void prio_out_j(json_t *d)
{
	json_object_set_new(json_array_get(OBJ(d, "tags"), 1), "priority",
			    json_integer(8));
}

static void class_id_out(struct rules *r)
{
	r->class_ids[0] = -1;
}

static void class_id_out_j(json_t *d)
{
	json_object_set_new(json_array_get(OBJ(d, "classes"), 0), "class",
			    json_integer(-1));
}

static void cnp_is_lossy(struct rules *r)
{
	r->cnp_tag = 0;
	r->cnp_prio = 5;
}

static void cnp_is_lossy_j(json_t *d)
{
	json_object_set_new(d, "cnp",
			    json_pack("{s:i,s:i}", "tag", 0, "priority", 5));
}

static void cnp_prio_lossless(struct rules *r)
{
	r->cnp_tag = 46;
	r->cnp_prio = 2;
}

static void cnp_prio_lossless_j(json_t *d)
{
	json_object_set_new(d, "cnp",
			    json_pack("{s:i,s:i}", "tag", 46, "priority", 2));
}

static void cnp_tag_only(struct rules *r)
{
	r->cnp_tag = 46;
}

static const struct twin twins[] = {
	{ "cnp tag = the lossy tag", cnp_is_lossy, cnp_is_lossy_j,
	  "t.trb: cnp: tag 0 is the lossy tag" },
	{ "cnp priority = a lossless tag's", cnp_prio_lossless,
	  cnp_prio_lossless_j,
	  "t.trb: cnp: priority 2 is the priority of lossless tag 9" },
	{ "cnp without a priority", cnp_tag_only, NULL,
	  "t.trb: cnp.priority: -1 is not an 802.1p priority" },
	{ "lossy tag = a lossless tag", lossy_is_lossless, lossy_is_lossless_j,
	  "t.trb: tags[0]: tag 5 is the lossy tag" },
	{ "rewrite to a tag not in tags", rewrite_to_63, rewrite_to_63_j,
	  "t.trb: switches.A.rewrite[0].new_tag: tag 63 is neither in" },
	{ "a tag listed twice", tag_twice, tag_twice_j,
	  "t.trb: tags[2]: tag 9 is listed twice" },
	{ "200 duplicate tags", tag_200_times, tag_200_times_j,
	  "t.trb: tags[2]: tag 9 is listed twice" },
	{ "host h 1/..", host_name_path, host_name_path_j,
	  "t.trb: hosts.h 1/..: \"h 1/..\" is not a valid node name" },
	{ "host tag 2^32-1", host_tag_max, host_tag_max_j,
	  "t.trb: hosts.h1: missing \"tag\"" },
	/* JSON text cannot hold invalid UTF-8: jansson refuses the text */
	{ "switch name of invalid UTF-8", switch_name_utf8, NULL,
	  "t.trb: switches.B??: \"B??\" is not a valid node name" },
	{ "port \"et h2\"", port_space, port_space_j,
	  "t.trb: switches.A.ports[2]: \"et h2\" is not a valid port name" },
	{ "port ..", port_dotdot, port_dotdot_j,
	  "t.trb: switches.A.ports[2]: \"..\" is not a valid port name" },
	{ "port ../../x", port_path, port_path_j,
	  "t.trb: switches.A.ports[2]: \"../../x\" is not a valid port name" },
	{ "port with a newline", port_newline, port_newline_j,
	  "t.trb: switches.A.ports[2]: \"eth2?fake 1\" is not a valid" },
	{ "port with a quote", port_quote, port_quote_j,
	  "t.trb: switches.A.ports[2]: \"eth2\"} 1\" is not a valid" },
	{ "port of 300 bytes", port_long, port_long_j,
	  "t.trb: switches.A.ports[2]: name \"pppp" },
	{ "empty port", port_empty, port_empty_j,
	  "t.trb: switches.A.ports[2]: \"\" is not a valid port name" },
	{ "port listed twice", port_twice, port_twice_j,
	  "t.trb: switches.A.ports[2]: port \"x\" is listed twice" },
	{ "lossy tag classified lossless", lossy_tag_lossless_prio,
	  lossy_tag_lossless_prio_j,
	  "t.trb: switches.A.classify[0]: the lossy tag 0 must stay" },
	{ "class of the lossy tag", class_tag_lossy, class_tag_lossy_j,
	  "t.trb: classes[0].tag: tag 0 is not a lossless tag" },
	{ "host class tag unknown", host_class_tag_unknown,
	  host_class_tag_unknown_j,
	  "t.trb: hosts.h2.classes[0]: 7 is not a lossless tag" },
	{ "two rewrite rules of one key", rule_twice, rule_twice_j,
	  "t.trb: switches.A.rewrite[1]: tag 5 in x out y is already "
	  "answered by rewrite[0]" },
	{ "priority 8", prio_out, prio_out_j,
	  "t.trb: tags[1].priority: 8 is not an 802.1p priority" },
	{ "class -1", class_id_out, class_id_out_j,
	  "t.trb: classes[0].class: -1 is not a class number" },
	/* a port index, a name twice in one object: no JSON twin */
	{ "port index out of range", port_index_out, NULL,
	  "t.trb: switches.A.classify[1].in: port index 3 is not in "
	  "switches.A.ports" },
	{ "switch listed twice", switch_twice, NULL,
	  "t.trb: switches.A: switch is listed twice" },
	{ "host listed twice", host_twice, NULL,
	  "t.trb: hosts.h1: host is listed twice" },
};

START_TEST(the_base_reads_back_from_both_forms)
{
	json_t *doc;
	struct rules *r = rules_from_str(base_json, &doc), *back;
	const char *err;

	back = bin_round(r, &err);
	ck_assert_msg(back != NULL, "refused: %s", err);
	rules_free(back);
	rules_free(r);
	json_decref(doc);
}
END_TEST

/*
 * The CNP class is an optional section after the switches: it reads back,
 * a blob without it (every blob before it) reads as none, and anything
 * else after the switches is refused.
 */
START_TEST(the_cnp_class_reads_back_and_is_optional)
{
	json_t *doc;
	struct rules *r = rules_from_str(base_json, &doc), *back;
	const char *err;
	uint8_t *grown;
	size_t len;
	void *blob;

	blob = rules_to_blob(r, &len);
	back = rules_blob_decode(blob, len, "t");
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(back->cnp_tag, -1);
	rules_free(back);
	grown = xmalloc(len + 12);
	memcpy(grown, blob, len);
	memcpy(grown + len, "junk\0\0\0\0\0\0\0\0", 12);
	ck_assert_ptr_null(rules_blob_decode(grown, len + 12, "t"));
	ck_assert_ptr_null(rules_blob_decode(grown, len + 4, "t"));
	free(grown);
	free(blob);
	r->cnp_tag = 46;
	r->cnp_prio = 6;
	back = bin_round(r, &err);
	ck_assert_msg(back != NULL, "refused: %s", err);
	ck_assert_int_eq(back->cnp_tag, 46);
	ck_assert_int_eq(back->cnp_prio, 6);
	rules_free(back);
	rules_free(r);
	json_decref(doc);
}
END_TEST

START_TEST(a_packed_twin_of_refused_json_is_refused)
{
	const struct twin *t = &twins[_i];
	json_t *doc, *twin;
	struct rules *r = rules_from_str(base_json, &doc), *back;
	const char *err;

	memset(long_name, 'p', sizeof(long_name) - 1);
	if (t->json) {
		twin = json_deep_copy(doc);
		t->json(twin);
		capture_begin();
		back = rules_from_json(twin, "t.json");
		err = capture_end();
		ck_assert_msg(!back, "%s: the JSON twin is accepted", t->what);
		json_decref(twin);
	}
	t->edit(r);
	back = bin_round(r, &err);
	ck_assert_msg(!back, "%s: the compiled file is accepted", t->what);
	ck_assert_msg(strstr(err, t->expect), "%s: got \"%s\", want \"%s\"",
		      t->what, err, t->expect);
	ck_assert_msg(!strchr(err, '\n') || strchr(err, '\n')[1] == '\0',
		      "%s: a message of more than one line: \"%s\"", t->what,
		      err);
	rules_free(r);
	json_decref(doc);
}
END_TEST

/* The base rules and nsw switches of nports ports each, without rules. */
static struct rules *wide_rules(int nsw, int nports, json_t **doc)
{
	struct rules *r;
	json_t *sws, *ports;
	char name[32];
	int i, k;

	*doc = json_loads(base_json, 0, NULL);
	sws = OBJ(*doc, "switches");
	for (i = 0; i < nsw; i++) {
		ports = json_array();
		for (k = 0; k < nports; k++) {
			snprintf(name, sizeof(name), "p%d", k);
			json_array_append_new(ports, json_string(name));
		}
		snprintf(name, sizeof(name), "x%d", i);
		json_object_set_new(sws, name,
				    json_pack("{s:o,s:[],s:[]}", "ports", ports,
					      "classify", "rewrite"));
	}
	r = rules_from_json(*doc, "wide.json");
	ck_assert_ptr_nonnull(r);
	return r;
}

static size_t heap_in_use(void)
{
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
}

/*
 * The reader's memory is a small multiple of the blob, whatever its
 * switches' shape: 256-port switches without rules used to get 16 MiB of
 * arrays by key each (a 4.6 MB file took 724 MB). Measured with the
 * allocator's own count, so other processes' load cannot change it.
 */
START_TEST(memory_stays_linear_in_the_blob)
{
	/* switches x ports: the report's shape, growing; tiny switches */
	static const int shapes[][2] = {
		{ 10, 256 }, { 100, 256 }, { 400, 256 }, { 20000, 0 }
	};
	size_t len, before, used, i;
	struct rules *r, *back;
	json_t *doc;
	void *blob;

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		r = wide_rules(shapes[i][0], shapes[i][1], &doc);
		blob = rules_to_blob(r, &len);
		rules_free(r);
		json_decref(doc);
		before = heap_in_use();
		back = rules_from_blob(blob, len, "wide");
		used = heap_in_use() - before;
		ck_assert_ptr_nonnull(back);
		ck_assert_msg(used <= BLOB_MEM_FACTOR * len + (1 << 20),
			      "%d switches of %d ports: %zu bytes of blob "
			      "take %zu bytes (%.1fx)",
			      shapes[i][0], shapes[i][1], len, used,
			      (double)used / len);
		rules_free(back);
		free(blob);
	}
}
END_TEST

Suite *rules_blob_check_suite(void)
{
	Suite *s = suite_create("rules_blob_check");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, the_base_reads_back_from_both_forms);
	tcase_add_test(tc, the_cnp_class_reads_back_and_is_optional);
	tcase_add_test(tc, memory_stays_linear_in_the_blob);
	tcase_add_loop_test(tc, a_packed_twin_of_refused_json_is_refused, 0,
			    (int)ARRAY_SIZE(twins));
	suite_add_tcase(s, tc);
	return s;
}
