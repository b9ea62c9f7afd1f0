/**
 * No process Tock starts gets a secret in its environment (docs/security.md "Version 3: the
 * trust review", row 12): a stand-in for each child — a desktop helper, the macOS and Windows
 * notifiers, `dbus-monitor`, the browser — writes its environment to a file, and the app runs
 * it with `SERVICE_TOKEN` set. The token is absent; configuration (`TOCK_HOME`) stays.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { until } from '@tock/test-support';
import { childEnv } from '@tock/desktop/child-env';
import { notifierFor, watchNotificationActions } from '@tock/desktop/notify';
import { runCommand } from '@tock/desktop/run-command';
import { openInBrowser } from '../src/ui/open.ts';

const SECRET = 'tock_secret_token_value_0123456789';

/** A folder of stand-ins, each named as a real command, that write their environment to `<name>.env`. */
function standIns(t: { after(fn: () => void): void }, names: string[]): { dir: string; env: NodeJS.ProcessEnv; seen(name: string): string | undefined } {
  const dir = mkdtempSync(join(tmpdir(), 'tock-child-env-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of names) {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\nenv > "${dir}/${name}.tmp" && mv "${dir}/${name}.tmp" "${dir}/${name}.env"\n`);
    chmodSync(path, 0o755);
  }
  const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}`, SERVICE_TOKEN: SECRET, TOCK_HOME: join(dir, 'home'), TOCK_SYNC_KEY: SECRET };
  return { dir, env, seen: (name) => (existsSync(join(dir, `${name}.env`)) ? readFileSync(join(dir, `${name}.env`), 'utf8') : undefined) };
}

function assertNoSecret(name: string, environ: string, { keepsHome = true } = {}): void {
  assert.doesNotMatch(environ, new RegExp(SECRET), `${name} got the secret`);
  assert.doesNotMatch(environ, /^SERVICE_TOKEN=/m, `${name} got SERVICE_TOKEN`);
  if (keepsHome) assert.match(environ, /^TOCK_HOME=/m, `${name} lost TOCK_HOME`);
  assert.match(environ, /^PATH=/m, `${name} lost PATH`);
}

test('childEnv leaves out SERVICE_TOKEN and Tock secrets, and keeps configuration and what helpers need', () => {
  const env = childEnv({ SERVICE_TOKEN: SECRET, TOCK_SYNC_KEY: SECRET, TOCK_HOME: '/h', TOCK_LICENSE_PUBLIC_KEY: 'pub', HOME: '/home/a', PATH: '/bin', XDG_RUNTIME_DIR: '/run/user/1', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' });
  assert.deepEqual(env, { TOCK_HOME: '/h', TOCK_LICENSE_PUBLIC_KEY: 'pub', HOME: '/home/a', PATH: '/bin', XDG_RUNTIME_DIR: '/run/user/1', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' });
});

test('a desktop helper run through runCommand gets no secret in its environment', async (t) => {
  const s = standIns(t, ['helper']);
  await runCommand([join(s.dir, 'helper')], { env: s.env });
  assertNoSecret('a helper', s.seen('helper') ?? '');
});

test('the macOS and Windows notifiers and dbus-monitor get no secret in their environment; a notifier keeps its own TOCK_NOTIFY_ variables', async (t) => {
  const s = standIns(t, ['osascript', 'powershell.exe', 'dbus-monitor']);
  await notifierFor('darwin', { env: s.env }).notify({ title: 'Tock', body: 'Focus' });
  assertNoSecret('osascript', s.seen('osascript') ?? '');
  await notifierFor('win32', { env: s.env }).notify({ title: 'Tock', body: 'Focus' });
  const windows = s.seen('powershell.exe') ?? '';
  assertNoSecret('PowerShell', windows);
  assert.match(windows, /^TOCK_NOTIFY_BODY=Focus$/m);
  const watch = await watchNotificationActions(1, () => {}, { env: s.env });
  try {
    assertNoSecret('dbus-monitor', await until('dbus-monitor to write its environment', () => s.seen('dbus-monitor')));
  } finally {
    watch.stop();
  }
});

test('the browser (chromium, first on PATH) gets no secret and no TOCK_ variable', async (t) => {
  const s = standIns(t, ['chromium']);
  openInBrowser(join(s.dir, 'open-x.html'), s.env);
  assertNoSecret('the browser', await until('the browser to write its environment', () => s.seen('chromium')), { keepsHome: false });
  assert.doesNotMatch(s.seen('chromium') ?? '', /^TOCK_/m);
});
