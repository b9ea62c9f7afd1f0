/**
 * The first hour's paper cuts in core (docs/product.md "No crumbs", "Activities"; docs/data.md
 * "The ledger"): short sessions not kept, a continue that resumes, archive, merge and delete of
 * activities (carried by sync), the most recent block for `tock tag last`, weekly targets.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { exportChunks, importFile } from '../src/index.ts';
import { createTracker } from '../src/tracker.ts';
import { deleteActivity, mergeActivities, setActivityArchived } from '../src/activities.ts';
import { lastBlockID, tagBlock, untagBlock } from '../src/ledger.ts';
import { dayTargetHours, setLedgerSetting } from '../src/ledger-settings.ts';
import { buildReport } from '../src/report.ts';
import { applyOperations, deviceClock, drainOutbox, installCapture, parseOpLine, sessionsRunningElsewhere, SYNC_SETTINGS } from '../src/sync/index.ts';
import { fixture, problemOf, type Fixture } from './support.ts';

const sessionCount = (f: Fixture): number => (f.store.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;

test('a session shorter than minSessionSeconds is not kept when it stops, unless it has a note', (t) => {
  const f = fixture(t);
  f.tracker.startActivity({ name: 'Mail', createIfMissing: true });
  f.clock.advance(31_000);
  const stopped = f.tracker.stopActivity();
  assert.equal(stopped?.seconds, 31);
  assert.equal(sessionCount(f), 0, 'a 31-second session is a crumb: not kept (nothing to bill 15 min for)');
  // A note says the person meant it: kept however short.
  f.tracker.startActivity({ name: 'Mail', note: 'quick reply to Ana' });
  f.clock.advance(20_000);
  f.tracker.stopActivity();
  assert.equal(sessionCount(f), 1);
  // A minute or more is kept.
  f.tracker.startActivity({ name: 'Mail' });
  f.clock.advance(60_000);
  f.tracker.stopActivity();
  assert.equal(sessionCount(f), 2);
  // The edge: 59 s is shorter than the 60 s default, and a note keeps even that.
  f.tracker.startActivity({ name: 'Mail' });
  f.clock.advance(59_000);
  assert.deepEqual([f.tracker.stopActivity()?.seconds, f.tracker.stopActivity()], [59, null]);
  assert.equal(sessionCount(f), 2, '59 s without a note: not kept');
  f.tracker.startActivity({ name: 'Mail', note: 'call back' });
  f.clock.advance(59_000);
  assert.equal(f.tracker.stopActivity()?.kept, true);
  assert.equal(sessionCount(f), 3, '59 s with a note: kept');
  // A note of spaces says nothing.
  f.tracker.startActivity({ name: 'Mail', note: '   ' });
  f.clock.advance(59_000);
  assert.equal(f.tracker.stopActivity()?.kept, false);
  assert.equal(sessionCount(f), 3);
});

test('a switch after a few seconds drops the crumb too; minSessionSeconds 0 keeps every session', (t) => {
  const f = fixture(t);
  f.tracker.startActivity({ name: 'Wrong', createIfMissing: true });
  f.clock.advance(5_000);
  f.tracker.startActivity({ name: 'Right', createIfMissing: true });
  f.clock.advanceMinutes(30);
  f.tracker.stopActivity();
  const blocks = f.tracker.listBlocks(0, f.clock() + 1);
  assert.deepEqual(blocks.map((b) => [b.activity.activityName, b.seconds]), [['Right', 1800]]);
  setLedgerSetting(f.store.settings, 'minSessionSeconds', '0');
  f.tracker.startActivity({ name: 'Wrong' });
  f.clock.advance(5_000);
  f.tracker.stopActivity();
  assert.equal(sessionCount(f), 2);
  assert.match(problemOf(() => setLedgerSetting(f.store.settings, 'minSessionSeconds', '-1')).details?.[0]?.message ?? '', /whole number of seconds from 0/);
});

test('continue within 60 s of a stop resumes that session (the gap a break); later it starts anew', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.startActivity({ name: 'Report', createIfMissing: true });
  f.clock.advanceMinutes(40);
  f.tracker.stopActivity();
  f.clock.advance(30_000);
  const resumed = f.tracker.continueLast();
  assert.equal(resumed?.startedAt, '2026-11-22T09:00:00.000Z', 'the same session runs again from its own start');
  assert.equal(sessionCount(f), 1, 'no new session, so no 0-minute crumb');
  f.clock.advanceMinutes(20);
  f.tracker.stopActivity();
  const [block] = f.tracker.listBlocks(0, f.clock() + 1);
  assert.equal(block?.seconds, 60 * 60, '40 + 20 min worked; the 30 s between stop and continue are a break');
  assert.deepEqual(block?.breaks.map((b) => [b.startedAt, b.endedAt]), [['2026-11-22T09:40:00.000Z', '2026-11-22T09:40:30.000Z']]);
  // Exactly 60 s after a stop is still within the minute: resumed.
  f.clock.advance(60_000);
  assert.equal(f.tracker.continueLast()?.startedAt, '2026-11-22T09:00:00.000Z', 'at 60 s: the same session again');
  assert.equal(sessionCount(f), 1);
  f.tracker.stopActivity();
  // Past the minute: a new session of the same activity.
  f.clock.advance(61_000);
  const fresh = f.tracker.continueLast();
  assert.equal(fresh?.startedAt, new Date(f.clock()).toISOString());
  assert.equal(sessionCount(f), 2);
});

test('continue within 60 s of stopping a crumb brings it back whole', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.startActivity({ name: 'Earlier', createIfMissing: true });
  f.clock.advanceMinutes(10);
  f.tracker.stopActivity();
  f.clock.advanceMinutes(10);
  f.tracker.startActivity({ name: 'Calls', createIfMissing: true });
  f.clock.advance(20_000);
  f.tracker.stopActivity(); // 20 s: not kept
  assert.equal(sessionCount(f), 1);
  f.clock.advance(10_000);
  assert.equal(f.tracker.continueCandidate()?.activityName, 'Calls', 'what Continue offers: the crumb, for its minute');
  const resumed = f.tracker.continueLast();
  assert.equal(resumed?.activityName, 'Calls', 'the stopped one, not the last kept one');
  assert.equal(resumed?.startedAt, '2026-11-22T09:20:00.000Z');
  f.clock.advanceMinutes(5);
  f.tracker.stopActivity();
  const calls = f.tracker.listBlocks(0, f.clock() + 1).filter((b) => b.activity.activityName === 'Calls');
  assert.deepEqual(calls.map((b) => b.seconds), [20 + 300]);
  assert.equal(createTracker({ store: f.store, clock: f.clock }).continueLast()?.activityName, 'Calls', 'without a stop to resume: the last activity again');
  // A crumb past its minute is not offered: the activity tracked last is.
  f.tracker.stopActivity();
  f.tracker.startActivity({ name: 'Blip', createIfMissing: true });
  f.clock.advance(5_000);
  f.tracker.stopActivity();
  assert.equal(f.tracker.continueCandidate()?.activityName, 'Blip');
  f.clock.advance(61_000);
  assert.equal(f.tracker.continueCandidate()?.activityName, 'Calls');
});

test('Continue never takes up an archived activity: it offers and starts the last one not archived', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  f.clock.advanceMinutes(30);
  f.tracker.stopActivity();
  f.tracker.startActivity({ name: 'Old client', createIfMissing: true });
  f.clock.advanceMinutes(30);
  f.tracker.stopActivity();
  f.clock.advance(10_000);
  setActivityArchived(f.store, 'Old client', true);
  // Within the minute of its stop: not resumed, since archived.
  assert.equal(f.tracker.continueCandidate()?.activityName, 'Writing');
  const started = f.tracker.continueLast();
  assert.equal(started?.activityName, 'Writing');
  assert.equal(started?.startedAt, new Date(f.clock()).toISOString(), 'a new session, not the archived one reopened');
  f.clock.advanceMinutes(5);
  f.tracker.stopActivity();
  // A crumb of an archived activity is not brought back either.
  f.tracker.startActivity({ name: 'Old client' });
  f.clock.advance(20_000);
  f.tracker.stopActivity(); // 20 s: not kept
  f.clock.advance(5_000);
  assert.equal(f.tracker.continueCandidate()?.activityName, 'Writing');
  assert.equal(f.tracker.continueLast()?.activityName, 'Writing');
  // Only archived activities tracked: nothing to continue.
  f.tracker.stopActivity();
  setActivityArchived(f.store, 'Writing', true);
  assert.equal(f.tracker.continueCandidate(), null);
  assert.equal(f.tracker.continueLast(), null);
});

test('archived activities leave search and stay in lists and reports; merge moves every block; delete only without blocks', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.logEntry({ name: 'Old client', durationMinutes: 30, createIfMissing: true });
  f.tracker.logEntry({ name: 'Olive', durationMinutes: 15, createIfMissing: true, endedAt: '2026-11-22T08:00:00.000Z' });
  setActivityArchived(f.store, 'old client', true);
  assert.deepEqual(f.tracker.searchActivities('ol', 10).map((a) => a.activityName), ['Olive']);
  assert.deepEqual(f.tracker.searchActivities('', 10).map((a) => a.activityName), ['Olive']);
  assert.deepEqual(f.tracker.listActivities().map((a) => [a.activityName, a.archived]), [['Old client', true], ['Olive', false]]);
  const report = buildReport(f.store, { from: '2026-11-22', to: '2026-11-22', by: 'activity' }, f.clock(), 'UTC');
  assert.equal(report.totalSeconds, 45 * 60, 'an archived activity stays in reports');
  setActivityArchived(f.store, 'Old client', false);
  assert.deepEqual(f.tracker.searchActivities('ol', 10).map((a) => a.activityName).sort(), ['Old client', 'Olive']);

  const refusal = problemOf(() => deleteActivity(f.store, 'Olive'));
  assert.equal(refusal.message, '"Olive" has 1 block, so it cannot be deleted; merge it into another activity (tock activity merge) or archive it (tock activity archive)');
  const merged = mergeActivities(f.store, 'Olive', 'Old client');
  assert.deepEqual([merged.entries, merged.sessions], [1, 0]);
  assert.deepEqual(f.tracker.listActivities().map((a) => a.activityName), ['Old client']);
  assert.equal(buildReport(f.store, { from: '2026-11-22', to: '2026-11-22', by: 'activity' }, f.clock(), 'UTC').rows.length, 1);
  assert.match(problemOf(() => mergeActivities(f.store, 'Old client', 'old CLIENT')).details?.[0]?.message ?? '', /itself/);
  f.tracker.createActivity('Unused');
  assert.equal(deleteActivity(f.store, 'unused').activityName, 'Unused');
  assert.equal(problemOf(() => deleteActivity(f.store, 'Unused')).code, 'activity_not_found');
  assert.match(problemOf(() => f.tracker.renameActivity(f.tracker.createActivity('B').activityID, 'old client')).details?.[0]?.message ?? '', /already exists/);
});

test('search finds the best others when many archived activities rank first', (t) => {
  const f = fixture(t);
  for (let i = 0; i < 30; i++) {
    f.clock.advance(1_000);
    f.tracker.createActivity(`Alpha ${String(i).padStart(2, '0')}`);
  }
  // The 25 most recently used are archived: twice the limit is not enough, the search asks again.
  for (let i = 5; i < 30; i++) setActivityArchived(f.store, `Alpha ${String(i).padStart(2, '0')}`, true);
  assert.deepEqual(f.tracker.searchActivities('alpha', 5).map((a) => a.activityName), ['Alpha 04', 'Alpha 03', 'Alpha 02', 'Alpha 01', 'Alpha 00']);
  assert.deepEqual(f.tracker.searchActivities('', 3).map((a) => a.activityName), ['Alpha 04', 'Alpha 03', 'Alpha 02']);
});

test('archive and merge travel through the sync log to another device', (t) => {
  const A = 'aaaaaaaa-0000-4000-8000-000000000000';
  const B = 'bbbbbbbb-0000-4000-8000-000000000000';
  const device = (id: string) => {
    const f = fixture(t);
    let n = 0;
    const tracker = createTracker({ store: f.store, clock: f.clock, newId: () => `${id.slice(0, 8)}-0000-4000-8000-${String(++n).padStart(12, '0')}`, timeZone: 'UTC' });
    f.store.settings.set(SYNC_SETTINGS.device, { deviceID: id, createdAt: f.clock() });
    installCapture(f.store);
    return { f: { ...f, tracker }, id, sent: 0 };
  };
  const deliver = (from: ReturnType<typeof device>, to: ReturnType<typeof device>): void => {
    drainOutbox(from.f.store, deviceClock(from.f.store, from.id, from.f.clock));
    const lines = (from.f.store.db.prepare('SELECT line FROM sync_log ORDER BY seq').all() as { line: string }[]).map((r) => r.line).slice(from.sent);
    from.sent += lines.length;
    applyOperations(to.f.store, deviceClock(to.f.store, to.id, to.f.clock), lines.map((line) => parseOpLine(line, from.id)));
  };
  const a = device(A);
  const b = device(B);
  a.f.tracker.logEntry({ name: 'Typo', durationMinutes: 10, createIfMissing: true });
  a.f.tracker.logEntry({ name: 'Typing', durationMinutes: 20, createIfMissing: true });
  a.f.tracker.logEntry({ name: 'Retired', durationMinutes: 5, createIfMissing: true });
  deliver(a, b);
  a.f.clock.advanceMinutes(1);
  a.f.store.transaction(() => {
    mergeActivities(a.f.store, 'Typo', 'Typing');
    setActivityArchived(a.f.store, 'Retired', true);
  });
  deliver(a, b);
  assert.deepEqual(b.f.tracker.listActivities().map((x) => [x.activityName, x.archived]), [['Retired', true], ['Typing', false]]);
  assert.deepEqual(b.f.tracker.listBlocks(0, b.f.clock() + 1).map((x) => x.activity.activityName).sort(), ['Retired', 'Typing', 'Typing']);
  assert.deepEqual(b.f.tracker.searchActivities('', 10).map((x) => x.activityName), ['Typing']);
  // A crumb this device logged as running and then did not keep is not "running elsewhere"
  // while its delete waits in the outbox.
  a.f.tracker.startActivity({ name: 'Blink', createIfMissing: true });
  deliver(a, b);
  a.f.tracker.stopActivity();
  assert.deepEqual(sessionsRunningElsewhere(a.f.store), []);
});

test('tag last and untag last act on the running session, else the block that ended last', (t) => {
  const f = fixture(t);
  assert.match(problemOf(() => tagBlock(f.store, 'last', ['x'])).details?.[0]?.message ?? '', /nothing has been tracked yet/);
  f.tracker.logEntry({ name: 'Write', durationMinutes: 30, createIfMissing: true });
  const entryID = lastBlockID(f.store);
  assert.deepEqual(tagBlock(f.store, 'last', ['draft', 'acme']).tags, ['draft', 'acme']);
  f.tracker.startActivity({ name: 'Write' });
  const running = tagBlock(f.store, 'LAST', ['live']);
  assert.equal(running.kind, 'session');
  assert.notEqual(running.id, entryID);
  assert.deepEqual(untagBlock(f.store, 'last', ['live']).tags, []);
});

test('targets take the week’s hours spread over the working days; "weekly" is refused naming the accepted keys', (t) => {
  const f = fixture(t, { now: '2026-11-25T12:00:00.000Z' }); // a Wednesday
  setLedgerSetting(f.store.settings, 'targets', '{"week":37.5}');
  assert.equal(dayTargetHours({ week: 37.5 }, 'wed'), 7.5);
  assert.equal(dayTargetHours({ week: 37.5 }, 'sat'), 0);
  assert.equal(dayTargetHours({ week: 32, days: ['mon', 'tue', 'wed', 'thu'] }, 'thu'), 8);
  const today = buildReport(f.store, { from: '2026-11-25', to: '2026-11-25', by: 'activity' }, f.clock(), 'UTC');
  assert.equal(today.targetSeconds, 7.5 * 3600, 'Today shows 37.5 ÷ 5 h');
  const refused = problemOf(() => setLedgerSetting(f.store.settings, 'targets', '{"weekly":40}'));
  assert.equal(refused.details?.[0]?.message, '"weekly" is not a day; use mon, tue, wed, thu, fri, sat, sun, or week (hours a week) with days');
  assert.match(problemOf(() => setLedgerSetting(f.store.settings, 'targets', '{"week":40,"mon":8}')).details?.[0]?.message ?? '', /not both/);
  assert.match(problemOf(() => setLedgerSetting(f.store.settings, 'targets', '{"week":40,"days":["someday"]}')).details?.[0]?.message ?? '', /"days" must be/);
});

test('a Tock export carries archived; an import makes such an activity archived', async (t) => {
  const from = fixture(t);
  from.tracker.logEntry({ name: 'Old', durationMinutes: 30, createIfMissing: true });
  from.tracker.createActivity('Current');
  setActivityArchived(from.store, 'Old', true);
  const path = join(from.dir, 'export.json');
  writeFileSync(path, [...exportChunks(from.store.db, { format: 'json', timeZone: 'UTC', now: from.clock() })].join(''));
  const to = fixture(t);
  await importFile(to.store, { path, timeZone: 'UTC', now: to.clock() });
  assert.deepEqual(to.tracker.listActivities().map((a) => [a.activityName, a.archived]), [['Current', false], ['Old', true]]);
  assert.equal(to.tracker.listBlocks(0, to.clock() + 1).length, 1, 'its time came along');
  const bad = join(to.dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ format: 'tock-export', version: 1, activities: [{ id: 'aaaaaaaa-0000-4000-8000-000000000001', name: 'X', createdAt: '2026-01-01T00:00:00.000Z', archived: 'yes' }], sessions: [], entries: [] }));
  await assert.rejects(importFile(to.store, { path: bad, timeZone: 'UTC', now: to.clock() }), /"archived" must be true or false/);
});
