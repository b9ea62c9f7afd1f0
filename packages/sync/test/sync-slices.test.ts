/**
 * A long backlog never holds the app (docs/sync.md "Reading the folder"):
 * a drain or scan started by a timer or a watch event works one time slice, then lets the
 * event loop answer what waits, and goes on in its next turn. With a slice of 0 ms each slice
 * is one transaction, so the tests see each step. Real store file, real folder, real watcher.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createTracker, openStore, type Store, type Tracker } from '@tock/core';
import { logLength } from '@tock/core/sync';
import { PEER, peerLines } from '@tock/core/testing';
import { segmentText } from './support/sync-folder.ts';
import type { SyncServiceOptions } from '../src/sync-service-options.ts';
import { SyncService } from '../src/sync-service.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');

interface Device {
  store: Store;
  tracker: Tracker;
  sync: SyncService;
  folder: string;
}

/** The peer's history starts a day before NOW: every line of it stamped before this device's clock. */
const HISTORY = NOW - 86_400_000;

function device(t: TestContext, options: Partial<SyncServiceOptions>): Device {
  const root = mkdtempSync(join(tmpdir(), 'tock-slices-'));
  const store = openStore(join(root, 'tock.db'));
  const tracker = createTracker({ store, clock: () => NOW, timeZone: 'UTC' });
  const sync = new SyncService({ store, clock: () => NOW, sliceMs: 0, flushMs: 3_600_000, rescanMs: 3_600_000, ...options });
  const folder = join(root, 'folder');
  mkdirSync(folder);
  sync.enable(folder, 'slices');
  t.after(() => {
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { store, tracker, sync, folder };
}

/** Calls `look` in every turn of the event loop until `done()`; returns what it saw. Fails after `seconds`. */
async function everyTurn<T>(look: () => T, done: () => boolean, seconds = 60): Promise<T[]> {
  const seen: T[] = [];
  const deadline = performance.now() + seconds * 1000;
  for (;;) {
    seen.push(look());
    if (done()) return seen;
    if (performance.now() > deadline) throw new Error(`the backlog was not worked off in ${seconds} s; seen ${[...new Set(seen)].join(', ')}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test("another device's long history arriving is applied a batch per turn of the event loop", async (t) => {
  const d = device(t, { rescanMs: 1000 }); // the rescan, should the watch event not come
  const peer = join(d.folder, 'tock-sync-v2', PEER);
  mkdirSync(peer, { recursive: true });
  writeFileSync(join(peer, 'device.json'), JSON.stringify({ deviceID: PEER, name: 'peer', createdAt: '2026-11-01T00:00:00.000Z' }));
  writeFileSync(join(peer, '00000001.jsonl'), segmentText(d.sync.folderKey(), PEER, peerLines(1260, HISTORY))); // five batches of 250 and 10
  // The watch event starts the scan; each turn of the loop sees how far it got.
  const applied = () => d.sync.status().devices[0]?.applied ?? 0;
  const seen = await everyTurn(applied, () => applied() === 1260);
  const steps = [...new Set(seen)];
  assert.deepEqual(steps, [0, 250, 500, 750, 1000, 1250, 1260]);
});

test("this device's long backlog is logged a transaction per turn of the event loop", async (t) => {
  const d = device(t, { flushMs: 5 });
  d.store.transaction(() => {
    for (let i = 0; i < 4100; i++) d.tracker.logEntry({ name: 'Import', createIfMissing: true, durationMinutes: 1 });
  });
  const logged = () => logLength(d.store);
  const seen = await everyTurn(logged, () => logged() === 4101);
  // 2 000 outbox rows per transaction (the activity's and 1 999 entries', then 2 000, then 101)
  assert.deepEqual([...new Set(seen)], [0, 2000, 4000, 4101]);
});

test("another device's lines arriving during this device's backlog wait until it is logged a slice at a time", async (t) => {
  const d = device(t, { rescanMs: 1000 }); // the rescan, should the watch event not come
  d.store.transaction(() => {
    for (let i = 0; i < 4100; i++) d.tracker.logEntry({ name: 'Import', createIfMissing: true, durationMinutes: 1 });
  });
  const peer = join(d.folder, 'tock-sync-v2', PEER);
  mkdirSync(peer, { recursive: true });
  writeFileSync(join(peer, 'device.json'), JSON.stringify({ deviceID: PEER, name: 'peer', createdAt: '2026-11-01T00:00:00.000Z' }));
  writeFileSync(join(peer, '00000001.jsonl'), segmentText(d.sync.folderKey(), PEER, peerLines(20, HISTORY)));
  // Applying logs this device's pending writes first, in its transaction: the scan works the
  // backlog off a transaction per turn before, and applies once one transaction is left.
  const state = () => `${logLength(d.store)} logged, ${d.sync.status().devices[0]?.applied ?? 0} applied`;
  const seen = await everyTurn(state, () => state() === '4101 logged, 20 applied');
  assert.deepEqual([...new Set(seen)], ['0 logged, 0 applied', '2000 logged, 0 applied', '4000 logged, 0 applied', '4101 logged, 20 applied']);
});
