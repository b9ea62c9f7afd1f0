/**
 * Notes on sessions (docs/product.md "Notes on sessions", docs/protocol.md "Endpoints"): given at start, replaced
 * by a start of the activity already running, edited later, checked like an entry's note, and
 * carried by export, import and sync (an older device's lines without a note still apply).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTracker } from '../src/index.ts';
import { exportChunks } from '../src/export.ts';
import { importFile } from '../src/import/index.ts';
import { SYNC_SETTINGS, applyOperations, deviceClock, drainOutbox, installCapture, parseOpLine } from '../src/sync/index.ts';
import { fixture, problemOf, type Fixture } from './support.ts';

const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';
const END = Date.parse('2027-01-01T00:00:00.000Z');

function exportOf(f: Fixture, format: 'json' | 'csv' = 'json'): string {
  return [...exportChunks(f.store.db, { format, timeZone: 'UTC', now: f.clock() })].join('');
}

test('a session started with a note keeps it; a start of the running activity with a note replaces it', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.startActivity({ name: 'Writing', createIfMissing: true, note: 'chapter 3' });
  const [session] = f.tracker.listBlocks(0, f.clock() + 1);
  assert.equal(session?.note, 'chapter 3');
  f.clock.advanceMinutes(5);
  const again = f.tracker.startActivity({ name: 'writing', note: 'chapter 4' });
  assert.equal(again.startedAt, '2026-11-22T09:00:00.000Z', 'the same session goes on');
  assert.equal(f.tracker.listBlocks(0, f.clock() + 1)[0]?.note, 'chapter 4');
  // Without a note, the running session's note stays.
  f.tracker.startActivity({ name: 'Writing' });
  assert.equal(f.tracker.listBlocks(0, f.clock() + 1)[0]?.note, 'chapter 4');
  // By ID too; a switch gives the new session its own note and leaves the old one's.
  const review = f.tracker.createActivity('Review');
  f.tracker.startActivity({ activityID: review.activityID, note: 'PR 12' });
  assert.deepEqual(
    f.tracker.listBlocks(0, f.clock() + 1).map((b) => [b.activity.activityName, b.note]),
    [
      ['Writing', 'chapter 4'],
      ['Review', 'PR 12'],
    ],
  );
});

test('a note longer than 2000 characters or not text is refused at start and at edit, and nothing changes', (t) => {
  const f = fixture(t);
  const long = 'x'.repeat(2001);
  const problem = problemOf(() => f.tracker.startActivity({ name: 'Writing', createIfMissing: true, note: long }));
  assert.equal(problem.code, 'validation_failed');
  assert.deepEqual(problem.details?.map((d) => d.field), ['note']);
  assert.equal(f.tracker.getCurrent(), null);
  assert.equal(problemOf(() => f.tracker.startActivity({ name: 'Writing', createIfMissing: true, note: 5 } as never)).code, 'validation_failed');
  f.tracker.startActivity({ name: 'Writing', createIfMissing: true, note: 'x'.repeat(2000) });
  const id = f.tracker.listBlocks(0, f.clock() + 1)[0]?.id as string;
  assert.equal(problemOf(() => f.tracker.updateSession(id, { note: long })).code, 'validation_failed');
  assert.equal(f.tracker.listBlocks(0, f.clock() + 1)[0]?.note, 'x'.repeat(2000));
});

test('editing a session sets, keeps or removes its note', (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  f.clock.advanceMinutes(30);
  const id = f.tracker.listBlocks(0, f.clock() + 1)[0]?.id as string;
  assert.equal(f.tracker.updateSession(id, { note: 'outline' }).note, 'outline');
  assert.equal(f.tracker.updateSession(id, { startedAt: '2026-11-22T09:05:00.000Z' }).note, 'outline');
  assert.equal(f.tracker.updateSession(id, { note: null }).note, null);
});

test('export carries a session note (JSON only when it has one; CSV in the note column) and import brings it back', async (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.startActivity({ name: 'Writing', createIfMissing: true, note: 'chapter "3", =draft' });
  f.clock.advanceMinutes(30);
  f.tracker.startActivity({ name: 'Review', createIfMissing: true });
  f.clock.advanceMinutes(30);
  f.tracker.stopActivity();
  const json = exportOf(f);
  const sessions = (JSON.parse(json) as { sessions: Record<string, unknown>[] }).sessions;
  assert.equal(sessions[0]?.note, 'chapter "3", =draft');
  assert.equal('note' in (sessions[1] as object), false, 'a session without a note reads as before');
  const csv = exportOf(f, 'csv').split('\r\n');
  assert.match(csv[1] as string, /^session,Writing,[^,]+,[^,]+,1800,"'=draft|^session,Writing,[^,]+,[^,]+,1800,"chapter ""3"", =draft"/);
  const other = fixture(t, { now: '2026-11-22T12:00:00.000Z' });
  const path = join(other.dir, 'export.json');
  writeFileSync(path, json);
  const result = await importFile(other.store, { path, timeZone: 'UTC', now: other.clock() });
  assert.equal(result.imported, 2);
  assert.deepEqual(
    other.tracker.listBlocks(0, other.clock()).map((b) => b.note),
    ['chapter "3", =draft', null],
  );
  // A note over the limit in a file refuses the import.
  const bad = json.replace('chapter \\"3\\", =draft', 'y'.repeat(2001));
  writeFileSync(path, bad);
  const third = fixture(t);
  await assert.rejects(importFile(third.store, { path, timeZone: 'UTC', now: third.clock() }), /note/);
});

interface Device {
  f: Fixture;
  id: string;
}

function device(t: Parameters<typeof fixture>[0], id: string, prefix: string): Device {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  let n = 0;
  const tracker = createTracker({ store: f.store, clock: f.clock, newId: () => `${prefix}-0000-4000-8000-${String(++n).padStart(12, '0')}`, timeZone: 'UTC' });
  f.store.settings.set(SYNC_SETTINGS.device, { deviceID: id, createdAt: f.clock() });
  installCapture(f.store);
  return { f: { ...f, tracker }, id };
}

function linesOf(d: Device): string[] {
  drainOutbox(d.f.store, deviceClock(d.f.store, d.id, d.f.clock));
  return (d.f.store.db.prepare('SELECT line FROM sync_log ORDER BY seq').all() as { line: string }[]).map((r) => r.line);
}

function deliver(lines: string[], author: string, to: Device): void {
  applyOperations(to.f.store, deviceClock(to.f.store, to.id, to.f.clock), lines.map((line) => parseOpLine(line, author)));
}

test('sync carries a session note and its later edit; a session without one logs no note field', (t) => {
  const a = device(t, A, 'aaaaaaaa');
  const b = device(t, B, 'bbbbbbbb');
  a.f.tracker.startActivity({ name: 'Writing', createIfMissing: true, note: 'chapter 3' });
  a.f.clock.advanceMinutes(30);
  a.f.tracker.startActivity({ name: 'Review', createIfMissing: true });
  a.f.clock.advanceMinutes(30);
  a.f.tracker.stopActivity();
  const lines = linesOf(a);
  const starts = lines.filter((l) => l.includes('"session.start"'));
  assert.equal(starts.length, 2);
  assert.match(starts[0] as string, /"note":"chapter 3"/);
  assert.doesNotMatch(starts[1] as string, /note/, 'readable by a Tock that knows no session notes');
  deliver(lines, A, b);
  assert.deepEqual(
    b.f.tracker.listBlocks(0, END).map((x) => x.note),
    ['chapter 3', null],
  );
  // An edit on B, a minute after A stopped, reaches A (the higher hlc wins).
  b.f.clock.set('2026-11-22T10:01:00.000Z');
  const id = b.f.tracker.listBlocks(0, END)[0]?.id as string;
  b.f.tracker.updateSession(id, { note: 'chapter 3, revised' });
  deliver(linesOf(b), B, a);
  assert.equal(a.f.tracker.listBlocks(0, END)[0]?.note, 'chapter 3, revised');
  assert.equal(exportOf(a.f).replace(/"exportedAt":"[^"]+"/, ''), exportOf(b.f).replace(/"exportedAt":"[^"]+"/, ''));
});

test('a session line written before notes existed (no note field) applies, its note null', (t) => {
  const b = device(t, B, 'bbbbbbbb');
  const activity = 'aaaaaaaa-0000-4000-8000-0000000000a1';
  const session = 'aaaaaaaa-0000-4000-8000-000000000051';
  const t0 = Date.parse('2026-11-22T08:00:00.000Z');
  deliver(
    [
      `{"v":1,"hlc":"${t0}-0-${A}","op":"activity.create","id":"${activity}","set":{"name":"Old","createdAt":${t0}}}`,
      `{"v":1,"hlc":"${t0}-1-${A}","op":"session.start","id":"${session}","set":{"device":"${A}","activityID":"${activity}","startedAt":${t0},"endedAt":null}}`,
      `{"v":1,"hlc":"${t0 + 60_000}-0-${A}","op":"session.stop","id":"${session}","set":{"endedAt":${t0 + 1_800_000}}}`,
    ],
    A,
    b,
  );
  const blocks = b.f.tracker.listBlocks(0, END);
  assert.deepEqual(blocks.map((x) => [x.activity.activityName, x.seconds, x.note]), [['Old', 1800, null]]);
  // A note field that breaks the rule stops the line, as an entry's does.
  assert.throws(() => parseOpLine(`{"v":1,"hlc":"${t0}-2-${A}","op":"session.edit","id":"${session}","set":{"note":"${'z'.repeat(2001)}"}}`, A), /note/);
});
