#!/usr/bin/env bash
# Builds the window's assets (Vite) into packages/app/ui/dist; `npm start` and `npm test` run it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f packages/app/ui/vite.config.ts ] || exit 0
npx --no-install vite build --config packages/app/ui/vite.config.ts --logLevel warn
