# Sourced by the Python test scripts: makes sure $repo/.venv holds tock-client[dev] as
# python/pyproject.toml says (a stamp file keeps the hash it was installed from), with
# pip's cache inside the repository. Sets $venv.
# Callers may run at once (test files in parallel): the first builds, the others wait.
venv="$repo/.venv"
_stamp="$venv/.tock-client-dev.sha256"
_want=$(sha256sum "$repo/python/pyproject.toml" | cut -d' ' -f1)
mkdir -p "$repo/.cache"
exec 8>"$repo/.cache/venv.lock"
flock -w 600 8
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$_stamp" 2>/dev/null || true)" != "$_want" ]; then
  echo "-- installing tock-client[dev] into $venv"
  [ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
  PIP_CACHE_DIR="$repo/.cache/pip" "$venv/bin/python" -m pip install --quiet -e "$repo/python[dev]"
  echo "$_want" >"$_stamp"
fi
flock -u 8
exec 8>&-
