/**
 * The idle app wakes at most once a minute (issue 42 target 1; bench/README.md; docs/desktop.md
 * "Idle time"): the real app, started in this process with nothing tracked, on node:test's
 * fake timers — every `setTimeout` and `setInterval` it sets is counted when it fires, by where
 * it was set, over a simulated hour. The clock the app reads moves with the fake timers.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { noTray } from '@tock/desktop/tray/tray';
import { startApp } from '../src/app.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The first frame of a stack outside node:internal and this file: who set the timer. */
function setter(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  const frame = frames.find((line) => !line.includes('node:') && !line.includes('idle-wakes.test.ts')) ?? '?';
  return frame.replace(/^\s*at\s+/, '').replace(/^.*\/packages\//, 'packages/');
}

test('the idle app wakes at most once a minute: an hour of the real app with nothing tracked', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'tock-wakes-'));
  const start = Date.parse('2026-11-23T10:00:00.000Z');
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'], now: start });
  const fired = new Map<string, number>();
  const count = (where: string) => () => fired.set(where, (fired.get(where) ?? 0) + 1);
  const fakeTimeout = globalThis.setTimeout;
  const fakeInterval = globalThis.setInterval;
  t.mock.method(globalThis, 'setTimeout', ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const counted = count(setter());
    return fakeTimeout((...a: unknown[]) => (counted(), callback(...a)), ms, ...args);
  }) as typeof setTimeout);
  t.mock.method(globalThis, 'setInterval', ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const counted = count(setter());
    return fakeInterval((...a: unknown[]) => (counted(), callback(...a)), ms, ...args);
  }) as typeof setInterval);

  let now = start;
  const app = await startApp({
    home,
    clock: () => now,
    env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' },
    desktop: { idleSources: () => [], notifier: { name: 'stand-in', notify: async () => {} }, tray: noTray, timeZone: () => 'UTC' },
  });
  // Stopped before its home goes: a backup still being written finishes first.
  t.after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });
  // The start's own one-shots (deadlines, first checks) settle within the first minute; then an hour.
  for (let minute = 1; minute <= 1 + HOUR / MINUTE; minute++) {
    now += MINUTE;
    t.mock.timers.tick(MINUTE);
    await new Promise((resolve) => setImmediate(resolve));
    if (minute === 1) fired.clear();
  }
  const total = [...fired.values()].reduce((sum, n) => sum + n, 0);
  const table = [...fired].map(([where, n]) => `${n} × ${where}`).join('\n');
  assert.ok(total <= 60, `${total} wake-ups in the idle hour:\n${table}`);
  t.diagnostic(`${total} wake-ups in the idle hour${table ? `:\n${table}` : ''}`);
});
