/**
 * `toIso` writes an instant as `new Date(ms).toISOString()` does, character for character, for
 * every instant a `Date` holds (years −271821 to 275760), and throws where that throws: it keeps
 * the last UTC day's date and writes only the time of day itself (docs/decisions.md "ISO dates:
 * V8's day, our time"), so calls in one day, across days and at a `Date`'s ends are all checked.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { toIso } from '../src/instants.ts';

const DAY = 86_400_000;
const MAX = 8.64e15;

/** What V8 writes for `ms`, or the error's name where it throws. */
function v8(ms: number): string {
  try {
    return new Date(ms).toISOString();
  } catch (error) {
    return (error as Error).name;
  }
}

function ours(ms: number): string {
  try {
    return toIso(ms);
  } catch (error) {
    return (error as Error).name;
  }
}

/** Instants anywhere a `Date` holds, a few just outside, and some not whole milliseconds. */
const instant = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -MAX, max: MAX }) },
  { weight: 2, arbitrary: fc.integer({ min: Date.parse('1969-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') }) },
  { weight: 1, arbitrary: fc.integer({ min: -10, max: 10 }).map((d) => MAX + d) },
  { weight: 1, arbitrary: fc.integer({ min: -10, max: 10 }).map((d) => -MAX + d) },
  { weight: 1, arbitrary: fc.double({ min: -MAX - 2, max: MAX + 2 }) },
);

/** A run of calls as a range's blocks make them: an instant, then others in its day, the days around and anywhere. */
const calls = fc.tuple(instant, fc.array(fc.oneof(fc.integer({ min: -DAY, max: 2 * DAY }), instant.map((ms) => ({ ms }))), { maxLength: 30 })).map(([first, rest]) => {
  const list = [first];
  for (const next of rest) list.push(typeof next === 'number' ? first + next : next.ms);
  return list;
});

test('toIso writes each instant as Date#toISOString does, and throws where that throws: any instant, in any order of calls', () => {
  fc.assert(
    fc.property(calls, (list) => {
      for (const ms of list) assert.equal(ours(ms), v8(ms), `${ms}`);
    }),
    { numRuns: 3_000 },
  );
});

test('toIso at the edges: day and year turns, years 0 and below, past 9999, the ends of a Date, and what is not an instant', () => {
  const edges = [
    0, -0, -1, 1, DAY - 1, DAY, -DAY, -DAY - 1, -DAY + 1,
    Date.parse('2026-11-22T23:59:59.999Z'), Date.parse('2026-11-23T00:00:00.000Z'), Date.parse('2024-02-29T12:00:00.000Z'),
    Date.parse('0000-01-01T00:00:00Z'), Date.parse('0000-01-01T00:00:00Z') - 1, Date.parse('-000001-12-31T23:59:59.999Z'),
    Date.parse('9999-12-31T23:59:59.999Z'), Date.parse('+010000-01-01T00:00:00Z'),
    MAX, MAX - 1, MAX + 1, -MAX, -MAX + 1, -MAX - 1, MAX - DAY, MAX - DAY - 1, -MAX + DAY,
    0.5, -0.5, 1.999, -DAY + 0.25, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300,
  ];
  // Each edge after each other, so each is written both with and without the day kept before it.
  for (const a of edges) for (const b of edges) assert.deepEqual([ours(a), ours(b)], [v8(a), v8(b)], `${a} then ${b}`);
  assert.equal(toIso(Date.parse('2026-11-22T09:15:00Z')), '2026-11-22T09:15:00.000Z');
  assert.equal(toIso(MAX), '+275760-09-13T00:00:00.000Z');
  assert.equal(toIso(-MAX), '-271821-04-20T00:00:00.000Z');
  assert.throws(() => toIso(MAX + 1), RangeError);
  assert.throws(() => toIso(Number.NaN), RangeError);
});
