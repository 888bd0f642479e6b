/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's skb drop reasons, read from its BTF (enum skb_drop_reason
 * changes between kernels, so nothing is hard-coded): which ones the pause
 * machinery files as qdisc drops or as losses to a failure, and their
 * names for `tagger pfc show`.
 *
 * API:
 *   pfc_drop_kinds(tbl)               tbl[reason] = PFC_DROP_* (bpf/pfc_maps.h)
 *   pfc_drop_reason_name(r, buf, len) "NOT_SPECIFIED", ..., or the number
 */
#ifndef __TAGGER_PFC_REASONS_H
#define __TAGGER_PFC_REASONS_H

#include <stddef.h>
#include <stdint.h>

void pfc_drop_kinds(volatile uint8_t *tbl);
const char *pfc_drop_reason_name(uint32_t reason, char *buf, size_t len);

#endif /* __TAGGER_PFC_REASONS_H */
