/**
 * The bar "nothing runs from a folder others can write" (docs/security.md "The bar every change
 * meets") for what Tock installs for the person to run: the `tock` launcher (`tock install-cli`,
 * ~/.local/bin) and the login service's unit or autostart entry (`tock service install`). Under
 * `umask 000` every folder Tock makes on the way is 0755 and each file 0755 (the launcher) or
 * 0644 (the unit, the entry): nobody else may replace what the person's shell or login runs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test, type TestContext } from 'node:test';
import { TOCK_CLI_PATH } from '../src/git-hook.ts';
import { installService, type ServiceRunner } from '../src/service/service.ts';
import { tock } from './real-app.ts';

function tempHome(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tock-bar-umask-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The mode of each path from `home` (not included) down to `path`, as `relative: 0755`. */
function modesDown(home: string, path: string): string[] {
  const parts = relative(home, path).split('/');
  return parts.map((_, i) => {
    const at = join(home, ...parts.slice(0, i + 1));
    return `${relative(home, at)}: ${(statSync(at).mode & 0o777).toString(8).padStart(4, '0')}`;
  });
}

/** A service manager that answers every command (`systemd`: whether a user systemd runs). */
function manager(systemd: boolean): ServiceRunner {
  return (async (argv: readonly string[]) => (argv[0] === 'systemctl' && !systemd ? { code: 1, stdout: '', stderr: 'Failed to connect to bus' } : { code: 0, stdout: '', stderr: '' })) as ServiceRunner;
}

test('tock install-cli under umask 000 puts the launcher in folders only the person may change', async (t) => {
  const home = tempHome(t);
  const umask = process.umask(0o000); // `tock` runs in this process
  t.after(() => process.umask(umask));
  const run = await tock({ HOME: home, PATH: process.env['PATH'] }, 'install-cli');
  assert.equal(run.status, 0, run.err);
  assert.deepEqual(modesDown(home, join(home, '.local', 'bin', 'tock')), ['.local: 0755', '.local/bin: 0755', '.local/bin/tock: 0755']);
});

test('tock service install under umask 000 writes the systemd unit and the autostart entry in folders only the person may change', async (t) => {
  const umask = process.umask(0o000);
  t.after(() => process.umask(umask));
  for (const [systemd, file] of [
    [true, ['.config', 'systemd', 'user', 'tock.service']],
    [false, ['.config', 'autostart', 'tock.desktop']],
  ] as const) {
    const home = tempHome(t);
    await installService({
      appRunning: async () => false,
      platform: 'linux',
      env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
      run: manager(systemd),
      command: { node: process.execPath, cli: TOCK_CLI_PATH, home: undefined },
    });
    const modes = modesDown(home, join(home, ...file));
    assert.deepEqual(modes, [...modes.slice(0, -1).map((line) => line.replace(/: \d+$/, ': 0755')), `${file.join('/')}: 0644`], `systemd ${systemd}`);
  }
});
