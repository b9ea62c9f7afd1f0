/**
 * Test support: a real `tock.db` in a fresh temp directory, a clock the test moves by hand,
 * and predictable UUIDs. Nothing sleeps and nothing patches `Date.now`.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createTracker, openStore, type Store, type Tracker } from '../src/index.ts';

/** A clock that only moves when told to. */
export interface ManualClock {
  (): number;
  set(iso: string): void;
  advance(ms: number): void;
  advanceMinutes(minutes: number): void;
}

export function manualClock(startIso: string): ManualClock {
  let now = Date.parse(startIso);
  const clock = (() => now) as ManualClock;
  clock.set = (iso) => {
    now = Date.parse(iso);
  };
  clock.advance = (ms) => {
    now += ms;
  };
  clock.advanceMinutes = (minutes) => {
    now += minutes * 60_000;
  };
  return clock;
}

/** UUID v4-shaped IDs counting up from 1, so failures are readable. */
export function sequentialIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

export interface Fixture {
  dir: string;
  path: string;
  store: Store;
  clock: ManualClock;
  tracker: Tracker;
  /** Closes the store and opens it again (a restart), with a new tracker on the same clock. */
  reopen(): Fixture;
}

/** A store in a temp dir and a tracker over it; removed when the test ends. */
export function fixture(t: TestContext, options: { now?: string; timeZone?: string } = {}): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'tock-core-'));
  const path = join(dir, 'tock.db');
  const clock = manualClock(options.now ?? '2026-11-22T09:00:00.000Z');
  const newId = sequentialIds();
  const timeZone = options.timeZone ?? 'UTC';
  const stores: Store[] = [];
  const make = (): Fixture => {
    const store = openStore(path);
    stores.push(store);
    const tracker = createTracker({ store, clock, newId, timeZone });
    return { dir, path, store, clock, tracker, reopen: () => (store.close(), make()) };
  };
  t.after(() => {
    for (const s of stores) s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return make();
}

/** Runs `fn` and returns the TockProblem-like error it throws (fails if it does not throw). */
export function problemOf(fn: () => unknown): { code: string; message: string; details?: { field: string; message: string }[] } {
  try {
    fn();
  } catch (error) {
    return error as { code: string; message: string; details?: { field: string; message: string }[] };
  }
  throw new Error('expected a TockProblem, but nothing was thrown');
}
