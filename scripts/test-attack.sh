#!/usr/bin/env bash
# The Python side of the attack campaign (docs/security.md): schema fuzzing with schemathesis
# against the real app, and the cross-language signing check. The TypeScript families are the
# packages/app/test/attack-*.test.ts files of the main TS suite.
# Called by scripts/test.sh (`npm test`). Uses the repository's .venv (made like
# scripts/test-python.sh does when it is missing) and installs python/tests/attack/requirements.txt
# into it when they change. Ends with pytest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
venv="$repo/.venv"
python="${PYTHON:-python3}"
export PIP_CACHE_DIR="$repo/.cache/pip"

if [ ! -x "$venv/bin/python" ]; then
  echo "-- creating $venv with tock-client[dev]"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet -e 'python[dev]'
fi
stamp="$venv/.tock-attack.sha256"
want=$(cat python/pyproject.toml python/tests/attack/requirements.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ] || ! "$venv/bin/python" -c 'import schemathesis, tock_client' 2>/dev/null; then
  echo "-- installing the attack campaign's test dependencies (schemathesis) into $venv"
  "$venv/bin/python" -m pip install --quiet -e 'python[dev]' -r python/tests/attack/requirements.txt
  echo "$want" >"$stamp"
fi

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
