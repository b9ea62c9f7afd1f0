#!/usr/bin/env bash
# `npm run dist`: the npm tarball dist/tock-<version>.tgz (scripts/dist.ts) and the Debian package
# dist/tock_<version>_amd64.deb (scripts/build-deb.sh). docs/desktop.md "Installed like an application".
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
bash scripts/build-ui.sh
node scripts/dist.ts
bash scripts/build-deb.sh
