#!/usr/bin/env bash
# Runs test files in every zone `npm test` may pick (scripts/noon-zone.sh: Etc/GMT+12 … UTC …
# Etc/GMT-12) and names each zone where one fails. Not part of `npm test` (about 17 minutes on
# two cores): run it after writing a test that pins the clock (docs/architecture.md "Tests and
# the clock").
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
for offset in $(seq -12 12); do
  zone=$(bash scripts/noon-zone.sh --offset "$offset")
  if TOCK_TEST_TZ=$zone bash scripts/with-secret-service.sh bash scripts/node-test.sh --test-reporter=dot "${files[@]}" > "${TMPDIR:-/tmp}/tock-zone-sweep.log" 2>&1; then
    echo "$zone: pass"
  else
    echo "$zone: FAIL"
    grep -E "^✖" "${TMPDIR:-/tmp}/tock-zone-sweep.log" | head -10 | sed 's/^/  /'
    failed+=("$zone")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed in: ${failed[*]} (repeat one with TOCK_TEST_TZ=<zone> npm test)" >&2
  exit 1
fi
echo "every zone passed (${#files[@]} files)"
