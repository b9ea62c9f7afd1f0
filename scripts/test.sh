#!/usr/bin/env bash
# `npm test`: every suite of the repository. Runs inside npm, so `node` is Node 24 from
# node_modules/.bin. Each step prints its own runner's summary; the first failure stops the run.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
bash scripts/system-deps.sh

echo "== Python environment (.venv)"
source scripts/python-venv.sh

echo "== UI build"
bash scripts/build-ui.sh

echo "== TypeScript type check"
npx --no-install tsc -p tsconfig.json
npx --no-install tsc -p packages/app/ui/tsconfig.json

echo "== TypeScript tests (Node $(node --version), real Secret Service)"
bash scripts/with-secret-service.sh node --test --test-reporter=spec \
  'packages/*/test/**/*.test.ts'

for step in scripts/test-*.sh; do
  [ -e "$step" ] || continue
  echo "== $(basename "$step" .sh)"
  bash "$step"
done
echo "all test suites passed"
