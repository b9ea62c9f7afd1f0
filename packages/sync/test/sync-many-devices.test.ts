/**
 * A sync folder with thousands of planted device folders (docs/security.md "Version 4: the red
 * team", finding 3): every one was read — a reader, a watch, its device.json, its name written
 * into the store's settings (the whole map again for each) — and 20 000 of them made
 * `tock sync status` time out and the app grow by 200 MiB. A scan now reads at most
 * MAX_DEVICE_FOLDERS, the devices it read before first, and says how many it left.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore } from '@tock/core';
import { SYNC_SETTINGS } from '@tock/core/sync';
import { PEER, peerLines } from '@tock/core/testing';
import { MAX_DEVICE_FOLDERS } from '../src/folder.ts';
import { SyncService } from '../src/sync-service.ts';
import { segmentText } from './support/sync-folder.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const PLANTED = MAX_DEVICE_FOLDERS * 3;

test('a folder with more device folders than MAX_DEVICE_FOLDERS: the known device is still read, the rest are left and named', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tock-many-devices-'));
  const store = openStore(join(root, 'tock.db'));
  const sync = new SyncService({ store, clock: () => NOW, flushMs: 3_600_000, rescanMs: 3_600_000 });
  t.after(() => {
    sync.stop();
    store.close();
    rmSync(root, { recursive: true, force: true });
  });
  const folder = join(root, 'folder');
  mkdirSync(folder);
  sync.enable(folder, 'here');
  const peer = join(folder, 'tock-sync-v2', PEER);
  mkdirSync(peer, { recursive: true });
  writeFileSync(join(peer, 'device.json'), JSON.stringify({ deviceID: PEER, name: 'peer', createdAt: '2026-11-01T00:00:00.000Z' }));
  writeFileSync(join(peer, '00000001.jsonl'), segmentText(sync.folderKey(), PEER, peerLines(5, NOW - 86_400_000)));
  await sync.syncNow();
  assert.equal(sync.status().devices.find((d) => d.deviceID === PEER)?.applied, 5);

  // Planted folders whose ids sort before the peer's, each with a device.json of its own.
  for (let i = 0; i < PLANTED; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    mkdirSync(join(folder, 'tock-sync-v2', id));
    writeFileSync(join(folder, 'tock-sync-v2', id, 'device.json'), JSON.stringify({ deviceID: id, name: `planted ${i}`, createdAt: '2026-11-01T00:00:00.000Z' }));
  }
  writeFileSync(join(peer, '00000001.jsonl'), segmentText(sync.folderKey(), PEER, peerLines(8, NOW - 86_400_000)));
  await sync.syncNow();
  const status = sync.status();
  assert.ok(status.devices.length <= MAX_DEVICE_FOLDERS, `${status.devices.length} devices read`);
  assert.equal(status.devices.find((d) => d.deviceID === PEER)?.applied, 8, 'the device read before is read first');
  // This device's own folder is one of the entries: PLANTED + the peer + this device.
  assert.deepEqual(status.problemReason, { code: 'folder_many_devices', values: { total: PLANTED + 2, max: MAX_DEVICE_FOLDERS, count: PLANTED + 2 - MAX_DEVICE_FOLDERS } });
  const names = (store.settings.get<Record<string, string>>(SYNC_SETTINGS.deviceNames) ?? {});
  assert.ok(Object.keys(names).length <= MAX_DEVICE_FOLDERS, `${Object.keys(names).length} names kept`);
});
