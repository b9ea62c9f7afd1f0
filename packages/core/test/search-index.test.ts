/**
 * The trigram index behind search: it answers exactly as the walk by recency does, and the
 * triggers keep it in step with the activities through creates, renames and deletes.
 */

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { MIGRATIONS, codePointLength, nameKey, searchKey, wordKey, type Store } from '../src/index.ts';
import { searchByScan, searchWithTrigrams } from '../src/search.ts';
import { countInstrCalls, fixture } from './support.ts';

/** Letters with and without accents (composed and not), case pairs, punctuation, FTS5 syntax. */
const PIECES = [
  'a', 'b', 'c', 'e', 'o', 'A', 'C', 'E', 'é', 'É', 'e\u0301', 'ö', 'Ö', 'ß', 'İ', 'ﬁ', 'Ω', 'ω',
  ' ', '-', '/', '.', '_', '%', '"', '""', '*', '(', ')', "'", '+', ':', '^', '1', '2', 'NEAR', 'OR',
];

/** Few pieces, so that many names share substrings and every path of the search is taken. */
const FEW_PIECES = ['a', 'b', 'A', 'á', ' ', '-', '"'];

const text = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: max }), weight: 1 },
    { arbitrary: fc.array(fc.constantFrom(...FEW_PIECES), { minLength: 0, maxLength: max }), weight: 3 },
  ).map((parts) => parts.join(''));

/** The FTS5 index's rows and the activities' keys, which must agree row for row. */
function mirrored(store: Store): { index: unknown[]; activities: unknown[] } {
  const rows = (sql: string): unknown[] => (store.db.prepare(sql).all() as object[]).map((r) => ({ ...r }));
  return {
    index: rows('SELECT rowid AS r, search_key AS k, word_key AS w FROM activities_trigram ORDER BY rowid'),
    activities: rows('SELECT rowid AS r, search_key AS k, word_key AS w FROM activities ORDER BY rowid'),
  };
}

function assertInStep(store: Store): void {
  const { index, activities } = mirrored(store);
  assert.deepEqual(index, activities);
  store.db.exec("INSERT INTO activities_trigram (activities_trigram, rank) VALUES ('integrity-check', 1)");
}

test('answers every query exactly as the walk by recency does', (t) => {
  const f = fixture(t);
  let viaIndex = 0;
  fc.assert(
    fc.property(
      fc.array(fc.record({ name: text(14), tie: fc.boolean() }), { maxLength: 60 }),
      fc.array(
        fc.oneof(
          text(7),
          // A piece of some name, in another case.
          fc.record({ at: fc.nat(), from: fc.nat(14), length: fc.nat(8), upper: fc.boolean() }),
        ),
        { minLength: 1, maxLength: 12 },
      ),
      fc.integer({ min: 1, max: 30 }),
      // How many candidates the index may hand over, small so that every path is taken.
      fc.integer({ min: 1, max: 6 }),
      (activities, queries, limit, few) => {
        f.store.db.exec('DELETE FROM activities');
        const created: string[] = [];
        for (const { name, tie } of activities) {
          try {
            created.push(f.tracker.createActivity(name).activityName);
          } catch {
            // Empty, or a duplicate: not an activity.
          }
          if (!tie) f.clock.advance(1000);
        }
        for (const query of queries) {
          let q: string;
          if (typeof query === 'string') q = query;
          else {
            const name = created.length > 0 ? (created[query.at % created.length] as string) : '';
            const piece = name.slice(query.from, query.from + query.length);
            q = query.upper ? piece.toUpperCase() : piece;
          }
          const key = searchKey(q.trim());
          const expected = searchByScan(f.store, key, limit);
          assert.deepEqual(f.tracker.searchActivities(q, limit), expected, `query ${JSON.stringify(q)}`);
          assert.deepEqual(searchWithTrigrams(f.store, key, limit, few), expected, `query ${JSON.stringify(q)}, few ${few}`);
          if (codePointLength(key) >= 3 && expected.length > 0) viaIndex++;
        }
      },
    ),
    { numRuns: 300, seed: 20261129 },
  );
  assertInStep(f.store);
  t.diagnostic(`${viaIndex} queries with results went through the trigram index`);
  assert.ok(viaIndex > 100, `only ${viaIndex} queries with results went through the trigram index`);
});

test('keeps the index in step through creates, renames and deletes', (t) => {
  const f = fixture(t);
  const names = (q: string): string[] => f.tracker.searchActivities(q, 20).map((r) => r.activityName);
  const xylo = f.tracker.createActivity('Xylophone practice');
  f.tracker.createActivity('Café "quoted" *star*');
  f.clock.advanceMinutes(1);
  assertInStep(f.store);
  assert.deepEqual(names('lophone'), ['Xylophone practice']);
  assert.deepEqual(names('"quoted"'), ['Café "quoted" *star*']);
  assert.deepEqual(names('e "quo'), ['Café "quoted" *star*']);
  assert.deepEqual(names('*star'), ['Café "quoted" *star*']);

  f.tracker.renameActivity(xylo.activityID, 'Marimba Übung');
  assertInStep(f.store);
  assert.deepEqual(names('lophone'), []);
  assert.deepEqual(names('ubung'), ['Marimba Übung']);
  assert.deepEqual(names('rimba'), ['Marimba Übung']);

  // Using an activity changes its recency, not its key: the index is left alone.
  f.tracker.startActivity({ activityID: xylo.activityID });
  f.tracker.stopActivity();
  assertInStep(f.store);

  f.tracker.createActivity('Another marimba');
  f.clock.advanceMinutes(1);
  assert.deepEqual(names('rimba'), ['Marimba Übung', 'Another marimba']);
  f.store.db.exec("DELETE FROM activities WHERE name = 'Another marimba'");
  assertInStep(f.store);
  assert.deepEqual(names('rimba'), ['Marimba Übung']);

  // A restart keeps it.
  const again = f.reopen();
  assertInStep(again.store);
  assert.deepEqual(again.tracker.searchActivities('bung', 5).map((r) => r.activityName), ['Marimba Übung']);
});

test('fills the index for activities that existed before it (upgrade from schema 2)', (t) => {
  const f = fixture(t);
  const path = f.path;
  f.store.close();
  rmSync(path);
  const old = new DatabaseSync(path);
  old.exec((MIGRATIONS[0] as { sql: string }).sql);
  old.exec((MIGRATIONS[1] as { sql: string }).sql);
  old.exec('PRAGMA user_version = 2');
  const insert = old.prepare(
    'INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const names = ['Old résumé', 'Older café', 'Oldest thing'];
  names.forEach((name, i) => {
    insert.run(`00000000-0000-4000-8000-00000000000${i + 1}`, name, nameKey(name), searchKey(name), wordKey(name), i, i);
  });
  old.close();
  const upgraded = f.reopen();
  assertInStep(upgraded.store);
  assert.deepEqual(
    upgraded.tracker.searchActivities('sume', 5).map((r) => r.activityName),
    ['Old résumé'],
  );
  assert.deepEqual(
    upgraded.tracker.searchActivities('lde', 5).map((r) => r.activityName),
    ['Oldest thing', 'Older café'],
  );
});

test('answers as the walk does when many activities contain the query (dense substrings, sparse words)', (t) => {
  const f = fixture(t);
  f.store.transaction(() => {
    // Old word-prefix matches for "ode", "view" and "joy", some of them tied in recency.
    for (const name of ['Ode to joy', 'my ode', 'Odessa trip', '"ode" quoted', 'x-ode', 'View point', 'a view', 'Joyride']) {
      f.tracker.createActivity(name);
      f.clock.advance(name.length % 2 === 0 ? 0 : 1000);
    }
    // Then many more recent substring matches.
    for (let i = 0; i < 700; i++) {
      f.tracker.createActivity(i % 2 === 0 ? `Encode ${i}` : `Review ${i} enjoy`);
      f.clock.advance(i % 3 === 0 ? 0 : 1000);
    }
    // And a block of word-prefix matches dense enough to skip the index.
    for (let i = 0; i < 600; i++) {
      f.tracker.createActivity(`Views (${i}) ok`);
      f.clock.advance(1000);
    }
  });
  // And one word-prefix match newer than all of them.
  f.tracker.createActivity('Fresh ode');
  const queries = ['ode', 'ODE', 'odé', 'nco', 'code', 'encode 5', 'de 1', 'view', 'iew', 'joy', 'njoy', 'ew 1', 'to j', '"ode"', 'e 69', ') ok', '(12', ') o', 's (1'];
  for (const q of queries) {
    for (const limit of [1, 3, 20, 100]) {
      assert.deepEqual(
        f.tracker.searchActivities(q, limit),
        searchByScan(f.store, searchKey(q.trim()), limit),
        `query ${JSON.stringify(q)}, limit ${limit}`,
      );
      for (const few of [1, 50, 1000]) {
        assert.deepEqual(
          searchWithTrigrams(f.store, searchKey(q.trim()), limit, few),
          searchByScan(f.store, searchKey(q.trim()), limit),
          `query ${JSON.stringify(q)}, limit ${limit}, few ${few}`,
        );
      }
    }
  }
  assert.deepEqual(
    f.tracker.searchActivities('ode', 6).map((r) => r.activityName),
    // Prefixes (tied in recency: by key, descending), then word prefixes, newest first.
    ['Odessa trip', 'Ode to joy', 'Fresh ode', 'x-ode', '"ode" quoted', 'my ode'],
  );
});

test('lists a word-prefix match once when it is also among the most recent substring matches', (t) => {
  const f = fixture(t);
  for (const name of ['code', 'node', 'my ode', 'anode']) {
    f.tracker.createActivity(name);
    f.clock.advance(1000);
  }
  const expected = ['my ode', 'anode', 'node', 'code'];
  assert.deepEqual(searchByScan(f.store, 'ode', 10).map((r) => r.activityName), expected);
  for (const few of [1, 2, 3, 4, 5]) {
    assert.deepEqual(searchWithTrigrams(f.store, 'ode', 10, few).map((r) => r.activityName), expected, `few ${few}`);
  }
});

test('answers sparse and word-sparse queries over 50 000 activities without walking them all', (t) => {
  const f = fixture(t);
  const words = ['alpha', 'review', 'code', 'design', 'café', 'naïve', 'report', 'sprint', 'backlog', 'interview'];
  const insert = f.store.db.prepare(
    `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed % n;
  };
  f.store.transaction(() => {
    for (let i = 0; i < 50_000; i++) {
      const name = `${words[next(words.length)]} ${words[next(words.length)]} ${i}`;
      const used = next(365 * 86_400) * 1000;
      insert.run(crypto.randomUUID(), name, nameKey(name), searchKey(name), wordKey(name), used, used);
    }
  });
  // Each of these read the whole recency index before the trigram index (5–10 ms here). A
  // count of the rows the walks look at, not a timing: the same on any machine. How fast
  // search is lives in bench/ (figure 4, "GET /activities/search latency, 100 k activities").
  const rows = countInstrCalls(f.store);
  const report: string[] = [];
  for (const q of ['ode', 'view', 'eview', 'zzz', 'xylophone', '12345', 'naive 49', 'ew 4']) {
    rows.reset();
    const scanned = searchByScan(f.store, searchKey(q), 20);
    const walked = rows.calls;
    rows.reset();
    assert.deepEqual(f.tracker.searchActivities(q, 20), scanned, q);
    report.push(`${JSON.stringify(q)}: ${rows.calls} rows (walk: ${walked})`);
    assert.ok(walked >= 50_000, `the walk for ${JSON.stringify(q)} looked at ${walked} rows: does the count see walks?`);
    assert.ok(rows.calls <= 2_000, `search ${JSON.stringify(q)} looked at ${rows.calls} rows: is the trigram index used?`);
  }
  t.diagnostic(`search over 50k activities, rows looked at per query: ${report.join(', ')}`);
});
