/**
 * Sync's activity groups made again for the names a change concerns only (docs/sync.md
 * "Merging"): applying another device's activity change, or logging a rename or delete made
 * here, regroups the activities of the names involved — the changed one's, and the one it had —
 * found down the index on `sync_entities.ref`, not every activity. The rules are the full
 * regroup's: the property below plays mixed histories of this device and two others (names that
 * collide by case and NFC, renames onto a taken name and apart, deletes of activities with and
 * without blocks, merges) and after every step regroups every activity, which must change nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createTracker, deleteActivity, mergeActivities, openStore, type Store, type Tracker } from '../src/index.ts';
import { Entities } from '../src/sync/entities.ts';
import { SYNC_SETTINGS, applyOperations, deviceClock, drainOutbox, installCapture, parseOpLine, type SyncOp } from '../src/sync/index.ts';
import { reproject } from '../src/sync/projection.ts';
import { manualClock, type ManualClock } from './support.ts';
import { exported } from './support/sync-peer.ts';

const ME = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';
const C = 'cccccccc-0000-4000-8000-000000000000';
/** The others' activities: ids below this device's (theirs is kept in a group) and above (this device's is). */
const THEIRS = ['11111111-0000-4000-8000-00000000000a', '22222222-0000-4000-8000-00000000000a', 'eeeeeeee-0000-4000-8000-00000000000a', 'ffffffff-0000-4000-8000-00000000000a'];
/** This device's first activities (idsFor below): the others rename, delete and log blocks on them too. */
const MINE = [1, 2, 3].map((n) => `aaaaaaaa-0000-4000-8000-${String(n).padStart(12, '0')}`);
const NAMES = ['Write', 'write', 'Café', 'Cafe\u0301', 'Plan'];
const DAY = Date.parse('2026-11-22T00:00:00Z');

/** Ids that count up, this device's own. */
function idsFor(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

/** One step of a history: this device's use case (then logged, as the app drains it) or a batch of another device's lines. */
const stepArb = fc.oneof(
  fc.record({ what: fc.constant('log' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ what: fc.constant('create' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ what: fc.constant('rename' as const), pick: fc.nat(), name: fc.constantFrom(...NAMES) }),
  fc.record({ what: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ what: fc.constant('merge' as const), pick: fc.nat(), into: fc.nat() }),
  fc.record({
    what: fc.constant('theirs' as const),
    device: fc.constantFrom(B, C),
    ops: fc.array(
      fc.oneof(
        fc.record({ op: fc.constant('activity.create'), id: fc.constantFrom(...THEIRS), name: fc.constantFrom(...NAMES) }),
        fc.record({ op: fc.constant('activity.rename'), id: fc.constantFrom(...THEIRS, ...MINE), name: fc.constantFrom(...NAMES) }),
        fc.record({ op: fc.constant('activity.delete'), id: fc.constantFrom(...THEIRS, ...MINE) }),
        fc.record({ op: fc.constant('activity.edit'), id: fc.constantFrom(...THEIRS, ...MINE), rate: fc.constantFrom('80.00', '95.00') }),
        fc.record({ op: fc.constant('entry.create'), id: fc.nat(5), activity: fc.constantFrom(...THEIRS, ...MINE), start: fc.nat(40) }),
        fc.record({ op: fc.constant('entry.delete'), id: fc.nat(5) }),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  }),
);

type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

/** This device: a store with sync on, its tracker on a clock of its own. */
interface Here {
  store: Store;
  tracker: Tracker;
  clock: ManualClock;
}

function here(): Here {
  const store = openStore(':memory:');
  const clock = manualClock('2026-11-22T09:00:00.000Z');
  const tracker = createTracker({ store, clock, newId: idsFor('aaaaaaaa'), timeZone: 'UTC' });
  store.settings.set(SYNC_SETTINGS.device, { deviceID: ME, createdAt: clock() });
  installCapture(store);
  return { store, tracker, clock };
}

/** What a person sees of the store: its activities (every column) and blocks, by id. */
function shown(store: Store): unknown {
  const rows = (table: string): unknown[] => store.db.prepare(`SELECT * FROM ${table} ORDER BY id`).all().map((r) => ({ ...r }));
  return { activities: rows('activities'), sessions: rows('sessions'), entries: rows('entries'), breaks: rows('breaks') };
}

/** Regroups every synced activity and points every block of theirs again, as the merge did before it read groups by name. */
function regroupEvery(store: Store): void {
  store.transaction(() => {
    const ids = (store.db.prepare("SELECT id FROM sync_entities WHERE kind = 'activity'").all() as { id: string }[]).map((r) => r.id);
    reproject(store.db, new Entities(store.db), new Set(ids), ME, 'all');
  });
}

/** One operation of another device's, as generated. */
interface TheirOp {
  op: string;
  id: string | number;
  name?: string;
  rate?: string;
  activity?: string;
  start?: number;
}

/** Another device's lines for `ops`, at this device's time (its hlc counting up from there). */
function theirLines(device: string, ops: readonly TheirOp[], now: number): SyncOp[] {
  return ops.map((o, i) => {
    const at = now + i;
    const base = { v: 1, hlc: `${at}-0-${device}`, op: o.op, id: o.id };
    const entryID = `${device.slice(0, 8)}-0000-4000-9000-${String(o.id).padStart(12, '0')}`;
    const startedAt = DAY + (o.start ?? 0) * 60_000;
    const line =
      o.op === 'activity.create'
        ? { ...base, set: { name: o.name, createdAt: at } }
        : o.op === 'activity.rename'
          ? { ...base, set: { name: o.name } }
          : o.op === 'activity.edit'
            ? { ...base, set: { rate: o.rate } }
            : o.op === 'entry.create'
              ? { ...base, id: entryID, set: { device, activityID: o.activity, startedAt, endedAt: startedAt + 30_000, note: null, createdAt: at } }
              : o.op === 'entry.delete'
                ? { ...base, id: entryID }
                : base;
    return parseOpLine(JSON.stringify(line), device);
  });
}

/** A use case of this device's; one the rules refuse (a taken name, an activity with blocks) changes nothing. */
function attempt(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if ((error as { code?: string }).code === undefined) throw error;
  }
}

function play(h: Here, steps: readonly Step[]): void {
  const clock = deviceClock(h.store, ME, h.clock);
  const pick = (n: number): string | undefined => {
    const all = h.tracker.listActivities();
    return all[n % Math.max(all.length, 1)]?.activityID;
  };
  for (const step of steps) {
    h.clock.advance(60_000);
    if (step.what === 'theirs') {
      // Another device knows this device's activities once they are in its log, never before.
      const known = h.store.db.prepare("SELECT 1 FROM sync_entities WHERE kind = 'activity' AND id = ?");
      const activityOf = (o: TheirOp): string => String(o.activity ?? o.id);
      const ops = step.ops.filter((o: TheirOp) => !MINE.includes(activityOf(o)) || known.get(activityOf(o)) !== undefined);
      applyOperations(h.store, clock, theirLines(step.device, ops, h.clock()));
    } else {
      if (step.what === 'log') attempt(() => h.tracker.logEntry({ name: step.name, createIfMissing: true, durationMinutes: 5 }));
      if (step.what === 'create') attempt(() => h.tracker.createActivity(step.name));
      const id = 'pick' in step ? pick(step.pick) : undefined;
      if (step.what === 'rename' && id) attempt(() => h.tracker.renameActivity(id, step.name));
      if (step.what === 'delete' && id) attempt(() => deleteActivity(h.store, id));
      const into = step.what === 'merge' ? pick(step.into) : undefined;
      if (step.what === 'merge' && id && into && id !== into) attempt(() => mergeActivities(h.store, id, into));
      drainOutbox(h.store, clock);
    }
    const incremental = shown(h.store);
    regroupEvery(h.store);
    assert.deepEqual(shown(h.store), incremental, `after ${JSON.stringify(step)}`);
  }
}

test('property: regrouping only the names a change concerns gives the store regrouping every activity gives, after every step of this device and two others', () => {
  fc.assert(
    fc.property(fc.array(stepArb, { minLength: 1, maxLength: 24 }), (steps) => {
      const h = here();
      try {
        play(h, steps);
      } finally {
        h.store.close();
      }
    }),
    { numRuns: 100, seed: 20261129 },
  );
});

test('a rename there onto the name of an activity here joins the two; renamed apart, they split; deleted there, its block waits', () => {
  const h = here();
  try {
    play(h, [
      { what: 'log', name: 'Write' },
      { what: 'theirs', device: B, ops: [{ op: 'activity.create', id: THEIRS[0] as string, name: 'Review' }, { op: 'entry.create', id: 1, activity: THEIRS[0] as string, start: 3 }] },
      // Theirs takes this device's "Write" (a rename there onto its name): one activity, theirs kept (the lower id).
      { what: 'theirs', device: B, ops: [{ op: 'activity.rename', id: THEIRS[0] as string, name: 'write' }] },
    ]);
    assert.deepEqual(
      h.tracker.listActivities().map((a) => [a.activityID, a.activityName]),
      [[THEIRS[0], 'write']],
    );
    // Theirs renamed apart: this device's "Write" is shown again, with its block.
    play(h, [{ what: 'theirs', device: C, ops: [{ op: 'activity.rename', id: THEIRS[0] as string, name: 'Plan' }] }]);
    assert.deepEqual(h.tracker.listActivities().map((a) => a.activityName).sort(), ['Plan', 'Write']);
    // Deleted there while its block is here: the block waits, the activity goes; this device's stays.
    play(h, [{ what: 'theirs', device: C, ops: [{ op: 'activity.delete', id: THEIRS[0] as string }] }]);
    assert.deepEqual(h.tracker.listActivities().map((a) => a.activityName), ['Write']);
    const blocks = (exported(h.store) as { entries: unknown[] }).entries;
    assert.equal(blocks.length, 1);
  } finally {
    h.store.close();
  }
});

test('renaming here the kept activity of a pair apart gives theirs of the old name its own row', () => {
  const h = here();
  try {
    play(h, [
      { what: 'log', name: 'Write' },
      { what: 'theirs', device: B, ops: [{ op: 'activity.create', id: THEIRS[3] as string, name: 'write' }, { op: 'entry.create', id: 1, activity: THEIRS[3] as string, start: 3 }] },
    ]);
    assert.deepEqual(h.tracker.listActivities().map((a) => [a.activityID, a.activityName]), [[MINE[0], 'Write']]);
    // The row is renamed by the use case; the group it leaves is found by the name it had.
    play(h, [{ what: 'rename', pick: 0, name: 'Plan' }]);
    assert.deepEqual(h.tracker.listActivities().map((a) => [a.activityID, a.activityName]).sort(), [[MINE[0], 'Plan'], [THEIRS[3], 'write']]);
  } finally {
    h.store.close();
  }
});

test("an activity's row that no longer shows its merged name is written again when a change of it arrives, not inserted twice", () => {
  const h = here();
  try {
    play(h, [{ what: 'theirs', device: B, ops: [{ op: 'activity.create', id: THEIRS[0] as string, name: 'Write' }] }]);
    // A table that drifted from the merged state (written with capture quiet, as sync's own writes are).
    h.store.db.exec('INSERT INTO sync_applying (flag) VALUES (1)');
    h.store.db.prepare("UPDATE activities SET name = 'Drift', name_key = 'drift', search_key = 'drift', word_key = 'drift' WHERE id = ?").run(THEIRS[0] as string);
    h.store.db.exec('DELETE FROM sync_applying');
    play(h, [{ what: 'theirs', device: B, ops: [{ op: 'activity.rename', id: THEIRS[0] as string, name: 'Plan' }] }]);
    assert.deepEqual(h.tracker.listActivities().map((a) => [a.activityID, a.activityName]), [[THEIRS[0], 'Plan']]);
  } finally {
    h.store.close();
  }
});

test('activities merged by a Tock that kept no name key in ref are keyed once, then found by it', () => {
  const h = here();
  try {
    play(h, [
      { what: 'log', name: 'Write' },
      { what: 'theirs', device: B, ops: [{ op: 'activity.create', id: THEIRS[3] as string, name: 'Review' }] },
    ]);
    // As an earlier Tock stored them: no ref on an activity.
    h.store.db.exec("UPDATE sync_entities SET ref = NULL WHERE kind = 'activity'");
    play(h, [{ what: 'theirs', device: C, ops: [{ op: 'activity.rename', id: THEIRS[3] as string, name: 'write' }] }]);
    assert.deepEqual(h.tracker.listActivities().map((a) => [a.activityID, a.activityName]), [[MINE[0], 'Write']]);
    const unkeyed = h.store.db.prepare("SELECT count(*) AS n FROM sync_entities WHERE kind = 'activity' AND ref IS NULL").get() as { n: number };
    assert.equal(unkeyed.n, 0);
  } finally {
    h.store.close();
  }
});
