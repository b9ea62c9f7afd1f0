#!/usr/bin/env bash
# `bash scripts/loaded-test-runs.sh [RUNS]`: the whole `npm test` RUNS times in a row (5 by
# default) while stress-ng keeps every core busy, to find the tests that fail only on a loaded
# machine. Not part of `npm test`. Stops at the first failing run and keeps every run's log in
# $LOG_DIR (default: a temp dir); prints each run's result and duration at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
log_dir=${LOG_DIR:-$(mktemp -d -t tock-loaded-XXXXXX)}
mkdir -p "$log_dir"
command -v stress-ng >/dev/null || { echo "stress-ng is missing: apt-get install stress-ng" >&2; exit 1; }

# One CPU hog per core at the tests' own priority: the suites compete for the cores as they
# would beside a busy build.
stress-ng --cpu "$(nproc)" --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || true; wait "$stress" 2>/dev/null || true' EXIT

results=()
status=0
for run in $(seq 1 "$runs"); do
  start=$SECONDS
  log="$log_dir/run-$run.log"
  echo "== loaded run $run of $runs (log: $log)"
  if npm test >"$log" 2>&1; then
    results+=("run $run: pass in $((SECONDS - start))s")
  else
    results+=("run $run: FAIL in $((SECONDS - start))s — $log")
    status=1
  fi
  echo "${results[-1]}"
  [ "$status" = 0 ] || break
done
echo "== loaded runs (stress-ng --cpu $(nproc))"
printf '%s\n' "${results[@]}"
exit "$status"
