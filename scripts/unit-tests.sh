#!/usr/bin/env bash
# `npm run test:unit`: every package's pure tests, which need nothing but Node and this
# checkout's node_modules (`npm install`, which also builds packages/client/dist) — no apt
# packages, no Python venv, no Secret Service, no D-Bus, no display, no browser, no build; no
# child process but node's own, git (the repository checks), mkfifo (core's import tests) and
# esbuild from node_modules. They are
#   @tock/protocol, i18n, core, sync, listener, admin, client: every test (core on real SQLite
#     files in temp dirs, the listener and client on real 127.0.0.1 sockets in process)
#   @tock/test-support: until.test.ts, temp-dirs.test.ts (x-display.test.ts starts Xvfb and a
#     D-Bus session)
#   @tock/app, desktop, window, cli, integrations/vscode: the files listed below, whose tests
#     run the code in process (the app's doors, change bus, components, admin routes; the
#     desktop's idle reads, tray feed and model, notices and D-Bus wire code; the window's pure
#     helpers; the CLI's parsing and text). Their other tests start the app, Chromium, a
#     D-Bus, a display or a Secret Service, spawn a helper or build something: `npm test` runs
#     those (`strace -f -e trace=execve` over the listed files finds no exec but node's). A
#     new pure test of these packages goes on their list here.
# Left out though nearly pure: app's sync-campaign.test.ts (a property campaign over real
# folders, ~15 s of CPU), desktop's desktop-idle.test.ts (its helper deadlines spawn `sleep`)
# and window's catalog-chunks.test.ts (runs a Vite build).
# Files run in parallel, one per core (Node's runner would leave one core idle). `npm test`
# (scripts/test.sh) runs everything, these included; `npm test -w <package>` runs one package.
set -euo pipefail
cd "$(dirname "$0")/.."

app=(
  admin-contract admin-door admin-refusal admin-stream app-env-folders backups calendar-week capture-recorder
  change-bus clock-steps-unit components door-bindings door-kit home late-parts license
  person-days problem-reasons prompts status-follow tray-icons wakatime-config window-contract
)
desktop=(
  capture-idle-bus capture-idle-reads capture-reasons capture-sway-reader dbus-wire desktop-clock
  desktop-sources desktop-wakes i18n-desktop notify tray-feed tray-pixmaps
)
window=(person-days time)
cli=(duration flag-refusal i18n-catalogs main overlap-warning parse-refusal problem-words report-table rule-words status-line)
vscode=(explain-language manifest status-view)

files=(packages/test-support/test/until.test.ts packages/test-support/test/temp-dirs.test.ts)
for name in "${app[@]}"; do files+=("packages/app/test/$name.test.ts"); done
for name in "${desktop[@]}"; do files+=("packages/desktop/test/$name.test.ts"); done
for name in "${window[@]}"; do files+=("packages/window/test/$name.test.ts"); done
for name in "${cli[@]}"; do files+=("packages/cli/test/$name.test.ts"); done
for name in "${vscode[@]}"; do files+=("integrations/vscode/test/$name.test.ts"); done
# A listed file that was renamed or removed stops the run here, rather than silently running less.
for file in "${files[@]}"; do
  [ -f "$file" ] || { echo "error: scripts/unit-tests.sh lists $file, which does not exist" >&2; exit 1; }
done

cores=$(nproc 2>/dev/null || echo 2)
exec bash scripts/node-test.sh --test-reporter=spec --test-concurrency="$((cores > 2 ? cores : 2))" \
  'packages/protocol/test/**/*.test.ts' \
  'packages/i18n/test/**/*.test.ts' \
  'packages/core/test/**/*.test.ts' \
  'packages/sync/test/**/*.test.ts' \
  'packages/listener/test/**/*.test.ts' \
  'packages/admin/test/**/*.test.ts' \
  'packages/client/test/**/*.test.ts' \
  "${files[@]}"
