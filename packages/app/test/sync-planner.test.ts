/**
 * The periodic drain of this device's writes into its log (docs/sync.md "Writing the log"):
 * planned on a thread of its own, with its own connection to the real store file, and written
 * on the app's thread. It writes to the folder exactly what a drain on the app's thread writes;
 * a plan overtaken by a drain or an apply on the app's thread is dropped, so no line is logged
 * twice and none is lost.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createTracker, openStore, type Store, type Tracker } from '@tock/core';
import { SYNC_SETTINGS, logLength } from '@tock/core/sync';
import { PEER, peerLines } from '../../core/test/support/sync-peer.ts';
import { SyncService } from '../src/sync/sync-service.ts';

const ME = 'abababab-0000-4000-8000-000000000001';
const NOW = Date.parse('2026-11-22T12:00:00Z');

interface Device {
  store: Store;
  tracker: Tracker;
  sync: SyncService;
  folder: string;
}

/** A store with sync on in a folder of its own; its periodic drain never runs on a timer. */
function device(t: TestContext): Device {
  const root = mkdtempSync(join(tmpdir(), 'tock-planner-'));
  const store = openStore(join(root, 'tock.db'));
  let n = 0;
  const tracker = createTracker({ store, clock: () => NOW, timeZone: 'UTC', newId: () => `abababab-0000-4000-9000-${String(++n).padStart(12, '0')}` });
  // One identity on every such store: two of them given the same writes log the same lines.
  store.settings.set(SYNC_SETTINGS.device, { deviceID: ME, createdAt: NOW });
  const sync = new SyncService({ store, clock: () => NOW, flushMs: 3_600_000, rescanMs: 3_600_000 });
  const folder = join(root, 'folder');
  mkdirSync(folder);
  sync.enable(folder, 'planner');
  t.after(() => {
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { store, tracker, sync, folder };
}

/** Writes of every kind: an activity, a session started and stopped, entries made, edited and deleted. */
function work(d: Device, entries: number): void {
  d.tracker.startActivity({ name: 'Write', createIfMissing: true });
  d.tracker.stopActivity();
  const edited = d.tracker.logEntry({ name: 'Write', durationMinutes: 5, note: 'draft' });
  for (let i = 0; i < entries; i++) d.tracker.logEntry({ name: 'Write', durationMinutes: 1 });
  d.tracker.updateEntry(edited.entryID, { note: 'final' });
  d.tracker.deleteEntry(d.tracker.logEntry({ name: 'Write', durationMinutes: 2 }).entryID);
}

function outbox(d: Device): number {
  return (d.store.db.prepare('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n;
}

/** This device's segment files, name → text. */
function ownFiles(d: Device): Record<string, string> {
  const own = join(d.folder, 'tock-sync-v1', ME);
  return Object.fromEntries(
    readdirSync(own)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .map((f) => [f, readFileSync(join(own, f), 'utf8')]),
  );
}

/** Every line of this device's log, each once. */
function assertEachOnce(d: Device): string[] {
  const lines = Object.values(ownFiles(d)).join('').split('\n').filter(Boolean);
  assert.equal(new Set(lines.map((l) => (JSON.parse(l) as { hlc: string }).hlc)).size, lines.length, 'no hlc twice');
  assert.equal(lines.length, logLength(d.store));
  return lines;
}

test('the periodic drain, planned on its own thread, writes the same log to the folder as a drain on the app thread', async (t) => {
  const planned = device(t);
  const here = device(t);
  work(planned, 300);
  work(here, 300);
  const drained = planned.sync.flushInBackground();
  assert.equal(outbox(planned), 307, 'nothing drained on this thread: the plan is made on the other');
  await drained;
  here.sync.syncNow();
  assert.equal(outbox(planned), 0);
  // the activity, a start, a stop, 302 entries made, an edit, a delete
  assert.equal(assertEachOnce(planned).length, 307);
  assert.deepEqual(ownFiles(planned), ownFiles(here));
});

test('a plan overtaken by a drain on the app thread is dropped: no line twice, none lost', async (t) => {
  const d = device(t);
  work(d, 50);
  const dropped = d.sync.flushInBackground();
  d.sync.syncNow();
  await dropped;
  work(d, 50);
  await d.sync.flushInBackground(); // the drain after a dropped plan runs on the app thread
  work(d, 50);
  await d.sync.flushInBackground();
  assert.equal(outbox(d), 0);
  assert.equal(assertEachOnce(d).length, 3 * 56 + 1); // the activity once, then each round's 56 lines
});

test("a plan overtaken by applying another device's lines is dropped; both devices' work is kept", async (t) => {
  const d = device(t);
  work(d, 50);
  const peer = join(d.folder, 'tock-sync-v1', PEER);
  mkdirSync(peer, { recursive: true });
  writeFileSync(join(peer, 'device.json'), JSON.stringify({ deviceID: PEER, name: 'peer', createdAt: '2026-11-01T00:00:00.000Z' }));
  writeFileSync(join(peer, '00000001.jsonl'), `${peerLines(20).join('\n')}\n`);
  const dropped = d.sync.flushInBackground();
  d.sync.scan(); // applies the peer's lines, logging this device's writes first
  await dropped;
  assert.equal(outbox(d), 0);
  assert.equal(assertEachOnce(d).length, 57);
  assert.equal(d.sync.status().devices[0]?.applied, 20);
  const devices = d.store.db.prepare('SELECT device_id AS device, count(*) AS n FROM entries GROUP BY device_id ORDER BY device_id').all();
  assert.deepEqual(
    devices.map((r) => ({ ...r })),
    [
      { device: '', n: 51 },
      { device: PEER, n: 19 },
    ],
  );
});
