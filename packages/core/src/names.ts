/**
 * Activity names: the rules a name must follow (SPEC §7) and the keys it is stored under.
 * A name is kept as the user typed it (trimmed, NFC); `nameKey` makes it unique and lets it
 * be looked up case-insensitively; `searchKey` and `wordKey` make search case- and
 * accent-insensitive.
 */

import { LIMITS, validationProblem } from '@tock/protocol';

const CONTROL_CHARACTER = /\p{Cc}/u;
const NONSPACING_MARKS = /\p{Mn}/gu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** False when the text has a lone surrogate, which SQLite's UTF-8 could not keep. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Length of a string in Unicode code points, the unit SPEC §7 counts lengths in. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Why a candidate name is not acceptable, or `undefined` when it is. The name is measured
 * after trimming and NFC, the form it is stored in.
 */
export function nameError(raw: string): string | undefined {
  if (!isWellFormedText(raw)) return 'must be valid Unicode text';
  const name = raw.trim().normalize('NFC');
  if (name.length === 0) return 'must not be empty';
  if (codePointLength(name) > LIMITS.activityNameMax) {
    return `must be at most ${LIMITS.activityNameMax} characters`;
  }
  if (CONTROL_CHARACTER.test(name)) return 'must not contain control characters';
  return undefined;
}

/**
 * The stored form of a valid name: trimmed and NFC-normalized. Throws a `validation_failed`
 * problem about `field` when the name breaks a rule.
 */
export function cleanName(raw: unknown, field = 'name'): string {
  if (typeof raw !== 'string') throw validationProblem([{ field, message: 'must be a string' }]);
  const error = nameError(raw);
  if (error !== undefined) throw validationProblem([{ field, message: error }]);
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

/**
 * The search form split into words and joined by single spaces, with a leading space, so
 * that "a word of the name starts with q" is `instr(word_key, ' ' || words(q)) > 0`.
 * Any run of characters that are neither letters nor digits separates words
 * ("feature/login-page" → " feature login page").
 */
export function wordKey(text: string): string {
  return ' ' + searchKey(text).replace(NOT_LETTER_OR_DIGIT, ' ').trim();
}
