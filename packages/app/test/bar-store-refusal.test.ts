/**
 * The bar "bad input loses nothing" for the store itself (docs/security.md "The bar every change
 * meets"): `tock app` on a tock.db it cannot read — one it has no permission to open, one from
 * a newer Tock, one that is not SQLite — says in one line, in the person's language (English and
 * German here), what happened and what to do, exits 1, and leaves the file as it was: its bytes,
 * its mode and its owner, with no -wal or -shm beside it. corrupt-store.test.ts covers the
 * damaged kinds in English.
 *
 * Permission denied as root: root reads any file, so the file belongs to `nobody` and the app
 * runs without the capabilities that let root pass file permissions (`setpriv`, util-linux).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { openStore, SCHEMA_VERSION } from '@tock/core';
import { appEnv, TOCK_BIN } from './support/app-process.ts';

const IS_ROOT = process.getuid?.() === 0;
const NOBODY = 65_534;
/** Runs the app as root without CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER and CAP_CHOWN. */
const WITHOUT_ROOT_POWERS = ['setpriv', '--bounding-set=-dac_override,-dac_read_search,-fowner,-chown', '--inh-caps=-all'];

/** `tock app --no-open` run to its end (it must refuse at once), optionally through a wrapper command. */
function runApp(env: NodeJS.ProcessEnv, wrapper: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = [...wrapper, process.execPath, TOCK_BIN, 'app', '--no-open'];
  return new Promise((resolve) => {
    execFile(command[0] as string, command.slice(1), { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** A real, closed store; with `newer`, marked as written by the next schema version. */
function storeBytes(dir: string, newer: boolean): Buffer {
  const path = join(dir, 'made.db');
  openStore(path).close();
  if (newer) {
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
  }
  const bytes = readFileSync(path);
  rmSync(path);
  return bytes;
}

interface Case {
  name: string;
  bytes: (scratch: string) => Buffer;
  /** Makes the file unreadable to the app; returns the wrapper to run the app through. */
  lock?: (file: string) => string[];
  english: RegExp;
  german: RegExp;
}

const CASES: Case[] = [
  {
    name: 'permission denied',
    bytes: (scratch) => storeBytes(scratch, false),
    lock: (file) => {
      if (!IS_ROOT) {
        chmodSync(file, 0o000);
        return [];
      }
      chownSync(file, NOBODY, NOBODY);
      return WITHOUT_ROOT_POWERS;
    },
    english: /^error: cannot open .*tock\.db \(EACCES: permission denied.*\); free the disk or fix its permissions, or restore a backup with `tock restore FILE` \(backups are in .*backups\)$/,
    german: /^error: .*tock\.db kann nicht geöffnet werden \(EACCES.*\); schaffen Sie Platz auf dem Datenträger, korrigieren Sie die Berechtigungen oder stellen Sie eine Sicherung mit `tock restore FILE` wieder her \(die Sicherungen liegen in .*backups\)$/,
  },
  {
    name: 'newer schema',
    bytes: (scratch) => storeBytes(scratch, true),
    english: new RegExp(`^error: .*tock\\.db was written by a newer Tock \\(schema version ${SCHEMA_VERSION + 1}; this Tock knows up to ${SCHEMA_VERSION}\\): update Tock, or restore a backup`),
    german: new RegExp(`^error: .*tock\\.db wurde von einer neueren Version von Tock geschrieben \\(Schemaversion ${SCHEMA_VERSION + 1}; diese Version kennt bis ${SCHEMA_VERSION}\\): aktualisieren Sie Tock; oder stellen Sie eine Sicherung`),
  },
  {
    name: 'not SQLite',
    bytes: () => Buffer.from('{"format":"tock-export","version":1}\n'.repeat(200)),
    english: /^error: .*tock\.db is not an SQLite database; restore a backup with `tock restore FILE`/,
    german: /^error: .*tock\.db ist keine SQLite-Datenbank; stellen Sie eine Sicherung mit `tock restore FILE` wieder her/,
  },
];

test('tock app refuses a store it cannot open, cannot read or that is newer, in one line in English and in German, and leaves the file as it was', async (t) => {
  const scratch = appEnv();
  t.after(() => rmSync(scratch.TOCK_HOME as string, { recursive: true, force: true }));
  for (const c of CASES) {
    for (const [language, expected] of [
      ['C.UTF-8', c.english],
      ['de_DE.UTF-8', c.german],
    ] as const) {
      const env = appEnv({ LANG: language, LC_ALL: language });
      const home = env.TOCK_HOME as string;
      t.after(() => rmSync(home, { recursive: true, force: true }));
      const file = join(home, 'tock.db');
      const bytes = c.bytes(scratch.TOCK_HOME as string);
      writeFileSync(file, bytes, { mode: 0o600 });
      const wrapper = c.lock?.(file) ?? [];
      const before = statSync(file);
      const run = await runApp(env, wrapper);
      const label = `${c.name} (${language})`;
      assert.equal(run.code, 1, `${label}: exit status; ${run.stderr}`);
      assert.equal(run.stdout, '', `${label}: nothing on stdout`);
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      assert.equal(lines.length, 1, `${label}: one line, not ${JSON.stringify(run.stderr)}`);
      assert.match(lines[0] as string, expected, label);
      const after = statSync(file);
      assert.deepEqual([after.mode, after.uid, after.gid, after.size, after.mtimeMs], [before.mode, before.uid, before.gid, before.size, before.mtimeMs], `${label}: mode, owner and time unchanged`);
      if (!IS_ROOT) chmodSync(file, 0o600); // to read it back
      assert.deepEqual(readFileSync(file), bytes, `${label}: the bytes unchanged`);
      assert.deepEqual(readdirSync(home), ['tock.db'], `${label}: no -wal, -shm, socket or anything else beside it`);
    }
  }
});
