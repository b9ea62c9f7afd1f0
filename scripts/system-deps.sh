#!/usr/bin/env bash
# Installs the Debian packages the test suite runs for real: a Secret Service
# (gnome-keyring in a D-Bus session) for the credential store, Chromium for the UI, Xvfb with
# xdotool and xprintidle for the X11 idle source, libfaketime for clock steps, and systemd's
# tools (systemd-analyze) for the user unit; dbus-daemon, dbus-monitor (dbus-bin) and gdbus
# (libglib2.0-bin) for the reminder's notification on a private session bus, and
# desktop-file-validate (desktop-file-utils) for the autostart entry; syncthing and rsync keep
# two sync folders in step in the sync tests (two Syncthings on 127.0.0.1 only); xapp-sn-watcher is
# the StatusNotifierWatcher the tray registers with, and lintian checks the .deb; openbox (an EWMH
# window manager), x11-utils (xprop), a headless sway and foot for capture's X11 and sway sources;
# poppler-utils (pdftotext, pdftoppm) reads the invoices' PDFs back; gnome-shell (Debian's 43, run
# headless), kwin-wayland (KWin 5.27, run --virtual) and gjs with GTK 4 (gir1.2-gtk-4.0) for
# capture on GNOME and KDE for real (about 560 MB); fonts-ipafont-gothic so that Chromium draws
# the window's Japanese in its screenshots (without a CJK font every kanji is a box).
# Only what is missing is installed; nothing happens when everything is there.
set -euo pipefail
needed=(gnome-keyring dbus-x11 dbus-daemon dbus-bin libglib2.0-bin desktop-file-utils libsecret-tools chromium xvfb xdotool xprintidle faketime systemd syncthing rsync xapp-sn-watcher lintian openbox x11-utils sway foot poppler-utils gnome-shell kwin-wayland gjs gir1.2-gtk-4.0 fonts-ipafont-gothic)
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
