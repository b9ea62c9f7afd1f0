/**
 * Activity names: the rules a name must follow (docs/protocol.md "Endpoints") and the keys it is stored under.
 * A name is kept as the user typed it (trimmed, NFC); `nameKey` makes it unique and lets it
 * be looked up case-insensitively; `searchKey` and `wordKey` make search case- and
 * accent-insensitive and find word starts.
 */

import { FORBIDDEN_NAME_CHARACTER, type FieldRule, LIMITS, ruleMessage, ruleProblem, validationProblem } from '@tock/protocol';

const NONSPACING_MARKS = /\p{Mn}/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** False when the text has a lone surrogate, which SQLite's UTF-8 could not keep. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Length of a string in Unicode code points, the unit docs/protocol.md "Endpoints" counts lengths in. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * The rule a candidate name breaks (its code and values, @tock/protocol's `FieldRule`), or
 * `undefined` when it is acceptable. The name is measured after trimming and NFC, the form it
 * is stored in.
 */
export function nameRule(raw: string): FieldRule | undefined {
  if (!isWellFormedText(raw)) return { rule: 'unicode' };
  const name = raw.trim().normalize('NFC');
  if (name.length === 0) return { rule: 'notEmpty' };
  if (codePointLength(name) > LIMITS.activityNameMax) return { rule: 'atMostChars', values: { max: LIMITS.activityNameMax } };
  if (FORBIDDEN_NAME_CHARACTER.test(name)) return { rule: 'noControlChars' };
  return undefined;
}

/** Why a candidate name is not acceptable ({@link nameRule} in English), or `undefined` when it is. */
export function nameError(raw: string): string | undefined {
  const rule = nameRule(raw);
  return rule === undefined ? undefined : ruleMessage(rule);
}

/**
 * The stored form of a valid name: trimmed and NFC-normalized. Throws a `validation_failed`
 * problem about `field` when the name breaks a rule.
 */
export function cleanName(raw: unknown, field = 'name'): string {
  if (typeof raw !== 'string') throw validationProblem([ruleProblem(field, { rule: 'string' })]);
  const rule = nameRule(raw);
  if (rule !== undefined) throw validationProblem([ruleProblem(field, rule)]);
  return raw.trim().normalize('NFC');
}

/** The uniqueness and lookup key of a name: NFC, then lower case. */
export function nameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}

/** The search form of a text: decomposed, accents stripped, lower case ("Café" → "cafe"). */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(NONSPACING_MARKS, '').toLowerCase().normalize('NFC');
}

/** Marks the start of a word in {@link wordKey}; a control character, so never part of a name. */
export const WORD_START = '\u0001';
const WORD_STARTS = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}])/gu;

/**
 * The search form with {@link WORD_START} before each word (a letter or digit that follows
 * anything else), so "some word of the name starts with q" is
 * `instr(word_key, wordKey(q)) > 0` when q starts with a letter or digit
 * ("feature/login-page" → "␁feature/␁login-␁page"; "login-pa" → "␁login-␁pa").
 */
export function wordKey(text: string): string {
  return searchKey(text).replace(WORD_STARTS, WORD_START);
}

/**
 * Whether `text` has more than `max` code points. A string has no more code points than UTF-16
 * units, so only one longer than `max` units is counted (walking every heartbeat's entity and
 * fields code point by code point was ~0.3 µs of its ~14).
 */
export function longerThan(text: string, max: number): boolean {
  return text.length > max && codePointLength(text) > max;
}
