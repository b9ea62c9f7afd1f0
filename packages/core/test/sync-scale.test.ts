/**
 * What sync's merge of activities costs on a store with many of them (docs/sync.md "Merging"):
 * applying another device's activity change, or logging a rename or delete made here, regroups
 * the activities of the names that change concerns, found down the index on their name key —
 * never every activity again (300 ms a change at 20 000 activities when it did). Stated as
 * SQLite's query plans of every statement the merge runs (a table or a whole index read row by
 * row fails: `SCAN sync_entities USING COVERING INDEX …` reads every activity as surely as
 * `SCAN activities`) and as the rows its statements return, which must not grow with the store.
 * How fast it is is measured in the commit that made it so.
 */

import assert from 'node:assert/strict';
import type { StatementSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { createTracker, deleteActivity, nameKey, openStore, searchKey, wordKey, type Store, type Tracker } from '../src/index.ts';
import { prepared } from '../src/sync/entities.ts';
import { SYNC_SETTINGS, applyOperations, deviceClock, drainOutbox, installCapture, parseOpLine } from '../src/sync/index.ts';
import { manualClock, type ManualClock } from './support.ts';

const ACTIVITIES = 2_000;
/** Tables that grow with the person's history: the merge reads none of them whole (the outbox is emptied by every drain). */
const LARGE = new Set(['activities', 'sessions', 'breaks', 'entries', 'sync_entities', 'sync_log']);
/** Rows a change of one activity may read: its groups' few members and rows, and the state of each (far below {@link ACTIVITIES}). */
const ROWS_PER_CHANGE = 40;
const ME = 'aaaaaaaa-0000-4000-8000-000000000000';
const PEER = 'fefefefe-0000-4000-8000-000000000001';
const THEIRS = 'fefefefe-0000-4000-8000-0000000000a1';

let store: Store;
let tracker: Tracker;
let clock: ManualClock;
const names: string[] = [];
const ids: string[] = [];

before(() => {
  store = openStore(':memory:');
  clock = manualClock('2026-11-22T09:00:00.000Z');
  tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const now = clock();
  store.transaction(() => {
    const activity = store.db.prepare('INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at, color) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < ACTIVITIES; i++) {
      const name = `ticket ${i} review`;
      ids.push(crypto.randomUUID());
      names.push(name);
      activity.run(ids[i] as string, name, nameKey(name), searchKey(name), wordKey(name), now - 86_400_000, now - i * 1000, i % 8);
    }
  });
  store.settings.set(SYNC_SETTINGS.device, { deviceID: ME, createdAt: now });
  // Sync on a store with history: every activity is logged, merged and keyed.
  installCapture(store);
  drainOutbox(store, deviceClock(store, ME, clock));
});

after(() => store.close());

/** Another device's line, at this device's time. */
function theirs(op: string, id: string, set?: Record<string, unknown>): void {
  clock.advance(1000);
  const line = JSON.stringify({ v: 1, hlc: `${clock()}-0-${PEER}`, op, id, ...(set ? { set } : {}) });
  applyOperations(store, deviceClock(store, ME, clock), [parseOpLine(line, PEER)]);
}

/** This device's log written as the app does after a write (the merge runs there). */
function logHere(): void {
  drainOutbox(store, deviceClock(store, ME, clock));
}

/** A step: its name, what it does first (not counted: a use case here), and the merge counted. */
type Step = readonly [name: string, merge: () => void, first?: () => unknown];

/**
 * The statements each step's merge runs (sync's are prepared once per connection: that cache is
 * emptied first), with the rows they returned. Only the step's merge is counted, not a use case before it.
 */
function merged(steps: readonly Step[]): { statements: Map<string, string>; rows: Map<string, number> } {
  const statements = new Map<string, string>();
  const rows = new Map<string, number>();
  const db = store.db as { prepare: (sql: string) => StatementSync };
  const prepare = db.prepare;
  let step = '';
  const count = (n: number): void => {
    if (step !== '') rows.set(step, (rows.get(step) ?? 0) + n);
  };
  db.prepare = (sql: string) => {
    if (step !== '' && !statements.has(sql)) statements.set(sql, step);
    const statement = prepare.call(store.db, sql);
    return new Proxy(statement, {
      get(target, key) {
        const method = Reflect.get(target, key, target) as unknown;
        if (typeof method !== 'function') return method;
        if (key === 'all') return (...args: never[]) => {
          const result = target.all(...args);
          count(result.length);
          return result;
        };
        if (key === 'get') return (...args: never[]) => {
          const result = target.get(...args);
          count(result === undefined ? 0 : 1);
          return result;
        };
        if (key === 'iterate') return () => assert.fail(`${step}: iterate is not counted`);
        return method.bind(target);
      },
    });
  };
  prepared.delete(store.db);
  try {
    for (const [name, merge, first] of steps) {
      step = '';
      first?.();
      step = name;
      merge();
    }
  } finally {
    db.prepare = prepare;
    prepared.delete(store.db);
  }
  return { statements, rows };
}

/** The plan steps of `sql` that read a large table or a whole index of one row by row, or sort. */
function costlySteps(sql: string): string[] {
  if (!/^\s*(WITH|SELECT|INSERT|UPDATE|DELETE)\b/i.test(sql)) return [];
  const steps = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail);
  return steps.filter((step) => {
    const scan = /^SCAN (\w+)/.exec(step);
    if (scan) return LARGE.has(scan[1] as string);
    return step.startsWith('USE TEMP B-TREE') && !/ORDER BY id$/.test(sql.trim());
  });
}

test("another device's activity changes and renames and deletes here regroup their names' activities, not every one", (t) => {
  const steps: Step[] = [
    ['theirs: a new activity', () => theirs('activity.create', THEIRS, { name: 'Peer work', createdAt: clock() })],
    ['theirs: renamed onto a name here (the two join)', () => theirs('activity.rename', THEIRS, { name: (names[10] as string).toUpperCase() })],
    ['theirs: renamed apart again', () => theirs('activity.rename', THEIRS, { name: 'Peer work' })],
    ['theirs: one of this device renamed', () => theirs('activity.rename', ids[20] as string, { name: 'renamed there' })],
    ['theirs: deleted', () => theirs('activity.delete', THEIRS)],
    ['theirs: a block', () => theirs('entry.create', 'fefefefe-0000-4000-9000-000000000001', { device: PEER, activityID: ids[30], startedAt: clock() - 60_000, endedAt: clock() - 1000, note: null, createdAt: clock() })],
    ['here: renamed, logged', logHere, () => tracker.renameActivity(ids[40] as string, 'renamed here')],
    ['here: deleted, logged', logHere, () => deleteActivity(store, ids[50] as string)],
  ];
  const { statements, rows } = merged(steps);
  // What each step did, so a step that merged nothing cannot pass for a cheap one.
  const shown = new Map(tracker.listActivities().map((a) => [a.activityID, a.activityName]));
  assert.equal(shown.get(ids[20] as string), 'renamed there');
  assert.equal(shown.get(ids[40] as string), 'renamed here');
  assert.equal(shown.has(ids[50] as string), false);
  assert.equal(shown.has(THEIRS), false);
  assert.equal(shown.size, ACTIVITIES - 1);
  const found: string[] = [];
  for (const [sql, by] of statements) for (const step of costlySteps(sql)) found.push(`${step} [${by}]: ${sql.replace(/\s+/g, ' ').trim()}`);
  assert.deepEqual(found, []);
  t.diagnostic(`rows read per step over ${ACTIVITIES} activities: ${[...rows].map(([s, n]) => `${s} ${n}`).join(', ')}`);
  for (const [name] of steps) assert.ok((rows.get(name) ?? 0) <= ROWS_PER_CHANGE, `${name}: ${rows.get(name)} rows read`);
});
