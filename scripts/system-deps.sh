#!/usr/bin/env bash
# Installs the Debian packages the test suite runs for real: a Secret Service
# (gnome-keyring in a D-Bus session) for the credential store, and Chromium for the UI.
# Only what is missing is installed; nothing happens when everything is there.
set -euo pipefail
needed=(gnome-keyring dbus-x11 libsecret-tools chromium)
missing=()
for pkg in "${needed[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "error: missing system packages: ${missing[*]}; install them (sudo apt-get install -y ${missing[*]}) and run again" >&2
  exit 1
fi
echo "installing system packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
