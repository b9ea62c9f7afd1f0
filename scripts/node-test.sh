#!/usr/bin/env bash
# Node's test runner as every suite of this repository runs it: `bash scripts/node-test.sh
# [runner options] <files or globs>`, with `node` from PATH (Node 24 inside npm).
#
# - In the zone where it is now about noon (noon-zone.sh says why; TOCK_TEST_TZ repeats a run's).
# - A test that hangs fails after five minutes (--test-timeout; the slowest test takes ~10 s),
#   and a test file exits once its tests are done even if something it started still holds the
#   event loop (--test-force-exit). Together a hang fails one test with its name instead of
#   running into a CI job's time limit, where every other file is reported as cancelled.
set -euo pipefail
TZ=$(bash "$(dirname "$0")/noon-zone.sh")
export TZ
exec node --test --test-force-exit --test-timeout=300000 "$@"
