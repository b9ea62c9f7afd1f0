/**
 * Sync in core (docs/sync.md): writes are captured in the transaction that makes them, only
 * while sync is on; two stores that exchange their logs show one history (renames, deletes,
 * the activity-merge rule, another device's running session kept to itself, a device whose
 * wall clock is hours off); and the property that makes the design: random operations of three
 * devices applied in any order and batching, some twice, give the identical `tock export`.
 */
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTracker, openStore, type Store } from '../src/index.ts';
import { exportChunks } from '../src/export.ts';
import {
  SEGMENT_LIMIT_BYTES,
  SYNC_SETTINGS,
  applyOperations,
  deviceClock,
  drainOutbox,
  installCapture,
  logLength,
  logSegments,
  parseOpLine,
  pauseCapture,
  refreshCapture,
  segmentLines,
  type SyncOp,
} from '../src/sync/index.ts';
import { fixture, killWhenPaused, manualClock, type Fixture } from './support.ts';
import { exported, PEER, peerLines } from './support/sync-peer.ts';

const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';
const C = 'cccccccc-0000-4000-8000-000000000000';

/** Ids that differ per device, so two stores never make the same id. */
function idsFor(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

interface Device {
  f: Fixture;
  id: string;
  /** Lines of this device's log handed over so far. */
  sent: number;
}

function device(t: Parameters<typeof fixture>[0], id: string, now = '2026-11-22T09:00:00.000Z'): Device {
  const f = fixture(t, { now });
  const tracker = createTracker({ store: f.store, clock: f.clock, newId: idsFor(id.slice(0, 8)), timeZone: 'UTC' });
  f.store.settings.set(SYNC_SETTINGS.device, { deviceID: id, createdAt: f.clock() });
  installCapture(f.store);
  return { f: { ...f, tracker }, id, sent: 0 };
}

/** This device's log lines (draining its outbox first). */
function logOf(d: Device): string[] {
  drainOutbox(d.f.store, deviceClock(d.f.store, d.id, d.f.clock));
  return (d.f.store.db.prepare('SELECT line FROM sync_log ORDER BY seq').all() as { line: string }[]).map((r) => r.line);
}

/** Hands `from`'s new lines to `to`, as reading the folder would. */
function deliver(from: Device, to: Device): void {
  const lines = logOf(from);
  const ops = lines.map((line) => parseOpLine(line, from.id));
  applyOperations(to.f.store, deviceClock(to.f.store, to.id, to.f.clock), ops);
}

test('before sync nothing is captured; on, every write lands in the outbox in its own transaction; off again, only deletes', (t) => {
  const f = fixture(t);
  f.tracker.startActivity({ name: 'Write', createIfMissing: true });
  assert.equal((f.store.db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n, 0);
  installCapture(f.store);
  // The history is logged once: an activity and a running session.
  assert.equal((f.store.db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n, 2);
  f.clock.advanceMinutes(30);
  f.tracker.stopActivity();
  assert.equal((f.store.db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n, 3);
  // A write that fails leaves no outbox row behind.
  assert.throws(() => f.tracker.renameActivity('00000000-0000-4000-8000-000000000099', 'X'));
  assert.equal((f.store.db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n, 3);
  f.store.db.exec('DELETE FROM sync_outbox'); // as a drain would
  pauseCapture(f.store);
  f.tracker.startActivity({ name: 'Write' });
  f.clock.advanceMinutes(5);
  f.tracker.stopActivity();
  assert.equal((f.store.db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n, 0);
  const { id } = f.store.db.prepare('SELECT id FROM sessions ORDER BY started_at DESC LIMIT 1').get() as { id: string };
  f.tracker.deleteSession(id);
  assert.deepEqual(f.store.db.prepare('SELECT kind, id, change FROM sync_outbox').all().map((r) => ({ ...r })), [{ kind: 'session', id, change: 'delete' }]);
});

test('a delete made while sync was off reaches the other device once sync is on again', (t) => {
  const a = device(t, A);
  const b = device(t, B);
  a.f.tracker.logEntry({ name: 'Write', createIfMissing: true, durationMinutes: 30 });
  a.f.tracker.logEntry({ name: 'Write', durationMinutes: 10, endedAt: new Date(a.f.clock() - 30 * 60_000).toISOString() }); // apart: not an overlap
  deliver(a, b);
  assert.equal(b.f.tracker.getStatus().todaySeconds, 2400);
  pauseCapture(a.f.store);
  const [first] = a.f.tracker.listBlocks(0, Date.parse('2027-01-01T00:00:00Z'));
  assert.ok(first);
  a.f.tracker.deleteEntry(first.id);
  a.f.tracker.logEntry({ name: 'Write', durationMinutes: 5 });
  installCapture(a.f.store);
  deliver(a, b);
  assert.deepEqual(exported(a.f.store), exported(b.f.store));
  assert.equal(b.f.tracker.getStatus().todaySeconds, a.f.tracker.getStatus().todaySeconds);
});

test("a store whose triggers an older Tock made gets today's when the app starts; nothing pending is lost", (t) => {
  const a = device(t, A);
  // Schema v4's trigger wrote the whole row; the outbox row it left is drained as any other.
  a.f.store.db.exec(`DROP TRIGGER sync_capture_entries_insert;
    CREATE TRIGGER sync_capture_entries_insert AFTER INSERT ON entries BEGIN
      INSERT INTO sync_outbox (kind, id, row) VALUES ('entry', new.id, json_object('note', new.note)); END;`);
  a.f.tracker.logEntry({ name: 'Write', createIfMissing: true, durationMinutes: 30 });
  refreshCapture(a.f.store);
  a.f.tracker.logEntry({ name: 'Write', durationMinutes: 10 });
  assert.deepEqual(a.f.store.db.prepare("SELECT change, row FROM sync_outbox WHERE kind = 'entry'").all().map((r) => ({ ...r })), [
    { change: null, row: '{"note":null}' },
    { change: 'insert', row: null },
  ]);
  assert.deepEqual(logOf(a).map((line) => parseOpLine(line, A).op), ['activity.create', 'entry.create', 'entry.create']);
});

test('the log says what a person did, one line each; enabling again logs nothing twice', (t) => {
  const a = device(t, A);
  a.f.tracker.startActivity({ name: 'Write', createIfMissing: true });
  a.f.clock.advanceMinutes(10);
  a.f.tracker.startBreak();
  a.f.clock.advanceMinutes(5);
  a.f.tracker.resumeBreak();
  a.f.clock.advanceMinutes(10);
  a.f.tracker.stopActivity();
  const ops = logOf(a).map((line) => parseOpLine(line, A).op);
  assert.deepEqual(ops, ['activity.create', 'session.start', 'break.start', 'break.end', 'session.stop']);
  installCapture(a.f.store);
  assert.equal(logOf(a).length, 5);
});

test('two devices: blocks, renames and deletes travel both ways; each block says its device', (t) => {
  const a = device(t, A);
  const b = device(t, B);
  a.f.tracker.startActivity({ name: 'Write', createIfMissing: true });
  a.f.clock.advanceMinutes(60);
  a.f.tracker.stopActivity();
  b.f.tracker.logEntry({ name: 'Review', createIfMissing: true, durationMinutes: 15, note: 'PR 7' });
  deliver(a, b);
  deliver(b, a);
  assert.deepEqual(exported(a.f.store), exported(b.f.store));
  b.f.clock.advanceMinutes(60); // b's clock reaches the end of a's session: only time that has passed counts
  assert.equal(b.f.tracker.getStatus().todaySeconds, 3600 + 900);
  const write = b.f.tracker.listActivities().find((x) => x.activityName === 'Write');
  assert.ok(write);
  b.f.tracker.renameActivity(write.activityID, 'Writing');
  const session = a.f.tracker.listBlocks(0, Date.parse('2027-01-01T00:00:00Z')).find((x) => x.kind === 'session');
  assert.ok(session);
  a.f.tracker.deleteSession(session.id);
  deliver(a, b);
  deliver(b, a);
  assert.deepEqual(exported(a.f.store), exported(b.f.store));
  const view = exported(a.f.store) as { activities: { name: string }[]; sessions: unknown[]; entries: { device: string }[] };
  assert.deepEqual(view.activities.map((x) => x.name).sort(), ['Review', 'Writing']);
  assert.equal(view.sessions.length, 0);
  assert.equal(view.entries[0]?.device, B);
  // The CSV says it too, in columns the export has only once sync has been on (before the
  // ledger's): the device's name where it is known (else its id), and its id.
  a.f.tracker.logEntry({ name: 'Writing', durationMinutes: 5 });
  const csv = (store: Store) => [...exportChunks(store.db, { format: 'csv', timeZone: 'UTC', now: Date.parse('2026-12-01T00:00:00Z') })].join('').split('\r\n');
  const header = (csv(a.f.store)[0] ?? '').split(',');
  assert.deepEqual(header.slice(0, 11), 'kind,activity,start,end,seconds,note,localStart,localEnd,hours,device,deviceID'.split(','));
  assert.deepEqual(header.slice(11), 'client,tags,billable,billed_seconds,amount,currency'.split(','), 'the ledger columns stay the last ones in a synced store too');
  const devices = () =>
    csv(a.f.store)
      .slice(1, -1)
      .map((line) => line.split(',').slice(header.indexOf('device'), header.indexOf('deviceID') + 1));
  assert.deepEqual(devices(), [
    [B, B],
    [A, A],
  ]);
  a.f.store.settings.set(SYNC_SETTINGS.deviceNames, { [B]: 'desktop' });
  a.f.store.settings.set(SYNC_SETTINGS.config, { dir: '/sync', name: 'laptop', format: 2 });
  assert.deepEqual(devices(), [
    ['desktop', B],
    ['laptop', A],
  ]);
});

test('a thing made here is stored by its create\'s log line until a field of it changes, and merges as if stored whole', (t) => {
  const a = device(t, A);
  a.f.tracker.logEntry({ name: 'Write', createIfMissing: true, durationMinutes: 10, note: 'draft' });
  const lines = logOf(a);
  const entry = a.f.tracker.listBlocks(0, Date.parse('2027-01-01T00:00:00Z'))[0];
  assert.ok(entry);
  const stored = () =>
    a.f.store.db.prepare('SELECT fields, log_seq AS logSeq FROM sync_entities WHERE id = ?').get(entry.id) as { fields: string; logSeq: number | null };
  const create = lines.findIndex((line) => line.includes('"entry.create"')) + 1;
  assert.deepEqual({ ...stored() }, { fields: '', logSeq: create });
  const hlc = (parseOpLine(lines[create - 1] as string, A).hlc as { ms: number }).ms;
  const noteFrom = (ms: number, note: string) =>
    parseOpLine(JSON.stringify({ v: 1, hlc: `${ms}-0-${B}`, op: 'entry.edit', id: entry.id, set: { note } }), B);
  // Another device's edit older than the create loses to the create's fields; a newer one wins.
  applyOperations(a.f.store, deviceClock(a.f.store, A, a.f.clock), [noteFrom(hlc - 1, 'older')]);
  assert.equal(a.f.tracker.listBlocks(0, Date.parse('2027-01-01T00:00:00Z'))[0]?.note, 'draft');
  assert.deepEqual({ ...stored() }, { fields: '', logSeq: create });
  applyOperations(a.f.store, deviceClock(a.f.store, A, a.f.clock), [noteFrom(hlc + 1, 'newer')]);
  assert.equal(a.f.tracker.listBlocks(0, Date.parse('2027-01-01T00:00:00Z'))[0]?.note, 'newer');
  // Now the fields are written out, each with the hlc that set it.
  const fields = JSON.parse(stored().fields) as { h: string[]; f: Record<string, [unknown, number]> };
  assert.equal(stored().logSeq, null);
  assert.equal(fields.h.length, 2);
  assert.deepEqual(fields.f.note, ['newer', 1]);
  assert.deepEqual(fields.f.startedAt?.[1], 0);
});

test("another device's running session stays its own; GET /status is this device's", (t) => {
  const a = device(t, A);
  const b = device(t, B);
  a.f.tracker.startActivity({ name: 'Write', createIfMissing: true });
  deliver(a, b);
  assert.equal(b.f.tracker.getStatus().isTracking, false);
  b.f.tracker.startActivity({ name: 'Write', createIfMissing: true }); // the same activity, by name
  deliver(b, a);
  a.f.clock.advanceMinutes(30);
  a.f.tracker.stopActivity();
  deliver(a, b);
  assert.equal(b.f.tracker.getStatus().isTracking, true);
  assert.equal(a.f.tracker.getStatus().isTracking, false);
  assert.equal(b.f.tracker.listActivities().length, 1);
});

test('activities made on two devices with one name (case, NFC) are one: the lower id is kept, blocks point to it', (t) => {
  const a = device(t, A);
  const b = device(t, B);
  a.f.tracker.logEntry({ name: 'Cafe\u0301', createIfMissing: true, durationMinutes: 10 });
  b.f.tracker.logEntry({ name: 'CAFÉ', createIfMissing: true, durationMinutes: 20, endedAt: new Date(b.f.clock() - 10 * 60_000).toISOString() });
  deliver(a, b);
  deliver(b, a);
  for (const d of [a, b]) {
    const activities = d.f.tracker.listActivities();
    assert.equal(activities.length, 1);
    assert.ok(activities[0]?.activityID.startsWith('aaaaaaaa'));
    assert.equal(d.f.tracker.getStatus().todaySeconds, 30 * 60);
  }
  assert.deepEqual(exported(a.f.store), exported(b.f.store));
});

test('a device whose wall clock is minutes behind still wins with an edit made after seeing the other', (t) => {
  const a = device(t, A, '2026-11-22T12:00:00.000Z');
  const b = device(t, B, '2026-11-22T12:00:00.000Z');
  a.f.tracker.createActivity('Plan');
  deliver(a, b);
  const plan = b.f.tracker.listActivities()[0];
  assert.ok(plan);
  b.f.clock.set('2026-11-22T11:51:00.000Z'); // nine minutes behind: within the 10 minutes a clock may be ahead
  b.f.tracker.renameActivity(plan.activityID, 'Planning');
  deliver(b, a);
  assert.equal(a.f.tracker.listActivities()[0]?.activityName, 'Planning');
});

test("a forged far-future hlc never moves this device's clock: its later edits still win, and its clock stays its own", (t) => {
  const a = device(t, A, '2026-11-22T12:00:00.000Z');
  a.f.tracker.createActivity('Plan');
  const plan = a.f.tracker.listActivities()[0];
  assert.ok(plan);
  logOf(a);
  // The attack of issue 23: one line stamped in the year 33658 (format 1 applied it and took its clock there).
  const clock = deviceClock(a.f.store, A, a.f.clock);
  clock.receive({ ms: 999_999_999_999_999, counter: 999_999, device: B });
  const forged = parseOpLine(JSON.stringify({ v: 1, hlc: `${Date.UTC(2199, 0, 1)}-0-${B}`, op: 'activity.rename', id: plan.activityID, set: { name: 'Owned' } }), B);
  clock.receive(forged.hlc);
  assert.ok(clock.tick().ms <= a.f.clock() + 10 * 60_000);
  // The counter and the time beyond the rules are refused outright.
  assert.throws(() => parseOpLine(JSON.stringify({ v: 1, hlc: `999999999999999-999999999-${B}`, op: 'activity.rename', id: plan.activityID, set: { name: 'Owned' } }), B), /counter 999999999 is above 999999/);
  assert.throws(() => parseOpLine(JSON.stringify({ v: 1, hlc: `${Date.UTC(2300, 0, 1)}-0-${B}`, op: 'activity.rename', id: plan.activityID, set: { name: 'Owned' } }), B), /1970–2199/);
  // A stored clock a format-1 line moved to the future is dropped for the wall clock.
  a.f.store.settings.set(SYNC_SETTINGS.clock, { ms: 999_999_999_999_999, counter: 0 });
  assert.equal(deviceClock(a.f.store, A, a.f.clock).tick().ms, a.f.clock());
});

test('sync operations pass the API\'s rules: names without control characters or bidi overrides, notes, times, 24 h entries', () => {
  const entry = (set: Record<string, unknown>): string =>
    JSON.stringify({ v: 1, hlc: `${DAY}-0-${B}`, op: 'entry.create', id: ENTRIES[0], set: { device: B, activityID: ACTIVITIES[0], startedAt: DAY, endedAt: DAY + 60_000, note: null, createdAt: DAY, ...set } });
  const rename = (name: string): string => JSON.stringify({ v: 1, hlc: `${DAY}-0-${B}`, op: 'activity.rename', id: ACTIVITIES[0], set: { name } });
  for (const name of ['Plan\u001b[2J\u001b[31mOwned', 'Plan\u202eevil', 'a\u2066b', 'x\u0085y', '   ']) assert.throws(() => parseOpLine(rename(name), B), /field "name"/, JSON.stringify(name));
  assert.equal((parseOpLine(rename('  Cafe\u0301 '), B).set as { name: string }).name, 'Café');
  assert.throws(() => parseOpLine(entry({ note: 'x'.repeat(2001) }), B), /at most 2000/);
  assert.throws(() => parseOpLine(entry({ endedAt: Number.MAX_SAFE_INTEGER }), B), /1970–2199/); // 2^53−1 ms broke the export
  assert.throws(() => parseOpLine(entry({ startedAt: -1 }), B), /1970–2199/);
  assert.throws(() => parseOpLine(entry({ endedAt: DAY + 24 * 3600_000 + 1 }), B), /at most 24 hours/);
  assert.throws(() => parseOpLine(entry({ endedAt: DAY - 1 }), B), /before "startedAt"/);
  assert.doesNotThrow(() => parseOpLine(entry({ endedAt: DAY + 24 * 3600_000 }), B));
});

test('an entry whose merged ends are over 24 h apart (each edit fine alone) is not shown', (t) => {
  const a = device(t, A);
  const op = (n: number, set: Record<string, unknown>, kind = 'entry.create', id = ENTRIES[0]): SyncOp =>
    parseOpLine(JSON.stringify({ v: 1, hlc: `${DAY + n}-0-${B}`, op: kind, id, set }), B);
  applyOperations(a.f.store, deviceClock(a.f.store, A, a.f.clock), [
    op(0, { name: 'Far', createdAt: DAY }, 'activity.create', ACTIVITIES[0]),
    op(1, { device: B, activityID: ACTIVITIES[0], startedAt: DAY, endedAt: DAY + 60_000, note: null, createdAt: DAY }),
  ]);
  assert.equal(a.f.tracker.listBlocks(0, DAY + 3 * 86_400_000).length, 1);
  applyOperations(a.f.store, deviceClock(a.f.store, A, a.f.clock), [op(2, { endedAt: DAY + 2 * 86_400_000 }, 'entry.edit')]);
  assert.equal(a.f.tracker.listBlocks(0, DAY + 3 * 86_400_000).length, 0);
});

// ---- The property: order and batching do not matter -------------------------------------

const ACTIVITIES = [1, 2, 3, 4].map((i) => `0000000${i}-0000-4000-8000-00000000000a`);
const SESSIONS = [1, 2, 3, 4].map((i) => `0000000${i}-0000-4000-8000-00000000000b`);
const BREAKS = [1, 2].map((i) => `0000000${i}-0000-4000-8000-00000000000c`);
const ENTRIES = [1, 2, 3].map((i) => `0000000${i}-0000-4000-8000-00000000000d`);
const NAMES = ['Write', 'write', 'Café', 'Cafe\u0301', 'Review'];
const DAY = Date.parse('2026-11-22T00:00:00Z');

const opArb = fc.oneof(
  fc.record({ kind: fc.constant('activity'), id: fc.constantFrom(...ACTIVITIES), verb: fc.constant('create'), name: fc.constantFrom(...NAMES), at: fc.nat(10) }),
  fc.record({ kind: fc.constant('activity'), id: fc.constantFrom(...ACTIVITIES), verb: fc.constant('rename'), name: fc.constantFrom(...NAMES), at: fc.nat(10) }),
  fc.record({ kind: fc.constant('session'), id: fc.constantFrom(...SESSIONS), verb: fc.constant('start'), activity: fc.constantFrom(...ACTIVITIES), start: fc.nat(20), length: fc.option(fc.integer({ min: 1, max: 10 })) }),
  fc.record({ kind: fc.constant('session'), id: fc.constantFrom(...SESSIONS), verb: fc.constant('edit'), activity: fc.constantFrom(...ACTIVITIES) }),
  fc.record({ kind: fc.constant('break'), id: fc.constantFrom(...BREAKS), verb: fc.constant('start'), session: fc.constantFrom(...SESSIONS), start: fc.nat(20), length: fc.option(fc.integer({ min: 1, max: 3 }), { freq: 2 }) }),
  fc.record({ kind: fc.constant('entry'), id: fc.constantFrom(...ENTRIES), verb: fc.constant('create'), activity: fc.constantFrom(...ACTIVITIES), start: fc.nat(20), length: fc.integer({ min: 1, max: 10 }), note: fc.option(fc.constantFrom('x', 'y')) }),
  fc.record({ kind: fc.constantFrom('session', 'entry', 'activity', 'break'), id: fc.nat(3), verb: fc.constant('delete') }),
);

type Gen = Record<string, unknown> & { kind: string; verb: string };

/** Operation lines of one device from generated records (its hlc counting up, so each is unique). */
function linesOf(author: string, records: Gen[], startMs: number): string[] {
  return records.map((r, i) => {
    const hlc = `${startMs + i * 7}-${i % 3}-${author}`;
    const pick = (list: string[]): string => list[(r.id as number) % list.length] as string;
    const id =
      typeof r.id === 'number'
        ? pick(r.kind === 'session' ? SESSIONS : r.kind === 'entry' ? ENTRIES : r.kind === 'break' ? BREAKS : ACTIVITIES)
        : (r.id as string);
    const base = { v: 1, hlc, op: `${r.kind}.${r.verb}`, id };
    const min = 60_000;
    const at = (n: unknown): number => DAY + (n as number) * 30 * min;
    switch (`${r.kind}.${r.verb}`) {
      case 'activity.create':
        return JSON.stringify({ ...base, set: { name: r.name, createdAt: at(r.at) } });
      case 'activity.rename':
        return JSON.stringify({ ...base, set: { name: r.name } });
      case 'session.start':
        return JSON.stringify({ ...base, set: { device: author, activityID: r.activity, startedAt: at(r.start), endedAt: r.length === null ? null : at(r.start) + (r.length as number) * min * 10 } });
      case 'session.edit':
        return JSON.stringify({ ...base, set: { activityID: r.activity } });
      case 'break.start':
        return JSON.stringify({ ...base, set: { sessionID: r.session, startedAt: at(r.start), endedAt: r.length === null ? null : at(r.start) + (r.length as number) * min } });
      case 'entry.create':
        return JSON.stringify({ ...base, set: { device: author, activityID: r.activity, startedAt: at(r.start), endedAt: at(r.start) + (r.length as number) * min * 5, note: r.note, createdAt: at(r.start) } });
      default:
        return JSON.stringify(base);
    }
  });
}

test('property: random operations of three devices, in random orders and batchings (some twice), give the identical export', () => {
  const devices = [A, B, C];
  fc.assert(
    fc.property(
      fc.tuple(fc.array(opArb, { maxLength: 14 }), fc.array(opArb, { maxLength: 14 }), fc.array(opArb, { maxLength: 14 })),
      fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 })),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { minLength: 2, maxLength: 3 }),
      (perDevice, skewsHours, orders) => {
        const ops: SyncOp[] = perDevice.flatMap((records, i) => {
          const author = devices[i] as string;
          // Wall clocks up to three hours apart.
          return linesOf(author, records as Gen[], DAY + (skewsHours[i] as number) * 3_600_000).map((line) => parseOpLine(line, author));
        });
        const exports = orders.map(([seed, batchSeed, twice], k) => {
          const store = openStore(':memory:');
          try {
            const me = `eeeeeeee-0000-4000-8000-00000000000${k}`;
            store.settings.set(SYNC_SETTINGS.device, { deviceID: me, createdAt: 0 });
            const shuffled = shuffle([...ops, ...(twice ? ops.slice(0, ops.length >> 1) : [])], seed);
            const clock = deviceClock(store, me, manualClock('2026-11-22T00:00:00.000Z'));
            for (const batch of batches(shuffled, batchSeed)) applyOperations(store, clock, batch);
            return JSON.stringify(exported(store));
          } finally {
            store.close();
          }
        });
        for (const e of exports.slice(1)) assert.equal(e, exports[0]);
      },
    ),
    { numRuns: 150, seed: 20261129 },
  );
});

/** Line `n` of device C's log (its hlc `DAY + n`). */
function line(n: number, op: string, id: string, set: Record<string, unknown>): SyncOp {
  return parseOpLine(JSON.stringify({ v: 1, hlc: `${DAY + n}-0-${C}`, op, id, set }), C);
}

/** A fresh store that applies `batches` in order, exported. */
function exportAfter(batches: SyncOp[][]): { sessions: { id: string; breaks: unknown[] }[] } {
  const store = openStore(':memory:');
  try {
    const me = 'eeeeeeee-0000-4000-8000-000000000001';
    store.settings.set(SYNC_SETTINGS.device, { deviceID: me, createdAt: 0 });
    const clock = deviceClock(store, me, manualClock('2026-11-22T00:00:00.000Z'));
    for (const batch of batches) applyOperations(store, clock, batch);
    return exported(store) as { sessions: { id: string; breaks: unknown[] }[] };
  } finally {
    store.close();
  }
}

test('a break moved to a session that arrives in the same batch is shown under it, as when the lines arrive in another order', () => {
  // The property's counterexample (fast-check seed -1416353740), shrunk: break K is logged on
  // session S1, then (a higher hlc) on session S3. A store that shows K under S1 and then gets
  // the move, S1 and S3 in one batch showed K nowhere; one that got S3 first showed it under S3.
  const [activity, s1, s3, k] = [ACTIVITIES[0], SESSIONS[0], SESSIONS[2], BREAKS[0]] as [string, string, string, string];
  const min = 60_000;
  const session = { device: C, activityID: activity, startedAt: DAY, endedAt: DAY + 10 * min };
  const create = line(1, 'activity.create', activity, { name: 'Write', createdAt: DAY });
  const onS1 = line(2, 'break.start', k, { sessionID: s1, startedAt: DAY, endedAt: DAY + min });
  const startS1 = line(3, 'session.start', s1, session);
  const startS3 = line(4, 'session.start', s3, session);
  const moved = line(5, 'break.start', k, { sessionID: s3, startedAt: DAY, endedAt: DAY + min });
  const editS1 = line(6, 'session.edit', s1, { activityID: activity });
  // K shown under S1 first; then the move, S1 and S3 in one batch, S1 before S3.
  const late = exportAfter([[create, startS1, onS1], [moved, editS1, startS3]]);
  const early = exportAfter([[startS3, create], [startS1, onS1, moved, editS1]]);
  assert.deepEqual(
    late.sessions.map((s) => [s.id, s.breaks.length]),
    [
      [s1, 0],
      [s3, 1],
    ],
  );
  assert.deepEqual(late, early);
});

test("another device's open breaks show once they end, whichever arrives first (the table keeps one open break)", () => {
  // Two open breaks on two stopped sessions of another device: the table takes one open break,
  // so the one that came first was shown and the other refused, for good.
  const [activity, s1, s2, k1, k2] = [ACTIVITIES[0], SESSIONS[0], SESSIONS[1], BREAKS[0], BREAKS[1]] as [string, string, string, string, string];
  const min = 60_000;
  const setup = [
    line(1, 'activity.create', activity, { name: 'Write', createdAt: DAY }),
    line(2, 'session.start', s1, { device: C, activityID: activity, startedAt: DAY, endedAt: DAY + 10 * min }),
    line(3, 'session.start', s2, { device: C, activityID: activity, startedAt: DAY + 10 * min, endedAt: DAY + 20 * min }),
  ];
  const open1 = line(4, 'break.start', k1, { sessionID: s1, startedAt: DAY, endedAt: null });
  const open2 = line(5, 'break.start', k2, { sessionID: s2, startedAt: DAY + 10 * min, endedAt: null });
  const end1 = line(6, 'break.end', k1, { endedAt: DAY + min });
  const breaksAfter = (batches: SyncOp[][]): unknown[][] => exportAfter(batches).sessions.map((s) => s.breaks);
  assert.deepEqual(breaksAfter([setup, [open1], [open2]]), [[], []]);
  assert.deepEqual(breaksAfter([setup, [open2], [open1]]), [[], []]);
  const ended = [[{ start: '2026-11-22T00:00:00.000Z', end: '2026-11-22T00:01:00.000Z' }], []];
  assert.deepEqual(breaksAfter([setup, [open1], [open2], [end1]]), ended);
  assert.deepEqual(breaksAfter([setup, [end1, open2], [open1]]), ended);
});

function shuffle<T>(items: T[], seed: number): T[] {
  let s = seed >>> 0 || 1;
  const random = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

function batches<T>(items: T[], seed: number): T[][] {
  const out: T[][] = [];
  let i = 0;
  let s = (seed % 5) + 1;
  while (i < items.length) {
    out.push(items.slice(i, i + s));
    i += s;
    s = (s * 7 + 3) % 6 + 1;
  }
  return out;
}

test('kill -9 while a batch is applied leaves none of it; applying again gives all of it once', async (t) => {
  const f = fixture(t);
  f.store.close();
  await killWhenPaused(fileURLToPath(new URL('./support/sync-apply-child.ts', import.meta.url)), [f.path]);
  const store = openStore(f.path);
  t.after(() => store.close());
  const count = (table: string): number => Number((store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  assert.deepEqual([count('entries'), count('activities'), count('sync_entities'), count('sync_devices')], [0, 0, 0, 0]);
  const me = 'eeeeeeee-0000-4000-8000-000000000001';
  const ops = peerLines(1000).map((line) => parseOpLine(line, PEER));
  applyOperations(store, deviceClock(store, me, Date.now), ops);
  applyOperations(store, deviceClock(store, me, Date.now), ops);
  assert.deepEqual([count('entries'), count('activities')], [999, 1]);
});

test('the log starts a new segment past 1 MiB; each segment holds its lines in order, none twice', (t) => {
  const a = device(t, A);
  a.f.tracker.createActivity('Bulk');
  const clock = deviceClock(a.f.store, A, a.f.clock);
  for (let round = 0; round < 3; round++) {
    a.f.store.transaction(() => {
      for (let i = 0; i < 2100; i++) a.f.tracker.logEntry({ name: 'Bulk', durationMinutes: 1, note: 'x'.repeat(200) });
    });
    drainOutbox(a.f.store, clock); // 2 100 rows: two transactions; the segment being filled goes on across drains
  }
  const segments = logSegments(a.f.store);
  assert.ok(segments.length >= 2, `${segments.length} segment(s)`);
  const all = logOf(a);
  const bySegment = segments.map((n) => segmentLines(a.f.store, n));
  assert.deepEqual(bySegment.flat(), all);
  for (const lines of bySegment) assert.ok(lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0) <= SEGMENT_LIMIT_BYTES);
  assert.equal(logLength(a.f.store), all.length);
});

test('renaming the kept activity of a merged pair apart splits it on this device too, as on the other', (t) => {
  const a = device(t, A);
  const b = device(t, B);
  a.f.tracker.logEntry({ name: 'Write', createIfMissing: true, durationMinutes: 10 });
  b.f.tracker.logEntry({ name: 'write', createIfMissing: true, durationMinutes: 20 });
  deliver(a, b);
  deliver(b, a);
  assert.equal(a.f.tracker.listActivities().length, 1);
  const kept = a.f.tracker.listActivities()[0];
  assert.ok(kept);
  assert.ok(kept.activityID.startsWith('aaaaaaaa'));
  a.f.tracker.renameActivity(kept.activityID, 'Other');
  deliver(a, b);
  deliver(b, a);
  for (const d of [a, b]) {
    assert.deepEqual(
      d.f.tracker.listBlocks(0, Date.parse('2027-01-01T00:00:00Z')).map((x) => [x.activity.activityName, x.seconds]).sort(),
      [['Other', 600], ['write', 1200]],
    );
  }
  assert.deepEqual(exported(a.f.store), exported(b.f.store));
});
