#!/usr/bin/env bash
# Prints the time zone the tests run in: TOCK_TEST_TZ when set, else the whole-hour zone
# (Etc/GMT±N, no daylight saving) where it is now closest to noon.
#
# Why: tests that run the app on the real clock log a block that ends "now" and then read
# today's total or this week's report. A run that straddles local midnight splits the block
# between two days — CI once started at 00:01 UTC and saw 94 s of a 45-minute block. Where it
# is noon, a run (or a block) would need eleven hours to reach a day's edge. The day and week
# boundaries themselves are tested on injected clocks (docs/architecture.md "Tests and the
# clock"). To repeat a run's zone, set TOCK_TEST_TZ to the zone it printed.
#
# `noon-zone.sh --offset N` prints the zone N whole hours east of UTC (-12 … +12) instead: the
# zones a run may pick, by one naming (scripts/zone-sweep.sh runs each of them).
set -euo pipefail
if [ "${1:-}" = "--offset" ]; then
  offset=$2
elif [ -n "${TOCK_TEST_TZ:-}" ]; then
  echo "$TOCK_TEST_TZ"
  exit 0
else
  minutes=$((10#$(date -u +%H) * 60 + 10#$(date -u +%M)))
  # Whole hours from UTC to noon, rounded: -12 … +12.
  offset=$(((720 - minutes + 30 + 24 * 60) / 60 - 24))
fi
if [ "$offset" -eq 0 ]; then
  echo UTC
elif [ "$offset" -gt 0 ]; then
  echo "Etc/GMT-$offset" # POSIX sign: Etc/GMT-3 is three hours east of UTC
else
  echo "Etc/GMT+$((-offset))"
fi
