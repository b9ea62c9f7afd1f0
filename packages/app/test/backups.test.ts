import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { openStore } from '@tock/core';
import { AUTOMATIC_BACKUPS_KEPT, BackupKeeper } from '../src/backups.ts';

/** A store in a fresh home, and a keeper of its backups whose clock the test sets. */
function setUp(t: TestContext, startMs: number): { keeper: BackupKeeper; dir: string; setClock: (ms: number) => void } {
  const home = mkdtempSync(join(tmpdir(), 'tock-backups-'));
  const store = openStore(join(home, 'tock.db'));
  let now = startMs;
  const dir = join(home, 'backups');
  const keeper = new BackupKeeper({ store, dir, clock: () => now });
  t.after(async () => {
    await keeper.close();
    store.close();
    rmSync(home, { recursive: true, force: true });
  });
  return { keeper, dir, setClock: (ms) => (now = ms) };
}

const local = (day: number, hour: number, minute = 0): number => new Date(2026, 2, day, hour, minute, 0).getTime();

test('makes one automatic backup per local day, and keeps the last 7', async (t) => {
  const { keeper, dir, setClock } = setUp(t, local(1, 9));
  assert.match((await keeper.backupDaily()) ?? '', /backups\/tock-20260301-090000-auto\.db$/);
  setClock(local(1, 23, 59));
  assert.equal(await keeper.backupDaily(), null, 'the same local day: nothing new');
  for (let day = 2; day <= 10; day++) {
    setClock(local(day, 0, 1));
    assert.match((await keeper.backupDaily()) ?? '', new RegExp(`tock-202603${String(day).padStart(2, '0')}-000100-auto\\.db$`));
    assert.equal(await keeper.backupDaily(), null);
  }
  assert.deepEqual(
    readdirSync(dir).sort(),
    [4, 5, 6, 7, 8, 9, 10].map((day) => `tock-202603${String(day).padStart(2, '0')}-000100-auto.db`),
  );
  assert.equal(AUTOMATIC_BACKUPS_KEPT, 7);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  for (const name of readdirSync(dir)) assert.equal(statSync(join(dir, name)).mode & 0o777, 0o600, name);
});

test("never deletes the user's own backups, and clears half-written files a crash left", async (t) => {
  const { keeper, dir, setClock } = setUp(t, local(1, 12));
  const mine = await keeper.backupNow();
  assert.match(mine, /backups\/tock-20260301-120000\.db$/);
  assert.match(await keeper.backupNow(), /backups\/tock-20260301-120000-2\.db$/, 'two in one second get distinct names');
  writeFileSync(join(dir, '.tock-20260301-115900-auto.db.partial-123-abc'), 'half');
  for (let day = 1; day <= 9; day++) {
    setClock(local(day, 12, 30));
    await keeper.backupDaily();
  }
  const names = readdirSync(dir).sort();
  assert.ok(names.includes('tock-20260301-120000.db') && names.includes('tock-20260301-120000-2.db'));
  assert.equal(names.filter((n) => n.endsWith('-auto.db')).length, 7);
  assert.ok(!names.some((n) => n.includes('.partial-')));
});

test('refuses a relative backup path (the command resolves it where it was typed)', async (t) => {
  const { keeper } = setUp(t, local(1, 12));
  await assert.rejects(keeper.backupNow('copy.db'), /give the backup file as an absolute path/);
});

test('backups asked for at once are written one after the other', async (t) => {
  const { keeper, dir } = setUp(t, local(1, 12));
  const paths = await Promise.all([keeper.backupNow(), keeper.backupDaily(), keeper.backupNow()]);
  assert.deepEqual(paths.map((p) => p?.slice(dir.length + 1)), ['tock-20260301-120000.db', 'tock-20260301-120000-auto.db', 'tock-20260301-120000-2.db']);
});
