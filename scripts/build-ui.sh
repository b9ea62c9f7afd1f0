#!/usr/bin/env bash
# Builds the window's assets (Vite) into packages/window/dist, where the app serves them from
# (packages/admin/src/package-files.ts `window`); `npm install` (prepare), `npm start` and `npm test`
# run it, so `npx tock app` right after `npm install` has its window.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f packages/window/vite.config.ts ] || exit 0
npx --no-install vite build --config packages/window/vite.config.ts --logLevel warn
