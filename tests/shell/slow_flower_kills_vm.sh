#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_flower_attach_vm.sh with every one of an update's last 30 netlink
# sends killed (make test kills a third of them, from a random offset):
# the entry filters' moves after the generation moved, the old chains'
# deletion and the count, each followed by a command that must repair.
TGR_KILLS_FULL=1 exec bash "$(dirname "$0")/test_flower_attach_vm.sh" "$@"
