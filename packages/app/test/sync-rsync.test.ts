/**
 * Two apps whose sync folders are two different folders, kept in step by real `rsync` runs in
 * both directions — late, out of order (one device's files long before the other's, segments
 * before their device.json), and cut mid-file (a copy still arriving, written in place, then
 * completed). Each app only ever applies whole lines; in the end both show one history and both
 * exports are equal, with no problem reported. Every delivery is an explicit step: nothing
 * waits on time.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { startApp } from '../src/app.ts';
import { exported, NOON } from './support/sync-apps.ts';

const root = mkdtempSync(join(tmpdir(), 'tock-sync-rsync-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** rsync of one device's folder from one sync folder to the other (what an engine carries). */
function rsync(from: string, to: string, deviceID: string, extra: string[] = []): void {
  const source = join(from, 'tock-sync-v2', deviceID);
  const target = join(to, 'tock-sync-v2', deviceID);
  mkdirSync(target, { recursive: true });
  execFileSync('rsync', ['-a', '--exclude', '.*', ...extra, `${source}/`, `${target}/`]);
}

it('two folders kept in step by rsync both ways, late, reordered and cut, end in one history', async () => {
  const clock = { now: NOON };
  const env = { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' };
  const [fa, fb] = [join(root, 'folder-a'), join(root, 'folder-b')];
  mkdirSync(fa);
  mkdirSync(fb);
  const a = await startApp({ home: join(root, 'home-a'), clock: () => clock.now, env });
  const b = await startApp({ home: join(root, 'home-b'), clock: () => clock.now, env });
  try {
    const idA = a.services.sync.enable(fa, 'laptop').device?.deviceID as string;
    // The folders are two copies of one: B's gets A's folder.json (as the engine would carry it) and B gives the key.
    mkdirSync(join(fb, 'tock-sync-v2'), { recursive: true });
    writeFileSync(join(fb, 'tock-sync-v2', 'folder.json'), readFileSync(join(fa, 'tock-sync-v2', 'folder.json')));
    const idB = b.services.sync.enable(fb, 'desktop', a.services.sync.folderKey()).device?.deviceID as string;
    // Work on both sides while nothing is carried.
    a.services.tracker.startActivity({ name: 'Write', createIfMissing: true });
    clock.now += 50 * 60_000;
    a.services.tracker.stopActivity();
    // B's entries follow A's session, so that each minute counts once (overlaps count once).
    clock.now += 10 * 60_000;
    b.services.tracker.logEntry({ name: 'write', createIfMissing: true, durationMinutes: 10, note: 'from B' });
    clock.now += 5 * 60_000;
    b.services.tracker.logEntry({ name: 'Review', createIfMissing: true, durationMinutes: 5 });
    await a.services.sync.syncNow();
    await b.services.sync.syncNow();

    // B's files reach A first, the segment before its device.json: nothing is applied yet.
    rsync(fb, fa, idB, ['--exclude', 'device.json']);
    await a.services.sync.syncNow();
    assert.equal(a.services.sync.status().devices.find((d) => d.deviceID === idB)?.problem, 'no device.json yet');
    assert.equal(a.services.tracker.getStatus().todaySeconds, 50 * 60);
    rsync(fb, fa, idB);
    await a.services.sync.syncNow();
    assert.equal(a.services.tracker.getStatus().todaySeconds, 65 * 60);
    // "Write" on A and "write" on B are one activity on A.
    assert.equal(a.services.tracker.listActivities().length, 2);

    // A's segment reaches B cut in the middle of a line (written in place, still arriving).
    const segment = readFileSync(join(fa, 'tock-sync-v2', idA, '00000001.jsonl'));
    const cut = segment.indexOf(10) + 20; // the first line whole, the second cut
    mkdirSync(join(fb, 'tock-sync-v2', idA), { recursive: true });
    writeFileSync(join(fb, 'tock-sync-v2', idA, 'device.json'), readFileSync(join(fa, 'tock-sync-v2', idA, 'device.json')));
    writeFileSync(join(fb, 'tock-sync-v2', idA, '00000001.jsonl'), segment.subarray(0, cut));
    await b.services.sync.syncNow();
    const partial = b.services.sync.status().devices.find((d) => d.deviceID === idA);
    assert.equal(partial?.applied, 1);
    assert.equal(partial?.problem, null);

    // Meanwhile B renames and A deletes; then rsync completes the cut file (--inplace) and carries the rest.
    const review = b.services.tracker.listActivities().find((x) => x.activityName === 'Review');
    assert.ok(review);
    b.services.tracker.renameActivity(review.activityID, 'Reviews');
    const entryOnA = a.services.tracker.listBlocks(0, clock.now + 1).find((x) => x.kind === 'entry' && x.activity.activityName === 'Review');
    assert.ok(entryOnA);
    a.services.tracker.deleteEntry(entryOnA.id);
    await a.services.sync.syncNow();
    await b.services.sync.syncNow();
    rsync(fa, fb, idA, ['--inplace']);
    rsync(fb, fa, idB);
    await b.services.sync.syncNow();
    await a.services.sync.syncNow();

    assert.deepEqual(exported(a), exported(b));
    for (const app of [a, b]) {
      assert.equal(app.services.tracker.getStatus().todaySeconds, 60 * 60);
      // "Write" or "write": whichever of the two activities has the lower (random) id.
      assert.deepEqual(app.services.tracker.listActivities().map((x) => x.activityName.toLowerCase()), ['reviews', 'write']);
      const status = app.services.sync.status();
      assert.deepEqual(status.devices.map((d) => [d.problem, d.behind]), [[null, 0]]);
    }
  } finally {
    await a.stop();
    await b.stop();
  }
});
