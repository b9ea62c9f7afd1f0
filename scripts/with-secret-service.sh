#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so tests
# use a real Secret Service without touching the user's own keyring. HOME and the XDG
# directories point at a temporary folder that is removed afterwards.
set -euo pipefail
if [ -n "${TOCK_IN_SECRET_SERVICE:-}" ]; then exec "$@"; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tock-keyring.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/runtime"
chmod 700 "$tmp/runtime"
export TOCK_REAL_HOME="$HOME"
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
  XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime" TOCK_IN_SECRET_SERVICE=1
export TOCK_TEST_KEYRING_PASSWORD="tock-test-$$"
# shellcheck disable=SC2016
exec dbus-run-session -- bash -c '
  printf %s "$TOCK_TEST_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"' bash "$@"
