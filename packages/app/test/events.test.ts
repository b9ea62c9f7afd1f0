/**
 * The event stream against the real application (a real tock.db, the real listener on
 * 127.0.0.1): what makes a `status`, `branch-prompt` or `idle` event, `GET /report` served by
 * core's report, and every ending — listener off, moved, token rotated, license locked, app
 * stopping. Waits end when the awaited event or ending arrives; nothing sleeps.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { authHeaders, freshNonce } from '@tock/listener/testing';
import { StreamReader, expectedEventSig } from '@tock/listener/testing';
import { startApp, type RunningApp } from '../src/app.ts';
import type { Tracker } from '@tock/core';
import { ChangeBus } from '../src/change-bus.ts';
import { startLiveEvents } from '../src/live-events.ts';
import { PromptQueue } from '../src/prompts.ts';
import { freePort } from './ui-support/harness.ts';
import { signed } from './support/signed.ts';

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

async function runningApp(clock?: { now: number }): Promise<{ app: RunningApp; port: number; token: string }> {
  const home = mkdtempSync(join(tmpdir(), 'tock-events-'));
  homes.push(home);
  const app = await startApp({
    home,
    ...(clock ? { clock: () => clock.now } : {}),
    env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' },
  });
  const port = await freePort();
  await app.services.listener.enable(port);
  return { app, port, token: app.services.tokens.current()! };
}

async function openStream(port: number, token: string, nowMs = Date.now()): Promise<StreamReader & { nonce: string }> {
  const nonce = freshNonce();
  const headers = {
    host: `127.0.0.1:${port}`,
    ...authHeaders({ method: 'GET', target: '/events', body: '', timestamp: String(Math.floor(nowMs / 1000)), nonce, token }),
  };
  return Object.assign(await StreamReader.open(port, headers), { nonce });
}

function dataOf(reader: StreamReader, index: number): Record<string, unknown> {
  return JSON.parse(reader.events[index]?.data ?? 'null');
}

describe('events from the running app', () => {
  it('sends the status first, then a status after a start and a stop, and a branch-prompt as POST /branch-changed answered it', async (t) => {
    const { app, port, token } = await runningApp();
    t.after(() => app.stop());
    const r = await openStream(port, token);
    await r.until(() => r.events.length === 1);
    assert.equal(dataOf(r, 0).isTracking, false);

    const started = await signed(port, token, { target: '/activities/start', body: { name: 'Docs', createIfMissing: true } });
    assert.equal(started.status, 200);
    await r.until(() => r.events.length === 2);
    assert.equal(r.events[1]?.event, 'status');
    assert.deepEqual(dataOf(r, 1).currentActivity, { activityID: started.json.result.activityID, activityName: 'Docs' });

    const prompt = await signed(port, token, { target: '/branch-changed', body: { branch: 'feature/x', previousBranch: 'main' } });
    await r.until(() => r.events.length === 3);
    assert.equal(r.events[2]?.event, 'branch-prompt');
    assert.equal(r.events[2]?.data, JSON.stringify(prompt.json.result));
    assert.deepEqual(prompt.json.result, { promptID: prompt.json.result.promptID, branch: 'feature/x', repo: null, previousBranch: 'main' });

    await signed(port, token, { target: '/activities/stop', body: {} });
    await r.until(() => r.events.length === 4);
    assert.equal(dataOf(r, 3).isTracking, false);
    for (const e of r.events) assert.equal(e.sig, expectedEventSig(r.nonce, e, token));
    // Reads alone send nothing.
    await signed(port, token, { target: '/status' });
    await signed(port, token, { target: '/report' });
    const ids = r.events.map((e) => e.id);
    app.services.tracker.startActivity({ name: 'Docs' }); // a write made outside the listener: seen by the timer
    await r.until(() => r.events.length === 5);
    assert.deepEqual(r.events.slice(0, 4).map((e) => e.id), ids);
    r.close();
  });

  it('serves GET /report from core: by activity and by day, and 400 validation_failed for a bad range', async (t) => {
    const { app, port, token } = await runningApp();
    t.after(() => app.stop());
    await signed(port, token, { target: '/entries', body: { name: 'Docs', createIfMissing: true, durationMinutes: 30 } });
    const report = await signed(port, token, { target: '/report' });
    assert.equal(report.status, 200);
    assert.equal(report.json.result.totalSeconds, 1800);
    assert.deepEqual(
      report.json.result.rows.map((row: { activityName: string; seconds: number }) => [row.activityName, row.seconds]),
      [['Docs', 1800]],
    );
    const byDay = await signed(port, token, { target: `/report?from=${report.json.result.from}&to=${report.json.result.to}&by=day` });
    assert.deepEqual(byDay.json.result.rows, [{ date: report.json.result.from, seconds: 1800, billedSeconds: 0, amount: null, currency: null, amounts: [] }]);
    for (const target of ['/report?from=2026-02-30', '/report?from=2026-11-02&to=2026-11-01', '/report?from=2024-01-01&to=2026-01-01', '/report?by=week']) {
      const bad = await signed(port, token, { target });
      assert.deepEqual([bad.status, bad.json.code], [400, 'validation_failed'], target);
    }
  });
});

describe('idle events from the running app', () => {
  it('sends an idle event when the desktop notices the user away for the threshold while tracking', async (t) => {
    const clock = { now: Date.now() };
    let idleMs = 0;
    const home = mkdtempSync(join(tmpdir(), 'tock-events-'));
    homes.push(home);
    const app = await startApp({
      home,
      clock: () => clock.now,
      env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' },
      desktop: {
        idleSources: () => [{ name: 'test', idleMs: async () => idleMs }],
        notifier: { name: 'none', notify: async () => {} },
        timers: false,
      },
    });
    t.after(() => app.stop());
    const port = await freePort();
    await app.services.listener.enable(port);
    const token = app.services.tokens.current()!;
    const r = await openStream(port, token, clock.now);
    await r.until(() => r.events.length === 1);
    await signed(port, token, { target: '/activities/start', body: { name: 'Deep work', createIfMissing: true }, timestamp: Math.floor(clock.now / 1000) });
    await r.until(() => r.events.length === 2);
    await app.services.desktop.pollIdle();
    clock.now += 11 * 60_000;
    idleMs = 11 * 60_000;
    await app.services.desktop.pollIdle();
    await r.until(() => r.events.some((e) => e.event === 'idle'));
    const idle = r.events.find((e) => e.event === 'idle')!;
    const data = JSON.parse(idle.data ?? '{}') as { since: string; seconds: number };
    assert.equal(data.since, new Date(clock.now - 11 * 60_000).toISOString());
    assert.ok(data.seconds >= 600, String(data.seconds));
    assert.equal(idle.sig, expectedEventSig(r.nonce, idle, token));
    r.close();
  });
});

describe('endings against the running app', () => {
  it('ends the streams when the listener is turned off, and a reconnect is refused', async (t) => {
    const { app, port, token } = await runningApp();
    t.after(() => app.stop());
    const r = await openStream(port, token);
    await r.until(() => r.events.length === 1);
    await app.services.listener.disable();
    await r.untilEnded();
    await assert.rejects(openStream(port, token), /ECONNREFUSED/);
  });

  it('ends the streams when the listener moves to another port', async (t) => {
    const { app, port, token } = await runningApp();
    t.after(() => app.stop());
    const r = await openStream(port, token);
    await r.until(() => r.events.length === 1);
    await app.services.listener.setPort(await freePort());
    await r.untilEnded();
  });

  it('ends the streams at once when the token is rotated; the old token then gets 401', async (t) => {
    const { app, port, token } = await runningApp();
    t.after(() => app.stop());
    const r = await openStream(port, token);
    await r.until(() => r.events.length === 1);
    app.services.tokens.rotate();
    await r.untilEnded();
    const again = await openStream(port, token);
    assert.equal(again.res.statusCode, 401);
  });

  it('ends the streams when the license locks (the trial ends), and a reconnect gets 423', async (t) => {
    const clock = { now: Date.now() };
    const { app, port, token } = await runningApp(clock);
    t.after(() => app.stop());
    const r = await openStream(port, token, clock.now);
    await r.until(() => r.events.length === 1);
    clock.now += 15 * 24 * 60 * 60 * 1000;
    await r.untilEnded(); // the listener's next check, within a second
    const again = await openStream(port, token, clock.now);
    assert.equal(again.res.statusCode, 423);
  });

  it('ends the streams when the app stops', async () => {
    const { app, port, token } = await runningApp();
    const r = await openStream(port, token);
    await r.until(() => r.events.length === 1);
    await app.stop();
    await r.untilEnded();
  });
});

describe('live events wiring', () => {
  /** A store that only counts writes, and a bus whose later turns run when the test says. */
  function fakeBus(status: (generation: number) => ReturnType<Tracker['getStatus']>) {
    let generation = 0;
    const writes = new Set<() => void>();
    const deferred: (() => void)[] = [];
    let reads = 0;
    const store = {
      get generation() {
        return generation;
      },
      onWrite(listener: () => void) {
        writes.add(listener);
        return () => writes.delete(listener);
      },
    };
    let trackingReads = 0;
    const tracker = {
      getStatus: () => (reads++, status(generation)),
      getTracking: () => {
        trackingReads++;
        const { isTracking, isOnBreak } = status(generation);
        return { isTracking, isOnBreak };
      },
    };
    const bus = new ChangeBus({ store, tracker, clock: () => NOON, defer: (fn) => deferred.push(fn), timers: { setTimeout: () => 1, clearTimeout: () => {} } });
    return {
      bus,
      tracker,
      reads: () => reads,
      trackingReads: () => trackingReads,
      write() {
        generation++;
        for (const listener of writes) listener();
      },
      /** The next turn of the event loop: what the bus deferred runs. */
      turn() {
        for (const fn of deferred.splice(0)) fn();
      },
    };
  }
  const NOON = new Date(2026, 10, 23, 12, 0, 0).getTime();
  const idleStatus = (tracking: boolean) => ({ isTracking: tracking, isOnBreak: false, currentActivity: null, todaySeconds: 0, since: null });

  it('publishes idle notices and prompts as they are, a status on the turn after a write, and nothing once stopped', () => {
    const published: [string, unknown][] = [];
    const prompts = new PromptQueue({ clock: () => 0, newId: () => 'prompt-1' });
    const f = fakeBus((generation) => idleStatus(generation > 0));
    prompts.subscribe((prompt) => f.bus.emit('prompts', prompt));
    const live = startLiveEvents({
      listener: { publish: (type, data) => (published.push([type, data]), `r.${published.length}`), openStreams: 1 },
      bus: f.bus,
      tracker: f.tracker,
    });
    live.streamOpening(); // the baseline
    f.bus.emit('idle', { since: '2026-11-22T10:05:00.000Z', seconds: 600 });
    prompts.add({ branch: 'main' });
    f.write();
    assert.equal(published.length, 2, 'the write is told on the next turn, not inside it');
    f.turn();
    assert.deepEqual(published, [
      ['idle', { since: '2026-11-22T10:05:00.000Z', seconds: 600 }],
      ['branch-prompt', { promptID: 'prompt-1', branch: 'main', repo: null, previousBranch: null }],
      ['status', idleStatus(true)],
    ]);
    live.stop();
    prompts.add({ branch: 'dev' });
    f.write();
    f.turn();
    assert.equal(published.length, 3);
  });

  it('computes no status while no stream is open, and compares later changes with the status a new stream starts from', () => {
    const published: [string, unknown][] = [];
    const listener: { openStreams: number; publish: (type: string, data: unknown) => string } = {
      openStreams: 0,
      publish: (type, data) => (published.push([type, data]), 'r.1'),
    };
    const f = fakeBus((generation) => idleStatus(generation % 2 === 1));
    const live = startLiveEvents({ listener, bus: f.bus, tracker: f.tracker });
    const before = f.reads();
    f.write();
    f.turn();
    assert.equal(f.reads(), before, 'nobody listens: nothing computed');
    live.streamOpening(); // a stream opens with generation 1's status
    listener.openStreams = 1;
    assert.equal(f.reads(), before + 1);
    f.write(); // a write right after: its change must reach the new stream
    f.turn();
    assert.deepEqual(published, [['status', idleStatus(false)]]);
    live.stop();
  });

  it("looks at the budgets after a write through the tracking state alone, never today's total", () => {
    const f = fakeBus(() => idleStatus(false));
    let looks = 0;
    const budgets = { check: () => (looks++, []) };
    const live = startLiveEvents({ listener: { publish: () => 'r.1', openStreams: 0 }, bus: f.bus, tracker: f.tracker, budgets });
    const before = f.reads();
    for (let i = 0; i < 5; i++) {
      f.write();
      f.turn();
    }
    assert.equal(looks, 6, 'the budgets looked at, at the start and after each write');
    assert.equal(f.reads(), before, 'no status (today counted again) after a write');
    assert.equal(f.trackingReads(), 6);
    live.stop();
  });
});
