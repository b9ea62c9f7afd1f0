import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openStore, createTracker } from '@tock/core';
import { homePaths } from '../src/home.ts';
import { freePort } from './ui-support/harness.ts';
import { appEnv, spawnApp, tock } from './support/app-process.ts';
import { signed } from './support/signed.ts';

describe('crash safety', () => {
  const env = appEnv();
  const cleanups: (() => void)[] = [];
  after(() => {
    for (const cleanup of cleanups) cleanup();
  });

  it('keeps every acknowledged write and the running session through kill -9 during a burst of writes', async () => {
    let app = await spawnApp(env);
    cleanups.push(() => app.child.kill('SIGKILL'));
    const port = await freePort();
    assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).stdout.trim(), `active on 127.0.0.1:${port}`);
    const token = (await tock(['token'], env)).stdout.trim();
    const started = await signed(port, token, { target: '/activities/start', body: { name: 'Crash test', createIfMissing: true } });
    assert.equal(started.status, 200);

    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; !killed; i++) {
        try {
          const answer = await signed(port, token, { target: '/entries', body: { name: 'Crash test', durationMinutes: 1, note: `w${w}-${i}` } });
          if (answer.status === 201) acknowledged.push(answer.json.result.entryID);
        } catch {
          return; // the connection died with the app: that write was never acknowledged
        }
        if (acknowledged.length >= 150 && !killed) {
          killed = true;
          app.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(writer));
    assert.equal(await app.exited, null, 'the app died by SIGKILL');
    assert.ok(acknowledged.length >= 150);

    // Straight from the file the dead process left behind.
    const store = openStore(homePaths(env.TOCK_HOME!).database);
    const tracker = createTracker({ store });
    const stored = new Set(tracker.listBlocks(0, Date.now() + 86_400_000).filter((b) => b.kind === 'entry').map((b) => b.id));
    const lost = acknowledged.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `${lost.length} acknowledged entries were lost`);
    assert.equal(tracker.getStatus().since, started.json.result.startedAt);
    store.close();

    app = await spawnApp(env);
    const status = await signed(port, token, { target: '/status' });
    assert.equal(status.status, 200);
    assert.equal(status.json.result.since, started.json.result.startedAt, 'the session keeps counting from its original start');
    assert.equal(status.json.result.currentActivity.activityName, 'Crash test');
    app.child.kill('SIGTERM');
    assert.equal(await app.exited, 0);
  });
});
