// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the readers of the kernel's DCB answers (a GET's
 * state, a SET's status) never read past a message, whatever its
 * attributes claim.
 */
#include <libmnl/libmnl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dcb_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dcb_state s;
	struct nlmsghdr *h;
	char *buf;
	int n = size;

	/* A copy of exactly the input's size: ASan sees any overread. */
	buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	/* The readers are given whole messages, as dcb_nl's receive loop
	 * gives them (dcb_msg_whole). */
	for (h = (struct nlmsghdr *)buf; dcb_msg_whole(h, n);
	     h = mnl_nlmsg_next(h, &n)) {
		dcb_parse_state(h, &s);
		dcb_parse_status(h);
	}
	free(buf);
	return 0;
}
