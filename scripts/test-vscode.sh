#!/usr/bin/env bash
# The VS Code extension (integrations/vscode, workspace tock-vscode): bundle it, type-check it
# and its stand-ins for the editor against @types/vscode, run its tests against a real app, and
# package the .vsix with @vscode/vsce (so packaging cannot rot), then check what the .vsix holds.
#
# Called by `npm test` (scripts/test.sh); runs on its own too: bash scripts/test-vscode.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/pinned-clock.sh # standing alone too (pinned-clock.sh says why)
root=$PWD
export PATH="$root/node_modules/.bin:$PATH"
ext=integrations/vscode
vsix=$ext/tock-vscode-0.1.0.vsix

# The extension bundles and imports packages/client/dist; other runs (test-client-runtimes.sh,
# other engineers' `npm test`) rebuild it. Hold their lock while building from it, and while
# writing the one .vsix path.
exec 9>"${TMPDIR:-/tmp}/tock-client-dist.$(printf '%s' "$root" | cksum | cut -d' ' -f1).lock"
flock -w 300 9 || { echo "error: another run has held the packages/client/dist lock for 5 minutes" >&2; exit 1; }
echo "-- build @tock/client and bundle the extension (esbuild)"
npm run build -w @tock/client --silent
node "$ext/build.ts"
flock -u 9

echo "-- type check (the extension; the stand-ins against @types/vscode)"
tsc -p "$ext/tsconfig.json"

echo "-- tests (against a real tock app)"
bash scripts/node-test.sh --test-reporter=spec "$ext/test/**/*.test.ts"

echo "-- package ($vsix)"
flock -w 300 9 || { echo "error: another run has held the packages/client/dist lock for 5 minutes" >&2; exit 1; }
rm -f "$vsix"
npm run package -w tock-vscode --silent
listing=$(python3 -m zipfile -l "$vsix")
flock -u 9
echo "$listing"
for want in extension/package.json extension/dist/extension.cjs extension/readme.md extension/LICENSE.txt extension/images/icon.png extension/images/screenshot.png; do
  grep -q "^$want " <<<"$listing" || { echo "error: $vsix lacks $want" >&2; exit 1; }
done
if grep -E 'extension/(src|test|scripts|node_modules)/' <<<"$listing"; then
  echo "error: $vsix holds sources, tests or node_modules (see .vscodeignore)" >&2
  exit 1
fi
echo "packaged $vsix"
