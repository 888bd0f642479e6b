/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch's rules as the document's compact JSON text, written straight
 * from a struct rules: the bytes jansson's JSON_COMPACT dump of
 * rules_switch_json() (rules_blob.h) gives, without a JSON object per rule
 * in memory. A big compile writes its document this way (230,000 rules:
 * about 105 MiB of jansson objects, and the time to build and free them).
 * Names are escaped by jansson itself, once per port, so a name's bytes
 * come out as the tree's dump writes them.
 *
 * API:
 *   rules_switch_write(f, r, sw)   switch sw's {"ports":...,"classify":
 *                                  ...,"rewrite":...} to f; 0, or -1 if a
 *                                  name is no JSON string (not UTF-8), a
 *                                  rule's port is past the switch's
 *                                  ports, or a write failed
 */
#ifndef __TAGGER_RULES_TEXT_H
#define __TAGGER_RULES_TEXT_H

#include <stdio.h>

#include "model/rules.h"

int rules_switch_write(FILE *f, const struct rules *r, int sw);

#endif /* __TAGGER_RULES_TEXT_H */
