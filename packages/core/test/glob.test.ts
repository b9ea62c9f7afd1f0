/**
 * The capture glob (packages/core/src/glob.ts, docs/desktop.md "Capture"): the linear matcher
 * agrees with the regular expression it replaced on small inputs (property tests), and its
 * cost, counted in comparisons, grows with the text's length and never more — the hostile
 * pattern `*bank*login*` against a 240 KB title, which held the old regex 43.6 s, is counted
 * here, not timed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isExcluded } from '../src/capture.ts';
import { addRule, listRules } from '../src/capture-rules.ts';
import { DEFAULT_EXCLUDE, readCaptureSettings, setCaptureSetting } from '../src/capture-settings.ts';
import { GLOB_LIMITS, compileGlob, globMatches, globMatchesCounted, globOverLimits, type GlobSteps } from '../src/glob.ts';
import type { SuggestionRule } from '../src/shapes/capture.ts';
import { openStore } from '../src/store.ts';
import { ruleWithinLimits } from '../src/suggestions.ts';

/** The matcher before issue 35 (core/capture.ts `globMatches`): `*` → `.*`, `?` → `.`, flags `su`. */
function regexGlob(glob: string, text: string): boolean {
  const pattern = [...glob.toLowerCase()].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${pattern}$`, 'su').test(text.toLowerCase());
}

// Small alphabets, so that matches happen often; with the characters a regex would treat as
// special, upper case, a newline, an astral code point (two UTF-16 units) and one whose lower
// case is longer ('İ').
const ALPHABET = ['a', 'b', 'A', '.', '\\', '(', '[', '$', '\n', '☕', '😀', 'İ', 'ß'];
const textArb = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((cs) => cs.join(''));
const globArb = fc.array(fc.constantFrom(...ALPHABET, '*', '?', '*', '?'), { maxLength: 8 }).map((cs) => cs.join(''));

test('agrees with the old regular expression on small globs and texts (property)', () => {
  fc.assert(
    fc.property(globArb, textArb, (glob, text) => {
      assert.equal(globMatches(glob, text), regexGlob(glob, text), `glob ${JSON.stringify(glob)} on ${JSON.stringify(text)}`);
    }),
    { numRuns: 20_000, seed: 20261129 },
  );
});

test('agrees with the old regular expression on texts made from the glob itself (property)', () => {
  // Texts built by filling the glob's wildcards, then perhaps changed at one place: most match.
  const filled = globArb.chain((glob) =>
    fc
      .tuple(
        fc.array(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 3 }), { minLength: glob.length, maxLength: glob.length }),
        fc.option(fc.tuple(fc.nat(), fc.constantFrom(...ALPHABET))),
      )
      .map(([fills, change]) => {
        const text = [...glob].map((c, i) => (c === '*' ? (fills[i] ?? []).join('') : c === '?' ? ((fills[i] ?? [])[0] ?? 'x') : c)).join('');
        if (change === null || text.length === 0) return { glob, text };
        const cs = [...text];
        cs[change[0] % cs.length] = change[1];
        return { glob, text: cs.join('') };
      }),
  );
  fc.assert(
    fc.property(filled, ({ glob, text }) => {
      assert.equal(globMatches(glob, text), regexGlob(glob, text), `glob ${JSON.stringify(glob)} on ${JSON.stringify(text)}`);
    }),
    { numRuns: 20_000, seed: 20261129 },
  );
});

/**
 * The matcher before a glob without `?` was matched on the text's UTF-16 units: every glob on
 * an array of the text's code points, the pieces taken at their leftmost place.
 */
function codePointGlob(glob: string, text: string): boolean {
  const pieces = glob
    .toLowerCase()
    .split('*')
    .map((part) => Array.from(part, (c) => (c === '?' ? null : c)));
  const units = Array.from(text.toLowerCase());
  const at = (piece: (string | null)[], start: number): boolean => piece.every((c, k) => c === null || c === units[start + k]);
  const first = pieces[0] ?? [];
  if (pieces.length === 1) return first.length === units.length && at(first, 0);
  const last = pieces[pieces.length - 1] ?? [];
  if (first.length + last.length > units.length || !at(first, 0) || !at(last, units.length - last.length)) return false;
  let from = first.length;
  const end = units.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    let found = -1;
    for (let start = from; start + piece.length <= end && found < 0; start++) if (at(piece, start)) found = start;
    if (found < 0) return false;
    from = found + piece.length;
  }
  return true;
}

// Halves of 😀 alone (lone surrogates) beside it, in globs and texts: a piece must never match half a character.
const UNITS = [...ALPHABET, '\uD83D', '\uDE00', '😀', 'x'];
const unitText = fc.array(fc.constantFrom(...UNITS), { maxLength: 14 }).map((cs) => cs.join(''));
const starGlob = fc.array(fc.constantFrom(...UNITS, '*', '*', '*'), { maxLength: 9 }).map((cs) => cs.join(''));

test('a glob without ? matched on the text’s UTF-16 units agrees with the code-point matcher (property)', () => {
  fc.assert(
    fc.property(starGlob, unitText, (glob, text) => {
      assert.equal(globMatches(glob, text), codePointGlob(glob, text), `glob ${JSON.stringify(glob)} on ${JSON.stringify(text)}`);
      assert.equal(globMatchesCounted(glob, text, { steps: 0 }), codePointGlob(glob, text));
    }),
    { numRuns: 20_000, seed: 20261129 },
  );
  // Texts made from the glob's pieces, so that most match: each `*` filled with a few units.
  const filled = starGlob.chain((glob) =>
    fc.array(fc.array(fc.constantFrom(...UNITS), { maxLength: 3 }), { minLength: glob.length + 1, maxLength: glob.length + 1 }).map((fills) => ({
      glob,
      text: glob
        .split('*')
        .map((part, i) => (i === 0 ? part : (fills[i] ?? []).join('') + part))
        .join(''),
    })),
  );
  fc.assert(
    fc.property(filled, ({ glob, text }) => {
      assert.equal(globMatches(glob, text), codePointGlob(glob, text), `glob ${JSON.stringify(glob)} on ${JSON.stringify(text)}`);
    }),
    { numRuns: 20_000, seed: 20261129 },
  );
  // Half of a character never matches in a whole one, on either side of a *.
  assert.equal(globMatches('*\uDE00*', '😀'), false);
  assert.equal(globMatches('\uD83D*', '😀'), false);
  assert.equal(globMatches('*😀', 'a😀'), true);
});

test('* and ? only, case-insensitive on the whole text; ? is one code point', () => {
  assert.ok(globMatches('*keepass*', 'KeePassXC'));
  assert.ok(globMatches('fire?ox', 'Firefox'));
  assert.ok(!globMatches('fire', 'Firefox'));
  assert.ok(globMatches('a.b', 'A.B'));
  assert.ok(!globMatches('a.b', 'axb'));
  assert.ok(globMatches('?', '😀'), 'an astral character is one ?');
  assert.ok(!globMatches('??', '😀'));
  assert.ok(globMatches('*', ''));
  assert.ok(globMatches('**', ''));
  assert.ok(!globMatches('', 'a'));
  assert.ok(globMatches('a*a', 'aa'));
  assert.ok(!globMatches('a*a', 'a'), 'the first and the last piece never share a character');
  assert.ok(globMatches('*bank*login*', 'My Bank — Login'));
  assert.equal(compileGlob('*X*').test('axb'), true);
});

/** Comparisons one match makes. */
function steps(glob: string, text: string): number {
  const counter: GlobSteps = { steps: 0 };
  globMatchesCounted(glob, text, counter);
  return counter.steps;
}

test('*bank*login* against a 240 KB title: comparisons grow linearly with the title, never with its square', () => {
  // The old regex backtracked over every 'bank' for every place of the first `.*`: quadratic.
  const title = (n: number): string => 'bank '.repeat(n / 5);
  const small = steps('*bank*login*', title(24_000));
  const large = steps('*bank*login*', title(240_000));
  assert.ok(!globMatches('*bank*login*', title(240_000)));
  // Ten times the text: ten times the comparisons (a quadratic matcher would make a hundred).
  assert.ok(large <= small * 11, `${small} comparisons for 24 KB, ${large} for 240 KB`);
  // And at most the text's length times the pieces' length ('bank' + 'login').
  assert.ok(large <= 240_000 * 9, `${large} comparisons`);
});

test('16 stars against a 512-character title: at most length × pattern comparisons, whatever the text', () => {
  const glob = `${'*a'.repeat(GLOB_LIMITS.stars - 1)}*b`;
  assert.equal(globOverLimits(glob), null);
  const worst = 'a'.repeat(511) + 'c';
  const count = steps(glob, worst);
  assert.ok(!globMatches(glob, worst));
  assert.ok(count <= 512 * glob.length, `${count} comparisons`);
  // A pattern of 256 characters with 16 stars, against 512 characters made to half-match each piece.
  const wide = `*${Array.from({ length: GLOB_LIMITS.stars - 1 }, () => 'x'.repeat(15)).join('*')}*`.slice(0, GLOB_LIMITS.length);
  assert.equal(globOverLimits(wide), null);
  const near = `${'x'.repeat(14)}y`.repeat(34).slice(0, 512);
  const wideCount = steps(wide, near);
  assert.ok(wideCount <= 512 * wide.length, `${wideCount} comparisons`);
});

test('a pattern over 256 characters or 16 * is refused with the reason', () => {
  assert.equal(globOverLimits('*'.repeat(16)), null);
  assert.match(globOverLimits('*'.repeat(17)) ?? '', /has 17 \* wildcards; a pattern has at most 16/);
  assert.equal(globOverLimits('a'.repeat(256)), null);
  assert.match(globOverLimits('a'.repeat(257)) ?? '', /is 257 characters long; a pattern has at most 256/);
});

test('exclusions and rules over the limits are refused with one line where they are set; stored ones keep their old effect or none', () => {
  const store = openStore(':memory:');
  try {
    const stars17 = `*${'a*'.repeat(16)}`;
    assert.throws(
      () => setCaptureSetting(store.settings, 'exclude', ['*keepass*', stars17]),
      (error: { details?: { field: string; message: string }[] }) => {
        assert.deepEqual(error.details, [{ field: 'exclude', message: `the glob "${stars17}" has 17 * wildcards; a pattern has at most 16`, rule: 'globStars', values: { glob: `"${stars17}"`, stars: 17, max: 16 } }]);
        return true;
      },
    );
    assert.deepEqual(readCaptureSettings(store.settings).exclude, [...DEFAULT_EXCLUDE], 'nothing was set: the defaults');
    assert.throws(
      () => addRule(store.settings, { match: { title: stars17, app: 'firefox' }, activity: 'Banking' }),
      (error: { details?: { field: string; message: string }[] }) => {
        assert.deepEqual(error.details, [{ field: 'title', message: `the glob "${stars17}" has 17 * wildcards; a pattern has at most 16`, rule: 'globStars', values: { glob: `"${stars17}"`, stars: 17, max: 16 } }]);
        return true;
      },
    );
    assert.equal(addRule(store.settings, { match: { title: `*${'a*'.repeat(15)}` }, activity: 'Sixteen' }).id, 'r1');

    // Stored before the limit (written as an older Tock would have): the exclusion still
    // excludes (never loosened); the rule stays listed and labels nothing.
    store.settings.set('capture', { exclude: [stars17] });
    assert.deepEqual(readCaptureSettings(store.settings).exclude, [stars17]);
    assert.ok(isExcluded(readCaptureSettings(store.settings), 'x', `${'a'.repeat(16)}b`));
    store.settings.set('suggestionRules', { next: 2, rules: [{ id: 'r1', match: { app: stars17 }, activity: 'Old' }] });
    assert.equal(listRules(store.settings).length, 1);
    assert.equal(ruleWithinLimits(listRules(store.settings)[0] as SuggestionRule), false);
  } finally {
    store.close();
  }
});

test('a pattern of 256 characters (letters or emoji) and 16 * is taken as an exclusion and as a rule; 257 characters are refused', () => {
  const store = openStore(':memory:');
  try {
    // 16 stars, 256 characters in all; the emoji one is 256 characters in 496 UTF-16 units.
    const letters = `*${Array.from({ length: 15 }, () => 'x'.repeat(15)).join('*')}*`.padEnd(256, 'y');
    const emoji = `*${Array.from({ length: 15 }, () => '😀'.repeat(15)).join('*')}*`.padEnd(256 + 15 * 15, 'y');
    for (const glob of [letters, emoji]) {
      assert.equal([...glob].length, 256);
      assert.equal([...glob].filter((c) => c === '*').length, 16);
      assert.deepEqual(setCaptureSetting(store.settings, 'exclude', [glob]).exclude, [glob]);
      assert.deepEqual(addRule(store.settings, { match: { title: glob }, activity: 'Long' }).match, { title: glob });
    }
    assert.ok(isExcluded(readCaptureSettings(store.settings), 'app', `${'😀'.repeat(15)}`.repeat(15) + 'y'.repeat(16)));
    const over = `${letters}y`;
    assert.throws(() => setCaptureSetting(store.settings, 'exclude', [over]), { code: 'validation_failed' });
    assert.throws(() => addRule(store.settings, { match: { title: over }, activity: 'Long' }), { code: 'validation_failed' });
    assert.deepEqual(readCaptureSettings(store.settings).exclude, [emoji], 'nothing was changed by the refusal');
  } finally {
    store.close();
  }
});
