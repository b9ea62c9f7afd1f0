#!/usr/bin/env bash
# Benchmark harness smoke test: `npm run bench -- --smoke` runs every figure of bench/ for a
# few seconds with tiny sizes, so the harness cannot rot. It checks that every figure is
# measured and printed, never that a target is met (timings this short are noise).
# Called by scripts/test.sh (`npm test`), which runs it before test-python.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/pinned-clock.sh # standing alone too (pinned-clock.sh says why)
repo=$PWD
node="$repo/node_modules/.bin/node" # Node 24 (type stripping), also when run outside npm

# The TockClient figure loads the built @tock/client.
if [ ! -e packages/client/dist/index.js ]; then
  echo "-- building @tock/client (packages/client/dist is missing)"
  npm run build -w @tock/client --silent
fi

# The Python figures need the virtualenv (the same one every Python script uses).
source scripts/python-venv.sh

# The harness's own rules (the soak's verdict), then every figure.
PATH="$(dirname "$node"):$PATH" bash scripts/node-test.sh bench/*.test.ts
# The figures start dozens of servers and apps from the TypeScript sources: with one compile
# cache of this run's own (a fresh 0700 folder, removed after; as scripts/node-test.sh does),
# each module is compiled once. A smoke run's figures are not judged (bench/README.md).
NODE_COMPILE_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/tock-bench-compile-cache.XXXXXX")
export NODE_COMPILE_CACHE
trap 'rm -rf "$NODE_COMPILE_CACHE"' EXIT
"$node" bench/run.ts --smoke
