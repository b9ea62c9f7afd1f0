/**
 * Sync format 2 against a hostile folder (docs/security.md, issue 23 items 3, 4 and 7): each
 * test plays the attacker who can write to the sync folder but does not hold the folder key —
 * or, for the clock and the rules, one who does. A forged far-future line waits and never moves
 * this device's clock; a line without the key's mac stops its log; FIFOs, links and huge files
 * are never opened or read whole while the app keeps answering; names with escapes and times
 * past 2199 are refused; a format-1 folder is not read. Clocks are injected; nothing sleeps.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { formatSyncKey, keyCheck, parseSyncKey } from '@tock/core/sync';
import { TockClient, withDeps } from '../../client/src/client.ts';
import { adminRequest } from '../src/admin.ts';
import { startApp, type RunningApp } from '../src/app.ts';
import { freePort } from './support/real-app.ts';
import { NOON } from './support/sync-apps.ts';
import { segmentText, signed, writeDevice } from './support/sync-folder.ts';

const roots: string[] = [];
after(() => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  roots.push(dir);
  return dir;
}

async function app(clock: { now: number }, home = tempDir('tock-trust-home-')): Promise<RunningApp> {
  return startApp({ home, clock: () => clock.now, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' } });
}

const EVIL = 'eeeeeeee-0000-4000-8000-000000000001';
const ACT = 'eeeeeeee-0000-4000-8000-0000000000a1';
const ENTRY = 'eeeeeeee-0000-4000-8000-0000000000e1';

function create(hlcMs: number, name: string, counter = 0): string {
  return JSON.stringify({ v: 1, hlc: `${hlcMs}-${counter}-${EVIL}`, op: 'activity.create', id: ACT, set: { name, createdAt: NOON - 3_600_000 } });
}

function entry(hlcMs: number, set: Record<string, unknown> = {}): string {
  return JSON.stringify({
    v: 1,
    hlc: `${hlcMs}-0-${EVIL}`,
    op: 'entry.create',
    id: ENTRY,
    set: { device: EVIL, activityID: ACT, startedAt: NOON - 3_600_000, endedAt: NOON - 3_000_000, note: null, createdAt: NOON, ...set },
  });
}

function problemOf(a: RunningApp, id = EVIL): string | null | undefined {
  return a.services.sync.status().devices.find((d) => d.deviceID === id)?.problem;
}

describe('sync format 2 against a hostile folder', { timeout: 60_000 }, () => {
  it("a forged line with a valid mac and a far-future clock waits, the status says by how much, and this device's clock does not move", async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      const key = a.services.sync.folderKey();
      // Three hours ahead: an op 10 min ahead is the most another clock may run before this one.
      writeDevice(folder, EVIL, 'future', { 1: segmentText(key, EVIL, [create(NOON - 60_000, 'Now'), entry(NOON + 3 * 3_600_000 + 5 * 60_000)]) });
      await a.services.sync.syncNow();
      const status = a.services.sync.status().devices.find((d) => d.deviceID === EVIL);
      assert.equal(status?.applied, 1);
      assert.equal(status?.behind, 1);
      assert.equal(status?.aheadMs, 3 * 3_600_000 + 5 * 60_000);
      assert.equal(status?.problem, "its clock is ahead of this device's by 3 h 5 min: its changes from 00000001.jsonl line 2 on wait until this device's clock is within 10 minutes of it (or fix the clock on that device)");
      // Beside the English, its code and values, for the window and tock to word (docs/i18n.md).
      assert.deepEqual(status?.problemReason, { code: 'device_clock_ahead', values: { minutes: 185, segment: '00000001.jsonl', line: 2 } });
      assert.equal(a.services.tracker.listBlocks(0, NOON + 86_400_000).length, 0);
      // This device's next line is stamped with its own clock, not the forged one.
      a.services.tracker.logEntry({ name: 'Mine', createIfMissing: true, durationMinutes: 5 });
      await a.services.sync.syncNow();
      const me = a.services.sync.status().device?.deviceID as string;
      const own = readFileSync(join(folder, 'tock-sync-v2', me, '00000001.jsonl'), 'utf8').trim().split('\n');
      for (const line of own) assert.ok(Number((JSON.parse(line) as { op: { hlc: string } }).op.hlc.split('-')[0]) <= clock.now + 10 * 60_000, line);
      // Once this device's clock is near, the line is applied.
      clock.now += 3 * 3_600_000;
      await a.services.sync.syncNow();
      assert.equal(problemOf(a), null);
      assert.equal(a.services.sync.status().devices.find((d) => d.deviceID === EVIL)?.applied, 2);
    } finally {
      await a.stop();
    }
  });

  it('the attack of issue 23 — hlc "999999999999999-999999999-<id>" renaming and deleting — changes nothing and is named', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    const a = await app(clock);
    try {
      a.services.tracker.logEntry({ name: 'Mine', createIfMissing: true, durationMinutes: 20 });
      a.services.sync.enable(folder, 'laptop');
      const mine = a.services.tracker.listActivities()[0];
      const block = a.services.tracker.listBlocks(0, NOON + 1)[0];
      assert.ok(mine && block);
      const far = '999999999999999-999999999';
      const forged = [
        JSON.stringify({ v: 1, hlc: `${far}-${EVIL}`, op: 'activity.rename', id: mine.activityID, set: { name: 'Owned' } }),
        JSON.stringify({ v: 1, hlc: `${far}-${EVIL}`, op: 'entry.delete', id: block.id }),
      ];
      // Without the key (format 1's lines as they were) and with it: neither changes anything.
      writeDevice(folder, EVIL, 'attacker', { 1: `${forged.join('\n')}\n` });
      const other = 'eeeeeeee-0000-4000-8000-000000000002';
      const signedForged = forged.map((line) => line.replaceAll(EVIL, other));
      writeDevice(folder, other, 'insider', { 1: segmentText(a.services.sync.folderKey(), other, signedForged) });
      await a.services.sync.syncNow();
      assert.match(problemOf(a) ?? '', /^00000001\.jsonl line 1: not a signed line .*written without the folder key; applying its log stops there$/);
      assert.match(problemOf(a, other) ?? '', /^00000001\.jsonl line 1: the "hlc" counter 999999999 is above 999999; applying its log stops there$/);
      assert.deepEqual(a.services.tracker.listActivities().map((x) => x.activityName), ['Mine']);
      assert.equal(a.services.tracker.listBlocks(0, NOON + 1).length, 1);
      const stored = a.services.store.settings.get<{ ms: number }>('syncClock');
      assert.ok((stored?.ms ?? 0) <= clock.now + 10 * 60_000);
    } finally {
      await a.stop();
    }
  });

  it('a line with a wrong mac (another key, or altered) stops its log there and is named', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      const key = a.services.sync.folderKey();
      const otherKey = formatSyncKey(new Uint8Array(32).fill(7));
      const good = signed(key, EVIL, [create(NOON - 60_000, 'Fine')])[0] as string;
      const altered = (signed(key, EVIL, [entry(NOON - 50_000)])[0] as string).replace('"note":null', '"note":"x"');
      const wrongKey = signed(otherKey, EVIL, [entry(NOON - 40_000)])[0] as string;
      writeDevice(folder, EVIL, 'tablet', { 1: `${good}\n${altered}\n${wrongKey}\n` });
      await a.services.sync.syncNow();
      assert.equal(problemOf(a), '00000001.jsonl line 2: wrong "mac": not written with this folder\'s key (or altered since); applying its log stops there');
      assert.deepEqual(a.services.sync.status().devices.find((d) => d.deviceID === EVIL)?.problemReason, {
        code: 'device_line_refused',
        values: { segment: '00000001.jsonl', line: 2, reason: 'wrong "mac": not written with this folder\'s key (or altered since)' },
      });
      // The reason inside by its own code (docs/i18n.md).
      assert.deepEqual(a.services.sync.status().devices.find((d) => d.deviceID === EVIL)?.problemLine, { code: 'line_wrong_mac', values: {} });
      assert.deepEqual(a.services.tracker.listActivities().map((x) => x.activityName), ['Fine']);
      assert.equal(a.services.tracker.listBlocks(0, NOON + 1).length, 0);
    } finally {
      await a.stop();
    }
  });

  it('names with ANSI escapes or bidi overrides and an entry ending at 2^53−1 ms are refused with the line named', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      const key = a.services.sync.folderKey();
      const ids = ['eeeeeeee-0000-4000-8000-00000000000a', 'eeeeeeee-0000-4000-8000-00000000000b', 'eeeeeeee-0000-4000-8000-00000000000c'];
      const names = ['\u001b]0;owned\u0007\u001b[2JWrite', 'Invoice \u202egnp.exe', 'Plan'];
      ids.forEach((id, i) => {
        const line = JSON.stringify({ v: 1, hlc: `${NOON - 60_000}-0-${id}`, op: 'activity.create', id: ACT, set: { name: names[i], createdAt: NOON - 60_000 } });
        const lines = i === 2 ? [line, entry(NOON - 30_000, { endedAt: Number.MAX_SAFE_INTEGER }).replaceAll(EVIL, id)] : [line];
        writeDevice(folder, id, `device ${i}`, { 1: segmentText(key, id, lines) });
      });
      await a.services.sync.syncNow();
      assert.equal(problemOf(a, ids[0]), '00000001.jsonl line 1: field "name" must not contain control characters or bidirectional overrides; applying its log stops there');
      assert.equal(problemOf(a, ids[1]), '00000001.jsonl line 1: field "name" must not contain control characters or bidirectional overrides; applying its log stops there');
      assert.equal(problemOf(a, ids[2]), '00000001.jsonl line 2: field "endedAt" must be a time in ms in the years 1970–2199; applying its log stops there');
      assert.deepEqual(a.services.tracker.listActivities().map((x) => x.activityName), ['Plan']);
      // `tock export` still works (2^53−1 ms once broke it).
      assert.doesNotThrow(() => JSON.stringify(a.services.tracker.listBlocks(0, NOON + 1)));
    } finally {
      await a.stop();
    }
  });

  it('a FIFO, a link to a file outside and a 5 MiB segment are never opened or read whole, and are reported, while the app keeps answering', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    const outside = tempDir('tock-trust-outside-');
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      const key = a.services.sync.folderKey();
      const D = (n: number): string => `eeeeeeee-0000-4000-8000-00000000001${n}`;
      // 1: its segment is a FIFO nobody writes to (opening it for reading, blocking, waited for ever).
      const fifo = writeDevice(folder, D(1), 'fifo', {});
      execFileSync('mkfifo', [join(fifo, '00000001.jsonl')]);
      // 2: its device.json is a FIFO.
      const fifoJson = join(folder, 'tock-sync-v2', D(2));
      mkdirSync(fifoJson, { recursive: true });
      execFileSync('mkfifo', [join(fifoJson, 'device.json')]);
      // 3: its segment is a link to a file outside the folder, with well-signed lines in it.
      const link = writeDevice(folder, D(3), 'link', {});
      writeFileSync(join(outside, 'lines.jsonl'), segmentText(key, D(3), [create(NOON - 60_000, 'Through a link').replaceAll(EVIL, D(3))]));
      symlinkSync(join(outside, 'lines.jsonl'), join(link, '00000001.jsonl'));
      // 4: a 5 MiB segment without a newline (format 1 read it again every second, 0.5 s a time).
      writeDevice(folder, D(4), 'huge', { 1: 'x'.repeat(5 * 1024 * 1024) });
      // 5: the device folder itself a link to a folder outside.
      symlinkSync(outside, join(folder, 'tock-sync-v2', D(5)));
      // 6: a 300 KiB line in a small segment.
      writeDevice(folder, D(6), 'long', { 1: `${'y'.repeat(300 * 1024)}\n` });
      // 7: a device.json that is not JSON.
      writeFileSync(join(writeDevice(folder, D(7), 'broken', {}), 'device.json'), 'not json');
      const port = await freePort();
      await a.services.listener.enable(port);
      // Signed on the app's injected clock, as a client on this machine would be.
      const client = withDeps(new TockClient({ token: a.services.tokens.current() as string, port, timeoutMs: 10_000 }), { now: () => clock.now });
      const scanning = a.services.sync.syncNow();
      // Signed GET /status and the admin socket, sent while the folder is being read, answer
      // (a blocking open of the FIFO would hold the event loop, or the scan, for ever).
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => Promise.all([client.getStatus(), adminRequest(a.services.home.adminSocket, 'GET', '/ping')])),
      );
      for (const [status] of answers) assert.equal(status.isTracking, false);
      await scanning;
      assert.equal(problemOf(a, D(1)), 'segment 00000001.jsonl is a FIFO, not a regular file; it is not read and applying its log stops there');
      assert.equal(problemOf(a, D(2)), 'device.json is a FIFO, not a regular file; it is not read');
      assert.equal(problemOf(a, D(3)), 'segment 00000001.jsonl is a symbolic link, not a regular file; it is not read and applying its log stops there');
      assert.equal(problemOf(a, D(4)), 'segment 00000001.jsonl is 5.0 MiB, over the 4.0 MiB it may have; it is not read; applying its log stops there');
      assert.equal(problemOf(a, D(5)), `tock-sync-v2/${D(5)} is a symbolic link, not a folder; it is not read`);
      assert.equal(problemOf(a, D(6)), '00000001.jsonl line 1 is longer than 256 KiB; it is not read and applying its log stops there');
      assert.equal(problemOf(a, D(7)), 'device.json is not JSON');
      // Beside the English, the codes the window and tock word (docs/i18n.md), a refused read's too.
      const reasonOf = (id: string) => a.services.sync.status().devices.find((d) => d.deviceID === id)?.problemReason;
      assert.deepEqual(reasonOf(D(1)), { code: 'device_segment_not_file', values: { segment: '00000001.jsonl', kind: 'fifo' } });
      assert.deepEqual(reasonOf(D(2)), { code: 'device_file_not_regular', values: { kind: 'fifo' } });
      assert.deepEqual(reasonOf(D(3)), { code: 'device_segment_not_file', values: { segment: '00000001.jsonl', kind: 'symlink' } });
      assert.deepEqual(reasonOf(D(4)), { code: 'device_segment_too_large', values: { segment: '00000001.jsonl', kib: 5120, limitKib: 4096 } });
      assert.deepEqual(reasonOf(D(5)), { code: 'device_not_folder', values: { folder: `tock-sync-v2/${D(5)}`, kind: 'symlink' } });
      assert.deepEqual(reasonOf(D(6)), { code: 'device_line_too_long', values: { segment: '00000001.jsonl', line: 1, kib: 256 } });
      assert.deepEqual(reasonOf(D(7)), { code: 'device_file_not_json', values: {} });
      assert.deepEqual(a.services.tracker.listActivities(), []);
      // The next scan reads nothing again, and GET /status still answers.
      await a.services.sync.syncNow();
      assert.equal((await client.getStatus()).isTracking, false);
    } finally {
      await a.stop();
    }
  });

  it('a device.json over 4 KiB is refused and reported; one of exactly 4 KiB is read', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    const a = await app(clock);
    try {
      a.services.sync.enable(folder, 'laptop');
      const key = a.services.sync.folderKey();
      const D = (n: number): string => `eeeeeeee-0000-4000-8000-00000000002${n}`;
      // device.json padded with white space (still JSON) to the byte count given.
      const sized = (id: string, name: string, bytes: number): void => {
        const own = writeDevice(folder, id, name, { 1: segmentText(key, id, [create(NOON - 60_000, `From ${name}`).replaceAll(EVIL, id).replace(ACT, id.replace(/.$/, 'a'))]) });
        const text = JSON.stringify({ deviceID: id, name, createdAt: '2026-11-01T00:00:00.000Z' });
        writeFileSync(join(own, 'device.json'), text + ' '.repeat(bytes - Buffer.byteLength(text)));
      };
      sized(D(1), 'exact', 4096);
      sized(D(2), 'over', 4097);
      await a.services.sync.syncNow();
      const device = (id: string) => a.services.sync.status().devices.find((d) => d.deviceID === id);
      assert.equal(device(D(1))?.problem, null, 'exactly 4 KiB is read');
      assert.equal(device(D(1))?.name, 'exact');
      assert.equal(device(D(2))?.problem, 'device.json is 5 KiB, over the 4 KiB it may have; it is not read');
      assert.deepEqual(device(D(2))?.problemReason, { code: 'device_file_too_large', values: { kib: 5, limitKib: 4 } });
      assert.deepEqual(
        a.services.tracker.listActivities().map((x) => x.activityName),
        ['From exact'],
        'the log of the device whose device.json was refused is not applied',
      );
    } finally {
      await a.stop();
    }
  });

  it('a format-1 folder is not read; the status says to enable sync again, which writes the whole history into format 2', async () => {
    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    const home = tempDir('tock-trust-home-');
    let a = await app(clock, home);
    try {
      a.services.tracker.logEntry({ name: 'Old', createIfMissing: true, durationMinutes: 15 });
      // As a format-1 build left it: sync on in tock-sync-v1, with an attacker's line there.
      a.services.store.settings.set('sync', { dir: folder, name: 'laptop' });
      a.services.store.settings.set('syncDevice', { deviceID: 'aaaaaaaa-0000-4000-8000-000000000001', createdAt: NOON });
      mkdirSync(join(folder, 'tock-sync-v1', EVIL), { recursive: true });
      writeFileSync(join(folder, 'tock-sync-v1', EVIL, 'device.json'), JSON.stringify({ deviceID: EVIL, name: 'old', createdAt: '' }));
      writeFileSync(join(folder, 'tock-sync-v1', EVIL, '00000001.jsonl'), `${create(NOON - 60_000, 'From v1')}\n`);
      await a.stop();
      a = await app(clock, home);
      await a.services.sync.syncNow();
      const status = a.services.sync.status();
      assert.equal(status.enabled, false);
      assert.match(status.offReason ?? '', /synced through .*tock-sync-v1, a format this Tock no longer reads .*turn sync on again with `tock sync enable .*`, which writes this device's whole history into tock-sync-v2/);
      assert.deepEqual(a.services.tracker.listActivities().map((x) => x.activityName), ['Old']);
      const on = a.services.sync.enable(folder);
      assert.equal(on.device?.logLines, 2); // the activity and the entry: the whole history, once
      assert.deepEqual(a.services.tracker.listActivities().map((x) => x.activityName), ['Old']);
    } finally {
      await a.stop();
    }
  });

  it('the key: printed as base32 groups and read back ignoring case, dashes and spaces; a missing or wrong one refused naming tock sync key; a folder others can write warned about', async () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
    const text = formatSyncKey(bytes);
    assert.match(text, /^[a-z2-7]{4}(-[a-z2-7]{4}){12}$/);
    assert.deepEqual(parseSyncKey(` ${text.toUpperCase().replaceAll('-', ' ')}\n`), bytes);
    assert.deepEqual(parseSyncKey(text.replaceAll('-', '')), bytes);
    assert.equal(parseSyncKey(text.slice(0, -1)), undefined);
    assert.equal(parseSyncKey(`${text.slice(0, -1)}1`), undefined);

    const clock = { now: NOON };
    const folder = tempDir('tock-trust-folder-');
    chmodSync(folder, 0o777);
    const a = await app(clock);
    const b = await app(clock);
    try {
      const on = a.services.sync.enable(folder, 'laptop');
      assert.ok(on.warnings.some((w) => w.startsWith(`${folder} is writable by every user of this machine`)), JSON.stringify(on.warnings));
      // Each warning by its code too, in the same order (docs/i18n.md).
      assert.deepEqual(on.warningReasons?.[on.warnings.findIndex((w) => w.startsWith(folder))], { code: 'sync_folder_writable', values: { path: folder, who: 'others', command: `chmod o-w ${folder}` } });
      assert.equal(on.warningReasons?.length, on.warnings.length);
      const key = a.services.sync.folderKey();
      const folderJson = JSON.parse(readFileSync(join(folder, 'tock-sync-v2', 'folder.json'), 'utf8')) as { format: number; keyCheck: string };
      assert.deepEqual(folderJson, { format: 2, keyCheck: keyCheck(parseSyncKey(key) as Uint8Array) });
      // The key never enters the folder.
      const everything = execFileSync('cat', ['-v', join(folder, 'tock-sync-v2', 'folder.json')]).toString();
      assert.doesNotMatch(everything, new RegExp(key.replaceAll('-', '')));
      assert.throws(() => b.services.sync.enable(folder, 'desktop'), /is already a sync folder with a key: give it with tock sync enable .* --key KEY \(run `tock sync key` on a device that syncs there to see it\)/);
      assert.throws(() => b.services.sync.enable(folder, 'desktop', formatSyncKey(new Uint8Array(32))), /that key is not this folder's .*`tock sync key`/);
      assert.throws(() => b.services.sync.enable(folder, 'desktop', 'not-a-key'), /not a sync folder key .*`tock sync key`/);
      assert.equal(b.services.sync.enable(folder, 'desktop', key.toUpperCase()).enabled, true);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
