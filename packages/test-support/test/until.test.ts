import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { test } from 'node:test';
import { until } from '@tock/test-support';

test('resolves with the first value that is not undefined, null or false', async () => {
  const values = [undefined, null, false, 0, 'later'];
  let i = 0;
  assert.equal(await until('a value', () => values[i++], { everyMs: 1 }), 0);
  assert.equal(await until('true', () => true), true);
  assert.equal(await until('an async value', async () => 'x'), 'x');
});

test('says what it waited for at the deadline', async () => {
  await assert.rejects(until('the moon', () => false, { seconds: 0.05 }), { message: 'timed out waiting for the moon (0.05 s)' });
});

test('looks again at once when the watched event fires', async () => {
  const events = new EventEmitter();
  let ready = false;
  let resolve = (): void => {};
  const subscribed = new Promise<void>((r) => {
    resolve = r;
  });
  const waiting = until('ready', () => ready, {
    everyMs: 3_600_000, // only the event can end this wait within the deadline
    wake: (wake) => {
      events.on('ready', wake);
      resolve();
      return () => events.off('ready', wake);
    },
  });
  await subscribed;
  ready = true;
  events.emit('ready');
  assert.equal(await waiting, true);
  assert.equal(events.listenerCount('ready'), 0);
});

test('ends early when a watched process exits, or when abort names a reason', async () => {
  const child = spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' });
  await assert.rejects(until('a line it never prints', () => false, { watch: child, everyMs: 3_600_000 }), {
    message: /exited with code 3 while waiting for a line it never prints$/,
  });
  if (child.exitCode === null) await once(child, 'exit');
  await assert.rejects(until('x', () => false, { abort: () => 'the app stopped' }), { message: 'the app stopped while waiting for x' });
});
