/**
 * Sync through a folder with two real apps (two Tock homes, one folder; real tock.db files,
 * real files in the folder): work travels both ways with renames and deletes, both exports end
 * equal, GET /status stays each device's own, a line written to the folder is noticed without
 * being asked (fs.watch or the rescan), and everything wrong in the folder — a corrupt line, a
 * truncated segment, a newer format, a forged device.json, two devices with one name, the folder
 * removed or read-only — is reported by the status, never stops the app and never loses local data.
 * Waits end when the awaited change arrives; nothing sleeps through a window.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { until, tempDirs } from '@tock/test-support';
import { PEER, peerLines } from '@tock/core/testing';
import { startApp, type RunningApp } from '../src/app.ts';
import { exported, NOON } from './support/sync-apps.ts';
import { segmentText, signed, writeDevice } from './support/sync-folder.ts';

const tempDir = tempDirs();

interface Clock {
  now: number;
}

async function app(clock: Clock): Promise<RunningApp> {
  return startApp({
    home: tempDir('tock-sync-home-'),
    clock: () => clock.now,
    env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' },
  });
}

/**
 * Makes `dir` read-only and writable again, for real: for root (whom file modes do not stop) a
 * tmpfs mounted on it and remounted read-only, otherwise its modes. `release` undoes the mount.
 */
function readOnlySwitch(dir: string): { on(): void; off(): void; release(): void } {
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', dir]);
    return {
      on: () => execFileSync('mount', ['-o', 'remount,ro', dir]),
      off: () => execFileSync('mount', ['-o', 'remount,rw', dir]),
      release: () => execFileSync('umount', [dir]),
    };
  }
  const chmodTree = (mode: number): void => {
    chmodSync(dir, mode);
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isDirectory()) chmodSync(join(entry.parentPath, entry.name), mode);
    }
  };
  return { on: () => chmodTree(0o500), off: () => chmodTree(0o700), release: () => chmodTree(0o700) };
}

const FOLDER_DEVICE = 'dddddddd-0000-4000-8000-000000000001';

/** Writes another device's folder by hand: device.json and one segment's text each. */
function fakeDevice(dir: string, id: string, name: string, segments: Record<number, string>, claimedID = id): void {
  writeDevice(dir, id, name, segments, claimedID);
}

function activityLine(id: string, hlcMs: number, device: string, name: string): string {
  return JSON.stringify({ v: 1, hlc: `${hlcMs}-0-${device}`, op: 'activity.create', id, set: { name, createdAt: hlcMs } });
}

describe('sync with two apps and one folder', { timeout: 60_000 }, () => {
  it('work travels both ways: blocks, a rename, a delete; exports end equal; the status stays per device', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-folder-');
    const a = await app(clock);
    const b = await app(clock);
    try {
      a.services.tracker.startActivity({ name: 'Write', createIfMissing: true });
      clock.now += 30 * 60_000;
      a.services.tracker.stopActivity();
      // History made before sync is logged once when it is turned on.
      const enabled = a.services.sync.enable(folder, 'laptop');
      assert.equal(enabled.device?.name, 'laptop');
      assert.equal(enabled.device?.logLines, 2);
      b.services.sync.enable(folder, 'desktop', a.services.sync.folderKey());
      b.services.tracker.startActivity({ name: 'Review', createIfMissing: true });
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();
      // B's running session is B's: A's status does not show it, B's today counts A's 30 minutes.
      assert.equal(a.services.tracker.getStatus().isTracking, false);
      assert.equal(b.services.tracker.getStatus().isTracking, true);
      assert.equal(b.services.tracker.getStatus().todaySeconds, 30 * 60);
      // Listed blocks say on which device they were made when it is another.
      const idA = a.services.sync.status().device?.deviceID;
      assert.deepEqual(b.services.tracker.listBlocks(0, clock.now + 1).map((x) => [x.activity.activityName, x.device]), [['Write', idA], ['Review', undefined]]);
      clock.now += 15 * 60_000;
      b.services.tracker.stopActivity();
      const write = b.services.tracker.listActivities().find((x) => x.activityName === 'Write');
      assert.ok(write);
      b.services.tracker.renameActivity(write.activityID, 'Writing');
      await b.services.sync.syncNow();
      await a.services.sync.syncNow();
      assert.equal(a.services.tracker.getStatus().todaySeconds, 45 * 60);
      assert.deepEqual(a.services.tracker.listActivities().map((x) => x.activityName), ['Review', 'Writing']);
      const session = a.services.tracker.listBlocks(0, clock.now + 1).find((x) => x.kind === 'session' && x.activity.activityName === 'Writing');
      assert.ok(session);
      a.services.tracker.deleteSession(session.id);
      await a.services.sync.syncNow();
      await b.services.sync.syncNow();
      assert.equal(b.services.tracker.getStatus().todaySeconds, 15 * 60);
      assert.deepEqual(exported(a), exported(b));
      const view = exported(b) as { sessions: { device: string }[] };
      assert.equal(view.sessions.length, 1);
      assert.equal(view.sessions[0]?.device, b.services.sync.status().device?.deviceID);
      const status = a.services.sync.status();
      assert.equal(status.devices.length, 1);
      assert.equal(status.devices[0]?.name, 'desktop');
      assert.equal(status.devices[0]?.problem, null);
      assert.equal(status.devices[0]?.behind, 0);
      // Every file in the folder is 0600, every folder 0700.
      assert.equal(statSync(join(folder, 'tock-sync-v2', 'folder.json')).mode & 0o777, 0o600);
      for (const id of readdirSync(join(folder, 'tock-sync-v2')).filter((name) => name !== 'folder.json')) {
        const own = join(folder, 'tock-sync-v2', id);
        assert.equal(statSync(own).mode & 0o777, 0o700);
        for (const file of ['device.json', '00000001.jsonl']) assert.equal(statSync(join(own, file)).mode & 0o777, 0o600, file);
        assert.ok(readFileSync(join(own, '00000001.jsonl'), 'utf8').endsWith('\n'));
      }
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a line arriving in the folder is applied without being asked (watch or rescan)', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-folder-');
    const a = await app(clock);
    const b = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      b.services.sync.enable(folder, 'desktop', a.services.sync.folderKey());
      a.services.tracker.logEntry({ name: 'Plan', createIfMissing: true, durationMinutes: 20 });
      // A writes its log on its own (every 250 ms); B notices the change on its own.
      await until("A's 20 minutes in B's today", () => b.services.tracker.getStatus().todaySeconds === 20 * 60);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('bad input in the folder is reported and never stops applying others or loses local data', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-folder-');
    const a = await app(clock);
    try {
      a.services.tracker.logEntry({ name: 'Local', createIfMissing: true, durationMinutes: 10 });
      a.services.sync.enable(folder, 'laptop');
      const key = a.services.sync.folderKey();
      const line = (id: string, text: string): string => signed(key, id, [text])[0] as string;
      const D1 = FOLDER_DEVICE;
      const D2 = 'dddddddd-0000-4000-8000-000000000002';
      const D3 = 'dddddddd-0000-4000-8000-000000000003';
      const D4 = 'dddddddd-0000-4000-8000-000000000004';
      const D5 = 'dddddddd-0000-4000-8000-000000000005';
      const act = (n: number): string => `aaaaaaaa-0000-4000-8000-00000000000${n}`;
      const t0 = NOON - 4 * 3_600_000; // four hours before the app's now, in every zone
      // D1: a good line, a corrupt one, and a good one after it (not applied: the log stops there).
      fakeDevice(folder, D1, 'tablet', { 1: segmentText(key, D1, [activityLine(act(1), t0, D1, 'One'), '{not json', activityLine(act(2), t0 + 1, D1, 'Two')]) });
      // D2: segment 1 cut mid-line while segment 2 is there.
      fakeDevice(folder, D2, 'phone', { 1: `${line(D2, activityLine(act(3), t0, D2, 'Three'))}\n{"mac":"0`, 2: segmentText(key, D2, [activityLine(act(4), t0 + 1, D2, 'Four')]) });
      // D3: a line of a newer format.
      fakeDevice(folder, D3, 'server', { 1: segmentText(key, D3, [JSON.stringify({ v: 2, hlc: `${t0}-0-${D3}`, op: 'activity.create', id: act(5) })]) });
      // D4: a device.json claiming to be D1.
      fakeDevice(folder, D4, 'forger', { 1: segmentText(key, D4, [activityLine(act(6), t0, D4, 'Six')]) }, D1);
      // D5: the same name as this device, and a last line still arriving (no newline: not read yet).
      fakeDevice(folder, D5, 'Laptop', { 1: `${line(D5, activityLine(act(7), t0, D5, 'Seven'))}\n${line(D5, activityLine(act(8), t0 + 1, D5, 'Eight')).slice(0, 30)}` });
      // D6: a folder where a segment should be (a sync engine's mistake, a person's): unreadable.
      const D6 = 'dddddddd-0000-4000-8000-000000000006';
      fakeDevice(folder, D6, 'odd', {});
      mkdirSync(join(folder, 'tock-sync-v2', D6, '00000001.jsonl'));
      await a.services.sync.syncNow();
      const status = a.services.sync.status();
      const problem = (id: string): string | null | undefined => status.devices.find((d) => d.deviceID === id)?.problem;
      assert.match(problem(D1) ?? '', /^00000001\.jsonl line 2: not a JSON line; applying its log stops there$/);
      assert.match(problem(D2) ?? '', /segment 00000001\.jsonl ends without a newline while 00000002\.jsonl follows: truncated/);
      assert.match(problem(D3) ?? '', /line 1: written in format v2 by a newer Tock; update Tock on this device/);
      assert.match(problem(D4) ?? '', /device\.json claims to be device dddddddd-0000-4000-8000-000000000001, not the folder's/);
      assert.match(problem(D5) ?? '', /has the same name as device/);
      assert.match(problem(D6) ?? '', /^segment 00000001\.jsonl is a folder, not a regular file; it is not read and applying its log stops there$/);
      const names = a.services.tracker.listActivities().map((x) => x.activityName);
      assert.deepEqual(names, ['Local', 'One', 'Seven', 'Three']);
      assert.equal(a.services.tracker.getStatus().todaySeconds, 10 * 60);

      // The folder removed: reported, local work goes on and waits in the store; back, it is rewritten.
      rmSync(folder, { recursive: true, force: true });
      a.services.tracker.logEntry({ name: 'Local', durationMinutes: 5 });
      await a.services.sync.syncNow();
      assert.match(a.services.sync.status().problem ?? '', /is gone; nothing is lost/);
      mkdirSync(folder);
      await a.services.sync.syncNow();
      assert.equal(a.services.sync.status().problem, null);
      const me = a.services.sync.status().device?.deviceID as string;
      const lines = readFileSync(join(folder, 'tock-sync-v2', me, '00000001.jsonl'), 'utf8').trim().split('\n');
      assert.equal(lines.length, a.services.sync.status().device?.logLines);
    } finally {
      await a.stop();
    }
  });

  it('a read-only folder is reported; local work goes on and reaches the folder once it is writable', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-folder-');
    const readOnly = readOnlySwitch(folder);
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      a.services.tracker.logEntry({ name: 'Local', durationMinutes: 5, createIfMissing: true });
      await a.services.sync.syncNow();
      assert.equal(a.services.sync.status().problem, null);

      readOnly.on();
      a.services.tracker.logEntry({ name: 'Local', durationMinutes: 7, endedAt: new Date(clock.now - 5 * 60_000).toISOString() }); // apart from the first: overlapping time counts once (docs/product.md)
      await a.services.sync.syncNow();
      assert.match(a.services.sync.status().problem ?? '', /is read-only; this device's changes wait in the store until it is writable$/);
      assert.deepEqual(a.services.tracker.listBlocks(0, NOON + 1).map((b) => b.durationMinutes).sort(), [5, 7]);

      readOnly.off();
      await a.services.sync.syncNow();
      assert.equal(a.services.sync.status().problem, null);
      const me = a.services.sync.status().device?.deviceID as string;
      const lines = readFileSync(join(folder, 'tock-sync-v2', me, '00000001.jsonl'), 'utf8').trim().split('\n');
      assert.equal(lines.length, a.services.sync.status().device?.logLines);
    } finally {
      readOnly.release();
      await a.stop();
    }
  });

  it('a segment larger than one read is applied whole, in batches, each line once', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-sync-folder-');
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      const lines = peerLines(4000, Date.parse('2026-11-01T00:00:00Z'));
      assert.ok(lines.join('\n').length > 1024 * 1024);
      fakeDevice(folder, PEER, 'desktop', { 1: segmentText(a.services.sync.folderKey(), PEER, lines) });
      await a.services.sync.syncNow();
      const other = a.services.sync.status().devices[0];
      assert.deepEqual([other?.applied, other?.behind, other?.problem], [4000, 0, null]);
      assert.equal(Number((a.services.store.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n), 3999);
    } finally {
      await a.stop();
    }
  });

  it('tock sync enable refuses a folder that is not there, a file, a relative path, a bad name', async () => {
    const clock = { now: NOON };
    const a = await app(clock);
    const folder = tempDir('tock-sync-folder-');
    try {
      assert.throws(() => a.services.sync.enable(join(folder, 'missing')), /does not exist; create it/);
      writeFileSync(join(folder, 'file'), '');
      assert.throws(() => a.services.sync.enable(join(folder, 'file')), /is not a folder/);
      assert.throws(() => a.services.sync.enable('relative/dir'), /must be an absolute path/);
      assert.throws(() => a.services.sync.enable(folder, 'a\nb'), /device name must be/);
      // Each refusal carries its reason by code beside the English (docs/i18n.md).
      const because = (work: () => unknown): unknown => {
        try {
          work();
        } catch (error) {
          return (error as { because?: unknown }).because;
        }
        return undefined;
      };
      assert.deepEqual(because(() => a.services.sync.enable(join(folder, 'missing'))), { code: 'sync_dir_missing', values: { dir: join(folder, 'missing') } });
      assert.deepEqual(because(() => a.services.sync.enable(join(folder, 'file'))), { code: 'sync_dir_not_folder', values: { dir: join(folder, 'file') } });
      assert.deepEqual(because(() => a.services.sync.enable('relative/dir')), { code: 'sync_dir_relative', values: { dir: 'relative/dir' } });
      assert.deepEqual(because(() => a.services.sync.enable(folder, 'a\nb')), { code: 'sync_device_name', values: { max: 100 } });
      assert.deepEqual(because(() => a.services.sync.enable(folder, 'laptop', 'not-a-key')), { code: 'sync_key_shape', values: { command: 'tock sync key' } });
      // A folder whose folder.json is not JSON: the file's own problem by its code inside the refusal.
      const broken = join(folder, 'broken');
      mkdirSync(join(broken, 'tock-sync-v2'), { recursive: true });
      writeFileSync(join(broken, 'tock-sync-v2', 'folder.json'), 'not json');
      assert.throws(() => a.services.sync.enable(broken), { message: `${broken}: tock-sync-v2/folder.json is not JSON; remove it only if no device syncs there, then run tock sync enable again` });
      assert.deepEqual(because(() => a.services.sync.enable(broken)), { code: 'sync_folder_file', values: { dir: broken, what: 'not_json', file: 'tock-sync-v2/folder.json' } });
      assert.equal(a.services.sync.status().enabled, false);
      // Disabling keeps the device's id; enabling again logs nothing twice.
      a.services.tracker.logEntry({ name: 'Plan', createIfMissing: true, durationMinutes: 20 });
      const first = a.services.sync.enable(folder);
      assert.equal(first.device?.name, hostname()); // the name defaults to the host name
      a.services.sync.disable();
      // The key this device keeps is the folder's: no --key needed to turn sync on again.
      const again = a.services.sync.enable(folder);
      assert.equal(again.device?.deviceID, first.device?.deviceID);
      assert.equal(again.device?.logLines, first.device?.logLines);
    } finally {
      await a.stop();
    }
  });
});
