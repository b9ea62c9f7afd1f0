#!/usr/bin/env bash
# Node's test runner as every suite of this repository runs it: `bash scripts/node-test.sh
# [runner options] <files or globs>`, with `node` from PATH (Node 24 inside npm).
#
# - On a pinned clock: noon of a fixed day in the run's zone (scripts/pinned-clock.sh says why).
# - A test that hangs fails after five minutes with its name (--test-timeout; the slowest test
#   takes ~10 s). A test file whose hung test left something running would still keep the
#   runner waiting, so the whole run is stopped after 30 minutes (`timeout`, which signals the
#   runner and the file processes it started; TOCK_TEST_RUN_LIMIT=<seconds> sets another limit),
#   instead of running into a CI job's time limit.
#   Not --test-force-exit: with files run in parallel it loses verdicts of tests that ran and
#   still exits 0 (a known fault of Node 24's runner; one CI run here reported 990 of 1008 tests).
# - With Node's compile cache in a fresh 0700 folder of this run's own (NODE_COMPILE_CACHE,
#   removed at the end): each test file is a process of its own that compiles the same packages
#   again, and the `tock` processes the tests start do it again; with the cache, a module is
#   compiled once a run (about 0.3 s less per test file). Never a folder shared with other users
#   or kept between runs: what runs is compiled from the sources of this run (docs/decisions.md
#   "Tests share a compile cache of their run's own").
set -euo pipefail
source "$(dirname "$0")/pinned-clock.sh"
NODE_COMPILE_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/tock-test-compile-cache.XXXXXX")
export NODE_COMPILE_CACHE
trap 'rm -rf "$NODE_COMPILE_CACHE"' EXIT
limit=${TOCK_TEST_RUN_LIMIT:-1800} # seconds
status=0
timeout --kill-after=30 "$limit" node --test --test-timeout=300000 "$@" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "error: the tests ran over ${limit} s and were stopped: one hangs (a test that timed out above names it)" >&2
fi
exit "$status"
