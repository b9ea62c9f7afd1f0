#!/usr/bin/env bash
# Python client (python/, distribution tock-client): lint, format, types, tests.
# Called by scripts/test.sh (`npm test`). Keeps its virtualenv in $repo/.venv and rebuilds it
# when python/pyproject.toml changes (a stamp file holds the hash it was installed from).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
source scripts/python-venv.sh # on the real clock: pip checks dates
source scripts/pinned-clock.sh # standing alone too (pinned-clock.sh says why)
want=$(sha256sum python/pyproject.toml | cut -d' ' -f1)
bin="$venv/bin"

cd python
echo "-- ruff check"
"$bin/ruff" check .
echo "-- ruff format --check"
"$bin/ruff" format --check .
echo "-- mypy --strict (src, tests, tools)"
"$bin/mypy" --strict src tests tools

# The contract tests start the real app (packages/cli/bin/tock.js); they run whenever it exists.
pytest_args=(-p no:cacheprovider --ignore=tests/attack) # tests/attack: scripts/test-attack.sh
if [ -e "$repo/packages/cli/bin/tock.js" ]; then
  echo "-- pytest (unit and contract tests against the real app)"
else
  echo "-- pytest (unit tests only: packages/cli/bin/tock.js does not exist, contract tests NOT run)"
  pytest_args+=(--ignore=tests/contract)
fi
run_pytest() { # pytest's exit code 5 ("no tests collected") is a failure here, not a pass
  local status=0
  "$@" || status=$?
  if [ "$status" -eq 5 ]; then
    echo "error: pytest collected no tests" >&2
    return 1
  fi
  return "$status"
}
run_pytest "$bin/python" -m pytest "${pytest_args[@]}"

# requires-python is >=3.10: when a 3.10 interpreter is around (pyenv), run the unit tests
# on it too, from a venv under .cache/ (ignored by git).
py310=""
for candidate in python3.10 "$(pyenv root 2>/dev/null || echo /nonexistent)"/versions/3.10*/bin/python3.10; do
  if "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 10)' >/dev/null 2>&1; then
    py310=$candidate
    break
  fi
done
if [ -n "$py310" ]; then
  venv310="$repo/.cache/tock-client-py310"
  if [ ! -x "$venv310/bin/python" ] || [ "$(cat "$venv310/.stamp" 2>/dev/null || true)" != "$want" ]; then
    echo "-- installing tock-client[dev] into $venv310"
    [ -x "$venv310/bin/python" ] || "$py310" -m venv "$venv310"
    PIP_CACHE_DIR="$repo/.cache/pip" "$venv310/bin/python" -m pip install --quiet -e "$repo/python[dev]"
    echo "$want" >"$venv310/.stamp"
  fi
  echo "-- pytest on Python 3.10 (unit tests)"
  run_pytest "$venv310/bin/python" -m pytest -p no:cacheprovider -q --ignore=tests/contract --ignore=tests/attack
else
  echo "-- no Python 3.10 interpreter found: unit tests ran on $("$bin/python" --version) only"
fi
