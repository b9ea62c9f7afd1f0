#!/usr/bin/env bash
# The packages (docs/desktop.md "Installed like an application"), built and used as a person
# would: `npm run dist` makes the tarball and the .deb; the tarball is installed into a
# temporary prefix and `tock --version`, `tock app` and `tock capture gnome-extension install`
# run from an unrelated folder with a temporary TOCK_HOME and XDG_DATA_HOME, on the machine's own
# Node (older than 24 here: the package's Node 24 takes over) and on Node 24; the .deb is read
# with dpkg-deb and checked by lintian (no errors) and desktop-file-validate. Installing the .deb
# system-wide is scripts/check-deb.sh's, which CI runs after the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export PATH="$repo/node_modules/.bin:$PATH"
passed=0
failed=0
check() { # check NAME COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); echo "ok - $1"; else failed=$((failed + 1)); echo "not ok - $1"; fi
}
no_dangling_links() { # no_dangling_links ROOT: no symbolic link below ROOT points at nothing (an absolute target is read below ROOT)
  local root=$1 link target resolved found=""
  while IFS= read -r link; do
    target=$(readlink "$link")
    case $target in /*) resolved="$root$target" ;; *) resolved="$(dirname "$link")/$target" ;; esac
    [ -e "$resolved" ] || found="$found ${link#"$root"}->$target"
  done < <(find "$root" -type l)
  [ -z "$found" ] || echo "# dangling:$found"
  [ -z "$found" ]
}
work=$(mktemp -d)
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

version=$(node -p "require('./package.json').version")
bash scripts/dist.sh >/dev/null
tarball="$repo/dist/tock-$version.tgz"
deb="$repo/dist/tock_${version}_amd64.deb"
check "npm run dist makes dist/tock-$version.tgz and dist/tock_${version}_amd64.deb" test -s "$tarball" -a -s "$deb"

check "the tarball holds no symbolic link" bash -c "! tar -tvzf '$tarball' | grep -q '^[lh]'"
npm install -g --prefix "$work/prefix" --prefer-offline --no-audit --no-fund --loglevel=error "$tarball" >/dev/null
tock="$work/prefix/bin/tock"
check "the installed tarball has no dangling symbolic link" no_dangling_links "$work/prefix"
mkdir -p "$work/elsewhere"
cd "$work/elsewhere"
# The machine's own Node first (PATH without the repository's Node 24).
plain_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v "^$repo/" | paste -sd: -)
machine_node=$(PATH=$plain_path command -v node || true)
echo "# the machine's node: ${machine_node:-none} $( [ -n "$machine_node" ] && "$machine_node" --version)"
check "tock --version prints $version (the machine's Node)" test "$(PATH=$plain_path "$tock" --version 2>&1)" = "$version"
check "tock --version prints $version (Node 24)" test "$(node "$tock" --version 2>&1)" = "$version"
# Node's compile cache: the person's own 0700 folder, never the shared temporary one (docs/desktop.md "Compiled code").
mkdir -p "$work/cache-home" "$work/shared-tmp"
HOME="$work/cache-home" TMPDIR="$work/shared-tmp" node "$tock" --version >/dev/null
check "the installed tock keeps its compile cache in ~/.cache/tock/compile-cache (0700), nothing in TMPDIR" \
  bash -c "test \"\$(stat -c %a '$work/cache-home/.cache/tock/compile-cache')\" = 700 && test -n \"\$(ls '$work/cache-home/.cache/tock/compile-cache')\" && test -z \"\$(ls -A '$work/shared-tmp')\""

run_app() { # run_app LABEL PATH: tock app --no-open with a fresh home; the window answers; the GNOME extension installs; SIGTERM stops it
  local label=$1 path=$2 home="$work/home-$1" out="$work/app-$1.out" data="$work/data-$1"
  PATH=$path TOCK_HOME=$home XDG_DATA_HOME=$data "$tock" app --no-open >"$out" 2>&1 &
  app_pid=$!
  for _ in $(seq 1 150); do grep -q '^Press Ctrl+C' "$out" && break; sleep 0.2; done
  local url
  url=$(PATH=$path TOCK_HOME=$home "$tock" open --print | sed -n 's/^open: //p')
  check "tock app ($label) runs from another folder and answers on its admin socket" test -n "$url"
  check "tock app ($label) serves the built window" bash -c "curl -fsS '$url' | grep -q '<title>Tock</title>'"
  check "tock app ($label) keeps its home in TOCK_HOME" test -s "$home/tock.db"
  # The extension's files ship with the package (PACKAGE_FILES.gnomeExtension), not beside a chunk.
  local extension="$data/gnome-shell/extensions/tock-capture@tock.app"
  PATH=$path TOCK_HOME=$home "$tock" capture gnome-extension install >"$work/gnome-$label.out" 2>&1 || sed 's/^/# /' "$work/gnome-$label.out"
  check "tock capture gnome-extension install ($label) copies metadata.json and extension.js into XDG_DATA_HOME" \
    test -s "$extension/metadata.json" -a -s "$extension/extension.js"
  kill -TERM "$app_pid"
  wait "$app_pid" || true
  app_pid=""
  check "tock app ($label) stops on SIGTERM" grep -q '^Tock stopped' "$out"
}
run_app machine-node "$plain_path"
run_app node-24 "$PATH"
cd "$repo"

contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
for path in ./usr/bin/tock ./usr/lib/tock/node/bin/node ./usr/lib/tock/lib/tock.mjs ./usr/lib/tock/packages/window/dist/index.html \
  ./usr/share/applications/tock.desktop ./usr/share/icons/hicolor/scalable/apps/tock.svg ./usr/share/icons/hicolor/32x32/apps/tock-tracking.png \
  ./usr/lib/systemd/user/tock.service ./usr/share/doc/tock/copyright ./usr/share/man/man1/tock.1.gz ./usr/lib/tock/packages/cli/bin/compile-cache.js \
  ./usr/lib/tock/packages/desktop/src/capture/gnome-extension/shell-43/extension.js ./usr/lib/tock/packages/desktop/src/capture/gnome-extension/shell-45/extension.js \
  ./usr/lib/tock/packages/desktop/src/capture/gnome-extension/shell-45/metadata.json; do
  check ".deb has $path" grep -qx "$path" <<<"$contents"
done
check ".deb recommends x11-utils (xprop, the X11 capture source)" bash -c "dpkg-deb -f '$deb' Recommends | grep -qw x11-utils"
check ".deb has no maintainer scripts (nothing to leave behind on purge)" bash -c "! dpkg-deb --ctrl-tarfile '$deb' | tar -t | grep -Eq 'postinst|postrm|preinst|prerm'"
dpkg-deb --extract "$deb" "$work/deb"
check ".deb has no dangling symbolic link" no_dangling_links "$work/deb"
check ".deb's tock.service runs tock app --background (no launch code in the journal)" grep -qx 'ExecStart=/usr/bin/tock app --background' "$work/deb/usr/lib/systemd/user/tock.service"
check "the desktop entry is valid (desktop-file-validate)" desktop-file-validate "$work/deb/usr/share/applications/tock.desktop"
check "the copyright file is machine-readable and names the bundled licences" bash -c "head -1 '$work/deb/usr/share/doc/tock/copyright' | grep -q copyright-format/1.0 && grep -q '^Files: usr/lib/tock/node/' '$work/deb/usr/share/doc/tock/copyright' && grep -q 'pdf-lib' '$work/deb/usr/share/doc/tock/copyright'"
check "lintian finds no errors" bash -c "lintian --fail-on error --tag-display-limit 0 '$deb' 2>&1 | grep -v 'root privileges' | sed 's/^/# /'; exit \${PIPESTATUS[0]}"
echo "# tarball $(du -k "$tarball" | cut -f1) KiB ($(stat -c %s "$tarball") bytes), .deb $(du -k "$deb" | cut -f1) KiB ($(stat -c %s "$deb") bytes), installed $(dpkg-deb -f "$deb" Installed-Size) KiB"
echo "dist: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
