/**
 * The list of migrations the runner applies (migrations.ts): each group in src/migrations/
 * lists its own, and the runner puts them together. The runner skips a migration by its
 * `version` and sets `user_version` to the list's length, so a group listed out of order or a
 * version written twice would skip or repeat a step on someone's store.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/migrations.ts';

test('lists the migrations in order: each version is its position, from 1, the last the schema version', () => {
  assert.deepEqual(
    MIGRATIONS.map((migration) => migration.version),
    Array.from({ length: MIGRATIONS.length }, (_, i) => i + 1),
  );
  assert.equal((MIGRATIONS.at(-1) as { version: number }).version, SCHEMA_VERSION);
});

test('every migration says what it makes and has SQL to run', () => {
  for (const migration of MIGRATIONS) {
    assert.ok(migration.description.trim().length > 0, `migration ${migration.version} has no description`);
    assert.ok(migration.sql.trim().length > 0, `migration ${migration.version} has no SQL`);
  }
});
