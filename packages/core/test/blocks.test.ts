/**
 * The interval arithmetic of blocks.ts (docs/product.md "The application": a second covered by
 * several blocks counts once), checked on random spans against a plain model: the set of
 * whole seconds a span holds.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  clipSpans,
  coverageOf,
  coveredLength,
  coveredPerDay,
  coveredWithin,
  spanWithout,
  unionOfSpans,
  type Span,
} from '../src/blocks.ts';

/** The seconds `spans` hold, one by one: the model every function here is checked against. */
function secondsHeld(spans: readonly Span[]): Set<number> {
  const held = new Set<number>();
  for (const span of spans) for (let s = span.start; s < span.end; s++) held.add(s);
  return held;
}

const span: fc.Arbitrary<Span> = fc
  .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 120 }))
  .map(([start, length]) => ({ start, end: start + length }));
const spans = fc.array(span, { maxLength: 30 });

test('the union covers exactly the seconds the spans hold, in sorted spans that neither overlap nor touch', () => {
  fc.assert(
    fc.property(spans, (given) => {
      const before = JSON.stringify(given);
      const union = unionOfSpans(given);
      assert.deepEqual(secondsHeld(union), secondsHeld(given));
      for (let i = 0; i < union.length; i++) {
        assert.ok((union[i] as Span).end > (union[i] as Span).start, 'no empty span');
        if (i > 0) assert.ok((union[i] as Span).start > (union[i - 1] as Span).end, 'sorted, apart');
      }
      assert.equal(coveredLength(given), secondsHeld(given).size);
      assert.equal(JSON.stringify(given), before, 'the input is left as it was');
    }),
    { numRuns: 500, seed: 20261129 },
  );
});

test('covered time never exceeds the span from the first start to the last end, nor the sum of the spans', () => {
  fc.assert(
    fc.property(spans, (given) => {
      const covered = coveredLength(given);
      const nonEmpty = given.filter((s) => s.end > s.start);
      const sum = nonEmpty.reduce((n, s) => n + s.end - s.start, 0);
      assert.ok(covered <= sum);
      if (nonEmpty.length > 0) {
        assert.ok(covered <= Math.max(...nonEmpty.map((s) => s.end)) - Math.min(...nonEmpty.map((s) => s.start)));
      } else assert.equal(covered, 0);
    }),
    { numRuns: 300, seed: 20261129 },
  );
});

test('a span without its cuts holds the seconds of the span that no cut holds', () => {
  fc.assert(
    fc.property(span, spans, (whole, cuts) => {
      const left = spanWithout(whole, cuts);
      const cut = secondsHeld(cuts);
      const expected = new Set([...secondsHeld([whole])].filter((s) => !cut.has(s)));
      assert.deepEqual(secondsHeld(left), expected);
      assert.deepEqual(unionOfSpans(left), left, 'already a union');
    }),
    { numRuns: 500, seed: 20261129 },
  );
});

test('a coverage answers how much of any range it covers, as counting the seconds does', () => {
  fc.assert(
    fc.property(spans, fc.integer({ min: -10, max: 600 }), fc.integer({ min: -10, max: 600 }), (given, a, b) => {
      const coverage = coverageOf(given);
      const [from, to] = [Math.min(a, b), Math.max(a, b)];
      const expected = [...secondsHeld(given)].filter((s) => s >= from && s < to).length;
      assert.equal(coveredWithin(coverage, from, to), expected);
      assert.equal(coveredWithin(coverage, to, from), 0, 'an empty or backwards range covers nothing');
      assert.equal(coverage.length, secondsHeld(given).size);
      assert.deepEqual(secondsHeld(clipSpans(given, from, to)), new Set([...secondsHeld(given)].filter((s) => s >= from && s < to)));
    }),
    { numRuns: 500, seed: 20261129 },
  );
});

test('covered time split over consecutive days adds up to the covered time inside them', () => {
  fc.assert(
    fc.property(spans, fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 100 }), (given, lengths, first) => {
      const days: Span[] = [];
      let at = first;
      for (const length of lengths) {
        days.push({ start: at, end: at + length });
        at += length;
      }
      const perDay = coveredPerDay(unionOfSpans(given), days);
      const held = secondsHeld(given);
      days.forEach((day, i) => {
        assert.equal(perDay[i], [...held].filter((s) => s >= day.start && s < day.end).length);
        assert.ok((perDay[i] as number) <= day.end - day.start, 'a day never covers more than it lasts');
      });
    }),
    { numRuns: 500, seed: 20261129 },
  );
});
