#!/usr/bin/env bash
# Runs test files in a few fixed zones — the earliest and the latest (Pacific/Kiritimati,
# UTC+14; Etc/GMT+11, UTC-11), one with daylight saving (America/New_York) and UTC — and names
# each zone where one fails. Every run is on the pinned clock (scripts/pinned-clock.sh: noon of
# a fixed day in the run's zone), so this proves what the pin does not: that no test assumes
# the zone it was written in (a date printed in UTC, a day's edge at 00:00Z). Not part of
# `npm test`; run it after writing a test that pins a date or reads a day (docs/architecture.md
# "Tests and the clock").
#
#   bash scripts/zone-sweep.sh [test files]   # default: the test files that pin a date
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH" # Node 24, also outside npm
if [ "$#" -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(grep -rlE "Date\.parse\('20[0-9-]+T|new Date\(20[0-9]{2}, " packages/*/test --include='*.test.ts' | sort)
fi
failed=()
log="${TMPDIR:-/tmp}/tock-zone-sweep.log"
for zone in Pacific/Kiritimati Etc/GMT+11 America/New_York UTC; do
  if TZ=$zone bash scripts/with-secret-service.sh bash scripts/node-test.sh --test-reporter=dot "${files[@]}" >"$log" 2>&1; then
    echo "$zone: pass"
  else
    echo "$zone: FAIL"
    grep -E "^✖" "$log" | head -10 | sed 's/^/  /'
    failed+=("$zone")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed in: ${failed[*]} (repeat one with TZ=<zone> npm test)" >&2
  exit 1
fi
echo "every zone passed (${#files[@]} files)"
