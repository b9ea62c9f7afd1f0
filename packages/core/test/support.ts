/**
 * Test support: a real `tock.db` in a fresh temp directory, a clock the test moves by hand,
 * and predictable UUIDs. Nothing sleeps and nothing patches `Date.now`.
 */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createTracker, nameKey, openStore, searchKey, wordKey, type Store, type Tracker } from '../src/index.ts';

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
    const reopen = (): Fixture => {
      store.close();
      return make();
    };
    return { dir, path, store, clock, tracker, reopen };
  };
  t.after(() => {
    for (const s of stores) s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return make();
}

/** Runs `fn` and returns the Problem-like error it throws (fails if it does not throw). */
export function problemOf(fn: () => unknown): { code: string; message: string; details?: { field: string; message: string }[] } {
  try {
    fn();
  } catch (error) {
    return error as { code: string; message: string; details?: { field: string; message: string }[] };
  }
  throw new Error('expected a Problem, but nothing was thrown');
}

/**
 * Counts the rows the search's walks look at: every walk tests a row with `instr(key, text)`,
 * so SQLite's `instr` is replaced (on this connection) by one that also counts its calls.
 * Deterministic where a timing is not: a walk over the whole recency index counts every
 * activity whatever the machine's load. Call before the searches (SQLite re-prepares
 * statements that were prepared before).
 */
export function countInstrCalls(store: Store): { readonly calls: number; reset(): void } {
  let calls = 0;
  store.db.function('instr', { deterministic: true }, (haystack: unknown, needle: unknown) => {
    calls++;
    if (haystack === null || needle === null) return null;
    const at = String(haystack).indexOf(String(needle));
    return at < 0 ? 0 : [...String(haystack).slice(0, at)].length + 1;
  });
  return {
    get calls() {
      return calls;
    },
    reset() {
      calls = 0;
    },
  };
}

/**
 * The query plans (`EXPLAIN QUERY PLAN`, one `detail` line per step) of every SELECT that
 * `run` makes through `store.statement`, by SQL text. Plans are what SQLite will do whatever
 * the machine's speed, so a guard on them cannot be flaky.
 */
export function queryPlansOf(store: Store, run: () => void): Map<string, string[]> {
  const seen = new Set<string>();
  const original = store.statement;
  store.statement = (sql: string) => {
    seen.add(sql);
    return original(sql);
  };
  try {
    run();
  } finally {
    store.statement = original;
  }
  const plans = new Map<string, string[]>();
  for (const sql of seen) {
    if (!/^\s*SELECT/i.test(sql)) continue;
    const steps = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
    plans.set(sql.replace(/\s+/g, ' ').trim(), steps.map((s) => s.detail));
  }
  return plans;
}

/**
 * Plan steps that read a whole table row by row, without an index: `SCAN sessions`, or
 * `SCAN s` for an alias. (A walk along an index reads `SCAN … USING INDEX …`; subqueries and
 * the FTS5 table read otherwise.)
 */
export function fullTableScans(plans: Map<string, string[]>): string[] {
  const scans: string[] = [];
  for (const [sql, steps] of plans) {
    for (const step of steps) if (/^SCAN \w+$/.test(step)) scans.push(`${step} in: ${sql}`);
  }
  return scans;
}

/**
 * Runs `script` (a child that prints `paused` where it waits inside a transaction), then kills it
 * with SIGKILL there: what a crash at that point leaves in the store. Rejects with the child's
 * output if it ends before it paused.
 */
export async function killWhenPaused(script: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('paused')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then(() => reject(new Error(`the child ended before it paused: ${output}`)));
  });
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
}

/**
 * A heavy user's history, inserted by SQL into `store` (inside the caller's transaction), for
 * the tests of what grows with it: `clients` clients; `activities` activities "ticket N review"
 * (a quarter with a client and billable, a tenth archived, eight colours); `sessions` sessions
 * of 50 minutes with a 5-minute break and an entry after each, spread over the year before
 * `newestSessionStart` (a fifth tagged "a","b", a seventh of the entries "x").
 */
export function seedHistory(
  store: Store,
  now: number,
  sizes: { clients: number; activities: number; sessions: number },
  newestSessionStart: number,
): { clients: string[]; activities: string[] } {
  const DAY = 86_400_000;
  const db = store.db;
  const clients: string[] = [];
  const activities: string[] = [];
  const client = db.prepare('INSERT INTO clients (id, name, name_key, rate, currency, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  for (let i = 0; i < sizes.clients; i++) {
    clients.push(crypto.randomUUID());
    client.run(clients[i] as string, `Client ${i}`, nameKey(`Client ${i}`), '80', 'EUR', now - 400 * DAY);
  }
  const activity = db.prepare(
    'INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, client_id, billable, archived, color) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (let i = 0; i < sizes.activities; i++) {
    activities.push(crypto.randomUUID());
    const name = `ticket ${i} review`;
    const owner = i % 4 === 0 ? (clients[i % sizes.clients] as string) : null;
    activity.run(activities[i] as string, name, nameKey(name), searchKey(name), wordKey(name), now - 400 * DAY, now - (i % 365) * DAY, owner, owner ? 1 : 0, i % 10 === 1 ? 1 : 0, i % 8);
  }
  const session = db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at, tags) VALUES (?, ?, ?, ?, ?)');
  const pause = db.prepare('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const entry = db.prepare('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at, tags) VALUES (?, ?, ?, ?, NULL, ?, ?)');
  for (let i = 0; i < sizes.sessions; i++) {
    const start = newestSessionStart - Math.floor((i / sizes.sessions) * 365 * DAY);
    const id = crypto.randomUUID();
    session.run(id, activities[(i * 7) % sizes.activities] as string, start, start + 50 * 60_000, i % 5 === 0 ? '["a","b"]' : null);
    pause.run(crypto.randomUUID(), id, start + 10 * 60_000, start + 15 * 60_000);
    entry.run(crypto.randomUUID(), activities[(i * 13) % sizes.activities] as string, start + 55 * 60_000, start + 60 * 60_000, start, i % 7 === 0 ? '["x"]' : null);
  }
  return { clients, activities };
}
