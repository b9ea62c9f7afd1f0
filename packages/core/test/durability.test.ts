import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTracker, openStore } from '../src/index.ts';

const CHILD = `
  import { createTracker, openStore } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)};
  const store = openStore(process.argv[1]);
  const tracker = createTracker({ store, clock: () => Date.parse('2026-11-22T09:00:00Z'), timeZone: 'UTC' });
  tracker.startActivity({ name: 'Survivor', createIfMissing: true });
  tracker.logEntry({ name: 'Survivor', durationMinutes: 30 });
  store.settings.set('acknowledged', true);
  process.stdout.write('acknowledged\\n');
  setInterval(() => {}, 1000); // stay alive until killed
`;

test('an acknowledged write survives kill -9 of the process that made it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-kill-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'tock.db');
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('acknowledged')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;

  const store = openStore(path);
  t.after(() => store.close());
  const tracker = createTracker({ store, clock: () => Date.parse('2026-11-22T10:00:00Z'), timeZone: 'UTC' });
  assert.equal(store.settings.get('acknowledged'), true);
  const status = tracker.getStatus();
  assert.equal(status.currentActivity?.activityName, 'Survivor');
  assert.equal(status.since, '2026-11-22T09:00:00.000Z');
  assert.equal(status.todaySeconds, 3600 + 1800);
});
