#!/usr/bin/env bash
# `npm test`: every suite of the repository. Runs inside npm, so `node` is Node 24 from
# node_modules/.bin. Each step prints its own runner's summary; the first failure stops the run.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# Each step's duration, printed at the end (and on failure) so a slow suite shows itself.
durations=()
step_name=""
step_start=$SECONDS
step() {
  [ -n "$step_name" ] && durations+=("$(printf '%5ss  %s' $((SECONDS - step_start)) "$step_name")")
  step_name=$1
  step_start=$SECONDS
  echo "== $1"
}
report_durations() {
  [ -n "$step_name" ] && durations+=("$(printf '%5ss  %s' $((SECONDS - step_start)) "$step_name")")
  step_name=""
  echo "== step durations (total ${SECONDS}s)"
  printf '%s\n' "${durations[@]}"
}
trap report_durations EXIT

# First: a second, and it needs nothing but node_modules.
step "Lint (Biome, biome.jsonc)"
npx --no-install biome lint --error-on-warnings --no-errors-on-unmatched .

step "System packages"
bash scripts/system-deps.sh

step "Python environment (.venv)"
source scripts/python-venv.sh

step "UI build"
bash scripts/build-ui.sh

# From here every step runs on a pinned clock: noon of a fixed day in the run's zone, whatever
# the real date and time (scripts/pinned-clock.sh says why). Not the steps above: apt and pip
# check dates against the real clock.
source scripts/pinned-clock.sh
echo "== pinned clock: $(date '+%Y-%m-%d %H:%M %Z') (zone: ${TZ:-system default}; TZ=<zone> npm test runs in another)"

step "TypeScript type check"
npx --no-install tsc -p tsconfig.json
npx --no-install tsc -p packages/window/tsconfig.json
npx --no-install tsc -p packages/window/tsconfig.contract.json
# The GNOME Shell extension (plain GJS JavaScript) against GNOME Shell's published typings.
npx --no-install tsc -p packages/desktop/src/capture/gnome-extension/tsconfig.json

step "TypeScript tests (Node $(node --version), real Secret Service)"
bash scripts/with-secret-service.sh bash scripts/node-test.sh --test-reporter=spec \
  'packages/*/test/**/*.test.ts'

for step in scripts/test-*.sh; do
  [ -e "$step" ] || continue
  step "$(basename "$step" .sh)"
  bash "$step"
done
echo "all test suites passed"
