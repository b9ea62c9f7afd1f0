/**
 * The bar "a process is ready only when it can be stopped" (docs/security.md "The bar every
 * change meets"): `tock app` answers SIGTERM at any moment of its start — before the app's
 * modules have loaded, and once the store is open but before the app says it runs — with a
 * clean exit (status 0), and leaves nothing (socket, -wal, -shm, launch file) that would block
 * or confuse the next start, which binds the same listener port.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, watch } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { appEnv, freePort, spawnApp, tock } from '@tock/app/testing';
import { main } from '../src/main.ts';
import { TOCK_JS } from './real-app.ts';

test('tock app asked to stop while its modules load starts nothing and exits 0', async (t) => {
  const env = appEnv();
  const home = env.TOCK_HOME as string;
  t.after(() => rmSync(home, { recursive: true, force: true }));
  // The signal arrives the moment `tock app` handles it, before its import of the app's
  // modules has resolved (even when they are loaded already): the handler runs as the next
  // microtask after it was added.
  const onNew = (event: string | symbol, listener: () => void): void => {
    if (event === 'SIGTERM') queueMicrotask(listener);
  };
  process.on('newListener', onNew);
  t.after(() => process.removeListener('newListener', onNew));
  const lines: string[] = [];
  const code = await main(['app', '--no-open'], { env, now: () => new Date(), out: (line) => lines.push(line), err: (line) => lines.push(line) });
  assert.equal(code, 0, lines.join('\n'));
  assert.deepEqual(lines, ['Tock stopped.'], 'it stops before it starts anything');
  assert.deepEqual(readdirSync(home), [], 'no store, socket or anything else was made');
});

test('tock app sent SIGTERM once its store is open, before it says it runs, exits 0, leaves nothing behind, and starts again on the same port', async (t) => {
  const env = appEnv();
  const home = env.TOCK_HOME as string;
  t.after(() => rmSync(home, { recursive: true, force: true }));
  // A first run turns the listener on, so that every later start binds it.
  const first = await spawnApp(env);
  const port = await freePort();
  assert.equal((await tock(['listener', 'on', '--port', String(port)], env)).code, 0);
  first.child.kill('SIGTERM');
  assert.equal(await first.exited, 0);

  // The signal as soon as the store's write-ahead log appears: the store is open, the start
  // goes on (admin socket, listener, window), and the app has printed nothing yet.
  const child = spawn(process.execPath, [TOCK_JS, 'app', '--no-open'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let output = '';
  let outputAtSignal: string | undefined;
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const watcher = watch(home, () => {
    if (outputAtSignal === undefined && existsSync(join(home, 'tock.db-wal'))) {
      outputAtSignal = output;
      child.kill('SIGTERM');
    }
  });
  t.after(() => watcher.close());
  assert.equal(await exited, 0, output);
  watcher.close();
  assert.equal(outputAtSignal, '', 'the signal came before the app said it was running');
  assert.match(output, /Tock stopped\.\n$/);
  // The store and the file credential store's token: no socket, -wal, -shm or launch file.
  assert.deepEqual(readdirSync(home).sort(), ['listener-token', 'tock.db'], 'nothing left but the store and the token');

  const again = await spawnApp(env);
  t.after(() => again.child.kill('SIGKILL'));
  assert.match(again.output(), new RegExp(`^listener: active on 127\\.0\\.0\\.1:${port}$`, 'm'), 'the next start binds the same port');
  again.child.kill('SIGTERM');
  assert.equal(await again.exited, 0);
});
