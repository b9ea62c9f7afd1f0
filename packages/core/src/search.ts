/**
 * Activity search (SPEC §7): best first — exact, prefix, word prefix, substring — case- and
 * accent-insensitive, ties broken by most recent use. Exact and prefix matches come from the
 * index on `search_key` (an equality, then a range); only when they do not fill the limit does a scan look for
 * word-prefix and substring matches, so typing the start of a name stays fast however many
 * activities there are.
 */

import { LIMITS, validationProblem, type ActivityRef } from '@tock/protocol';
import { searchKey, WORD_START, wordKey } from './names.ts';
import type { Store } from './store.ts';

interface RefRow {
  activityID: string;
  activityName: string;
}

/**
 * Activities matching `q`, best first, at most `limit` (an integer 1–100). An empty `q`
 * (after trimming) lists the most recently used first.
 */
export function searchActivities(store: Store, q: string, limit: number): ActivityRef[] {
  if (typeof q !== 'string') throw validationProblem([{ field: 'q', message: 'must be a string' }]);
  if (!Number.isInteger(limit) || limit < LIMITS.searchLimitMin || limit > LIMITS.searchLimitMax) {
    throw validationProblem([
      { field: 'limit', message: `must be an integer from ${LIMITS.searchLimitMin} to ${LIMITS.searchLimitMax}` },
    ]);
  }
  const key = searchKey(q.trim());
  if (key === '') {
    return refs(
      store
        .statement(
          `SELECT id AS activityID, name AS activityName FROM activities
           ORDER BY last_used_at DESC, rowid DESC LIMIT ?`,
        )
        .all(limit),
    );
  }

  const upper = successor(key);
  const found = refs(
    store
      .statement(
        `SELECT id AS activityID, name AS activityName FROM activities
         WHERE search_key = ? ORDER BY last_used_at DESC, rowid DESC LIMIT ?`,
      )
      .all(key, limit),
  );
  if (found.length < limit) found.push(...prefixMatches(store, key, upper, limit - found.length));
  if (found.length >= limit) return found;

  // Word-prefix and substring matches that are not prefix matches: a scan of the keys.
  // A query that does not start with a letter or digit cannot start a word.
  const words = wordKey(key);
  const wordNeedle = words.startsWith(WORD_START) ? words : null;
  const rest = refs(
    store
      .statement(
        `SELECT id AS activityID, name AS activityName FROM activities
         WHERE instr(search_key, ?1) > 0
           AND NOT (search_key >= ?1 AND search_key < ?2)
         ORDER BY coalesce(instr(word_key, ?3), 0) > 0 DESC, last_used_at DESC, rowid DESC LIMIT ?4`,
      )
      .all(key, upper, wordNeedle, limit - found.length),
  );
  return found.concat(rest);
}

/** How many prefix matches are few enough to sort; past it, walk by recency instead. */
const DENSE_PREFIX = 2000;

/**
 * Activities whose search key starts with `key` (and is longer), most recently used first.
 * Few matches: read the index range and sort it. Many (every name starts with "project"):
 * walk the recency index and stop at `limit`, which ends early exactly because matches are
 * dense — sorting them all would cost tens of milliseconds at 100 000 activities.
 */
function prefixMatches(store: Store, key: string, upper: string, limit: number): ActivityRef[] {
  const counted = store
    .statement(
      `SELECT count(*) AS n FROM (
         SELECT 1 FROM activities WHERE search_key > ?1 AND search_key < ?2 LIMIT ?3)`,
    )
    .get(key, upper, DENSE_PREFIX) as { n: number };
  const sql =
    counted.n < DENSE_PREFIX
      ? `SELECT id AS activityID, name AS activityName FROM activities
         WHERE search_key > ?1 AND search_key < ?2
         ORDER BY last_used_at DESC, rowid DESC LIMIT ?3`
      : `SELECT id AS activityID, name AS activityName FROM activities INDEXED BY activities_by_last_used
         WHERE search_key > ?1 AND search_key < ?2
         ORDER BY last_used_at DESC, rowid DESC LIMIT ?3`;
  return refs(store.statement(sql).all(key, upper, limit));
}

function refs(rows: unknown[]): ActivityRef[] {
  return (rows as RefRow[]).map((r) => ({ activityID: r.activityID, activityName: r.activityName }));
}

/**
 * The smallest string greater than every string that starts with `prefix`, in SQLite's
 * BINARY order (UTF-8 bytes, which is code point order): the prefix with its last code point
 * incremented. Every string starting with `prefix` lies in `[prefix, successor(prefix))`.
 */
export function successor(prefix: string): string {
  const points = Array.from(prefix, (c) => c.codePointAt(0) ?? 0);
  while (points.length > 0) {
    const last = points.pop() ?? 0;
    let next = last + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return String.fromCodePoint(...points, next);
  }
  // Only reachable for a prefix made of U+10FFFF alone: nothing sorts above it but itself.
  return '\u{10ffff}'.repeat(prefix.length + 1);
}
