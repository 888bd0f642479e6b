#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test: Check suites (unit + BPF test-run), then the shell tests
# (namespace integration, lab scenarios), then a short fuzz of each parser.
# Prints each part's time and closes with "N passed, N failed, N skipped"
# and the suite's total time.
#
#   TESTS="name ..."   only these shell tests (tests/shell/test_<name>.sh)
#   V=1                show the output of passing shell tests too
set -u
cd "$(dirname "$0")/.." || exit 2

passed=0 failed=0 skipped=0 failures=()
SKIP=249
suite_start=$(date +%s)

echo "== Check suites"
start=$(date +%s)
if CK_VERBOSITY=${CK_VERBOSITY:-normal} build/test_runner; then
	passed=$((passed + 1))
else
	failed=$((failed + 1)); failures+=("check-suites")
fi
echo "  check suites took $(( $(date +%s) - start ))s"

echo "== shell tests"
shopt -s nullglob
for t in tests/shell/test_*.sh; do
	name=$(basename "$t" .sh); name=${name#test_}
	if [ -n "${TESTS:-}" ] && ! [[ " $TESTS " == *" $name "* ]]; then
		continue
	fi
	log=$(mktemp)
	start=$(date +%s)
	timeout --kill-after=10 "${TEST_TIMEOUT:-600}" bash "$t" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		printf '  PASS  %-28s %4ss\n' "$name" "$secs"
		passed=$((passed + 1))
		[ "${V:-0}" = 1 ] && sed 's/^/    /' "$log"
	elif [ $rc -eq $SKIP ]; then
		printf '  SKIP  %-28s %4ss %s\n' "$name" "$secs" "$(tail -1 "$log")"
		skipped=$((skipped + 1))
	else
		printf '  FAIL  %-28s %4ss (exit %d)\n' "$name" "$secs" $rc
		sed 's/^/    /' "$log" | tail -40
		failed=$((failed + 1)); failures+=("$name")
	fi
	rm -f "$log"
done

echo "== fuzz smoke"
fuzzers=()
for f in build/fuzz/fuzz_*; do	# the targets, not files beside them
	[ -f "$f" ] && [ -x "$f" ] && fuzzers+=("$f")
done
if [ ${#fuzzers[@]} -gt 0 ]; then
	start=$(date +%s)
	if FUZZ_SECONDS=${FUZZ_SECONDS:-5} bash tests/fuzz/run.sh "${fuzzers[@]}"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1)); failures+=("fuzz")
	fi
	echo "  fuzz smoke took $(( $(date +%s) - start ))s"
fi

[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
total=$(( $(date +%s) - suite_start ))
echo "total ${total}s ($((total / 60))m$((total % 60))s)"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
