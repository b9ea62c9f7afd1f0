/**
 * `tock app --background`, what `tock service install` runs (docs/desktop.md "Start at login"):
 * a real app process on a desktop with a display and a browser, whose output — what the
 * journal or a LaunchAgent's log file keeps — holds no launch code from start to stop; it opens
 * no window itself, and `tock open` still opens one whose code works.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { tock } from '@tock/app/testing';
import { TOCK_JS } from './real-app.ts';

test('tock app --background never prints a launch code, opens no window itself, and tock open still opens one that works', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-background-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A browser on the PATH that only writes down what it was asked to open.
  const bin = join(dir, 'bin');
  const opened = join(dir, 'opened.txt');
  mkdirSync(bin);
  writeFileSync(join(bin, 'chromium'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${opened}'\n`);
  chmodSync(join(bin, 'chromium'), 0o755);
  const home = join(dir, 'home');
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: dir,
    TOCK_HOME: home,
    TOCK_CREDENTIAL_STORE: 'file',
    // A display, so that a window could be opened; no session bus, so no tray or idle source.
    DISPLAY: ':97',
    DBUS_SESSION_BUS_ADDRESS: '',
  };
  const child = spawn(process.execPath, [TOCK_JS, 'app', '--background'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    const check = (): void => {
      if (/^Press Ctrl\+C to stop\.$/m.test(output)) resolve();
    };
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`tock app --background exited early (${code}): ${output}`)));
  });

  assert.match(output, /^Tock is running \(home: .*\)\nwindow: `tock open` opens it\nlistener: .*\nPress Ctrl\+C to stop\.\n$/);
  assert.equal(existsSync(opened), false, 'the app opened no window');

  const open = await tock(['open'], env);
  assert.equal(open.code, 0, open.stderr);
  assert.match(open.stdout, /^Opening the Tock window \(http:\/\/127\.0\.0\.1:\d+\/\)\n$/);
  const asked = readFileSync(opened, 'utf8');
  const file = /^--app=file:\/\/(\/.*\.html)$/m.exec(asked)?.[1];
  assert.ok(file, asked);
  const url = /http:\/\/127\.0\.0\.1:\d+\/\?k=[\w-]+/.exec(readFileSync(decodeURIComponent(file), 'utf8'))?.[0];
  assert.ok(url, 'the launch file holds the address with its code');
  const code = new URL(url).searchParams.get('k') as string;
  const redeemed = await fetch(new URL('/launch', url), {
    method: 'POST',
    headers: { origin: new URL(url).origin, 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  assert.equal(redeemed.status, 200, 'the window tock open opened gets in');

  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(output, /\nTock stopped\.\n$/);
  assert.doesNotMatch(output, /[?&]k=/, 'no launch code in the output');
  assert.ok(!output.includes(code), 'not the code tock open handed out either');
});
