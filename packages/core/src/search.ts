/**
 * Activity search (docs/protocol.md "Endpoints"): best first — exact, prefix, word prefix, substring — case- and
 * accent-insensitive, ties broken by most recent use.
 *
 * How it stays fast at 100 000 activities: exact matches are an index equality on
 * `search_key`; prefix matches an index range on it (sorted when few, else found by walking
 * recency). Word-prefix and substring matches walk `activities_by_recency`, an index ordered
 * by last use that holds both keys (so rows are only read for matches), and stop at a small
 * window: a dense query stops almost at once, a sparse one reads the index once and sorts
 * nothing. For a query of 3+ characters, `activities_trigram` (an FTS5 trigram index of
 * both keys) says first how many activities contain it: when few do, they are ranked in one
 * small sort and the recency index is not read at all; when many do but few have it at a
 * word start, those are read from it, and the walk only needs the few most recent substring
 * matches that still fit.
 */

import { LIMITS, ruleProblem, validationProblem, type ActivityRef } from '@tock/protocol';
import { codePointLength, isWellFormedText, searchKey, WORD_START, wordKey } from './names.ts';
import type { Store } from './store.ts';

interface RefRow {
  activityID: string;
  activityName: string;
}

/** How many prefix matches are few enough to sort; past it, walk by recency instead. */
const DENSE_PREFIX = 2000;

/** Word-prefix and substring matches read in one walk; more than any limit (100). */
const SCAN_WINDOW = 500;

/**
 * Queries contained in fewer activities than this are ranked from the trigram index's
 * candidates; past it, the walk by recency (which such a query fills quickly) is cheaper.
 */
const FEW_CANDIDATES = SCAN_WINDOW;

/** The trigram index answers substrings of this many code points or more. */
const TRIGRAM = 3;

const CONTROL_CHARACTER = /\p{Cc}/u;

/** Recency order as `activities_by_recency` holds it, so that no query needs a sort. */
const RECENCY = 'last_used_at DESC, search_key DESC, word_key DESC, rowid DESC';
const BY_RECENCY = `ORDER BY ${RECENCY}`;

/**
 * Activities matching `q`, best first, at most `limit` (an integer 1–100). An empty `q`
 * (after trimming) lists the most recently used first.
 */
export function searchActivities(store: Store, q: string, limit: number): ActivityRef[] {
  if (typeof q !== 'string') throw validationProblem([ruleProblem('q', { rule: 'string' })]);
  if (!Number.isInteger(limit) || limit < LIMITS.searchLimitMin || limit > LIMITS.searchLimitMax) {
    throw validationProblem([ruleProblem('limit', { rule: 'numberRange', values: { kind: 'integer', min: LIMITS.searchLimitMin, max: LIMITS.searchLimitMax } })]);
  }
  // Archived activities leave search (docs/product.md "Activities"): more are ranked and the
  // archived ones dropped, so the best `limit` others remain — twice the limit first (archived
  // ones are rarely among the best), more only when that was not enough, never more than the
  // limit and every archived one.
  const key = searchKey(q.trim());
  const { n } = store.statement('SELECT count(*) AS n FROM activities INDEXED BY activities_archived WHERE archived = 1').get() as { n: number };
  if (n === 0) return rank(store, key, limit, FEW_CANDIDATES);
  const isArchived = store.statement('SELECT archived FROM activities WHERE id = ?');
  const most = limit + n;
  for (let want = Math.min(most, 2 * limit); ; want = Math.min(most, 2 * want)) {
    const found = rank(store, key, want, FEW_CANDIDATES);
    const shown = found.filter((a) => (isArchived.get(a.activityID) as { archived: number } | undefined)?.archived !== 1);
    if (shown.length >= limit || found.length < want || want === most) return shown.slice(0, limit);
  }
}

/**
 * {@link searchActivities} for a normalized key without the trigram index: the walk by
 * recency alone. Exported for tests, which compare the two.
 */
export function searchByScan(store: Store, key: string, limit: number): ActivityRef[] {
  return rank(store, key, limit, 0);
}

/**
 * {@link searchActivities} for a normalized key, with `few` in place of
 * {@link FEW_CANDIDATES}. Exported for tests, which make every path reachable with a few rows.
 */
export function searchWithTrigrams(store: Store, key: string, limit: number, few: number): ActivityRef[] {
  return rank(store, key, limit, few);
}

/** The search; `few` is how many candidates the trigram index may hand over (0: not used). */
function rank(store: Store, key: string, limit: number, few: number): ActivityRef[] {
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

  const words = wordKey(key);
  // A query that does not start with a letter or digit cannot start a word.
  const wordNeedle = words.startsWith(WORD_START) ? words : '\u0000';
  const indexed = few > 0 && indexable(key);

  // Few activities contain the key: rank all of them — the tiers below, in the same
  // conditions and the same recency order — from the trigram index's candidates.
  if (indexed && fewCandidates(store, 'search_key', key, few)) {
    return all(
      `${select}
       WHERE rowid IN (SELECT rowid FROM activities_trigram WHERE activities_trigram MATCH ?4)
         AND instr(search_key, ?1) > 0
       ORDER BY CASE
           WHEN search_key = ?1 THEN 0
           WHEN search_key > ?1 AND search_key < ?2 THEN 1
           WHEN instr(word_key, ?3) > 0 THEN 2
           ELSE 3
         END, ${RECENCY}
       LIMIT ?5`,
      key,
      upper,
      wordNeedle,
      phrase('search_key', key),
      limit,
    );
  }

  // Word-prefix matches, then substring matches; neither a prefix match.
  const need = limit - found.length;
  const notPrefix = 'NOT (search_key >= ?1 AND search_key < ?2)';
  const substring = `instr(search_key, ?1) > 0 AND ${notPrefix}`;
  const ref = (r: RefRow): ActivityRef => ({ activityID: r.activityID, activityName: r.activityName });

  // Many activities contain the key, but few (or none: it cannot start a word) have it at a
  // word start: read those from the trigram index, then walk by recency for just as many
  // substring matches as still fit, which, as they are many, is a short walk.
  const noWords = wordNeedle === '\u0000';
  if (indexed && (noWords || fewCandidates(store, 'word_key', wordNeedle, few))) {
    if (noWords) {
      return found.concat(
        all(`${select} INDEXED BY activities_by_recency WHERE ${substring} ${BY_RECENCY} LIMIT ?3`, key, upper, need),
      );
    }
    const wordMatches = all(
      `${select} WHERE rowid IN (SELECT rowid FROM activities_trigram WHERE activities_trigram MATCH ?5)
       AND instr(word_key, ?3) > 0 AND ${notPrefix} ${BY_RECENCY} LIMIT ?4`,
      key,
      upper,
      wordNeedle,
      need,
      phrase('word_key', wordNeedle),
    );
    const rest = need - wordMatches.length;
    if (rest === 0) return found.concat(wordMatches);
    return found.concat(
      wordMatches,
      all(
        `${select} INDEXED BY activities_by_recency
         WHERE ${substring} AND NOT instr(word_key, ?3) > 0 ${BY_RECENCY} LIMIT ?4`,
        key,
        upper,
        wordNeedle,
        rest,
      ),
    );
  }

  // One walk by recency collects up to SCAN_WINDOW of them, flagged. Fewer than that: they
  // are all of them (the sparse case, one index read). A full window holds the most recent
  // substring matches, enough to fill any limit; only word-prefix matches older than the
  // window may be missing, and a second walk looks for those alone.
  const window = store
    .statement(
      `SELECT id AS activityID, name AS activityName, instr(word_key, ?3) > 0 AS isWord
       FROM activities INDEXED BY activities_by_recency
       WHERE ${substring} ${BY_RECENCY} LIMIT ?4`,
    )
    .all(key, upper, wordNeedle, SCAN_WINDOW) as unknown as (RefRow & { isWord: number })[];
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
 * Whether the trigram index can answer for `key`: it holds substrings of 3 or more code
 * points, and a key with a control character or a lone surrogate (which no name has) is left
 * to the walk.
 */
function indexable(key: string): boolean {
  return codePointLength(key) >= TRIGRAM && !CONTROL_CHARACTER.test(key) && isWellFormedText(key);
}

/** An FTS5 query for the rows whose `column` contains `text`: its trigrams, in a row. */
function phrase(column: 'search_key' | 'word_key', text: string): string {
  return `${column} : "${text.replaceAll('"', '""')}"`;
}

/** True when fewer than `few` activities have `text` in `column`. */
function fewCandidates(store: Store, column: 'search_key' | 'word_key', text: string, few: number): boolean {
  const { n } = store
    .statement(
      'SELECT count(*) AS n FROM (SELECT 1 FROM activities_trigram WHERE activities_trigram MATCH ?1 LIMIT ?2)',
    )
    .get(phrase(column, text), few) as { n: number };
  return n < few;
}

/**
 * The smallest string greater than every string that starts with `prefix`, in SQLite's
 * BINARY order (UTF-8 bytes, which is code point order): the prefix with its last code point
 * incremented. Every string starting with `prefix` lies in `[prefix, successor(prefix))`.
 */
function successor(prefix: string): string {
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
