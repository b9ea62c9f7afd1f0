#!/usr/bin/env bash
# The tray item in a real panel (docs/desktop.md "The tray"; issue 29): a headless sway
# (WLR_BACKENDS=headless, as packages/desktop/test/capture-sway.test.ts starts it), waybar with only
# its `tray` module (waybar is the StatusNotifierWatcher and the host), both on a private D-Bus
# session, and a Tock app on a temporary TOCK_HOME with the tray on. grim takes the screen while
# Tock is idle, tracking and on a break, on a dark and on a light panel, with the icon at 16, 22
# and 32 px; each PNG and a 4× crop of the tray go to test-output/tray/ (or the folder given).
# Look at them: this script checks nothing. Not part of `npm test`.
#
#   bash scripts/tray-screenshot.sh [output folder]
#
# Installs waybar, grim, ImageMagick (for the crops) and the hicolor icon theme when missing (as
# scripts/system-deps.sh does; sway and dbus-daemon come from there). sway refuses to run as root: under root it runs as `nobody`
# in a runtime folder of its own, and the rest (root) reaches its socket there.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
out=$(realpath -m "${1:-test-output/tray}")

# hicolor-icon-theme: every desktop has it; without it GTK finds no icon by name, not even in the
# item's IconThemePath (waybar then draws the item's IconPixmap).
needed=(sway waybar grim dbus-daemon imagemagick hicolor-icon-theme)
missing=()
for pkg in "${needed[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "error: missing system packages: ${missing[*]}; install them (sudo apt-get install -y ${missing[*]}) and run again" >&2
    exit 1
  fi
  echo "installing system packages: ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

work=$(mktemp -d /tmp/tock-tray-shot.XXXXXX)
runtime="$work/run"
home="$work/home"
mkdir -p "$runtime" "$home" "$out"
chmod 700 "$runtime"
pids=()
stop_all() {
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap stop_all EXIT

# Waits up to 30 s for a command to succeed (no fixed sleeps for what can be asked).
wait_for() {
  local what=$1
  shift
  for _ in $(seq 300); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "error: timed out waiting for $what; the logs:" >&2
  tail -n 20 "$work"/*.log >&2 || true
  exit 1
}

# A private session bus.
dbus-daemon --session --nofork --address="unix:path=$work/bus" >/dev/null 2>&1 &
pids+=($!)
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
wait_for "the session bus" busctl --user list

# Headless sway, 640x120: only the bar is of interest.
cat >"$work/sway.config" <<'EOF'
output HEADLESS-1 resolution 640x120 bg #808080 solid_color
EOF
sway_env=(SHELL=/bin/sh XDG_RUNTIME_DIR="$runtime" HOME="$runtime" WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman)
if [ "$(id -u)" -eq 0 ]; then
  chmod 711 "$work" # nobody goes through to its runtime folder and config
  chown nobody:nogroup "$runtime" "$work/sway.config"
  env "${sway_env[@]}" setpriv --reuid=65534 --regid=65534 --clear-groups sway -c "$work/sway.config" >"$work/sway.log" 2>&1 &
else
  env "${sway_env[@]}" sway -c "$work/sway.config" >"$work/sway.log" 2>&1 &
fi
pids+=($!)
export XDG_RUNTIME_DIR="$runtime"
wait_for "sway's Wayland socket" test -S "$runtime/wayland-1"
export WAYLAND_DISPLAY=wayland-1

# Tock, idle, tray on (the default), started after the panel as at login: a waybar 0.9.17 started
# under a running Tock drew an empty slot in some runs until the item's next change
# (docs/desktop.md "The tray").
export TOCK_HOME="$home" TOCK_CREDENTIAL_STORE=file
tock() { node packages/cli/bin/tock.js "$@"; }
app_pid=
start_app() {
  node packages/cli/bin/tock.js app >"$work/tock.log" 2>&1 &
  app_pid=$!
  pids+=("$app_pid")
  # The listener is off in a new home: `tock start` and the others go through it.
  wait_for "the Tock app" tock listener on
  SERVICE_TOKEN=$(tock token)
  export SERVICE_TOKEN # only in this script's children
  wait_for "the listener" tock ping
}
stop_app() {
  kill "$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
}

item() { busctl --user list --no-legend | awk '/org\.kde\.StatusNotifierItem-/ { print $1; exit }'; }
icon_is() {
  local name
  name=$(item)
  [ -n "$name" ] && busctl --user get-property "$name" /StatusNotifierItem org.kde.StatusNotifierItem IconName | grep -q "\"$1\""
}

# One waybar per panel: the tray module alone at the given icon size, on a dark or light bar.
# show-passive-items: by default waybar hides a `Passive` item, which Tock is while idle (as the
# StatusNotifierItem spec allows and docs/desktop.md says); here it is shown, to look at.
waybar_pid=
start_waybar() {
  local theme=$1 size=$2 background foreground
  if [ "$theme" = dark ]; then background='#222222' foreground='#eeeeee'; else background='#f2f2f2' foreground='#222222'; fi
  cat >"$work/waybar.json" <<EOF
{ "layer": "top", "position": "top", "height": $((size + 12)), "modules-left": [], "modules-center": [], "modules-right": ["tray"],
  "tray": { "icon-size": $size, "spacing": 8, "show-passive-items": true } }
EOF
  cat >"$work/waybar.css" <<EOF
* { font-family: sans-serif; font-size: 12px; border: none; border-radius: 0; min-height: 0; }
window#waybar { background: $background; color: $foreground; }
#tray { padding: 0 10px; }
EOF
  waybar -c "$work/waybar.json" -s "$work/waybar.css" >"$work/waybar.log" 2>&1 &
  waybar_pid=$!
  pids+=("$waybar_pid")
  # waybar is the StatusNotifierWatcher: the item registers with it as soon as it is there.
  wait_for "waybar's StatusNotifierWatcher" busctl --user status org.kde.StatusNotifierWatcher
}
item_registered() {
  wait_for "the item registered" sh -c 'busctl --user get-property org.kde.StatusNotifierWatcher /StatusNotifierWatcher org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems | grep -q StatusNotifierItem'
}
stop_waybar() {
  kill "$waybar_pid" 2>/dev/null || true
  wait "$waybar_pid" 2>/dev/null || true
}

# The tray's corner of the screen, as raw pixels.
tray_pixels() { convert "$1" -crop "160x$2+480+0" +repage rgba:- | md5sum; }
last_pixels=
# Takes the screen once waybar has drawn the new state: the tray's corner is not plain panel,
# differs from the last state's, and is the same in two grabs in a row (nothing on the bus says
# when waybar has drawn).
shoot() {
  local name=$1 size=$2 height pixels previous= drawn=
  height=$((size + 12))
  for _ in $(seq 300); do
    grim "$work/shot.png"
    pixels=$(tray_pixels "$work/shot.png" "$height")
    if [ "$pixels" = "$previous" ] && [ "$pixels" != "$last_pixels" ] &&
      [ "$(convert "$work/shot.png" -crop "160x$height+480+0" +repage -format %k info:)" -gt 1 ]; then
      drawn=yes
      break
    fi
    previous=$pixels
    sleep 0.1
  done
  last_pixels=$pixels
  [ -n "$drawn" ] || echo "warning: waybar drew nothing new for $name in 30 s: that shot shows no change" >&2
  cp "$work/shot.png" "$out/$name.png"
  convert "$out/$name.png" -crop "160x${height}+480+0" +repage -filter point -resize 400% "$out/$name-tray-4x.png"
  echo "wrote $out/$name.png and $name-tray-4x.png" >&2
}

for panel in dark light; do
  for size in 16 22 32; do
    start_waybar "$panel" "$size"
    start_app
    item_registered
    wait_for "the idle icon" icon_is tock-idle
    shoot "idle-$panel-$size" "$size"
    tock start --create "Writing docs" >/dev/null
    wait_for "the tracking icon" icon_is tock-tracking
    shoot "tracking-$panel-$size" "$size"
    tock break >/dev/null
    wait_for "the break icon" icon_is tock-break
    shoot "break-$panel-$size" "$size"
    tock stop >/dev/null
    stop_app
    stop_waybar
  done
done
# One sheet of everything: panels down, states across.
convert \( "$out"/idle-dark-*-tray-4x.png -append \) \( "$out"/tracking-dark-*-tray-4x.png -append \) \( "$out"/break-dark-*-tray-4x.png -append \) +append "$out/sheet-dark.png" 2>/dev/null || true
convert \( "$out"/idle-light-*-tray-4x.png -append \) \( "$out"/tracking-light-*-tray-4x.png -append \) \( "$out"/break-light-*-tray-4x.png -append \) +append "$out/sheet-light.png" 2>/dev/null || true
echo "done: $out" >&2
