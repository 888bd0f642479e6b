// SPDX-License-Identifier: GPL-2.0
/*
 * dp_rdma against a fake sysfs and configfs ($TAGGER_SYSFS,
 * $TAGGER_CONFIGFS): the RDMA device on a netdev is found by its GIDs'
 * ndevs, the RDMA CM's default RoCE ToS is set to tag << 2 and put back,
 * and a missing rdma_cm is reported, not fatal. The real kernel side is
 * tests/shell/test_rdma_vm.sh.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/dp_rdma.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s/%s)\"", root, rel);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/%s", root, rel);
	f = fopen(cmd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int get(const char *rel)
{
	char path[512];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%d", &v), 1);
	fclose(f);
	return v;
}

static void setup(void)
{
	char sys[128], cfg[128];

	snprintf(root, sizeof(root), "/tmp/tagger-rdma.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(cfg, sizeof(cfg), "%s/config", root);
	setenv("TAGGER_SYSFS", sys, 1);
	setenv("TAGGER_CONFIGFS", cfg, 1);
	/* rxe0 on veth0 (GID 0 and 1), mlx5_0 port 1 on eth1; GID 2 unused. */
	put("sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0", "veth0\n");
	put("sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/1", "veth0\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0", "eth1\n");
	put("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/2", "");
	/* What mkdir rdma_cm/rxe0 makes appear in the real configfs. */
	put("config/rdma_cm/rxe0/ports/1/default_roce_tos", "0\n");
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
	unsetenv("TAGGER_SYSFS");
	unsetenv("TAGGER_CONFIGFS");
}

static struct rules rules = { .lossy_tag = 0, .lossy_prio = 0 };

START_TEST(the_rdma_device_is_found_by_its_gids)
{
	char dev[64];
	int port = 0;

	ck_assert_int_eq(dp_rdma_find("veth0", dev, sizeof(dev), &port), 1);
	ck_assert_str_eq(dev, "rxe0");
	ck_assert_int_eq(port, 1);
	ck_assert_int_eq(dp_rdma_find("eth1", dev, sizeof(dev), &port), 1);
	ck_assert_str_eq(dev, "mlx5_0");
	ck_assert_int_eq(dp_rdma_find("veth", dev, sizeof(dev), &port), 0);
	ck_assert_ptr_null(dp_rdma_attach("lo", &rules, 10));
}
END_TEST

START_TEST(roce_tos_is_the_tag_and_is_put_back)
{
	json_t *rec;

	put("config/rdma_cm/rxe0/ports/1/default_roce_tos", "32\n");
	rec = dp_rdma_attach("veth0", &rules, 26);
	ck_assert_ptr_nonnull(rec);
	ck_assert_ptr_null(json_object_get(rec, "error"));
	ck_assert_int_eq(json_integer_value(json_object_get(rec, "tos")),
			 26 << 2);
	ck_assert_int_eq(json_integer_value(json_object_get(rec, "prev_tos")),
			 32);
	ck_assert(json_is_false(json_object_get(rec, "created")));
	ck_assert_int_eq(get("config/rdma_cm/rxe0/ports/1/default_roce_tos"),
			 104);
	/* A netdev without DCB ops (or none at all here): said, not fatal. */
	ck_assert(!strncmp(json_string_value(json_object_get(rec, "dcb")),
			   "no DCB", 6));
	ck_assert_int_eq(dp_rdma_detach(rec), 0);
	ck_assert_int_eq(get("config/rdma_cm/rxe0/ports/1/default_roce_tos"),
			 32);
	json_decref(rec);
	ck_assert_int_eq(dp_rdma_detach(NULL), 0);
}
END_TEST

START_TEST(without_rdma_cm_the_record_says_why)
{
	char cmd[128];
	json_t *rec;

	snprintf(cmd, sizeof(cmd), "rm -rf %s/config/rdma_cm", root);
	ck_assert_int_eq(system(cmd), 0);
	rec = dp_rdma_attach("veth0", &rules, 10);
	ck_assert_ptr_nonnull(rec);
	ck_assert_ptr_nonnull(strstr(
		json_string_value(json_object_get(rec, "error")), "rdma_cm"));
	ck_assert_ptr_null(json_object_get(rec, "prev_tos"));
	ck_assert_int_eq(dp_rdma_detach(rec), 0); /* nothing to put back */
	json_decref(rec);
}
END_TEST

Suite *dp_rdma_suite(void)
{
	Suite *s = suite_create("dp_rdma");
	TCase *tc = tcase_create("configfs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, the_rdma_device_is_found_by_its_gids);
	tcase_add_test(tc, roce_tos_is_the_tag_and_is_put_back);
	tcase_add_test(tc, without_rdma_cm_the_record_says_why);
	suite_add_tcase(s, tc);
	return s;
}
