/**
 * The attack of docs/security.md row 11, end to end: `tock import` of a FIFO, five times (more
 * than libuv's four pool threads), against a real `tock app`. Each is refused with one line and
 * nothing is imported; then `tock backup` still works (it hung on the old code, its file
 * operations queued behind the blocked opens) and the app stops on SIGTERM.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { appEnv, spawnApp, tock } from '@tock/app/testing';

test('tock import of a FIFO, five times at once, is refused with one line; tock backup then works and the app stops on SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-import-fifo-'));
  const env = appEnv({ DISPLAY: '', WAYLAND_DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: '' });
  const fifo = join(dir, 'export.csv');
  execFileSync('mkfifo', [fifo]);
  const app = await spawnApp(env);
  t.after(async () => {
    // A reader the old code left blocked in open() is let go, so a failure ends.
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader is waiting
    }
    if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGKILL');
    await app.exited;
    rmSync(dir, { recursive: true, force: true });
    rmSync(env.TOCK_HOME as string, { recursive: true, force: true });
  });
  const imports = await Promise.all(Array.from({ length: 5 }, () => tock(['import', fifo], env)));
  for (const run of imports) {
    assert.equal(run.code, 1, run.stdout);
    assert.equal(run.stderr, `error: ${fifo}: it is a FIFO (a named pipe); Tock imports only regular files (save the data to a file and import that); nothing was imported\n`);
  }
  const backup = await tock(['backup'], env);
  assert.equal(backup.code, 0, backup.stderr);
  const listener = await tock(['listener', 'status'], env);
  assert.equal(listener.code, 0, listener.stderr);
  app.child.kill('SIGTERM');
  assert.equal(await app.exited, 0, app.output());
});
