/**
 * `tock backup` and `tock restore` against a real `tock app` process, and what the app leaves
 * in its home: every file 0600, every folder 0700.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pinnedClockEnv } from '@tock/test-support';
import { spawnApp, type AppProcess } from '@tock/app/testing';
import { freePort, tock } from './real-app.ts';

/** Every path under `dir` with its permission bits, e.g. `backups/x.db 600`. */
function modes(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = lstatSync(path);
    found.push(`${prefix}${name} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) found.push(...modes(path, `${prefix}${name}/`));
  }
  return found;
}

async function stopApp(app: AppProcess): Promise<void> {
  if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGTERM');
  assert.equal(await app.exited, 0);
}

test('tock backup copies the running store; tock restore is refused while it runs and puts it back once stopped', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tock-backup-cli-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: process.env['TZ'], TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', ...pinnedClockEnv() };
  let app = await spawnApp(env);
  t.after(() => app.child.kill('SIGKILL'));

  const port = await freePort();
  assert.equal((await tock(env, 'listener', 'on', '--port', String(port))).status, 0);
  const token = (await tock(env, 'token')).out.trim();
  const client = { ...env, SERVICE_TOKEN: token, SERVICE_PORT: String(port) };
  assert.equal((await tock(client, 'start', 'Before the backup', '--create')).status, 0);

  const backup = await tock(env, 'backup');
  assert.equal(backup.status, 0, backup.err);
  assert.match(backup.out, new RegExp(`^${join(home, 'backups')}/tock-\\d{8}-\\d{6}\\.db$`));
  const own = join(root, 'mine.db');
  const second = await tock(env, 'backup', own, '--json');
  assert.deepEqual(JSON.parse(second.out), { path: own });
  const again = await tock(env, 'backup', own);
  assert.deepEqual([again.status, again.err], [1, `error: ${own} already exists; choose another file name or remove it first`]);
  // Core's backupExists, through the app's admin route, in the person's language.
  const againGerman = await tock({ ...env, LANG: 'de_DE.UTF-8' }, 'backup', own);
  assert.deepEqual([againGerman.status, againGerman.err], [1, `error: ${own} gibt es bereits; wählen Sie einen anderen Dateinamen oder entfernen Sie die Datei zuerst`]);

  // What Tock wrote in its home, all private: the store and its log, the socket, the token file, backups.
  const written = modes(home);
  for (const name of ['tock.db', 'tock.db-wal', 'tock.db-shm', 'tock.sock', 'listener-token', 'backups']) {
    assert.ok(written.some((entry) => entry.startsWith(`${name} `)), `${name} in ${written.join(', ')}`);
  }
  assert.deepEqual(written.filter((entry) => !/ (600|700)$/.test(entry)), [], 'files 0600, folders 0700');
  assert.ok(written.some((entry) => entry === 'backups 700'));

  const refused = await tock(env, 'restore', backup.out);
  assert.deepEqual(
    [refused.status, refused.err],
    [1, `error: Tock is running (home: ${home}); stop it first (Ctrl+C where \`tock app\` runs), then run \`tock restore\` again`],
  );
  // In the person's language by its rule (restoreAppRunning), the home as a value.
  const german = await tock({ ...env, LANG: 'de_DE.UTF-8' }, 'restore', backup.out);
  assert.deepEqual(
    [german.status, german.err],
    [1, `error: Tock läuft (Verzeichnis: ${home}); beenden Sie es zuerst (Strg+C, wo \`tock app\` läuft) und führen Sie dann \`tock restore\` erneut aus`],
  );
  assert.equal((await tock(client, 'start', 'After the backup', '--create')).status, 0);
  await stopApp(app);

  const missing = join(root, 'no-such.db');
  const notFound = await tock({ ...env, LANG: 'de_DE.UTF-8' }, 'restore', missing);
  assert.deepEqual([notFound.status, notFound.err], [1, `error: ${missing} gibt es nicht; geben Sie den Pfad einer Sicherung an (sie heißen tock-JJJJMMTT-HHMMSS.db)`]);
  const restored = await tock(env, 'restore', backup.out, '--json');
  assert.equal(restored.status, 0, restored.err);
  const result = JSON.parse(restored.out) as { database: string; keptAs: string };
  assert.equal(result.database, join(home, 'tock.db'));
  assert.match(result.keptAs, new RegExp(`^${join(home, 'tock.db')}\\.before-restore-\\d{8}-\\d{6}$`));
  assert.ok(existsSync(result.keptAs));

  // The restored store is the one of the backup: the listener as it was, the first activity running.
  app = await spawnApp(env);
  const current = await tock(client, 'current', '--json');
  assert.equal((JSON.parse(current.out) as { activityName: string }).activityName, 'Before the backup');
  assert.deepEqual(modes(home).filter((entry) => !/ (600|700)$/.test(entry)), []);
  await stopApp(app);
});

test('tock backup says so when the app is not running; tock restore needs a file', async () => {
  const home = mkdtempSync(join(tmpdir(), 'tock-backup-cli-'));
  try {
    const env = { TOCK_HOME: home };
    const backup = await tock(env, 'backup');
    assert.equal(backup.status, 1);
    assert.match(backup.err, /^error: Tock is not running \(home: .*\); start it with `tock app`, then run `tock backup` again/);
    const restore = await tock(env, 'restore');
    assert.deepEqual([restore.status, restore.err], [1, 'error: give the backup to restore: tock restore FILE (backups are in the backups folder of the Tock home)']);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
