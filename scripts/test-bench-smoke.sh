#!/usr/bin/env bash
# Benchmark harness smoke test: `npm run bench -- --smoke` runs every figure of bench/ for a
# few seconds with tiny sizes, so the harness cannot rot. It checks that every figure is
# measured and printed, never that a target is met (timings this short are noise).
# Called by scripts/test.sh (`npm test`), which runs it before test-python.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
node="$repo/node_modules/.bin/node" # Node 24 (type stripping), also when run outside npm

# The TockClient figure loads the built @tock/client.
if [ ! -e packages/client/dist/index.js ]; then
  echo "-- building @tock/client (packages/client/dist is missing)"
  npm run build -w @tock/client --silent
fi

# The Python figures need the virtualenv; make it exactly as scripts/test-python.sh does
# (same place, same stamp), so that script finds it ready and does not rebuild it.
venv="$repo/.venv"
stamp="$venv/.tock-client-dev.sha256"
python="${PYTHON:-python3}"
want=$(sha256sum python/pyproject.toml | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  if command -v "$python" >/dev/null 2>&1; then
    echo "-- installing tock-client[dev] into $venv"
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    PIP_CACHE_DIR="$repo/.cache/pip" "$venv/bin/python" -m pip install --quiet -e 'python[dev]'
    echo "$want" >"$stamp"
  fi
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "!! SKIPPING the Python client figures: no $python to create $venv with" >&2
fi

"$node" bench/run.ts --smoke
