#!/usr/bin/env bash
# Makes $repo/.venv-wakatime: the pure-Python `wakatime` 13.1.0 from PyPI (the CLI every editor
# plugin ran before the Go rewrite), the real WakaTime client the heartbeat tests send with
# (packages/app/test/wakatime.test.ts). It needs Python 3.9: its bundled urllib3 fails on
# 3.10 and later. Found as $WAKATIME_PYTHON, `python3.9` on PATH, or pyenv's newest 3.9.
# Prints the venv's python on stdout; on failure one line on stderr that says what to install.
# Callers may run at once (test files in parallel): the first builds, the others wait.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
venv="$repo/.venv-wakatime"
version=13.1.0
stamp="$venv/.wakatime-$version"
mkdir -p "$repo/.cache"
exec 9>"$repo/.cache/wakatime-venv.lock"
flock -w 600 9
if [ ! -e "$stamp" ]; then
  python=${WAKATIME_PYTHON:-}
  if [ -z "$python" ]; then
    if command -v python3.9 >/dev/null 2>&1 && python3.9 -c 'import sys; assert sys.version_info[:2] == (3, 9)' >/dev/null 2>&1; then
      python=$(command -v python3.9)
    else
      for candidate in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9.*/bin/python3.9; do
        [ -x "$candidate" ] && python=$candidate
      done
    fi
  fi
  if [ -z "$python" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 && apt-cache show python3.9-venv >/dev/null 2>&1; then
    echo "installing python3.9 and python3.9-venv (apt)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3.9 python3.9-venv >/dev/null
    python=$(command -v python3.9 || true)
  fi
  if [ -z "$python" ]; then
    echo "error: the WakaTime client test needs Python 3.9 (wakatime $version fails on 3.10+): install it (pyenv install 3.9, or apt-get install python3.9 python3.9-venv) or set WAKATIME_PYTHON to its python" >&2
    exit 1
  fi
  echo "-- installing wakatime==$version into $venv (with $python)" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  PIP_CACHE_DIR="$repo/.cache/pip" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "wakatime==$version" >&2
  touch "$stamp"
fi
flock -u 9
echo "$venv/bin/python"
