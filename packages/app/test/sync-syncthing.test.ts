/**
 * End to end through two real Syncthing instances on 127.0.0.1 (Debian `syncthing`), each
 * keeping one Tock home's sync folder in step with the other's: a session made on A shows in
 * B's today and report, a rename on B reaches A, a delete on A removes the block on B, and
 * both `tock export`s end equal. Both Syncthings are configured before their first start to
 * talk to each other only (support/syncthing.ts), and the test checks from /proc that neither
 * ever held a socket outside 127.0.0.0/8. Waits end when the awaited change arrives.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { buildReport } from '@tock/core';
import { until as untilOr } from '@tock/test-support';
import { startApp } from '../src/app.ts';
import { exported, NOON, ZONE } from './support/sync-apps.ts';
import { configure, generate, processSockets, serve } from './support/syncthing.ts';
import { freePort } from './ui-support/harness.ts';

const root = mkdtempSync(join(tmpdir(), 'tock-syncthing-'));
const children: ChildProcess[] = [];
after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  rmSync(root, { recursive: true, force: true });
});

it('two Tocks share one history through two Syncthings on loopback', { timeout: 90_000 }, async () => {
  const folders = [join(root, 'folder-a'), join(root, 'folder-b')];
  for (const f of folders) mkdirSync(f);
  const [pa, pb, ga, gb] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const sa = generate(join(root, 'st-a'), pa, ga);
  const sb = generate(join(root, 'st-b'), pb, gb);
  configure(sa, sb, folders[0] as string);
  configure(sb, sa, folders[1] as string);
  const output: string[] = [];
  for (const s of [sa, sb]) {
    const child = serve(s);
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    children.push(child);
  }
  // Sampled all along: no socket of either Syncthing may ever leave 127.0.0.0/8.
  const foreign = new Set<string>();
  const seen = new Set<string>();
  const sample = (): void => {
    for (const child of children) {
      if (child.pid === undefined || child.exitCode !== null) continue;
      const sockets = processSockets(child.pid);
      for (const s of sockets.all) seen.add(s);
      for (const s of sockets.foreign) foreign.add(s);
    }
  };
  const sampler = setInterval(sample, 100);

  const clock = { now: NOON };
  const env = { ...process.env, TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' };
  const a = await startApp({ home: join(root, 'home-a'), clock: () => clock.now, env });
  const b = await startApp({ home: join(root, 'home-b'), clock: () => clock.now, env });
  const stopped = (): string | null => (children.some((c) => c.exitCode !== null) ? `a Syncthing stopped (${output.join('')})` : null);
  const until = (what: string, check: () => boolean): Promise<boolean> => untilOr(what, check, { seconds: 60, abort: stopped });
  try {
    a.services.sync.enable(folders[0] as string, 'laptop');
    // B joins once A's folder.json has arrived, with A's key (as a person copies it from `tock sync key`).
    await until("A's folder.json on B's side", () => existsSync(join(folders[1] as string, 'tock-sync-v2', 'folder.json')));
    b.services.sync.enable(folders[1] as string, 'desktop', a.services.sync.folderKey());

    a.services.tracker.startActivity({ name: 'Write', createIfMissing: true });
    clock.now += 40 * 60_000;
    a.services.tracker.stopActivity();
    await until("A's session on B", () => b.services.tracker.getStatus().todaySeconds === 40 * 60);
    const report = buildReport(b.services.store, { from: '2026-11-23', to: '2026-11-23' }, clock.now, ZONE);
    assert.equal(report.totalSeconds, 40 * 60);
    assert.equal(b.services.tracker.getStatus().isTracking, false);

    const write = b.services.tracker.listActivities()[0];
    assert.ok(write);
    b.services.tracker.renameActivity(write.activityID, 'Writing');
    await until("B's rename on A", () => a.services.tracker.listActivities()[0]?.activityName === 'Writing');

    const session = a.services.tracker.listBlocks(0, clock.now + 1)[0];
    assert.ok(session);
    a.services.tracker.deleteSession(session.id);
    await until("A's delete on B", () => b.services.tracker.getStatus().todaySeconds === 0);
    await until('equal exports', () => JSON.stringify(exported(a)) === JSON.stringify(exported(b)));
    assert.equal(a.services.sync.status().devices[0]?.name, 'desktop');
    assert.equal(b.services.sync.status().devices[0]?.name, 'laptop');
  } finally {
    clearInterval(sampler);
    sample();
    await a.stop();
    await b.stop();
  }
  assert.deepEqual([...foreign], [], 'a Syncthing opened a socket outside 127.0.0.0/8');
  // The check saw the sockets it judges: both listeners and the connection between them.
  assert.ok([...seen].filter((s) => s.startsWith('tcp')).length >= 3, `too few sockets seen: ${[...seen].join(', ')}`);
});
