/**
 * Performance guards with generous bounds: they fail when an index is missing or a query
 * starts scanning the history, not when a machine is a little slow or busy (they measure
 * CPU time). Each logs its timings as a test diagnostic.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameKey, searchKey, wordKey, type Store } from '../src/index.ts';
import { fixture } from './support.ts';

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

/**
 * CPU milliseconds per call, averaged over `runs` calls after one warm-up call. CPU time, not
 * wall time, so that a machine busy with other work (parallel test suites) does not make the
 * guard flaky; what it catches — a scan or a sort where an index should be — costs CPU.
 */
function cpuMs(fn: () => unknown, runs = 5): number {
  fn();
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / runs;
}

test('searches 100 000 activities in well under 50 ms', (t) => {
  const { store, tracker, clock } = fixture(t);
  insertActivities(store, 100_000, clock());
  // Filled from the search_key index (empty: the recency index): a scan would cost 10+ ms.
  const indexed = ['', 'review', 'rev', 'cafe', 'e', 'a', 'alpha beta'];
  // Need the walk over every activity for word-prefix and substring matches.
  const scanning = ['ode', 'zzz', '12345', 'view', 'eview'];
  const report: string[] = [];
  let worst = 0;
  for (const q of [...indexed, ...scanning]) {
    const ms = cpuMs(() => tracker.searchActivities(q, 20));
    worst = Math.max(worst, ms);
    report.push(`${JSON.stringify(q)}: ${ms.toFixed(2)} ms`);
    assert.ok(tracker.searchActivities(q, 20).length <= 20);
    if (indexed.includes(q)) {
      assert.equal(tracker.searchActivities(q, 20).length, 20);
      assert.ok(ms < 5, `search ${JSON.stringify(q)} took ${ms.toFixed(2)} ms: is the search_key index used?`);
    }
  }
  t.diagnostic(`search over 100k activities (CPU ms per call, limit 20): ${report.join(', ')}`);
  assert.ok(worst < 50, `slowest search took ${worst.toFixed(1)} ms`);
});

test('answers getStatus in well under 5 ms with a year of 10 sessions a day', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-22T12:00:00.000Z', timeZone: 'Europe/Berlin' });
  const now = clock();
  const activity = tracker.createActivity('History');
  const insertSession = store.db.prepare(
    'INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, ?)',
  );
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
  const ms = cpuMs(() => tracker.getStatus(), 200);
  const week = cpuMs(() => tracker.dailyTotals('2026-11-16', '2026-11-22'));
  const year = cpuMs(() => tracker.dailyTotals('2025-11-22', '2026-11-22'));
  const blocks = cpuMs(() => tracker.listBlocks(now - 7 * 86_400_000, now));
  t.diagnostic(
    `CPU ms per call: getStatus with 3650 sessions, 3650 breaks, 3650 entries: ${ms.toFixed(3)} ms; ` +
      `dailyTotals week ${week.toFixed(2)} ms, year ${year.toFixed(2)} ms; listBlocks week ${blocks.toFixed(2)} ms`,
  );
  assert.equal(tracker.getStatus().todaySeconds, 30 * 60);
  assert.ok(ms < 5, `getStatus took ${ms.toFixed(2)} ms`);
  // Reading only today's blocks costs ~0.03 ms; scanning the year, ~0.7 ms.
  assert.ok(ms < 0.5, `getStatus took ${ms.toFixed(3)} ms: does it still read only today's blocks?`);
  assert.ok(week < 20, `dailyTotals for a week took ${week.toFixed(2)} ms`);
});
