import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { Problem } from '@tock/protocol';
import { startApp } from '../src/app.ts';
import { isStorageFull, reportingFullDisk } from '../src/storage-full.ts';
import { freePort } from './ui-support/harness.ts';
import { signed } from './support/signed.ts';

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A real SQLITE_FULL, without a full file system: the database may not grow past its size. */
function sqliteFullError(): unknown {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE t (x); PRAGMA max_page_count = 2');
  try {
    for (let i = 0; i < 100; i++) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(4000));
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('SQLite never reported a full database');
}

describe('full disk', () => {
  it('recognizes SQLITE_FULL and ENOSPC, and nothing else', () => {
    assert.equal(isStorageFull(sqliteFullError()), true);
    assert.equal(isStorageFull(Object.assign(new Error('no space'), { code: 'ENOSPC' })), true);
    assert.equal(isStorageFull(Object.assign(new Error('locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 })), false);
    assert.equal(isStorageFull(new Error('boom')), false);
    assert.equal(isStorageFull(null), false);
  });

  it('turns a full disk into a 503 storage_full problem and lets other failures through', () => {
    const full = reportingFullDisk(() => {
      throw sqliteFullError();
    });
    assert.throws(full, (error: unknown) => error instanceof Problem && error.code === 'storage_full' && error.status === 503);
    const other = reportingFullDisk(() => {
      throw new RangeError('other');
    });
    assert.throws(other, RangeError);
  });

  it('answers writes with 503 storage_full and a line that says to free space, and keeps serving', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tock-full-'));
    homes.push(home);
    const app = await startApp({ home, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
    try {
      const port = await freePort();
      await app.services.listener.enable(port);
      const token = app.services.tokens.current()!;
      const db = app.services.store.db;
      const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
      db.exec(`PRAGMA max_page_count = ${pages}`);

      // The free pages the file already has fill first.
      let refused = await signed(port, token, { target: '/status' });
      for (let i = 0; i < 200 && refused.status !== 503; i++) {
        refused = await signed(port, token, { target: '/entries', body: { name: 'Full', durationMinutes: 5, note: 'x'.repeat(2000), createIfMissing: true } });
        assert.ok(refused.status === 201 || refused.status === 503, `${refused.status} ${refused.text}`);
      }
      assert.equal(refused.status, 503);
      assert.equal(refused.json.code, 'storage_full');
      assert.match(refused.json.error, /disk is full.*free some disk space and retry/);
      assert.ok(refused.headers['x-tock-response-signature'], 'signed like every verified answer');
      // With an Idempotency-Key, as both clients send logEntry: the entry and its key fail together.
      const keyed = await signed(port, token, {
        target: '/entries',
        body: { name: 'Full', durationMinutes: 5, note: 'x'.repeat(2000), createIfMissing: true },
        idempotencyKey: 'full-disk-1',
      });
      assert.equal(keyed.status, 503, keyed.text);
      assert.equal(keyed.json.code, 'storage_full');
      assert.equal(app.services.store.idempotency.find('full-disk-1'), undefined, 'no key saved for work that was not done');
      assert.equal((await signed(port, token, { target: '/status' })).status, 200, 'reads still answer');

      db.exec('PRAGMA max_page_count = 1073741823');
      const retried = await signed(port, token, { target: '/entries', body: { name: 'Full', durationMinutes: 5, createIfMissing: true } });
      assert.equal(retried.status, 201, 'writes again once there is space');
    } finally {
      await app.stop();
    }
  });
});
