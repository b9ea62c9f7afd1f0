/**
 * The bar "an acknowledged write survives kill -9" (docs/security.md "The bar every change
 * meets") for the two doors the crash campaign does not drive: the admin socket as the CLI uses
 * it (`tock start`, `tock log`) and the window's API (`POST /api/entries`, `POST /api/start`).
 * The listener's `/entries` and `/activities/start` are crash.test.ts and crash-load.test.ts (its
 * `/activities/stop` is here); the heartbeat door is wakatime.test.ts. Each write here is answered, then the app gets SIGKILL at
 * once, and the store file the dead process left must hold every one of them. The other write
 * doors (suggestions, branch prompts, the ledger, invoices, edits) are bar-durability-doors.test.ts.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { createTracker, openStore } from '@tock/core';
import { homePaths } from '../src/home.ts';
import { appEnv, spawnApp, tock, windowSession, type AppProcess } from './support/app-process.ts';
import { freePort } from './support/real-app.ts';
import { signed } from './support/signed.ts';

/** One write through the window's API, as the page sends it; its result. */
async function windowWrite<T>(session: { origin: string; headers: Record<string, string> }, path: string, body: unknown): Promise<T> {
  const answer = await fetch(`${session.origin}${path}`, { method: 'POST', headers: session.headers, body: JSON.stringify(body) });
  const json = (await answer.json()) as { ok: boolean; result: T };
  assert.ok(json.ok, `${path}: ${answer.status} ${JSON.stringify(json)}`);
  return json.result;
}

const env = appEnv();
let app: AppProcess | undefined;
after(() => {
  app?.child.kill('SIGKILL');
  rmSync(env.TOCK_HOME as string, { recursive: true, force: true });
});

/** The store the dead process left: the entries it holds and the running session. */
function inspect(): { entryIDs: Set<string>; running: { activityName: string | undefined; since: number } } {
  const store = openStore(homePaths(env.TOCK_HOME as string).database);
  try {
    const tracker = createTracker({ store });
    const entryIDs = new Set(tracker.listBlocks(0, Date.now() + 86_400_000).filter((b) => b.kind === 'entry').map((b) => b.id));
    const status = tracker.getStatus();
    return { entryIDs, running: { activityName: status.currentActivity?.activityName, since: new Date(status.since as string).getTime() } };
  } finally {
    store.close();
  }
}

async function killNow(running: AppProcess): Promise<void> {
  running.child.kill('SIGKILL');
  assert.equal(await running.exited, null, 'the app died by SIGKILL');
}

test('an entry and a start answered by the window API are in the store after kill -9', async () => {
  app = await spawnApp(env);
  const session = await windowSession(env);
  const entry = await windowWrite<{ entryID: string }>(session, '/api/entries', { name: 'Bar window', createIfMissing: true, durationMinutes: 15, note: 'window door' });
  const started = await windowWrite<{ startedAt: string; activityName: string }>(session, '/api/start', { name: 'Bar window' });
  await killNow(app); // nothing between the last answer and the kill

  const found = inspect();
  assert.ok(found.entryIDs.has(entry.entryID), 'the entry POST /api/entries was answered for');
  assert.deepEqual(found.running, { activityName: 'Bar window', since: new Date(started.startedAt).getTime() }, 'the session POST /api/start was answered for');
});

test('an entry and a start answered over the admin socket (tock log, tock start) are in the store after kill -9', async () => {
  app = await spawnApp(env); // the same home, after the kill above
  const logged = await tock(['log', '25m', 'Bar admin', '--create', '--note', 'admin door', '--json'], env);
  assert.equal(logged.code, 0, logged.stderr);
  const entry = JSON.parse(logged.stdout) as { entryID: string };
  const started = await tock(['start', 'Bar admin', '--json'], env);
  assert.equal(started.code, 0, started.stderr);
  const result = JSON.parse(started.stdout) as { startedAt: string; activityName: string };
  await killNow(app);

  const found = inspect();
  assert.ok(found.entryIDs.has(entry.entryID), 'the entry `tock log` was answered for');
  assert.deepEqual(found.running, { activityName: 'Bar admin', since: new Date(result.startedAt).getTime() }, 'the session `tock start` was answered for');
});

test('a stop answered by the listener (POST /activities/stop) is in the store after kill -9', async () => {
  app = await spawnApp(env); // the same home: the admin test above left a session running
  const port = await freePort();
  assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).code, 0);
  const token = (await tock(['token'], env)).stdout.trim();
  // Keep every session, however short: the one running here started a moment ago.
  assert.equal((await tock(['settings', 'set', 'minSessionSeconds', '0'], env)).code, 0);
  const stopped = await signed(port, token, { target: '/activities/stop', body: {} });
  assert.equal(stopped.status, 200, stopped.text);
  assert.equal(stopped.json.result.kept, true, stopped.text);
  await killNow(app);

  const store = openStore(homePaths(env.TOCK_HOME as string).database);
  try {
    const tracker = createTracker({ store });
    assert.equal(tracker.getStatus().isTracking, false, 'nothing runs after the answered stop');
    const ended = tracker.listBlocks(0, Date.now() + 86_400_000).filter((b) => b.kind === 'session' && b.endedAt !== null);
    assert.ok(ended.some((b) => new Date(b.endedAt as string).getTime() === new Date(stopped.json.result.endedAt).getTime()), 'the session ends where the answer said');
  } finally {
    store.close();
  }
});
