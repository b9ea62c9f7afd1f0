/**
 * The store's write notice (`Store.onWrite`): what the tray wakes on instead of looking on a
 * timer (docs/desktop.md "The tray"). It is told whenever `generation` moves — a transaction, a
 * group commit of `durably`, a writing statement — and never for a read.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { openStore } from '../src/index.ts';

/** A store with one table of notes, closed after the test; `note` writes one row. */
function notesStore(t: TestContext) {
  const store = openStore(':memory:');
  t.after(() => store.close());
  store.db.exec('CREATE TABLE notes (text TEXT)');
  return { store, note: (text: string) => store.statement('INSERT INTO notes VALUES (?)').run(text) };
}

test('onWrite hears transactions, durable writes and writing statements, not reads, until unsubscribed', async (t) => {
  const { store, note } = notesStore(t);
  let heard = 0;
  let generationSeen = store.generation;
  const unsubscribe = store.onWrite(() => {
    heard++;
    assert.ok(store.generation > generationSeen, 'told after the generation moved');
    generationSeen = store.generation;
  });

  store.statement('SELECT count(*) FROM notes').get();
  assert.equal(heard, 0, 'a read is not a write');

  store.transaction(() => note('a'));
  assert.ok(heard >= 2, 'a transaction is heard');
  assert.equal(store.generation, generationSeen, 'the last move of the generation was told');

  heard = 0;
  await store.durably(() => note('b'));
  assert.ok(heard >= 1, 'a durable write is heard');
  assert.equal(store.generation, generationSeen, 'its commit too');

  heard = 0;
  store.statement('DELETE FROM notes').run();
  assert.equal(heard, 1, 'a writing statement outside a transaction is heard');

  unsubscribe();
  store.transaction(() => note('c'));
  assert.equal(heard, 1, 'nothing after unsubscribing');
});

test("a group commit's writes are heard once, when it has committed, never while it is open", async (t) => {
  const { store, note } = notesStore(t);
  let heard = 0;
  store.onWrite(() => {
    heard++;
    assert.equal(store.db.isTransaction, false, 'told with nothing left uncommitted');
  });
  const a = store.durably(() => note('a'));
  const b = store.durably(() => note('b'));
  assert.equal(store.db.isTransaction, true, 'the group is open');
  assert.equal(heard, 0, 'nobody told while it is open: a look would end it early');
  await Promise.all([a, b]);
  assert.equal(heard, 1, 'told once, at its commit');
});

test('a write on the turn after a group opened joins it: one commit for both', async (t) => {
  const { store, note } = notesStore(t);
  let commits = 0;
  store.onWrite(() => commits++);
  const first = store.durably(() => note('first'));
  // Queued after the group's own turn: what a request read by the next poll would be.
  const next = new Promise<void>((resolve, reject) =>
    setImmediate(() => {
      assert.equal(store.db.isTransaction, true, 'the group waits one more turn for company');
      store.durably(() => note('next')).then(() => resolve(), reject);
    }),
  );
  await Promise.all([first, next]);
  assert.equal(commits, 1, 'both in one commit');
  assert.deepEqual(
    store.statement('SELECT text FROM notes ORDER BY text').all().map((r) => r.text),
    ['first', 'next'],
  );
  // And it does not wait longer: a write two turns later has a commit of its own.
  await store.durably(() => note('later'));
  assert.equal(commits, 2);
});
