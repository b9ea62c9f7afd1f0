/**
 * The store's write notice (`Store.onWrite`): what the tray wakes on instead of looking on a
 * timer (docs/desktop.md "The tray"). It is told whenever `generation` moves — a transaction, a
 * group commit of `durably`, a writing statement — and never for a read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../src/index.ts';

test('onWrite hears transactions, durable writes and writing statements, not reads, until unsubscribed', async (t) => {
  const store = openStore(':memory:');
  t.after(() => store.close());
  store.db.exec('CREATE TABLE notes (text TEXT)');
  let heard = 0;
  let generationSeen = store.generation;
  const unsubscribe = store.onWrite(() => {
    heard++;
    assert.ok(store.generation > generationSeen, 'told after the generation moved');
    generationSeen = store.generation;
  });

  store.statement('SELECT count(*) FROM notes').get();
  assert.equal(heard, 0, 'a read is not a write');

  store.transaction(() => store.statement('INSERT INTO notes VALUES (?)').run('a'));
  assert.ok(heard >= 2, 'a transaction is heard');
  assert.equal(store.generation, generationSeen, 'the last move of the generation was told');

  heard = 0;
  await store.durably(() => store.statement('INSERT INTO notes VALUES (?)').run('b'));
  assert.ok(heard >= 1, 'a durable write is heard');
  assert.equal(store.generation, generationSeen, 'its commit too');

  heard = 0;
  store.statement('DELETE FROM notes').run();
  assert.equal(heard, 1, 'a writing statement outside a transaction is heard');

  unsubscribe();
  store.transaction(() => store.statement('INSERT INTO notes VALUES (?)').run('c'));
  assert.equal(heard, 1, 'nothing after unsubscribing');
});
