/**
 * Budgets (docs/data.md "The ledger"): an activity's worked time — all of it — announced once at
 * 80 % and once at 100 % of its budget, remembered across a restart, forgotten by a new budget;
 * a running session reaches a threshold with no write, and the watch looks only when it may have.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BudgetWatch, budgetUsage, setActivityLedger } from '../src/index.ts';
import { fixture } from './support.ts';

test('announces 80 % then 100 % once each, by all the worked time, and not again after a restart', (t) => {
  const f = fixture(t, { now: '2026-11-22T20:00:00.000Z' });
  const { store, tracker, clock } = f;
  const design = tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 300, endedAt: '2026-11-01T12:00:00Z' });
  setActivityLedger(store, 'Design', { budgetHours: 10 });
  const watch = new BudgetWatch({ store, clock });
  assert.deepEqual(watch.check(), [], '5 h of 10 h');
  // Another month's time counts too: a budget is all of it, not a period.
  tracker.logEntry({ name: 'Design', durationMinutes: 179, endedAt: '2026-11-21T12:00:00Z' });
  assert.deepEqual(watch.check(), [], '7 h 59 min is under 80 %');
  tracker.logEntry({ name: 'Design', durationMinutes: 4, endedAt: '2026-11-22T10:00:00Z' });
  assert.deepEqual(watch.check(), [{ activityID: design.activity.activityID, activityName: 'Design', usedSeconds: 8 * 3600 + 180, budgetSeconds: 36_000, percent: 80 }]);
  tracker.logEntry({ name: 'Design', durationMinutes: 60, endedAt: '2026-11-22T12:00:00Z' });
  assert.deepEqual(watch.check(), [], '80 % is announced once');
  tracker.logEntry({ name: 'Design', durationMinutes: 60, endedAt: '2026-11-22T14:00:00Z' });
  const [full] = watch.check();
  assert.equal(full?.percent, 100);
  assert.equal(full?.usedSeconds, 10 * 3600 + 180);
  tracker.logEntry({ name: 'Design', durationMinutes: 60, endedAt: '2026-11-22T16:00:00Z' });
  assert.deepEqual(watch.check(), []);

  const again = f.reopen();
  again.tracker.logEntry({ name: 'Design', durationMinutes: 5, endedAt: '2026-11-22T17:00:00Z' });
  assert.deepEqual(new BudgetWatch({ store: again.store, clock }).check(), [], 'a restart announces nothing twice');
  assert.equal(budgetUsage(again.store, design.activity.activityID, clock())?.announced, 100);

  // A new budget forgets what was announced: 11 h 8 min of 12 h is over 80 %.
  setActivityLedger(again.store, 'Design', { budgetHours: 12 });
  assert.deepEqual(new BudgetWatch({ store: again.store, clock }).check().map((c) => [c.percent, c.budgetSeconds]), [[80, 43_200]]);
});

test('a jump past both thresholds announces 100 only; time that overlaps counts once; activities without a budget are never announced', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-22T20:00:00.000Z' });
  tracker.logEntry({ name: 'Review', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-22T09:00:00Z' });
  tracker.logEntry({ name: 'Other', createIfMissing: true, durationMinutes: 600, endedAt: '2026-11-22T19:00:00Z' });
  setActivityLedger(store, 'Review', { budgetHours: 1 });
  const watch = new BudgetWatch({ store, clock });
  assert.deepEqual(watch.check(), []);
  // Two entries over the same hour: 1 h worked, not 2.
  tracker.logEntry({ name: 'Review', durationMinutes: 60, endedAt: '2026-11-22T12:00:00Z' });
  tracker.logEntry({ name: 'Review', durationMinutes: 60, endedAt: '2026-11-22T12:00:00Z' });
  const crossings = watch.check();
  assert.deepEqual(crossings.map((c) => [c.activityName, c.percent, c.usedSeconds]), [['Review', 100, 5400]]);
});

test('a running session reaches 80 % as time passes, with no write, and the watch reads nothing before it can', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'Focus', createIfMissing: true });
  setActivityLedger(store, 'Focus', { budgetHours: 1 });
  const watch = new BudgetWatch({ store, clock });
  assert.deepEqual(watch.check(), []);
  const generation = store.generation;
  clock.advanceMinutes(47);
  assert.deepEqual(watch.check(), [], '47 min of 60');
  assert.equal(store.generation, generation, 'no look before 48 min could have passed');
  clock.advanceMinutes(1);
  assert.deepEqual(watch.check().map((c) => [c.percent, c.usedSeconds]), [[80, 2880]]);
  clock.advanceMinutes(12);
  assert.deepEqual(watch.check().map((c) => [c.percent, c.usedSeconds]), [[100, 3600]]);
  clock.advanceMinutes(30);
  assert.deepEqual(watch.check(), []);
});

test('a status read between looks reads only: the watch and the status stop recomputing each other (every signed request runs both)', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'Focus', createIfMissing: true });
  const watch = new BudgetWatch({ store, clock });
  watch.check();
  tracker.getStatus();
  const generation = store.generation;
  for (let i = 0; i < 3; i++) {
    clock.advanceMinutes(1);
    assert.deepEqual(watch.check(), []);
    tracker.getStatus();
  }
  assert.equal(store.generation, generation, 'neither the look nor the status ran again');
});

test('while no threshold is left to announce a look only reads, however often the store is written (the app looks after every write)', (t) => {
  const { store, tracker, clock } = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  tracker.startActivity({ name: 'Focus', createIfMissing: true });
  const watch = new BudgetWatch({ store, clock });
  const before = store.generation;
  assert.deepEqual(watch.check(), []);
  assert.equal(store.generation, before, 'no budget: no transaction');
  setActivityLedger(store, 'Focus', { budgetHours: 1 });
  clock.advanceMinutes(60);
  assert.deepEqual(watch.check().map((c) => c.percent), [100]);
  tracker.stopActivity();
  const stopped = store.generation;
  assert.deepEqual(watch.check(), []);
  assert.equal(store.generation, stopped, 'every threshold announced: no transaction either');
});
