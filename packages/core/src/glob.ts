/**
 * The glob of capture exclusions and suggestion rules (docs/desktop.md "Capture"): `*` any run
 * of characters, `?` one character (a code point), nothing else special, case-insensitive, on
 * the whole text. One matcher for both, and no regular expression: a pattern is cut at its
 * `*` into pieces, the first piece must begin the text, the last must end it, and each piece
 * between is found at its leftmost place after the one before. Nothing is ever tried twice, so
 * a match costs at most the text's length times the pattern's — linear in the text for a
 * pattern of at most {@link GLOB_LIMITS} (why not a regex or a library: docs/decisions.md
 * "Capture globs"). A pattern without `?` is matched on the text's UTF-16 units as they are
 * (no `?` has to take one code point, and a well-formed piece only ever matches whole code
 * points), so no array of the text is made; one with `?`, or with a lone surrogate, on its code
 * points.
 */

import type { FieldRule } from '@tock/protocol';
import { codePointLength, isWellFormedText } from './names.ts';

/** A pattern has at most this many characters and this many `*` (docs/desktop.md "Capture"). */
export const GLOB_LIMITS = { length: 256, stars: 16 } as const;

/**
 * A piece between two `*`: its code points, `null` where the pattern has `?`; or, in a pattern
 * without `?`, the piece's text itself (indexed by UTF-16 units, like the text it is matched on).
 */
type Piece = readonly (string | null)[] | string;

/** The text as the pieces are matched on: its code points, or the string itself for pieces that are strings. */
type Units = readonly string[] | string;

/** A glob made ready to match many texts. */
export interface CompiledGlob {
  /** The glob as given. */
  readonly glob: string;
  /** Whether the glob matches the whole of `text`, case-insensitively. */
  test(text: string): boolean;
}

/** Counts the comparisons a match makes, for the tests that hold it linear. */
export interface GlobSteps {
  steps: number;
}

/** Why `glob` is refused where patterns are set (over {@link GLOB_LIMITS}), or null when it is within them. */
export function globOverLimits(glob: string): string | null {
  // In characters (code points, as it is matched: `?` takes one, an emoji is one).
  const length = codePointLength(glob);
  if (length > GLOB_LIMITS.length) return `is ${length} characters long; a pattern has at most ${GLOB_LIMITS.length}`;
  const stars = countStars(glob);
  if (stars > GLOB_LIMITS.stars) return `has ${stars} * wildcards; a pattern has at most ${GLOB_LIMITS.stars}`;
  return null;
}

/**
 * The limit `glob` breaks where patterns are set, as a rule (its code and values, the glob
 * quoted by {@link quoteGlob}; English `the glob "…" ` + {@link globOverLimits}), or null.
 */
export function globRule(glob: string): FieldRule | null {
  const length = codePointLength(glob);
  if (length > GLOB_LIMITS.length) return { rule: 'globTooLong', values: { glob: quoteGlob(glob), length, max: GLOB_LIMITS.length } };
  const stars = countStars(glob);
  if (stars > GLOB_LIMITS.stars) return { rule: 'globStars', values: { glob: quoteGlob(glob), stars, max: GLOB_LIMITS.stars } };
  return null;
}

/** A glob as a refusal names it: in quotes, cut to 40 characters. */
export function quoteGlob(glob: string): string {
  return JSON.stringify(glob.length > 40 ? `${glob.slice(0, 39)}…` : glob);
}

function countStars(glob: string): number {
  let stars = 0;
  for (let i = glob.indexOf('*'); i >= 0; i = glob.indexOf('*', i + 1)) stars++;
  return stars;
}

/** Compiles a glob (lower-cased, cut at its `*`) for {@link CompiledGlob.test}. */
export function compileGlob(glob: string): CompiledGlob {
  const known = compiled.get(glob);
  if (known !== undefined) return known;
  const matcher = matcherOf(glob);
  const made: CompiledGlob = { glob, test: (text) => matcher(text) };
  if (compiled.size >= 2000) compiled.clear();
  compiled.set(glob, made);
  return made;
}

/** Globs compiled before: a day's suggestions and every focus report match the same globs again. */
const compiled = new Map<string, CompiledGlob>();

/** Whether `glob` matches the whole of `text`, case-insensitively. */
export function globMatches(glob: string, text: string): boolean {
  return compileGlob(glob).test(text);
}

/** {@link globMatches}, counting its comparisons in `counter` (the tests' measure of its cost). */
export function globMatchesCounted(glob: string, text: string, counter: GlobSteps): boolean {
  return matcherOf(glob, counter)(text);
}

/**
 * The glob lower-cased and cut at its `*`, and how a text is matched: on its UTF-16 units when
 * the glob has no `?` and no lone surrogate (a piece then starts and ends on whole code points,
 * so it stands where it would among the code points), else on its code points.
 */
function matcherOf(glob: string, counter?: GlobSteps): (text: string) => boolean {
  const parts = glob.toLowerCase().split('*');
  if (!glob.includes('?') && isWellFormedText(glob)) return (text) => matchPieces(parts, text.toLowerCase(), counter);
  const pieces = parts.map((part) => Array.from(part, (c) => (c === '?' ? null : c)));
  return (text) => matchPieces(pieces, Array.from(text.toLowerCase()), counter);
}

/** Whether `piece` stands in `text` at `at` (`null` matches any code point). */
function pieceAt(piece: Piece, text: Units, at: number, counter: GlobSteps | undefined): boolean {
  for (let k = 0; k < piece.length; k++) {
    if (counter) counter.steps++;
    const c = piece[k];
    if (c !== null && c !== text[at + k]) return false;
  }
  return true;
}

/**
 * The match itself, on code points or UTF-16 units (the same steps). Without `*` (one piece) the text must be that piece. Else
 * the first piece is the text's start, the last its end, and the ones between are taken at the
 * leftmost place each fits after the one before: a later place could only leave less room for
 * the rest, so the leftmost one is never worse and no choice is ever undone.
 */
function matchPieces(pieces: readonly Piece[], text: Units, counter?: GlobSteps): boolean {
  const first = pieces[0] as Piece;
  if (pieces.length === 1) return first.length === text.length && pieceAt(first, text, 0, counter);
  const last = pieces[pieces.length - 1] as Piece;
  if (first.length + last.length > text.length) return false;
  if (!pieceAt(first, text, 0, counter) || !pieceAt(last, text, text.length - last.length, counter)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let p = 1; p < pieces.length - 1; p++) {
    const piece = pieces[p] as Piece;
    let found = -1;
    for (let start = at; start + piece.length <= end; start++) {
      if (pieceAt(piece, text, start, counter)) {
        found = start;
        break;
      }
    }
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}
