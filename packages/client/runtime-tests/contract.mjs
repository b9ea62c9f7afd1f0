// The runtime contract of @tock/client: plain JavaScript, no test framework, so the same
// file runs on Node 20, Node 24, Bun and Deno against the built package (dist/).
//
//   <runtime> contract.mjs --client <path to dist/index.js> --port P --token=T
//       --closed-port Q [--fake] [--no-env] [--lockout]
//
// --fake: the server is runtime-tests/fake-tock.ts, so the misbehaving cases (unsigned or
// wrongly signed answers, forced statuses, hangs, drops, redirects) run too; without it only
// the contract part runs (the real app). --no-env: the runtime may not read the environment
// (Deno without --allow-env); construction must still work with an explicit token.
// --lockout: only the lockout case (11 failed authentications → 429 with Retry-After), run
// last against a server because it locks everyone out for 60 s.
// The last line printed is "N passed, N failed"; the exit status is non-zero on failure.

const args = parseArgs(globalThis.Deno ? globalThis.Deno.args : globalThis.process.argv.slice(2));
const clientPath = args.client;
const clientUrl = /^[a-z]+:/.test(clientPath) ? clientPath : new URL(clientPath, `file://${cwd()}/`).href;
const { TockClient, TockError, ValidationError, AuthError, NotFoundError, ReplayError, UnavailableError, HttpError, NetworkError } =
  await import(clientUrl);

const port = Number(args.port);
const token = args.token;
const closedPort = Number(args['closed-port']);
const fake = args.fake === true;
const noEnv = args['no-env'] === true;
const base = `http://127.0.0.1:${port}`;
const runtime = globalThis.Deno ? `Deno ${globalThis.Deno.version.deno}` : globalThis.Bun ? `Bun ${globalThis.Bun.version}` : `Node ${globalThis.process.version}`;
const unique = Math.random().toString(36).slice(2, 8);

const lockoutOnly = args.lockout === true;
const tests = [];
const test = (name, fn) => tests.push({ name, fn, kind: 'contract' });
const misbehaving = (name, fn) => tests.push({ name, fn, kind: 'fake' });
const lockingOut = (name, fn) => tests.push({ name, fn, kind: 'lockout' });
const selected = (t) => (lockoutOnly ? t.kind === 'lockout' : t.kind === 'contract' || (t.kind === 'fake' && fake));

const client = (options = {}) => new TockClient({ token, port, timeoutMs: 5000, ...options });

// ---- contract: every operation, and the errors a real listener produces ----

test('construction reads SERVICE_TOKEN and SERVICE_PORT (or counts an unreadable env as unset)', async () => {
  if (noEnv) {
    expectError(() => new TockClient(), TockError, { code: 'missing_token' });
    const explicit = new TockClient({ token, port });
    equal((await explicit.healthcheck()).status, 'ok');
  } else {
    const fromEnv = new TockClient();
    equal((await fromEnv.healthcheck()).status, 'ok');
  }
});

test('construction refuses an empty token and a bad port', () => {
  expectError(() => new TockClient({ token: '', port }), TockError, { code: 'missing_token' });
  for (const bad of [0, 65536, 1.5]) expectError(() => new TockClient({ token, port: bad }), TockError, { code: 'invalid_port' });
});

test('healthcheck', async () => {
  const health = await client().healthcheck();
  equal(health.status, 'ok');
  equal(health.apiVersion, 1);
  ok(typeof health.appVersion === 'string', 'appVersion');
  ok(['trial', 'licensed', 'locked'].includes(health.license), 'license');
});

test('start, current, status, search, stop', async () => {
  const tock = client();
  const name = `Runtime ${unique}`;
  const started = await tock.startActivity(name, { createIfMissing: true });
  equal(started.activityName, name);
  equal(started.created, true);
  ok(/Z$/.test(started.startedAt), 'startedAt is UTC');
  const current = await tock.getCurrent();
  equal(current?.activityID, started.activityID);
  const status = await tock.getStatus();
  equal(status.isTracking, true);
  equal(status.isOnBreak, false);
  equal(status.currentActivity?.activityID, started.activityID);
  ok(Number.isInteger(status.todaySeconds), 'todaySeconds is an integer');
  const byID = await tock.startActivity({ activityID: started.activityID });
  equal(byID.activityID, started.activityID);
  equal(byID.created, false);
  const found = await tock.searchActivities(`runtime ${unique}`, { limit: 5 });
  equal(found[0]?.activityID, started.activityID);
  const stopped = await tock.stopActivity();
  equal(stopped?.activityID, started.activityID);
  ok(Number.isInteger(stopped?.seconds), 'seconds');
  equal(await tock.stopActivity(), null);
  equal(await tock.getCurrent(), null);
});

test('logEntry with a Date endedAt and a note', async () => {
  const endedAt = new Date(Date.now() - 60_000);
  const entry = await client().logEntry({ name: `Review ${unique}`, durationMinutes: 45, note: 'café ☕', createIfMissing: true, endedAt });
  equal(entry.activity.activityName, `Review ${unique}`);
  equal(entry.created, true);
  equal(entry.durationMinutes, 45);
  equal(entry.note, 'café ☕');
  equal(entry.endedAt, endedAt.toISOString());
});

test('logEntry repeated with the same idempotency key returns the first entry', async () => {
  const input = { name: `Review ${unique}`, durationMinutes: 5, createIfMissing: true, idempotencyKey: `runtime-${unique}` };
  const first = await client().logEntry(input);
  const second = await client().logEntry(input);
  equal(second.entryID, first.entryID);
});

test('notifyBranchChange', async () => {
  const prompt = await client().notifyBranchChange({ branch: 'feature/login', repo: '/src/shop', previousBranch: 'main' });
  ok(/^[0-9a-f-]{36}$/i.test(prompt.promptID), 'promptID is a UUID');
});

test('ValidationError with details', async () => {
  const error = await rejection(client().logEntry({ name: 'x', durationMinutes: 0 }));
  expectInstance(error, ValidationError, { status: 400, code: 'validation_failed' });
  ok(Array.isArray(error.details) && error.details.some((d) => d.field === 'durationMinutes'), 'details name durationMinutes');
});

test('NotFoundError for an unknown activity', async () => {
  const error = await rejection(client().startActivity(`No such activity ${unique}`));
  expectInstance(error, NotFoundError, { status: 404, code: 'activity_not_found' });
});

test('ReplayError for a replayed request', async () => {
  const replaying = async (input, init) => {
    await (await fetch(input, init)).arrayBuffer();
    return fetch(input, init);
  };
  const error = await rejection(client({ fetch: replaying }).getStatus());
  expectInstance(error, ReplayError, { status: 409, code: 'nonce_reused' });
});

test('AuthError for a wrong token', async () => {
  const error = await rejection(client({ token: 'not-the-token' }).healthcheck());
  expectInstance(error, AuthError, { status: 401, code: 'bad_signature' });
});

test('NetworkError when the connection is refused', async () => {
  const error = await rejection(new TockClient({ token, port: closedPort }).healthcheck());
  expectInstance(error, NetworkError, { status: undefined, code: 'network_error' });
  ok(error.cause !== undefined, 'cause is kept');
});

test('getReport: today by default, a range by day, ValidationError for to before from', async () => {
  const tock = client();
  const today = await tock.getReport();
  ok(/^\d{4}-\d{2}-\d{2}$/.test(today.from) && today.from === today.to, 'from and to are today');
  ok(typeof today.timeZone === 'string' && Number.isInteger(today.totalSeconds) && Array.isArray(today.rows), 'report shape');
  const byDay = await tock.getReport({ from: today.from, to: today.to, by: 'day' });
  equal(byDay.rows.length, 1, 'one row per day');
  equal(byDay.rows[0].date, today.from, 'the day');
  const error = await rejection(tock.getReport({ from: '2026-11-02', to: '2026-11-01' }));
  expectInstance(error, ValidationError, { status: 400, code: 'validation_failed' });
});

test('getSuggestions: today by default, a day given; acceptSuggestion of an id that is no suggestion is NotFoundError', async () => {
  const tock = client();
  const { date, suggestions } = await tock.getSuggestions();
  ok(/^\d{4}-\d{2}-\d{2}$/.test(date) && Array.isArray(suggestions), 'the day and its suggestions');
  equal((await tock.getSuggestions({ date: '2026-01-05' })).date, '2026-01-05', 'the day given');
  expectInstance(await rejection(tock.getSuggestions({ date: '2026-02-30' })), ValidationError, { status: 400, code: 'validation_failed' });
  expectInstance(await rejection(tock.acceptSuggestion('20260105-0000000000000000', { activityName: 'x' })), NotFoundError, { status: 404, code: 'suggestion_not_found' });
});

// The fake has a suggestion to accept (a real app's fresh store has no capture).
misbehaving('acceptSuggestion: an unlabelled one needs an activity; accepted, it is an entry from capture and no longer suggested', async () => {
  const tock = client();
  const { date, suggestions } = await tock.getSuggestions();
  const [first] = suggestions;
  ok(first && first.activityName === null && first.sources[0].app === 'Code', 'an unlabelled suggestion with its sources');
  expectInstance(await rejection(tock.acceptSuggestion(first.id)), ValidationError, { status: 400, code: 'validation_failed' });
  const entry = await tock.acceptSuggestion(first.id, { activityName: `Suggested ${unique}` });
  equal(entry.note, 'from capture', 'the note');
  equal(entry.startedAt, first.start, 'the stretch');
  equal((await tock.getSuggestions({ date })).suggestions.length, 0, 'accepted: no longer suggested');
});

test('events: the status first, then a status after a start; an AbortSignal ends the loop', async () => {
  const tock = client();
  const controller = new AbortController();
  const iterator = tock.events({ signal: controller.signal })[Symbol.asyncIterator]();
  const first = await iterator.next();
  equal(first.value.type, 'status', 'first event');
  ok(/^[A-Za-z0-9_-]{8,32}\.\d+$/.test(first.value.id), 'id is <run>.<seq>');
  const name = `Events ${unique}`;
  const started = await tock.startActivity(name, { createIfMissing: true });
  let seen;
  do seen = await iterator.next();
  while (!seen.done && !(seen.value.type === 'status' && seen.value.data.currentActivity?.activityID === started.activityID));
  equal(seen.value.data.isTracking, true, 'isTracking');
  controller.abort();
  equal((await iterator.next()).done, true, 'the loop ended');
  await tock.stopActivity();
});

test('events: leaving the loop ends it', async () => {
  for await (const event of client().events()) {
    equal(event.type, 'status', 'first event');
    break;
  }
});

test('events: AuthError for a wrong token, without reconnecting', async () => {
  const error = await rejection(client({ token: 'not-the-token' }).events()[Symbol.asyncIterator]().next());
  expectInstance(error, AuthError, { status: 401, code: 'bad_signature' });
});

// ---- misbehaving server (the fake only) ----

misbehaving('events: AuthError bad_event_signature for an event without its sig', async () => {
  await reset();
  const iterator = client().events()[Symbol.asyncIterator]();
  await iterator.next();
  await control('event', { type: 'idle', data: { since: '2026-11-22T10:05:00.000Z', seconds: 600 }, sig: 'none' });
  expectInstance(await rejection(iterator.next()), AuthError, { code: 'bad_event_signature' });
});

misbehaving('events: AuthError bad_event_signature for an event signed with another key', async () => {
  await reset();
  const iterator = client().events()[Symbol.asyncIterator]();
  await iterator.next();
  await control('event', { type: 'idle', data: { since: '2026-11-22T10:05:00.000Z', seconds: 600 }, sig: 'wrong' });
  expectInstance(await rejection(iterator.next()), AuthError, { code: 'bad_event_signature' });
});

misbehaving('events: a dropped stream is reopened with Last-Event-ID and gives what was missed', async () => {
  await reset();
  const controller = new AbortController();
  const iterator = client().events({ signal: controller.signal })[Symbol.asyncIterator]();
  await iterator.next();
  const { id: seen } = await control('event', { type: 'idle', data: { since: '2026-11-22T10:05:00.000Z', seconds: 600 } });
  equal((await iterator.next()).value.id, seen, 'the event before the drop');
  await control('end-streams', {});
  const { id: missed } = await control('event', { type: 'idle', data: { since: '2026-11-22T10:05:00.000Z', seconds: 660 } });
  equal((await iterator.next()).value.id, missed, 'the event sent while it was away');
  controller.abort();
});

misbehaving('events: HttpError license_locked for 423 and too_many_streams for 429', async () => {
  await queue({ status: 423 });
  expectInstance(await rejection(client().events()[Symbol.asyncIterator]().next()), HttpError, { status: 423, code: 'license_locked' });
  await queue({ status: 429, code: 'too_many_streams', sign: 'none' });
  expectInstance(await rejection(client().events()[Symbol.asyncIterator]().next()), HttpError, { status: 429, code: 'too_many_streams' });
});

misbehaving('events: AuthError bad_response_signature for an unsigned 200', async () => {
  await queue({ sign: 'none' });
  expectInstance(await rejection(client().events()[Symbol.asyncIterator]().next()), AuthError, { code: 'bad_response_signature' });
});

misbehaving('AuthError bad_response_signature for an unsigned 200', async () => {
  await queue({ sign: 'none' });
  const error = await rejection(client().getStatus());
  expectInstance(error, AuthError, { status: 200, code: 'bad_response_signature' });
  equal(error.message, 'the response was not signed by Tock');
});

misbehaving('AuthError bad_response_signature for a response signed with another key', async () => {
  await queue({ sign: 'wrong-key' });
  const error = await rejection(client().healthcheck());
  expectInstance(error, AuthError, { status: 200, code: 'bad_response_signature' });
});

misbehaving('AuthError bad_response_signature for an unsigned 503', async () => {
  await queue({ status: 503, sign: 'none' });
  expectInstance(await rejection(client().getStatus()), AuthError, { status: 503, code: 'bad_response_signature' });
});

misbehaving('UnavailableError for 503', async () => {
  await queue({ status: 503, code: 'not_wired', message: 'not wired' });
  expectInstance(await rejection(client().getCurrent()), UnavailableError, { status: 503, code: 'not_wired', message: 'not wired' });
});

misbehaving('HttpError license_locked for 423', async () => {
  await queue({ status: 423 });
  expectInstance(await rejection(client().getCurrent()), HttpError, { status: 423, code: 'license_locked', message: 'license locked' });
});

misbehaving('HttpError with retryAfter for an unsigned 429', async () => {
  await queue({ status: 429, code: 'locked_out', sign: 'none', headers: { 'retry-after': '17' } });
  expectInstance(await rejection(client().getStatus()), HttpError, { status: 429, code: 'locked_out', retryAfter: 17 });
});

misbehaving('HttpError for 500', async () => {
  await queue({ status: 500, code: 'internal_error', message: 'internal error' });
  expectInstance(await rejection(client().stopActivity()), HttpError, { status: 500, code: 'internal_error' });
});

misbehaving('ValidationError for an unsigned 400', async () => {
  await queue({ status: 400, code: 'validation_failed', sign: 'none', details: [{ field: 'q', message: 'bad' }] });
  const error = await rejection(client().searchActivities('x'));
  expectInstance(error, ValidationError, { status: 400, code: 'validation_failed' });
  equal(error.details?.[0]?.field, 'q');
});

misbehaving('NetworkError timeout when the server never answers (timeoutMs 200)', async () => {
  await queue({ action: 'hang' });
  const started = Date.now();
  const error = await rejection(client({ timeoutMs: 200 }).getStatus());
  expectInstance(error, NetworkError, { status: undefined, code: 'timeout' });
  ok(Date.now() - started < 3000, 'gave up in time');
});

misbehaving('an AbortSignal rejects with its reason', async () => {
  await queue({ action: 'hang' });
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('stop waiting')), 50);
  const error = await rejection(client().getStatus({ signal: controller.signal }));
  equal(error?.message, 'stop waiting');
});

misbehaving('logEntry retries once after a dropped connection, with the same idempotency key', async () => {
  await reset();
  await queue({ action: 'drop-attempt' });
  const entry = await client().logEntry({ name: `Retry ${unique}`, durationMinutes: 3, createIfMissing: true });
  equal(entry.durationMinutes, 3);
  const seen = await received();
  ok(/^[A-Za-z0-9_-]{22}$/.test(seen[0].idempotencyKey), 'a generated key was sent');
  ok(seen.every((r) => r.idempotencyKey === seen[0].idempotencyKey), 'the same key on every attempt');
  // Two client attempts (a runtime may resend the first as is: Deno does).
  equal(new Set(seen.map((r) => r.nonce)).size, 2, 'client attempts');
});

misbehaving('other operations are not retried by the client', async () => {
  await reset();
  await queue({ action: 'drop-attempt' });
  expectInstance(await rejection(client().notifyBranchChange({ branch: 'x' })), NetworkError, { code: 'network_error' });
  equal(new Set((await received()).map((r) => r.nonce)).size, 1, 'client attempts');
});

misbehaving('a request dropped on a reused connection is never applied twice (whatever the runtime resends)', async () => {
  await reset();
  await client().healthcheck(); // leaves a keep-alive connection in the pool
  await queue({ action: 'drop' });
  const outcome = await client()
    .logEntry({ name: `Once ${unique}`, durationMinutes: 2, createIfMissing: true })
    .then(() => 'logged', (error) => error);
  const attempts = (await received()).slice(1);
  // The client makes at most two attempts (two nonces); a runtime may resend one as is
  // (Deno does), and the listener then treats it as a replay of that nonce.
  const nonces = new Set(attempts.map((r) => r.nonce));
  ok(nonces.size >= 1 && nonces.size <= 2, `client attempts: ${nonces.size}`);
  ok(new Set(attempts.map((r) => r.idempotencyKey)).size === 1, 'one idempotency key for every attempt');
  ok(outcome === 'logged' || outcome instanceof NetworkError || outcome instanceof ReplayError, `outcome: ${outcome}`);
  await reset();
});

misbehaving('a redirect is not followed', async () => {
  await reset();
  await queue({ action: 'redirect' });
  expectInstance(await rejection(client().getStatus()), AuthError, { status: 302, code: 'bad_response_signature' });
  equal((await received()).map((r) => r.target).join(), '/status');
});

// ---- lockout (--lockout, alone, last: it locks the listener out for 60 s) ----

lockingOut('the 11th failed authentication locks out: HttpError locked_out with retryAfter', async () => {
  const intruder = client({ token: `wrong-${unique}` });
  let lockedOut;
  for (let i = 0; i < 15 && !lockedOut; i++) {
    const error = await rejection(intruder.healthcheck());
    if (error instanceof HttpError) lockedOut = error;
    else expectInstance(error, AuthError, { status: 401 });
  }
  ok(lockedOut, 'a 429 came within 15 failed authentications');
  expectInstance(lockedOut, HttpError, { status: 429, code: 'locked_out' });
  ok(Number.isInteger(lockedOut.retryAfter) && lockedOut.retryAfter > 0, `retryAfter: ${lockedOut.retryAfter}`);
  // Valid requests are refused too while it lasts.
  expectInstance(await rejection(client().healthcheck()), HttpError, { status: 429, code: 'locked_out' });
});

// ---- runner ----

let passed = 0;
let failed = 0;
console.log(
  `@tock/client runtime ${lockoutOnly ? 'lockout case' : 'contract'} on ${runtime} against ${fake ? 'the fake listener' : 'the real app'}${noEnv ? ' (no env access)' : ''}`,
);
for (const t of tests) {
  if (!selected(t)) continue;
  try {
    await t.fn();
    passed++;
    console.log(`  ok    ${t.name}`);
  } catch (error) {
    failed++;
    console.log(`  FAIL  ${t.name}: ${error?.stack ?? error}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
if (globalThis.Deno) globalThis.Deno.exit(failed === 0 ? 0 : 1);
else globalThis.process.exit(failed === 0 ? 0 : 1);

// ---- helpers ----

// `--key=value` (a token may begin with `-`: base64url), `--key value`, or a lone `--flag`.
function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const [key, value] = argv[i].replace(/^--/, '').split(/=(.*)/s);
    if (value !== undefined) out[key] = value;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out[key] = argv[++i];
    else out[key] = true;
  }
  return out;
}

function cwd() {
  return globalThis.Deno ? globalThis.Deno.cwd() : globalThis.process.cwd();
}

async function control(path, body) {
  const res = await fetch(`${base}/__fake/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  return res.json();
}
function queue(...m) {
  return control('next', m);
}
function reset() {
  return control('reset', {});
}
function received() {
  return control('requests');
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a result');
}

function expectError(fn, Class, fields) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expectInstance(error, Class, fields);
}

function expectInstance(error, Class, fields = {}) {
  if (!(error instanceof Class)) throw new Error(`expected ${Class.name}, got ${error?.name}: ${error?.message}`);
  if (!(error instanceof TockError)) throw new Error(`${Class.name} is not a TockError`);
  equal(error.name, Class.name);
  for (const [key, value] of Object.entries(fields)) equal(error[key], value, key);
}

function equal(actual, expected, what = 'value') {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function ok(condition, what) {
  if (!condition) throw new Error(`not true: ${what}`);
}
