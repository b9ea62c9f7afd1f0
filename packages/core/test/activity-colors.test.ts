/**
 * Activity colours (docs/product.md "Activity colours"): given once when an activity is made —
 * the palette slot fewest activities have — and kept through renames, imports and sync.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ACTIVITY_COLOR_COUNT } from '@tock/protocol';
import { colorFromId } from '../src/activity-colors.ts';
import { createTracker, exportChunks, importFile } from '../src/index.ts';
import { SYNC_SETTINGS, applyOperations, deviceClock, drainOutbox, installCapture, parseOpLine } from '../src/sync/index.ts';
import { fixture } from './support.ts';

const colors = (f: ReturnType<typeof fixture>) => Object.fromEntries(f.tracker.listActivities().map((a) => [a.activityName, a.color]));

test('the first eight activities get eight colours, the ninth the least used one, and renames keep them', (t) => {
  const f = fixture(t);
  for (let i = 0; i < ACTIVITY_COLOR_COUNT + 1; i++) {
    f.tracker.createActivity(`A${i}`);
    f.clock.advanceMinutes(1);
  }
  const given = colors(f);
  assert.deepEqual(
    Array.from({ length: ACTIVITY_COLOR_COUNT + 1 }, (_, i) => given[`A${i}`]),
    [0, 1, 2, 3, 4, 5, 6, 7, 0],
  );
  const a3 = f.tracker.listActivities().find((a) => a.activityName === 'A3');
  f.tracker.renameActivity(a3?.activityID ?? '', 'Renamed');
  assert.equal(colors(f).Renamed, 3);
  // Through start --create too, and after a restart.
  f.tracker.startActivity({ name: 'Started', createIfMissing: true });
  assert.equal(colors(f.reopen()).Started, 1);
});

test('an import keeps every colour the store has, and gives new activities the least used ones (the reported bug)', async (t) => {
  const f = fixture(t, { now: '2026-11-22T09:00:00.000Z' });
  f.tracker.createActivity('Writing');
  f.tracker.createActivity('Review');
  const before = colors(f);
  // Activities that began long before these: by creation order the window used to recolour all.
  const intervals = [
    { id: 1, start: '20200101T080000Z', end: '20200101T090000Z', tags: ['Ancient'] },
    { id: 2, start: '20200102T080000Z', end: '20200102T090000Z', tags: ['Older'] },
    { id: 3, start: '20200103T080000Z', end: '20200103T090000Z', tags: ['Writing'] },
  ];
  const path = join(f.dir, 'timew.json');
  writeFileSync(path, JSON.stringify(intervals));
  await importFile(f.store, { path, timeZone: 'UTC', now: f.clock() });
  assert.deepEqual(colors(f), { ...before, Ancient: 2, Older: 3 });
});

/** A device of its own with sync capture on (ids that differ per device). */
function syncedDevice(t: Parameters<typeof fixture>[0], id: string) {
  const f = fixture(t);
  let n = 0;
  const tracker = createTracker({ store: f.store, clock: f.clock, newId: () => `${id.slice(0, 8)}-0000-4000-8000-${String(++n).padStart(12, '0')}`, timeZone: 'UTC' });
  f.store.settings.set(SYNC_SETTINGS.device, { deviceID: id, createdAt: f.clock() });
  installCapture(f.store);
  return { f: { ...f, tracker }, id };
}

function deliver(from: ReturnType<typeof syncedDevice>, to: ReturnType<typeof syncedDevice>): void {
  drainOutbox(from.f.store, deviceClock(from.f.store, from.id, from.f.clock));
  const lines = (from.f.store.db.prepare('SELECT line FROM sync_log ORDER BY seq').all() as { line: string }[]).map((r) => r.line);
  applyOperations(to.f.store, deviceClock(to.f.store, to.id, to.f.clock), lines.map((line) => parseOpLine(line, from.id)));
}

test('two synced devices agree on every colour; a line without one (an older Tock) still applies', (t) => {
  const a = syncedDevice(t, 'aaaaaaaa-0000-4000-8000-000000000000');
  const b = syncedDevice(t, 'bbbbbbbb-0000-4000-8000-000000000000');
  a.f.tracker.createActivity('Write');
  a.f.tracker.createActivity('Read');
  a.f.tracker.createActivity('Shared');
  b.f.tracker.createActivity('Other');
  b.f.tracker.createActivity('Shared'); // the same name on both: one activity, A's (the lower id)
  deliver(a, b);
  deliver(b, a);
  // A third device on an older Tock: its activity line has no colour.
  const c = 'cccccccc-0000-4000-8000-000000000000';
  const old = `{"v":1,"hlc":"${Date.parse('2026-11-22T08:00:00Z')}-0-${c}","op":"activity.create","id":"cccccccc-0000-4000-8000-0000000000ff","set":{"name":"From an older Tock","createdAt":${Date.parse('2026-11-22T08:00:00Z')}}}`;
  for (const d of [a, b]) applyOperations(d.f.store, deviceClock(d.f.store, d.id, d.f.clock), [parseOpLine(old, c)]);
  assert.deepEqual(colors(a.f), colors(b.f));
  assert.deepEqual(colors(b.f), { Write: 0, Read: 1, Shared: 2, Other: 0, 'From an older Tock': colorFromId('cccccccc-0000-4000-8000-0000000000ff') });
  // A colour changed on one device (as an import into an existing activity never does, but a
  // later edit could) travels as an activity edit, and the higher hlc wins.
  a.f.store.db.prepare("UPDATE activities SET color = 5 WHERE name = 'Read'").run();
  deliver(a, b);
  assert.equal(colors(b.f).Read, 5);
});

test('a Tock export carries each colour, and importing it into an empty store keeps them', async (t) => {
  const from = fixture(t);
  for (const name of ['One', 'Two', 'Three']) from.tracker.createActivity(name);
  // Colours the least used rule would not give an empty store (as another device might have set).
  from.store.db.prepare("UPDATE activities SET color = CASE name WHEN 'One' THEN 4 WHEN 'Two' THEN 6 ELSE color END").run();
  const path = join(from.dir, 'export.json');
  writeFileSync(path, [...exportChunks(from.store.db, { format: 'json', timeZone: 'UTC', now: from.clock() })].join(''));
  const to = fixture(t);
  await importFile(to.store, { path, timeZone: 'UTC', now: to.clock() });
  assert.deepEqual(colors(to), { One: 4, Two: 6, Three: 2 });
  const bad = join(to.dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ format: 'tock-export', version: 1, activities: [{ id: 'aaaaaaaa-0000-4000-8000-000000000001', name: 'X', createdAt: '2026-01-01T00:00:00.000Z', color: 9 }], sessions: [], entries: [] }));
  await assert.rejects(importFile(to.store, { path: bad, timeZone: 'UTC', now: to.clock() }), /"color" must be a whole number from 0 to 7/);
});
