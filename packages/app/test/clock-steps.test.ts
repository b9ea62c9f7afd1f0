/**
 * The wall clock moves under a running session (docs/product.md "When the clock is set",
 * docs/protocol.md "Request signing"): a real `tock app` under libfaketime (Debian
 * `faketime`), whose offset the test changes while the app runs. Monotonic clocks are left
 * alone (DONT_FAKE_MONOTONIC), as a real clock step leaves them. Clients on the same machine
 * see the same wall clock: the test signs with the app's faked time.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { faketimeOffset, pinnedOffsetSeconds } from '@tock/test-support';
import { authHeaders, freshNonce, sendRaw, type Answer } from '@tock/listener/testing';
import { freePort } from './ui-support/harness.ts';
import { spawnApp, tock } from './support/app-process.ts';

const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find(
  (path) => existsSync(path),
);

/** One signed request, kept whole so that it can be sent again (a replay). */
interface Captured {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string;
}

test('a session survives the wall clock stepping back an hour and forward a day: no negative or stretched time, replays still refused', async (t) => {
  assert.ok(LIBFAKETIME, 'libfaketime is installed (scripts/system-deps.sh installs faketime)');
  const root = mkdtempSync(join(tmpdir(), 'tock-clock-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const offsetFile = join(root, 'faketime');
  let offsetSec = 0;
  const setOffset = (seconds: number): void => {
    offsetSec = seconds;
    // From the tests' pinned clock (scripts/pinned-clock.sh), which is this test's Date.now().
    writeFileSync(offsetFile, `${faketimeOffset(pinnedOffsetSeconds() + seconds)}\n`);
  };
  setOffset(0);
  /** What the app's wall clock reads now. */
  const appNow = (): number => Date.now() + offsetSec * 1000;

  const home = join(root, 'home');
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: 'UTC', TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file' };
  const app = await spawnApp({
    ...env,
    LD_PRELOAD: LIBFAKETIME,
    FAKETIME_TIMESTAMP_FILE: offsetFile,
    FAKETIME_NO_CACHE: '1',
    DONT_FAKE_MONOTONIC: '1',
  });
  t.after(() => app.child.kill('SIGKILL'));
  const port = await freePort();
  assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).code, 0);
  const token = (await tock(['token'], env)).stdout.trim();
  // The session lasts seconds of real time: kept whatever its length (crumbs are core's tests').
  assert.equal((await tock(['settings', 'set', 'minSessionSeconds', '0'], env)).code, 0);

  const sign = (method: string, target: string, body?: unknown): Captured => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      ...authHeaders({ method, target, body: text, timestamp: String(Math.floor(appNow() / 1000)), nonce: freshNonce(), token }),
    };
    if (text) headers['content-type'] = 'application/json';
    return { method, target, headers, body: text };
  };
  const send = (request: Captured): Promise<Omit<Answer, 'nonce'>> => sendRaw(port, request.method, request.target, request.headers, request.body || undefined);
  const call = async (method: string, target: string, body?: unknown): Promise<{ request: Captured; answer: Omit<Answer, 'nonce'> }> => {
    const request = sign(method, target, body);
    return { request, answer: await send(request) };
  };

  const startedReal = Date.now();
  const start = await call('POST', '/activities/start', { name: 'Deep work', createIfMissing: true });
  assert.equal(start.answer.status, 200, start.answer.text);

  /** The status as the app reports it, checked against what really elapsed. */
  const checkStatus = async (label: string): Promise<void> => {
    const { answer } = await call('GET', '/status');
    assert.equal(answer.status, 200, `${label}: ${answer.text}`);
    const status = answer.json.result as { isTracking: boolean; since: string | null; todaySeconds: number };
    const elapsedReal = (Date.now() - startedReal) / 1000;
    assert.equal(status.isTracking, true, label);
    const runningFor = (appNow() - Date.parse(status.since as string)) / 1000;
    assert.ok(runningFor >= -1, `${label}: the session started in the app's future (${runningFor} s)`);
    assert.ok(runningFor <= elapsedReal + 1, `${label}: running for ${runningFor} s after ${elapsedReal} s of real time`);
    assert.ok(status.todaySeconds >= 0, `${label}: todaySeconds ${status.todaySeconds}`);
    assert.ok(status.todaySeconds <= Math.ceil(elapsedReal) + 1, `${label}: todaySeconds ${status.todaySeconds} after ${elapsedReal} s`);
  };

  // Back an hour.
  setOffset(-3600);
  await checkStatus('an hour back');
  const replayedStart = await send(start.request);
  assert.equal(replayedStart.status, 401, 'a request signed before the step is an hour in the future now');
  const afterBack = await call('GET', '/current');
  assert.equal(afterBack.answer.status, 200);
  assert.equal((await send(afterBack.request)).json?.code, 'nonce_reused');

  // Forward a day.
  setOffset(86_400);
  await checkStatus('a day forward');
  const replayedAfterBack = await send(afterBack.request);
  assert.equal(replayedAfterBack.status, 401, 'a day old now');
  const stop = await call('POST', '/activities/stop', {});
  assert.equal(stop.answer.status, 200, stop.answer.text);
  const status = await call('GET', '/status');
  const today = status.answer.json.result as { isTracking: boolean; todaySeconds: number };
  assert.equal(today.isTracking, false);

  // Corrected back: a request from before the steps is within the clock skew again, and its
  // nonce must still be remembered (the steps took less real time than the nonce window).
  setOffset(0);
  const replayedAgain = await send(start.request);
  assert.equal(replayedAgain.status, 409, `replayed after the clock came back: ${replayedAgain.text}`);
  assert.equal(replayedAgain.json?.code, 'nonce_reused');

  const elapsedReal = (Date.now() - startedReal) / 1000;
  app.child.kill('SIGTERM');
  assert.equal(await app.exited, 0);

  // What was stored: no block runs backwards or longer than the real time that passed.
  const db = new DatabaseSync(join(home, 'tock.db'), { readOnly: true });
  try {
    const spans = db.prepare('SELECT started_at AS s, ended_at AS e FROM sessions UNION ALL SELECT started_at, ended_at FROM breaks').all() as { s: number; e: number | null }[];
    assert.ok(spans.length >= 1);
    for (const { s, e } of spans) {
      assert.notEqual(e, null);
      assert.ok((e as number) >= s, `a negative span: ${s} → ${e}`);
      assert.ok(((e as number) - s) / 1000 <= elapsedReal + 1, `a span of ${((e as number) - s) / 1000} s after ${elapsedReal} s of real time`);
    }
    // Today's total at the forward step followed the rules: the stopped session's part inside that day.
    const session = db.prepare('SELECT started_at AS s, ended_at AS e FROM sessions').get() as { s: number; e: number };
    const dayStart = Math.floor(Number(status.request.headers['x-tock-timestamp']) / 86_400) * 86_400_000; // TZ=UTC
    const inside = Math.max(0, Math.min(session.e, dayStart + 86_400_000) - Math.max(session.s, dayStart));
    assert.ok(Math.abs(today.todaySeconds - inside / 1000) <= 1, `todaySeconds ${today.todaySeconds}, the session's part in that day ${inside / 1000} s`);
  } finally {
    db.close();
  }
});
