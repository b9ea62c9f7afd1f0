#!/usr/bin/env bash
# The Python side of the attack campaign (docs/security.md): schema fuzzing with schemathesis
# against the real app, and the cross-language signing check. The TypeScript families are the
# packages/app/test/attack-*.test.ts files of the main TS suite.
# Called by scripts/test.sh (`npm test`). Uses the repository's .venv (made like
# scripts/python-venv.sh, shared with scripts/test-python.sh). Ends with pytest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
source scripts/python-venv.sh # on the real clock: pip checks dates
source scripts/pinned-clock.sh # standing alone too (pinned-clock.sh says why)

[ -e packages/cli/bin/tock.js ] || { echo "error: packages/cli/bin/tock.js is missing: the campaign needs the real app" >&2; exit 1; }

cd python
echo "-- pytest tests/attack (schemathesis fuzzing of spec/openapi.yaml, TS <-> Python signing)"
status=0
TOCK_ATTACK=1 "$venv/bin/python" -m pytest -p no:cacheprovider -q -s tests/attack || status=$?
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no attack tests" >&2
  exit 1
fi
exit "$status"
