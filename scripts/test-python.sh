#!/usr/bin/env bash
# Python client (python/, distribution tock-client): lint, format, types, tests.
# Called by scripts/test.sh (`npm test`). Keeps its virtualenv in $repo/.venv and rebuilds it
# when python/pyproject.toml changes (a stamp file holds the hash it was installed from).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
venv="$repo/.venv"
stamp="$venv/.tock-client-dev.sha256"
python="${PYTHON:-python3}"

want=$(sha256sum python/pyproject.toml | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  echo "-- installing tock-client[dev] into $venv"
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  # pip's cache stays inside the repository (ignored by .gitignore's .cache/).
  PIP_CACHE_DIR="$repo/.cache/pip" "$venv/bin/python" -m pip install --quiet -e 'python[dev]'
  echo "$want" >"$stamp"
fi
bin="$venv/bin"

cd python
echo "-- ruff check"
"$bin/ruff" check .
echo "-- ruff format --check"
"$bin/ruff" format --check .
echo "-- mypy --strict (src, tests, tools)"
"$bin/mypy" --strict src tests tools

# The contract tests start the real app (packages/cli/bin/tock.js); they run whenever it exists.
pytest_args=(-p no:cacheprovider)
if [ -e "$repo/packages/cli/bin/tock.js" ]; then
  echo "-- pytest (unit and contract tests against the real app)"
else
  echo "-- pytest (unit tests only: packages/cli/bin/tock.js does not exist, contract tests NOT run)"
  pytest_args+=(--ignore=tests/contract)
fi
status=0
"$bin/python" -m pytest "${pytest_args[@]}" || status=$?
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests" >&2
  exit 1
fi
exit "$status"
