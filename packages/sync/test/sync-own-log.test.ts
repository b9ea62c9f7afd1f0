/**
 * This device's segments as OwnLog writes them (docs/sync.md "Format 2"): of the segment written
 * last, only the lines logged since are read and signed, so each write must still give the file
 * every line of the segment signed, in order, and a segment whose lines changed under it (the
 * sync state reset) is read whole again. A drain that goes on in its next slice leaves the
 * segment it is filling to then, but no segment is left behind once it stops.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { createTracker, openStore } from '@tock/core';
import { SYNC_SETTINGS, deviceClock, drainOutbox, installCapture, logSegments, resetSyncState, segmentLines, signLine } from '@tock/core/sync';
import { segmentName } from '../src/folder.ts';
import { OwnLog } from '../src/own-log.ts';

const DEVICE = 'aaaaaaaa-0000-4000-8000-000000000001';
const KEY = new Uint8Array(32).fill(7);

/**
 * A store in a fresh folder with sync's capture on for {@link DEVICE}, its sync folder, a tracker
 * and an OwnLog on it, at `clock`; what the segment file `n` holds and should hold.
 */
function ownLogSetup(t: TestContext, clock: () => number) {
  const root = mkdtempSync(join(tmpdir(), 'tock-own-log-'));
  const store = openStore(join(root, 'tock.db'));
  t.after(() => {
    store.close();
    rmSync(root, { recursive: true, force: true });
  });
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const folder = join(root, 'folder');
  mkdirSync(join(folder, 'tock-sync-v2', DEVICE), { recursive: true });
  store.settings.set(SYNC_SETTINGS.device, { deviceID: DEVICE, createdAt: clock() });
  installCapture(store);
  const own = new OwnLog(store, KEY);
  const path = (n: number): string => join(folder, 'tock-sync-v2', DEVICE, segmentName(n));
  const file = (n: number): string | undefined => (existsSync(path(n)) ? readFileSync(path(n), 'utf8') : undefined);
  const expected = (n: number): string => `${segmentLines(store, n).map((line) => signLine(KEY, DEVICE, line)).join('\n')}\n`;
  return { store, tracker, folder, own, file, expected };
}

test('a segment written over several drains holds each of its lines signed once, in order; after a reset, only the new lines', (t) => {
  let now = Date.parse('2026-11-22T12:00:00Z');
  const clock = (): number => now;
  const { store, tracker, folder, own, file, expected } = ownLogSetup(t, clock);
  const drain = (): void => {
    own.drain(deviceClock(store, DEVICE, clock), folder, DEVICE, Number.POSITIVE_INFINITY);
  };

  tracker.logEntry({ name: 'Write', createIfMissing: true, durationMinutes: 5 });
  drain();
  assert.equal(segmentLines(store, 1).length, 2);
  assert.equal(file(1), expected(1));
  for (let round = 0; round < 3; round++) {
    now += 60_000;
    for (let i = 0; i <= round; i++) tracker.logEntry({ name: 'Write', durationMinutes: 1, note: `round ${round}` });
    drain();
    assert.equal(file(1), expected(1), `round ${round}`);
  }
  assert.equal(segmentLines(store, 1).length, 8);

  // The sync state forgotten and the history logged again (as joining a format-2 folder does):
  // the segment's lines are others now, and none of the old ones is kept.
  now += 3_600_000;
  resetSyncState(store);
  installCapture(store);
  for (const expectedLines of [8, 9]) {
    if (expectedLines === 9) tracker.logEntry({ name: 'Write', durationMinutes: 1, note: 'after' });
    drain();
    assert.equal(segmentLines(store, 1).length, expectedLines);
    assert.equal(file(1), expected(1));
  }
});

test('a drain that goes on in its next slice writes the segment it is filling then, once; every segment is whole when it stops', (t) => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const clock = (): number => now;
  const { store, tracker, folder, own, file, expected } = ownLogSetup(t, clock);
  // A slice of 0 ms: one transaction (DRAIN_ROWS, 2 000 outbox rows) a call.
  const slice = (): boolean => own.drain(deviceClock(store, DEVICE, clock), folder, DEVICE, 0);
  store.transaction(() => {
    for (let i = 0; i < 4100; i++) tracker.logEntry({ name: 'Import', createIfMissing: true, durationMinutes: 1, note: 'a note of some length, so that two segments fill' });
  });

  assert.equal(slice(), true);
  assert.deepEqual(logSegments(store), [1]);
  assert.equal(file(1), undefined, 'the segment being filled waits for the next slice');
  assert.equal(slice(), true);
  assert.deepEqual(logSegments(store), [1, 2]);
  assert.equal(file(1), expected(1), 'a segment filled up is written');
  assert.equal(file(2), undefined);
  assert.equal(slice(), false);
  assert.equal(file(1), expected(1));
  assert.equal(file(2), expected(2), 'the drain stopped: every segment is whole');

  // Left to fill and then drained by something else (an apply drains first): the next drain,
  // with nothing left to log, writes it.
  store.transaction(() => {
    for (let i = 0; i < 2100; i++) tracker.logEntry({ name: 'Import', durationMinutes: 1 });
  });
  assert.equal(slice(), true);
  const filling = Math.max(...logSegments(store));
  assert.notEqual(file(filling), expected(filling));
  drainOutbox(store, deviceClock(store, DEVICE, clock));
  assert.equal(slice(), false);
  for (const n of logSegments(store)) assert.equal(file(n), expected(n), `segment ${n}`);
});
