#!/usr/bin/env bash
# @tock/client as it ships: build dist/, lint the package (publint, attw), pack it, install
# the tarball into a scratch project and require()/import() it (and typecheck a consumer,
# ESM and CJS), then run packages/client/runtime-tests/contract.mjs on Node 20, Node 24, Bun
# and Deno (with and without --allow-env) against a signed fake listener, and — when the
# real app can be started — its contract part against `tock app` too.
#
# Called by `npm test` (scripts/test.sh); runs on its own too: bash scripts/test-client-runtimes.sh
# TOCK_CLIENT_REAL_APP=require makes a real app that cannot be started a failure (default: skip, loudly).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/pinned-clock.sh # standing alone too (pinned-clock.sh says why)
root=$PWD
bin=$root/node_modules/.bin
node24=$bin/node
node20=/usr/bin/node
export PATH="$bin:$PATH"

work=$(mktemp -d "${TMPDIR:-/tmp}/tock-client-runtimes.XXXXXX")
pids=()
# stop_pid <pid>: SIGTERM, up to 10 s for a graceful exit, then SIGKILL.
stop_pid() {
  kill -TERM "$1" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  for pid in "${pids[@]}"; do stop_pid "$pid"; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  "$node24" -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# Other runs of this script (other engineers' `npm test` in the same checkout) rebuild the
# same packages/client/dist: hold a lock from the build until the tarball is packed, and use
# only the installed tarball after that.
exec 9>"${TMPDIR:-/tmp}/tock-client-dist.$(printf '%s' "$root" | cksum | cut -d' ' -f1).lock"
flock -w 300 9 || { echo "error: another run has held the packages/client/dist lock for 5 minutes" >&2; exit 1; }

echo "-- build"
npm run build -w @tock/client --silent

echo "-- publint"
(cd packages/client && "$bin/publint" --strict)

echo "-- attw --pack"
(cd packages/client && "$bin/attw" --pack . --format table-flipped)

echo "-- pack and install the tarball into a scratch project"
tarball=$(cd packages/client && npm pack --silent --pack-destination "$work" | tail -n 1)
flock -u 9
smoke=$work/smoke
mkdir -p "$smoke"
echo '{ "name": "tock-client-smoke", "private": true, "version": "0.0.0" }' >"$smoke/package.json"
(cd "$smoke" && npm install --offline --no-audit --no-fund --silent "$work/$tarball")
pkg=$smoke/node_modules/@tock/client
echo "installed $tarball: $(cd "$pkg" && find . -type f | sort | tr '\n' ' ')"

expected='AuthError,HttpError,NetworkError,NotFoundError,ReplayError,TockClient,TockError,UnavailableError,ValidationError,explainClientError'
for node in "$node20" "$node24"; do
  (cd "$smoke" && "$node" -e "
    const c = require('@tock/client');
    const names = Object.keys(c).filter((k) => k !== '__esModule').sort().join();
    if (names !== '$expected') throw new Error('require: ' + names);
    if (!(new c.AuthError('m', { code: 'x' }) instanceof c.TockError)) throw new Error('require: error tree');
    console.log('require() ok on Node ' + process.version);
  ")
  (cd "$smoke" && "$node" --input-type=module -e "
    const c = await import('@tock/client');
    const names = Object.keys(c).filter((k) => k !== 'default').sort().join();
    if (names !== '$expected') throw new Error('import: ' + names);
    try { new c.TockClient({ token: '' }); throw new Error('no missing_token'); }
    catch (e) { if (e.code !== 'missing_token') throw e; }
    console.log('import() ok on Node ' + process.version);
  ")
done

echo "-- typecheck a consumer of the packed types (ESM and CJS)"
cat >"$smoke/esm.mts" <<'TS'
import { TockClient, AuthError, type Health, type Entry, type Report, type Status } from '@tock/client';
const tock = new TockClient({ token: 't', port: 39847 });
const health: Promise<Health> = tock.healthcheck();
const entry: Promise<Entry> = tock.logEntry({ name: 'x', durationMinutes: 5, endedAt: new Date() });
const status: Promise<Status> = tock.getStatus({ signal: AbortSignal.timeout(1000) });
const code: string = new AuthError('m', { code: 'bad_response_signature', status: 200 }).code;
const report: Promise<Report> = tock.getReport({ from: '2026-11-01', to: '2026-11-30', by: 'day' });
async function firstStatus(): Promise<Status | undefined> {
  for await (const event of tock.events({ signal: AbortSignal.timeout(1000), reconnect: false })) {
    if (event.type === 'status') return event.data;
  }
}
// @ts-expect-error: name and activityID are exclusive
void tock.logEntry({ name: 'x', activityID: 'y', durationMinutes: 5 });
export { health, entry, status, code, report, firstStatus };
TS
cat >"$smoke/cjs.cts" <<'TS'
import tock = require('@tock/client');
const client: tock.TockClient = new tock.TockClient({ token: 't' });
const results: Promise<tock.ActivityRef[]> = client.searchActivities('x', { limit: 5 });
export = results;
TS
cat >"$smoke/tsconfig.json" <<'JSON'
{ "compilerOptions": { "strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext",
  "target": "es2022", "lib": ["es2022", "dom"], "types": [] }, "files": ["esm.mts", "cjs.cts"] }
JSON
(cd "$smoke" && "$bin/tsc" -p tsconfig.json) && echo "consumer types ok"

dist=$pkg/dist/index.js
contract=$root/packages/client/runtime-tests/contract.mjs
export DENO_DIR=$work/deno-dir
export DENO_NO_UPDATE_CHECK=1

# run_contract <label> <args…>: one runtime; its output, its last line checked.
run_contract() {
  local label=$1
  shift
  echo "-- contract: $label"
  "$@"
}

echo "-- start the signed fake listener"
fake_token=$("$node24" -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))")
"$node24" packages/client/runtime-tests/fake-tock.ts --token="$fake_token" >"$work/fake.out" &
pids+=($!)
for _ in $(seq 1 100); do
  [ -s "$work/fake.out" ] && break
  sleep 0.1
done
fake_port=$("$node24" -e "console.log(JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8')).port)" "$work/fake.out")
closed_port=$(free_port)
common=(--client "$dist" --port "$fake_port" --token="$fake_token" --closed-port "$closed_port" --fake)
export SERVICE_TOKEN=$fake_token SERVICE_PORT=$fake_port

run_contract "Node $("$node20" --version)" "$node20" "$contract" "${common[@]}"
run_contract "Node $("$node24" --version)" "$node24" "$contract" "${common[@]}"
run_contract "Bun $("$bin/bun" --version)" "$bin/bun" "$contract" "${common[@]}"
run_contract "Deno (--allow-net --allow-env --allow-read)" \
  "$bin/deno" run --no-prompt --allow-net --allow-env --allow-read "$contract" "${common[@]}"
run_contract "Deno without --allow-env" \
  "$bin/deno" run --no-prompt --allow-net --allow-read "$contract" "${common[@]}" --no-env
unset SERVICE_TOKEN SERVICE_PORT

echo "-- the real app"
real_app_unusable() {
  if [ "${TOCK_CLIENT_REAL_APP:-}" = require ]; then
    echo "error: the real app is not usable: $1" >&2
    exit 1
  fi
  echo "SKIPPED: the contract did not run against the real app: $1"
}
cli=$root/packages/cli/bin/tock.js
if [ ! -f "$cli" ]; then
  real_app_unusable "packages/cli/bin/tock.js does not exist yet"
else
  export TOCK_HOME=$work/tock-home TOCK_CREDENTIAL_STORE=file
  mkdir -p "$TOCK_HOME"
  tock() { "$node24" "$cli" "$@"; }
  # Not through the function: $! must be the app's own pid, not a subshell's.
  "$node24" "$cli" app --no-open >"$work/app.log" 2>&1 &
  app_pid=$!
  pids+=($app_pid)
  up=no
  for _ in $(seq 1 150); do
    if ! kill -0 "$app_pid" 2>/dev/null; then break; fi
    if tock listener status >/dev/null 2>&1; then
      up=yes
      break
    fi
    sleep 0.2
  done
  app_port=$(free_port)
  if [ "$up" != yes ]; then
    real_app_unusable "\`tock app --no-open\` did not come up ($(tail -n 3 "$work/app.log" | tr '\n' ' '))"
  elif ! tock listener on --port "$app_port" >"$work/listener.out" 2>&1; then
    real_app_unusable "\`tock listener on\` failed: $(tr '\n' ' ' <"$work/listener.out")"
  elif ! app_token=$(tock token 2>"$work/token.err"); then
    real_app_unusable "\`tock token\` failed: $(tr '\n' ' ' <"$work/token.err")"
  else
    echo "tock app: $(cat "$work/listener.out")"
    export SERVICE_TOKEN=$app_token SERVICE_PORT=$app_port
    real=(--client "$dist" --port "$app_port" --token="$app_token" --closed-port "$(free_port)")
    run_contract "Node $("$node20" --version), real app" "$node20" "$contract" "${real[@]}"
    run_contract "Node $("$node24" --version), real app" "$node24" "$contract" "${real[@]}"
    run_contract "Bun, real app" "$bin/bun" "$contract" "${real[@]}"
    run_contract "Deno, real app" "$bin/deno" run --no-prompt --allow-net --allow-env --allow-read "$contract" "${real[@]}"
    run_contract "Node $("$node24" --version), real app, lockout" "$node24" "$contract" "${real[@]}" --lockout
    unset SERVICE_TOKEN SERVICE_PORT
  fi
  stop_pid "$app_pid"
  if [ "$up" = yes ] && grep -qiE 'uncaught|unhandled' "$work/app.log"; then
    echo "error: the app logged a crash while serving the client:" >&2
    cat "$work/app.log" >&2
    exit 1
  fi
fi
echo "client runtime matrix passed"
