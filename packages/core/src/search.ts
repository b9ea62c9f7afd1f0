/**
 * Activity search (SPEC §7): best first — exact, prefix, word prefix, substring — case- and
 * accent-insensitive, ties broken by most recent use.
 *
 * How it stays fast at 100 000 activities: exact matches are an index equality on
 * `search_key`; prefix matches an index range on it (sorted when few, else found by walking
 * recency). Word-prefix and substring matches walk `activities_by_recency`, an index ordered
 * by last use that holds both keys (so rows are only read for matches), and stop at a small
 * window: a dense query stops almost at once, a sparse one reads the index once and sorts
 * nothing.
 */

import { LIMITS, validationProblem, type ActivityRef } from '@tock/protocol';
import { searchKey, WORD_START, wordKey } from './names.ts';
import type { Store } from './store.ts';

interface RefRow {
  activityID: string;
  activityName: string;
}

/** How many prefix matches are few enough to sort; past it, walk by recency instead. */
const DENSE_PREFIX = 2000;

/** Word-prefix and substring matches read in one walk; more than any limit (100). */
const SCAN_WINDOW = 500;

/** Recency order as `activities_by_recency` holds it, so that no query needs a sort. */
const BY_RECENCY = 'ORDER BY last_used_at DESC, search_key DESC, word_key DESC, rowid DESC';

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
  const all = (sql: string, ...params: (string | number)[]): ActivityRef[] =>
    (store.statement(sql).all(...params) as unknown as RefRow[]).map((r) => ({
      activityID: r.activityID,
      activityName: r.activityName,
    }));
  const select = 'SELECT id AS activityID, name AS activityName FROM activities';

  if (key === '') return all(`${select} INDEXED BY activities_by_recency ${BY_RECENCY} LIMIT ?`, limit);

  const found = all(`${select} WHERE search_key = ? ${BY_RECENCY} LIMIT ?`, key, limit);
  if (found.length >= limit) return found;

  // Prefix matches (longer than the key): few are sorted, many are walked by recency.
  const upper = successor(key);
  const { n } = store
    .statement(`SELECT count(*) AS n FROM (SELECT 1 FROM activities WHERE search_key > ?1 AND search_key < ?2 LIMIT ?3)`)
    .get(key, upper, DENSE_PREFIX) as { n: number };
  const prefixSource = n < DENSE_PREFIX ? '' : 'INDEXED BY activities_by_recency';
  found.push(
    ...all(
      `${select} ${prefixSource} WHERE search_key > ?1 AND search_key < ?2 ${BY_RECENCY} LIMIT ?3`,
      key,
      upper,
      limit - found.length,
    ),
  );
  if (found.length >= limit) return found;

  // Word-prefix matches, then substring matches; neither a prefix match. One walk by
  // recency collects up to SCAN_WINDOW of them, flagged. Fewer than that: they are all of
  // them (the sparse case, one index read). A full window holds the most recent substring
  // matches, enough to fill any limit; only word-prefix matches older than the window may be
  // missing, and a second walk looks for those alone.
  const need = limit - found.length;
  const words = wordKey(key);
  // A query that does not start with a letter or digit cannot start a word.
  const wordNeedle = words.startsWith(WORD_START) ? words : '\u0000';
  const notPrefix = 'NOT (search_key >= ?1 AND search_key < ?2)';
  const window = store
    .statement(
      `SELECT id AS activityID, name AS activityName, instr(word_key, ?3) > 0 AS isWord
       FROM activities INDEXED BY activities_by_recency
       WHERE instr(search_key, ?1) > 0 AND ${notPrefix} ${BY_RECENCY} LIMIT ?4`,
    )
    .all(key, upper, wordNeedle, SCAN_WINDOW) as unknown as (RefRow & { isWord: number })[];
  const ref = (r: RefRow): ActivityRef => ({ activityID: r.activityID, activityName: r.activityName });
  let wordMatches = window.filter((r) => r.isWord).map(ref);
  if (window.length === SCAN_WINDOW && wordMatches.length < need) {
    wordMatches = all(
      `${select} INDEXED BY activities_by_recency
       WHERE instr(word_key, ?3) > 0 AND ${notPrefix} ${BY_RECENCY} LIMIT ?4`,
      key,
      upper,
      wordNeedle,
      need,
    );
  }
  const substringMatches = window.filter((r) => !r.isWord).map(ref);
  return found.concat(wordMatches, substringMatches).slice(0, limit);
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
