#!/usr/bin/env bash
# Installs dist/tock_<version>_amd64.deb system-wide, as a person would, and takes it away again
# (docs/desktop.md "Installed like an application"): `dpkg -i`, `/usr/bin/tock --version`, the
# app started by an unprivileged user from its home folder, then `dpkg --purge` and nothing of
# the package left on the machine. It changes the machine, so it is not a step of `npm test`:
# CI runs it after the suite (.ci/run), as root on its throwaway machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
version=$(node -p "require('./package.json').version")
deb="dist/tock_${version}_amd64.deb"
[ -f "$deb" ] || bash scripts/dist.sh >/dev/null
if dpkg -s tock >/dev/null 2>&1; then echo "error: a tock package is installed already; purge it first (dpkg --purge tock)" >&2; exit 1; fi
passed=0
failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); echo "ok - $1"; else failed=$((failed + 1)); echo "not ok - $1"; fi; }
files=$(dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's#^\./#/#' | grep -v '/$')
user=nobody
home=$(mktemp -d)
chown "$user" "$home"
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  dpkg --purge tock >/dev/null 2>&1 || true
  rm -rf "$home"
}
trap cleanup EXIT

dpkg -i "$deb" >/dev/null
check "dpkg -i installs it" bash -c "dpkg -s tock >/dev/null"
check "/usr/bin/tock --version prints $version" test "$(/usr/bin/tock --version)" = "$version"
check "it runs on its own Node 24" test "$(/usr/lib/tock/node/bin/node --version | cut -c2-3)" = 24
check "no symbolic link it installed points at nothing" test -z "$(for f in $files; do [ -L "$f" ] && [ ! -e "$f" ] && echo "$f"; done)"
as_user() { runuser -u "$user" -- env -i PATH=/usr/bin:/bin HOME="$home" TMPDIR="$home/tmp" TOCK_HOME="$home/tock" "$@"; }
runuser -u "$user" -- mkdir -m 1777 "$home/tmp"
as_user /usr/bin/tock app --no-open >"$home/app.out" 2>&1 &
app_pid=$!
for _ in $(seq 1 150); do grep -q '^Press Ctrl+C' "$home/app.out" 2>/dev/null && break; sleep 0.2; done
url=$(cd "$home" && as_user /usr/bin/tock open --print | sed -n 's/^open: //p')
check "tock app runs as $user and answers on its admin socket" test -n "$url"
check "its compile cache is $user's own 0700 folder in its home, nothing in TMPDIR" \
  test "$(stat -c '%U %a' "$home/.cache/tock/compile-cache")" = "$user 700" -a -z "$(ls -A "$home/tmp")"
check "it serves the built window" bash -c "curl -fsS '$url' | grep -q '<title>Tock</title>'"
# The app itself, not runuser around it (which gives a child only 2 s after passing SIGTERM on).
runuser_pid=$(pgrep -P "$app_pid" | head -1)
kill -TERM "$(pgrep -P "$runuser_pid" | head -1)" || true
wait "$app_pid" || true
app_pid=""
check "it stops on SIGTERM" grep -q '^Tock stopped' "$home/app.out"

dpkg --purge tock >/dev/null
left=$(for f in $files; do [ -e "$f" ] && echo "$f"; done; for d in /usr/lib/tock /usr/share/doc/tock; do [ -e "$d" ] && echo "$d"; done; true)
check "dpkg --purge leaves nothing of the package behind" test -z "$left"
[ -n "$left" ] && printf '# left: %s\n' $left
check "the person's own Tock home stays" test -s "$home/tock/tock.db"
echo "check-deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
