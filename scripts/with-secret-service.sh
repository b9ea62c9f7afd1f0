#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so tests
# use a real Secret Service without touching the user's own keyring. HOME and the XDG
# directories point at a temporary folder that is removed afterwards.
set -euo pipefail
if [ -n "${TOCK_IN_SECRET_SERVICE:-}" ]; then exec "$@"; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tock-keyring.XXXXXX")
# The keyring daemon daemonizes and at times outlives its session bus: the one started here (it
# carries this run's password in its environment) is ended, and once it has gone the folder it
# writes to is removed.
cleanup() {
  local environ pid tries
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}
    pid=${pid%/environ}
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = gnome-keyring-d ] || continue
    grep -qzx "TOCK_TEST_KEYRING_PASSWORD=${TOCK_TEST_KEYRING_PASSWORD:-}" "$environ" 2>/dev/null || continue
    kill "$pid" 2>/dev/null || continue
    for ((tries = 0; tries < 50; tries++)); do
      grep -qs '^State:[[:space:]]*[^Z]' "/proc/$pid/status" || break # gone, or a zombie that wrote its last
      sleep 0.1
    done
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/runtime"
chmod 700 "$tmp/runtime"
export TOCK_REAL_HOME="$HOME"
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
  XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime" TOCK_IN_SECRET_SERVICE=1
export TOCK_TEST_KEYRING_PASSWORD="tock-test-$$"
# Not exec: the shell stays to run the EXIT trap once the session has ended (an exec'd
# dbus-run-session left a tock-keyring.* folder behind on every run).
status=0
# shellcheck disable=SC2016
dbus-run-session -- bash -c '
  printf %s "$TOCK_TEST_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"' bash "$@" || status=$?
exit "$status"
