/**
 * `tock service install` runs the service manager without a secret in its environment (docs/security.md
 * "Version 3: the trust review", row 12): a stand-in `systemctl` first on PATH writes its
 * environment to a file while `SERVICE_TOKEN` is set in the shell. The token is absent; what
 * systemctl needs to reach the user manager (HOME, PATH, XDG_RUNTIME_DIR,
 * DBUS_SESSION_BUS_ADDRESS) and TOCK_HOME stay.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { appEnv, tock } from '@tock/app/testing';

const SECRET = 'tock_secret_token_value_0123456789';

test('tock service install runs systemctl without SERVICE_TOKEN, keeping HOME, PATH, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS and TOCK_HOME', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-service-env-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'systemctl'), `#!/bin/sh\nenv > "${dir}/systemctl.env"\nexit 0\n`);
  chmodSync(join(dir, 'systemctl'), 0o755);
  const env = appEnv({ PATH: `${dir}:${process.env.PATH ?? ''}`, SERVICE_TOKEN: SECRET, XDG_RUNTIME_DIR: join(dir, 'run'), DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'bus')}`, XDG_CONFIG_HOME: join(dir, '.config') });
  env.HOME = dir;
  const status = await tock(['service', 'install'], env);
  assert.equal(status.code, 0, status.stderr);
  assert.doesNotMatch(readFileSync(join(dir, '.config', 'systemd', 'user', 'tock.service'), 'utf8'), new RegExp(SECRET), 'the unit holds no secret');
  const seen = readFileSync(join(dir, 'systemctl.env'), 'utf8');
  assert.doesNotMatch(seen, new RegExp(SECRET));
  assert.doesNotMatch(seen, /^SERVICE_TOKEN=/m);
  for (const name of ['HOME', 'PATH', 'XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS', 'TOCK_HOME']) assert.match(seen, new RegExp(`^${name}=`, 'm'), name);
});
