import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS, SCHEMA_VERSION, migrate, openStore, schemaVersionOf, type Store } from '../src/index.ts';

function tempPath(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'tock-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'nested', 'tock.db');
}

function open(t: TestContext, path: string): Store {
  const store = openStore(path);
  t.after(() => store.close());
  return store;
}

const pragma = (store: Store, name: string): unknown =>
  Object.values(store.db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];

test('opens with WAL, synchronous=FULL, foreign keys, a busy timeout and temp files in memory, creating the directory', (t) => {
  const store = open(t, tempPath(t));
  assert.equal(pragma(store, 'journal_mode'), 'wal');
  assert.equal(pragma(store, 'synchronous'), 2);
  assert.equal(pragma(store, 'foreign_keys'), 1);
  assert.equal(pragma(store, 'busy_timeout'), 5000);
  // MEMORY: the savepoints' statement journal never spills to a temp file (bench/README.md "Target 5").
  assert.equal(pragma(store, 'temp_store'), 2);
  assert.equal(store.schemaVersion, SCHEMA_VERSION);
  assert.equal(SCHEMA_VERSION, MIGRATIONS.length);
});

test('runs migrations once: reopening and migrating again changes nothing', (t) => {
  const path = tempPath(t);
  const first = openStore(path);
  first.settings.set('k', 1);
  first.close();
  const second = open(t, path);
  assert.equal(second.schemaVersion, SCHEMA_VERSION);
  assert.equal(migrate(second.db), SCHEMA_VERSION);
  assert.equal(second.settings.get('k'), 1);
});

test('refuses a database from a newer Tock without touching it', (t) => {
  const path = tempPath(t);
  openStore(path).close();
  const raw = new DatabaseSync(path);
  raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  raw.close();
  assert.throws(() => openStore(path), /was written by a newer Tock \(schema version \d+; this Tock knows up to \d+\): update Tock/);
  const check = new DatabaseSync(path);
  assert.equal(schemaVersionOf(check), SCHEMA_VERSION + 1);
  check.close();
});

test('works in memory too', (t) => {
  const store = open(t, ':memory:');
  store.settings.set('x', { a: [1, 2] });
  assert.deepEqual(store.settings.get('x'), { a: [1, 2] });
});

test('generation moves on writes, never on reads — a WITH … SELECT included', (t) => {
  const store = open(t, ':memory:');
  const moved = (sql: string, ...params: (string | number)[]): boolean => {
    const before = store.generation;
    const s = store.statement(sql);
    if (s.columns().length > 0) s.all(...params);
    else s.run(...params);
    return store.generation !== before;
  };
  assert.equal(moved('SELECT count(*) FROM activities'), false);
  assert.equal(moved('  select 1'), false);
  assert.equal(moved('WITH x AS (SELECT 1 AS one) SELECT one FROM x'), false);
  assert.equal(moved('SELECT id FROM sessions WHERE ended_at IS NULL'), false, 'a column name is not a keyword');
  assert.equal(moved("INSERT INTO settings (key, value) VALUES ('k', '1')"), true);
  assert.equal(moved("WITH v AS (SELECT '2' AS value) UPDATE settings SET value = (SELECT value FROM v) WHERE key = 'k'"), true);
  assert.equal(moved("DELETE FROM settings WHERE key = 'k'"), true);
});

test('round-trips settings as JSON and deletes them', (t) => {
  const path = tempPath(t);
  const store = openStore(path);
  store.settings.set('listener', { enabled: true, port: 39847 });
  store.settings.set('name', 'tock');
  store.settings.set('nothing', null);
  store.settings.set('name', 'Tock');
  store.close();
  const again = open(t, path);
  assert.deepEqual(again.settings.get('listener'), { enabled: true, port: 39847 });
  assert.equal(again.settings.get<string>('name'), 'Tock');
  assert.equal(again.settings.get('nothing'), null);
  assert.equal(again.settings.get('missing'), undefined);
  assert.equal(again.settings.delete('name'), true);
  assert.equal(again.settings.delete('name'), false);
  assert.equal(again.settings.get('name'), undefined);
  assert.throws(() => again.settings.set('bad', undefined), /JSON value/);
});

test('remembers idempotency records across a restart and prunes old ones', (t) => {
  const path = tempPath(t);
  const store = openStore(path);
  const record = {
    method: 'POST',
    path: '/entries',
    bodySha256: 'a'.repeat(64),
    status: 201,
    body: '{"ok":true,"result":{"entryID":"x"}}',
    createdAtMs: 1_000,
  };
  store.idempotency.save('key-1', record);
  store.idempotency.save('key-2', { ...record, createdAtMs: 5_000 });
  store.close();
  const again = open(t, path);
  assert.deepEqual(again.idempotency.find('key-1'), record);
  assert.equal(again.idempotency.find('nope'), undefined);
  assert.equal(again.idempotency.prune(2_000), 1);
  assert.equal(again.idempotency.find('key-1'), undefined);
  assert.equal(again.idempotency.find('key-2')?.createdAtMs, 5_000);
});

test('remembers nonces across a restart, lists recent ones and prunes old ones', (t) => {
  const path = tempPath(t);
  const store = openStore(path);
  store.nonces.remember('nonce-aaaaaaaaaaaa', 100);
  store.nonces.remember('nonce-bbbbbbbbbbbb', 200);
  store.nonces.remember('nonce-cccccccccccc', 4_000_000_000); // future-dated
  store.close();
  const again = open(t, path);
  assert.deepEqual(again.nonces.recent(150), [
    { nonce: 'nonce-bbbbbbbbbbbb', timestamp: 200 },
    { nonce: 'nonce-cccccccccccc', timestamp: 4_000_000_000 },
  ]);
  assert.equal(again.nonces.prune(201), 2);
  assert.deepEqual(again.nonces.recent(0), [{ nonce: 'nonce-cccccccccccc', timestamp: 4_000_000_000 }]);
});

test('rolls back every write of a failed transaction', (t) => {
  const store = open(t, tempPath(t));
  assert.throws(() =>
    store.transaction(() => {
      store.settings.set('a', 1);
      store.transaction(() => store.settings.set('b', 2));
      throw new Error('boom');
    }),
  );
  assert.equal(store.settings.get('a'), undefined);
  assert.equal(store.settings.get('b'), undefined);
  assert.equal(store.transaction(() => 42), 42);
});

test('a failed nested transaction undoes only its own writes', (t) => {
  const store = open(t, tempPath(t));
  store.transaction(() => {
    store.settings.set('outer', 1);
    assert.throws(() =>
      store.transaction(() => {
        store.settings.set('inner', 2);
        throw new Error('boom');
      }),
    );
    store.transaction(() => store.settings.set('after', 3));
  });
  assert.equal(store.settings.get('outer'), 1);
  assert.equal(store.settings.get('inner'), undefined);
  assert.equal(store.settings.get('after'), 3);
});

test('closing twice is harmless', (t) => {
  const store = openStore(tempPath(t));
  store.close();
  store.close();
});

test('reads of "today" use indexes, never a scan of the history', (t) => {
  const store = open(t, tempPath(t));
  const plan = (sql: string): string => {
    const params = [0, 1, 2].slice(0, Math.max(...[...sql.matchAll(/\?(\d)/g)].map((m) => Number(m[1]))));
    const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  };
  assert.match(plan('SELECT 1 FROM sessions WHERE ended_at > ?1 AND +started_at < ?2'), /USING INDEX sessions_by_ended_at/);
  assert.match(plan('SELECT 1 FROM sessions WHERE ended_at IS NULL AND started_at < ?2'), /USING INDEX sessions_by_ended_at/);
  assert.match(
    plan('SELECT 1 FROM entries WHERE ended_at > ?1 AND ended_at < ?3 AND +started_at < ?2'),
    /USING INDEX entries_by_ended_at \(ended_at>\? AND ended_at<\?\)/,
  );
  assert.match(plan('SELECT 1 FROM breaks WHERE ended_at > ?1 AND +started_at < ?2'), /USING INDEX breaks_by_ended_at/);
  assert.match(
    plan('SELECT 1 FROM activities WHERE search_key >= ?1 AND search_key < ?2'),
    /USING (COVERING )?INDEX activities_by_search_key \(search_key>\? AND search_key<\?\)/,
  );
});

test('upgrades a database written by an older schema, keeping its data', (t) => {
  const path = tempPath(t);
  const store = openStore(path);
  store.close();
  // Rebuild the file as the first schema only, with a row in it.
  rmSync(path);
  const old = new DatabaseSync(path);
  old.exec((MIGRATIONS[0] as { sql: string }).sql);
  old.exec('PRAGMA user_version = 1');
  old.exec(
    "INSERT INTO activities VALUES ('00000000-0000-4000-8000-000000000001', 'Old', 'old', 'old', '\u0001old', 1, 1)",
  );
  old.close();
  const upgraded = open(t, path);
  assert.equal(upgraded.schemaVersion, SCHEMA_VERSION);
  const indexes = (upgraded.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map(
    (r) => r.name,
  );
  assert.ok(indexes.includes('activities_by_recency'));
  assert.ok(!indexes.includes('activities_by_last_used'));
  assert.deepEqual({ ...upgraded.db.prepare('SELECT name FROM activities').get() }, { name: 'Old' });
});

/** What another process would see: a second connection to the same file. */
function observer(t: TestContext, path: string): (key: string) => unknown {
  const db = new DatabaseSync(path, { readOnly: true });
  t.after(() => db.close());
  return (key) => {
    const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? undefined : JSON.parse(row.value);
  };
}

/** Frames in the write-ahead log: each commit appends one per page it changed. */
function walFrames(store: Store): number {
  const [, frames] = Object.values(store.db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as Record<string, number>) as number[];
  return frames ?? -1;
}

test('durably: the writes of one turn share one commit, seen by others only once it is done', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  store.db.exec('PRAGMA wal_autocheckpoint = 0');
  const seen = observer(t, path);
  store.settings.set('warm', 0);
  const a = store.durably(() => store.settings.set('a', 1));
  const b = store.durably(() => {
    store.settings.set('b', 2);
    return 'b done';
  });
  assert.deepEqual([seen('a'), seen('b')], [undefined, undefined], 'nothing is visible before the commit');
  assert.deepEqual(await Promise.all([a, b]), [undefined, 'b done']);
  assert.deepEqual([seen('a'), seen('b')], [1, 2]);

  // Frames are counted by a checkpoint that cannot write back while nobody reads: compare a
  // group of two writes to the same page with two separate commits of the same writes.
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  await Promise.all([store.durably(() => store.settings.set('a', 3)), store.durably(() => store.settings.set('b', 4))]);
  const grouped = walFrames(store);
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  await store.durably(() => store.settings.set('a', 5));
  await store.durably(() => store.settings.set('b', 6));
  assert.equal(walFrames(store), 2 * grouped, 'two turns wrote the page twice; one group wrote it once');
});

test('durably: a read or a plain transaction while a group is open commits the group first', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  const seen = observer(t, path);
  const first = store.durably(() => store.settings.set('grouped', 1));
  assert.equal(store.settings.get('grouped'), 1, 'the read sees the write…');
  assert.equal(seen('grouped'), 1, '…only because it is on disk already');
  await first;
  const second = store.durably(() => store.settings.set('grouped', 2));
  store.transaction(() => store.settings.set('plain', 3));
  assert.deepEqual([seen('grouped'), seen('plain')], [2, 3]);
  await second;
  assert.throws(() => store.transaction(() => store.durably(() => 1)), /inside transaction\(\)/);
});

test('durably: a write of the group may itself write durably, and the group still commits once, after both', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  const seen = observer(t, path);
  let inner: Promise<void> | undefined;
  const outer = store.durably(() => {
    inner = store.durably(() => store.settings.set('inner', 1));
    store.settings.set('outer', 2);
  });
  assert.deepEqual([seen('inner'), seen('outer')], [undefined, undefined], 'the nested write did not commit the group');
  await Promise.all([outer, inner]);
  assert.deepEqual([seen('inner'), seen('outer')], [1, 2]);
});

test('durably: a write that throws undoes its own writes and rejects at once; the group commits the rest', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  const seen = observer(t, path);
  const ok = store.durably(() => store.settings.set('kept', 1));
  const failed = store.durably(() => {
    store.settings.set('undone', 2);
    throw new RangeError('refused');
  });
  await assert.rejects(failed, RangeError);
  assert.equal(seen('kept'), undefined, 'the failure did not commit the group early');
  await ok;
  assert.deepEqual([seen('kept'), seen('undone')], [1, undefined]);
});

test('durably: the first write of a group runs without a savepoint; when it throws, only its writes are undone and the writes after it commit', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  const seen = observer(t, path);
  // ROLLBACK TO a savepoint that does not exist fails; one that exists, before any write in it, changes nothing.
  const savepointOpen = (): boolean => {
    try {
      store.db.exec('ROLLBACK TO tock_nested_1');
      return true;
    } catch {
      return false;
    }
  };
  const inSavepoint: boolean[] = [];
  const failed = store.durably(() => {
    inSavepoint.push(savepointOpen());
    store.settings.set('undone', 1);
    throw new RangeError('refused');
  });
  const ok = store.durably(() => {
    inSavepoint.push(savepointOpen());
    store.settings.set('kept', 2);
  });
  const alsoOk = store.durably(() => {
    inSavepoint.push(savepointOpen());
    store.settings.set('kept too', 3);
  });
  await assert.rejects(failed, RangeError);
  assert.equal(seen('kept'), undefined, 'the failure did not commit the writes after it early');
  await Promise.all([ok, alsoOk]);
  assert.deepEqual([seen('undone'), seen('kept'), seen('kept too')], [undefined, 2, 3]);
  assert.deepEqual(inSavepoint, [false, false, true], 'the first write of each group in the transaction itself, the next in a savepoint');

  // A first write that succeeds: the writes after it in the turn, one of which fails, keep it.
  const first = store.durably(() => store.settings.set('first', 4));
  const second = store.durably(() => {
    store.settings.set('second', 5);
    throw new RangeError('refused');
  });
  const third = store.durably(() => store.settings.set('third', 6));
  await assert.rejects(second, RangeError);
  await Promise.all([first, third]);
  assert.deepEqual([seen('first'), seen('second'), seen('third')], [4, undefined, 6]);
});

test('durably: a nested transaction that fails inside the first write of a group undoes only its own writes', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  const seen = observer(t, path);
  const first = store.durably(() => {
    store.settings.set('outer', 1);
    assert.throws(
      () =>
        store.transaction(() => {
          store.settings.set('inner', 2);
          throw new RangeError('inner refused');
        }),
      RangeError,
    );
    store.settings.set('after', 3);
    return 'went on';
  });
  assert.equal(await first, 'went on');
  assert.deepEqual([seen('outer'), seen('inner'), seen('after')], [1, undefined, 3]);
});

test('durably: a write made durably inside a write that throws is undone with it and rejects, first of its group or not', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  const seen = observer(t, path);
  const failing = (name: string): { outer: Promise<void>; inner: Promise<void> } => {
    let inner: Promise<void> | undefined;
    const outer = store.durably(() => {
      inner = store.durably(() => store.settings.set(name, 1));
      throw new RangeError(`${name} refused`);
    });
    return { outer, inner: inner as unknown as Promise<void> };
  };
  const alone = failing('inner of the first');
  const ok = store.durably(() => store.settings.set('ok', 2));
  const later = failing('inner of the second');
  for (const { outer, inner } of [alone, later]) {
    await assert.rejects(outer, RangeError);
    await assert.rejects(inner, RangeError);
  }
  await ok;
  assert.deepEqual([seen('inner of the first'), seen('ok'), seen('inner of the second')], [undefined, 2, undefined]);
});

test('durably: when SQLite rolls the whole transaction back (a full disk), every write of the group fails with that error', async (t) => {
  const path = tempPath(t);
  const store = open(t, path);
  const seen = observer(t, path);
  const pages = Number(pragma(store, 'page_count'));
  store.db.exec(`PRAGMA max_page_count = ${pages + 2}`);
  const small = store.durably(() => store.settings.set('small', 1));
  // A caller that catches the failure and goes on (as the listener turns it into an answer).
  const swallowed = store.durably(() => {
    try {
      store.transaction(() => store.settings.set('big', 'x'.repeat(100_000)));
    } catch {
      return 'went on';
    }
    return 'saved';
  });
  const full = (error: unknown): boolean => (error as { errcode?: number }).errcode === 13;
  await assert.rejects(small, full);
  await assert.rejects(swallowed, full);
  assert.deepEqual([seen('small'), seen('big')], [undefined, undefined]);
  store.db.exec('PRAGMA max_page_count = 1073741823');
  await store.durably(() => store.settings.set('small', 2));
  assert.equal(seen('small'), 2, 'the store goes on after the failure');
});
