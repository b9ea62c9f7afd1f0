/**
 * Guards that the reads stay cheap as the history grows, stated as what SQLite will do
 * rather than how long it takes: the query plans (an index, never a whole table read row by
 * row), the rows a search looks at, the rows the status reads. None depends on the machine's
 * speed or load. How fast these calls are is measured in bench/ (figure 3, GET /status with
 * 1 M past sessions; figure 4, search over 100 k activities; figure 10, the core reads in
 * process).
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StatementSync } from 'node:sqlite';
import { BudgetWatch, nameKey, searchKey, setActivityLedger, wordKey, type Store } from '../src/index.ts';
import { countInstrCalls, fixture, fullTableScans, queryPlansOf } from './support.ts';

const WORDS = (
  'alpha beta gamma delta review write code design meeting email client project plan deploy test bug ' +
  'feature refactor docs research support sales budget report standup sprint backlog infra release ' +
  'café crème über naïve résumé straße mobile web backend frontend data model audit hiring interview'
).split(' ');

/** A small, seeded PRNG so the data set is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function insertActivities(store: Store, count: number, now: number): void {
  const rnd = random(42);
  const insert = store.db.prepare(
    `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const words = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => WORDS[Math.floor(rnd() * WORDS.length)]);
      const name = `${words.join(' ')} ${i}`;
      const used = now - Math.floor(rnd() * 365 * 86_400_000);
      insert.run(crypto.randomUUID(), name, nameKey(name), searchKey(name), wordKey(name), used, used);
    }
  });
}

/** How many rows the statements `run` makes through `store.statement` return. */
function rowsReturnedBy(store: Store, run: () => void): number {
  let rows = 0;
  const original = store.statement;
  store.statement = (sql: string): StatementSync => {
    const statement = original(sql);
    return new Proxy(statement, {
      get(target, key) {
        if (key === 'all') {
          return (...params: never[]) => {
            const result = target.all(...params);
            rows += result.length;
            return result;
          };
        }
        if (key === 'get') {
          return (...params: never[]) => {
            const result = target.get(...params);
            if (result !== undefined) rows++;
            return result;
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  try {
    run();
  } finally {
    store.statement = original;
  }
  return rows;
}

const QUERIES = ['', 'review', 'rev', 'cafe', 'e', 'a', 'alpha beta', 'ode', 'zzz', '12345', 'view', 'eview'];

test('search over 20 000 activities reads through indexes and looks at a bounded number of rows', (t) => {
  const { store, tracker, clock } = fixture(t);
  insertActivities(store, 20_000, clock());
  const rows = countInstrCalls(store);
  const plans = queryPlansOf(store, () => {
    for (const q of QUERIES) tracker.searchActivities(q, 20);
  });
  assert.deepEqual(fullTableScans(plans), []);
  const exact = [...plans].find(([sql]) => /WHERE search_key = \?/.test(sql));
  assert.ok(exact?.[1].some((step) => step.includes('USING INDEX activities_by_search_key')), 'exact matches by index');
  const report: string[] = [];
  for (const q of QUERIES) {
    rows.reset();
    const found = tracker.searchActivities(q, 20);
    report.push(`${JSON.stringify(q)}: ${rows.calls}`);
    assert.ok(found.length <= 20);
    // A walk that stops at its window looks at hundreds of rows at most; one that reads every
    // activity, 20 000.
    assert.ok(rows.calls <= 2_000, `search ${JSON.stringify(q)} looked at ${rows.calls} rows`);
  }
  t.diagnostic(`rows looked at per search over 20k activities: ${report.join(', ')}`);
});

test('the status, a week of totals and a week of blocks read only the days asked for, through the ended_at indexes', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-22T12:00:00.000Z', timeZone: 'Europe/Berlin' });
  const now = clock();
  const activity = tracker.createActivity('History');
  const insertSession = store.db.prepare('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const insertBreak = store.db.prepare('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)');
  const insertEntry = store.db.prepare(
    'INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, NULL, ?)',
  );
  store.transaction(() => {
    for (let day = 365; day >= 1; day--) {
      for (let i = 0; i < 10; i++) {
        const start = now - day * 86_400_000 + i * 3_600_000;
        const id = crypto.randomUUID();
        insertSession.run(id, activity.activityID, start, start + 50 * 60_000);
        insertBreak.run(crypto.randomUUID(), id, start + 10 * 60_000, start + 15 * 60_000);
        insertEntry.run(crypto.randomUUID(), activity.activityID, start, start + 5 * 60_000, start);
      }
    }
  });
  tracker.startActivity({ activityID: activity.activityID });
  clock.advanceMinutes(30);
  const reads = (): void => {
    tracker.getStatus();
    tracker.dailyTotals('2026-11-16', '2026-11-22');
    tracker.listBlocks(now - 7 * 86_400_000, now);
  };
  const plans = queryPlansOf(store, reads);
  assert.deepEqual(fullTableScans(plans), []);
  for (const [sql, steps] of plans) {
    for (const table of ['sessions', 'breaks', 'entries']) {
      const reading = steps.filter((s) => new RegExp(`^(SEARCH|SCAN) (${table}|${table[0]})\\b`).test(s));
      for (const step of reading) {
        if (/USING .*\((id|rowid|session_id)=\?\)$/.test(step)) continue; // a lookup by key, or one session's breaks
        // sessions_long: the few sessions longer than a day, by their end (schema 15).
        assert.match(step, new RegExp(`USING (COVERING )?INDEX ${table}_(by_ended_at|long)`), `in: ${sql}`);
      }
    }
  }
  // Today (Berlin) holds the running session; the status reads it and nothing of the year.
  assert.equal(tracker.getStatus().todaySeconds, 30 * 60);
  const statusRows = rowsReturnedBy(store, () => tracker.getStatus());
  t.diagnostic(`rows read: status ${statusRows}`);
  assert.ok(statusRows <= 3, `the status read ${statusRows} rows`);
  // A week: 7 days × 30 rows at most (sessions, breaks, entries) and the running session.
  const weekRows = rowsReturnedBy(store, () => tracker.dailyTotals('2026-11-16', '2026-11-22'));
  assert.ok(weekRows <= 7 * 30 + 2 + 1, `a week of totals read ${weekRows} rows`);
});

test('the budget look after every write reads an index of the activities with a threshold left, never all of them', (t) => {
  const { store, tracker, clock } = fixture(t);
  insertActivities(store, 2_000, clock());
  const budgeted = tracker.logEntry({ name: 'Budgeted', durationMinutes: 30, createIfMissing: true });
  setActivityLedger(store, budgeted.activity.activityID, { budgetHours: 10 });
  const watch = new BudgetWatch({ store, clock });
  const plans = queryPlansOf(store, () => {
    watch.check();
    tracker.logEntry({ name: 'Budgeted', durationMinutes: 30 });
    watch.check();
  });
  assert.deepEqual(fullTableScans(plans), []);
  const looks = [...plans].filter(([sql]) => sql.includes('budget_announced < 100'));
  assert.equal(looks.length, 2, 'the look and the rows it then reads');
  for (const [sql, steps] of looks) assert.ok(steps.some((s) => s.includes('activities_budget_pending')), `${sql}: ${steps.join('; ')}`);
});
