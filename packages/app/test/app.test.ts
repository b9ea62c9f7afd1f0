import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startApp, type RunningApp } from '../src/app.ts';
import { issueLicenseKey } from '../src/license.ts';
import { freePort } from './ui-support/harness.ts';
import { signed } from './support/signed.ts';

/** 09:00 of a fixed day in the run's zone: the hours after it lie inside that day in every zone (docs/architecture.md "Tests and the clock"). */
const T0 = new Date(2026, 10, 20, 9).getTime();
const DAY = 24 * 60 * 60 * 1000;
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_PEM = publicKey.export({ format: 'pem', type: 'spki' }).toString();
const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** An app on a fresh (or given) home with an injected clock, the file credential store and a test license key. */
async function appAt(clock: { now: number }, home = newHome()): Promise<{ app: RunningApp; home: string }> {
  const app = await startApp({
    home,
    clock: () => clock.now,
    env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: PUBLIC_PEM },
  });
  return { app, home };
}

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'tock-app-'));
  homes.push(home);
  return home;
}

async function listening(app: RunningApp): Promise<{ port: number; token: string }> {
  const port = await freePort();
  const status = await app.services.listener.enable(port);
  assert.equal(status.line, `active on 127.0.0.1:${port}`);
  return { port, token: app.services.tokens.current()! };
}

const sec = (ms: number) => Math.floor(ms / 1000);

describe('application', () => {
  it('locks the listener at the moment an installed license expires, without a restart', async () => {
    const clock = { now: T0 };
    const { app } = await appAt(clock);
    const { port, token } = await listening(app);
    app.services.license.activate(
      issueLicenseKey({ licensee: 'Ana', issued: new Date(T0).toISOString(), expires: new Date(T0 + 60_000).toISOString() }, privateKey),
    );
    assert.equal((await signed(port, token, { target: '/status', timestamp: sec(clock.now) })).status, 200);
    clock.now = T0 + 60_000;
    const locked = await signed(port, token, { target: '/status', timestamp: sec(clock.now) });
    assert.equal(locked.status, 423);
    assert.equal(locked.text, '{"error":"license locked"}');
    const health = await signed(port, token, { target: '/healthcheck', timestamp: sec(clock.now) });
    assert.equal(health.status, 200);
    assert.equal(health.json.result.license, 'locked');
    await app.stop();
  });

  it('is locked when restarted after the 14-day trial', async () => {
    const clock = { now: T0 };
    const first = await appAt(clock);
    assert.equal(first.app.services.license.state(), 'trial');
    await first.app.stop();
    clock.now = T0 + 14 * DAY;
    const again = await appAt(clock, first.home);
    assert.equal(again.app.services.license.state(), 'locked');
    const { port, token } = await listening(again.app);
    assert.equal((await signed(port, token, { target: '/current', timestamp: sec(clock.now) })).status, 423);
    await again.app.stop();
  });

  it('refuses a replay across a restart: future-dated nonces are kept, older timestamps refused for 60 s', async () => {
    const clock = { now: T0 };
    const first = await appAt(clock);
    const { port, token } = await listening(first.app);
    const future = { target: '/status', timestamp: sec(T0) + 30, nonce: 'future-dated-nonce-0001' };
    assert.equal((await signed(port, token, future)).status, 200);
    const recent = { target: '/status', timestamp: sec(T0), nonce: 'recent-nonce-000000001' };
    assert.equal((await signed(port, token, recent)).status, 200);
    await first.app.stop();

    clock.now = T0 + 5_000;
    const second = await appAt(clock, first.home);
    assert.equal(second.app.services.listener.status().line, `active on 127.0.0.1:${port}`, 'the switch stays on across a restart');
    const replayedFuture = await signed(port, token, future);
    assert.equal(replayedFuture.status, 409);
    assert.equal(replayedFuture.json.code, 'nonce_reused');
    const replayedRecent = await signed(port, token, recent);
    assert.equal(replayedRecent.status, 401);
    assert.equal(replayedRecent.json.code, 'clock_drift');
    assert.equal((await signed(port, token, { target: '/status', timestamp: sec(clock.now) })).status, 200);
    await second.app.stop();
  });

  it('replays an idempotent POST /entries after a restart instead of logging twice', async () => {
    const clock = { now: T0 };
    const first = await appAt(clock);
    const { port, token } = await listening(first.app);
    const call = { target: '/entries', body: { name: 'Review', durationMinutes: 30, createIfMissing: true }, idempotencyKey: 'log-review-1' };
    const created = await signed(port, token, { ...call, timestamp: sec(clock.now) });
    assert.equal(created.status, 201);
    await first.app.stop();

    clock.now = T0 + 1_000;
    const second = await appAt(clock, first.home);
    const again = await signed(port, token, { ...call, timestamp: sec(clock.now) });
    assert.equal(again.status, 201);
    assert.equal(again.json.result.entryID, created.json.result.entryID);
    assert.equal(second.app.services.tracker.listBlocks(T0 - DAY, T0 + DAY).length, 1);
    const conflict = await signed(port, token, { ...call, body: { ...call.body, durationMinutes: 31 }, timestamp: sec(clock.now) });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.code, 'idempotency_conflict');
    await second.app.stop();
  });

  it('commits an entry together with its Idempotency-Key: when the key cannot be saved nothing is logged, and the retry logs once', async () => {
    const clock = { now: T0 };
    const { app } = await appAt(clock);
    const { port, token } = await listening(app);
    const idempotency = app.services.store.idempotency;
    const save = idempotency.save;
    idempotency.save = () => {
      throw new Error('disk I/O error');
    };
    const call = { target: '/entries', body: { name: 'Atomic', durationMinutes: 15, createIfMissing: true }, idempotencyKey: 'atomic-1' };
    const failed = await signed(port, token, { ...call, timestamp: sec(clock.now) });
    assert.equal(failed.status, 500);
    assert.deepEqual(app.services.tracker.listBlocks(T0 - DAY, T0 + DAY), [], 'the entry was rolled back with its key');
    assert.deepEqual(app.services.tracker.searchActivities('Atomic', 5), [], 'and so was the activity it created');
    idempotency.save = save;
    const retried = await signed(port, token, { ...call, timestamp: sec(clock.now) });
    assert.equal(retried.status, 201);
    assert.equal(retried.json.result.created, true);
    const again = await signed(port, token, { ...call, timestamp: sec(clock.now) });
    assert.equal(again.json.result.entryID, retried.json.result.entryID);
    assert.equal(app.services.tracker.listBlocks(T0 - DAY, T0 + DAY).length, 1);
    await app.stop();
  });

  it('keeps a running session across a restart with its original start', async () => {
    const clock = { now: T0 };
    const first = await appAt(clock);
    const started = first.app.services.tracker.startActivity({ name: 'Deep work', createIfMissing: true });
    await first.app.stop();
    clock.now = T0 + 3_600_000;
    const second = await appAt(clock, first.home);
    const status = second.app.services.tracker.getStatus();
    assert.equal(status.isTracking, true);
    assert.equal(status.since, started.startedAt);
    assert.equal(status.todaySeconds, 3600);
    await second.app.stop();
  });

  it('stops accepting the old token the moment it is rotated', async () => {
    const clock = { now: T0 };
    const { app } = await appAt(clock);
    const { port, token } = await listening(app);
    assert.equal((await signed(port, token, { target: '/status', timestamp: sec(clock.now) })).status, 200);
    const rotated = app.services.tokens.rotate();
    const old = await signed(port, token, { target: '/status', timestamp: sec(clock.now) });
    assert.equal(old.status, 401);
    assert.equal(old.json.code, 'bad_signature');
    assert.equal((await signed(port, rotated, { target: '/status', timestamp: sec(clock.now) })).status, 200);
    await app.stop();
  });

  it('closes the port when switched off and carries its nonce window to a new port', async () => {
    const clock = { now: T0 };
    const { app } = await appAt(clock);
    const { port, token } = await listening(app);
    const call = { target: '/status', timestamp: sec(clock.now), nonce: 'moved-port-nonce-00001' };
    assert.equal((await signed(port, token, call)).status, 200);
    assert.equal((await app.services.listener.disable()).line, 'off');
    await assert.rejects(signed(port, token, { target: '/status', timestamp: sec(clock.now) }), /ECONNREFUSED/);
    const moved = await freePort();
    assert.equal((await app.services.listener.enable(moved)).line, `active on 127.0.0.1:${moved}`);
    assert.equal((await signed(moved, token, call)).status, 409, 'a request captured on the old port cannot be replayed on the new one');
    await app.stop();
  });

  it('lists the last 25 requests newest first, rejected ones included, without query strings', async () => {
    const clock = { now: T0 };
    const { app } = await appAt(clock);
    const { port, token } = await listening(app);
    for (let i = 0; i < 26; i++) await signed(port, token, { target: `/activities/search?q=n${i}`, timestamp: sec(clock.now) });
    await signed(port, 'not-the-token', { target: '/current', timestamp: sec(clock.now) });
    const list = app.services.requests();
    assert.equal(list.length, 25);
    assert.deepEqual({ ...list[0], time: undefined }, { time: undefined, method: 'GET', path: '/current', status: 401 });
    assert.deepEqual({ ...list[1], time: undefined }, { time: undefined, method: 'GET', path: '/activities/search', status: 200 });
    await app.stop();
  });

  it('opens the window on the same port after a restart', async () => {
    const clock = { now: T0 };
    const first = await appAt(clock);
    const port = new URL(first.app.uiUrl).port;
    await first.app.stop();
    const second = await appAt(clock, first.home);
    assert.equal(new URL(second.app.uiUrl).port, port);
    assert.notEqual(second.app.uiUrl, first.app.uiUrl, 'a new per-launch secret');
    await second.app.stop();
  });

  it('queues branch prompts from the listener for the window, newest first', async () => {
    const clock = { now: T0 };
    const { app } = await appAt(clock);
    const { port, token } = await listening(app);
    const answer = await signed(port, token, { target: '/branch-changed', body: { branch: ' feature/login ', repo: '/src/shop', previousBranch: 'main' }, timestamp: sec(clock.now) });
    assert.equal(answer.status, 200);
    const [prompt] = app.services.prompts.pending();
    assert.deepEqual(answer.json.result, {
      promptID: prompt?.promptID,
      branch: 'feature/login',
      repo: '/src/shop',
      previousBranch: 'main',
    });
    assert.deepEqual(prompt, {
      promptID: answer.json.result.promptID,
      branch: 'feature/login',
      repo: '/src/shop',
      previousBranch: 'main',
      receivedAt: new Date(T0).toISOString(),
    });
    await app.stop();
  });
});
