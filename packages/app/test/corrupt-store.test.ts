/**
 * `tock app` on a tock.db it must not open — truncated, zeroed, not SQLite, another program's,
 * or from a newer Tock: one line that says what is wrong and what to do, exit status 1, and
 * the file byte for byte as it was, with no -wal or -shm left beside it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { openStore, SCHEMA_VERSION } from '@tock/core';
import { appEnv, tock } from './support/app-process.ts';

/** The bytes of a real, closed store with some settings in it. */
function realStoreBytes(home: string): Buffer {
  const path = join(home, 'made.db');
  const store = openStore(path);
  for (let i = 0; i < 40; i++) store.settings.set(`setting ${i}`, 'x'.repeat(300));
  store.close();
  const bytes = readFileSync(path);
  rmSync(path);
  return bytes;
}

test('tock app refuses a damaged, foreign or newer tock.db with one line and leaves it untouched', async (t) => {
  const scratch = appEnv();
  t.after(() => rmSync(scratch.TOCK_HOME as string, { recursive: true, force: true }));
  const whole = realStoreBytes(scratch.TOCK_HOME as string);
  const newer = (): Buffer => {
    const path = join(scratch.TOCK_HOME as string, 'newer.db');
    writeFileSync(path, whole);
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    return readFileSync(path);
  };
  const foreign = (): Buffer => {
    const path = join(scratch.TOCK_HOME as string, 'foreign.db');
    const db = new DatabaseSync(path);
    db.exec("CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('Blue in Green')");
    db.close();
    return readFileSync(path);
  };
  const cases: [string, Buffer, RegExp][] = [
    ['truncated', whole.subarray(0, whole.length / 2), /tock\.db is truncated \(\d+ of \d+ bytes\); restore a backup/],
    ['zeroed', Buffer.alloc(whole.length), /tock\.db is zeroed \(its first bytes are all 0\), not a Tock database; restore a backup/],
    ['empty', Buffer.alloc(0), /tock\.db is empty \(0 bytes\), not a Tock database; restore a backup/],
    ['not SQLite', Buffer.from('{"format":"tock-export"}\n'), /tock\.db is not an SQLite database; restore a backup/],
    ['foreign', foreign(), /tock\.db is an SQLite database, but not Tock's \(it has no activities\); restore a backup/],
    [
      'newer',
      newer(),
      new RegExp(`tock\\.db was written by a newer Tock \\(schema version ${SCHEMA_VERSION + 1}; this Tock knows up to ${SCHEMA_VERSION}\\): update Tock, or restore a backup`),
    ],
  ];
  await Promise.all(
    cases.map(async ([name, bytes, message]) => {
      const env = appEnv();
      const home = env.TOCK_HOME as string;
      t.after(() => rmSync(home, { recursive: true, force: true }));
      writeFileSync(join(home, 'tock.db'), bytes, { mode: 0o600 });
      const run = await tock(['app', '--no-open'], env);
      assert.equal(run.code, 1, `${name}: exit status`);
      assert.equal(run.stdout, '', `${name}: nothing on stdout`);
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      assert.equal(lines.length, 1, `${name}: one line, not ${JSON.stringify(run.stderr)}`);
      const line = lines[0] as string;
      assert.match(line, /^error: /);
      assert.match(line, message, name);
      assert.ok(line.includes(`\`tock restore FILE\` (backups are in ${join(home, 'backups')})`), `${name}: says how and from where to restore`);
      assert.deepEqual(readFileSync(join(home, 'tock.db')), bytes, `${name}: tock.db is byte for byte as it was`);
      assert.deepEqual(readdirSync(home), ['tock.db'], `${name}: no -wal, -shm, socket or anything else left`);
    }),
  );
});
