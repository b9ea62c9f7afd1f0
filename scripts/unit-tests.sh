#!/usr/bin/env bash
# `npm run test:unit`: the fast tests, which need nothing but Node and this checkout's
# node_modules — no apt packages, no Python venv, no keyring, no browser, no child processes
# of the app. They are the tests of
#   @tock/protocol  schemas, signing vectors, durations, the repository checks
#   @tock/core      the tracker on real SQLite files (temp dirs), search, totals, days
#   @tock/sync      the folder sync service in process, on temp folders
#   @tock/desktop   its pure parts: when it wakes (virtual time), the tray's feed, model and
#                   D-Bus wire format, notifications' builders, idle sources' parsers, catalogs
#   @tock/listener  the signed HTTP API in process, on real 127.0.0.1 sockets
#   @tock/client    the TypeScript client against an in-process listener
#   @tock/test-support  the tests' one wait (`until`)
# and take about a minute on two cores. `npm test` (scripts/test.sh) runs everything,
# these included; `npm test -w <package>` runs one package's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/node-test.sh --test-reporter=spec \
  'packages/protocol/test/**/*.test.ts' \
  'packages/core/test/**/*.test.ts' \
  'packages/sync/test/**/*.test.ts' \
  'packages/desktop/test/desktop-wakes.test.ts' \
  'packages/desktop/test/capture-idle-reads.test.ts' \
  'packages/desktop/test/tray-feed.test.ts' \
  'packages/desktop/test/tray-pixmaps.test.ts' \
  'packages/desktop/test/dbus-wire.test.ts' \
  'packages/desktop/test/notify.test.ts' \
  'packages/desktop/test/desktop-sources.test.ts' \
  'packages/desktop/test/desktop-clock.test.ts' \
  'packages/desktop/test/capture-sway-reader.test.ts' \
  'packages/desktop/test/i18n-desktop.test.ts' \
  'packages/listener/test/**/*.test.ts' \
  'packages/client/test/**/*.test.ts' \
  'packages/test-support/test/**/*.test.ts'
