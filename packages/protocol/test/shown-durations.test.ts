/**
 * Durations shown to people (docs/product.md "Durations shown to people"): floored to the
 * minute, and tables whose rows add up to their total as shown, checked on the cases of
 * issue 31 and as properties of any rows.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { flooredMinutes, formatDuration, formatMinutesAs, largestRemainderMinutes, shownTable } from '../src/index.ts';

test('a 49 min 40 s session is 0:49 / 49m / 49 min everywhere, never 50', () => {
  const seconds = 49 * 60 + 40;
  assert.equal(formatDuration(seconds), '0:49');
  assert.equal(formatDuration(seconds, 'short'), '49m');
  assert.equal(formatDuration(seconds, 'words'), '49 min');
  // Today 2 h 27 min 59 s is 2:27 in the CLI and 2 h 27 min in the window, not 2 h 28 min.
  assert.equal(formatDuration(2 * 3600 + 27 * 60 + 59), '2:27');
  assert.equal(formatDuration(2 * 3600 + 27 * 60 + 59, 'words'), '2 h 27 min');
});

test('writes each style: whole hours, minutes under an hour, zero, and nonsense as zero', () => {
  assert.deepEqual(
    [0, 59, 60, 3600, 3660, 3900, 24 * 3600].map((s) => formatDuration(s)),
    ['0:00', '0:00', '0:01', '1:00', '1:01', '1:05', '24:00'],
  );
  assert.deepEqual(
    [0, 60, 3600, 3900].map((s) => formatDuration(s, 'short')),
    ['0m', '1m', '1h', '1h 05m'],
  );
  assert.deepEqual(
    [0, 60, 3600, 3900].map((s) => formatDuration(s, 'words')),
    ['0 min', '1 min', '1 h', '1 h 5 min'],
  );
  assert.equal(formatDuration(-90), '0:00', 'a clock stepped back reads as zero');
  assert.equal(formatDuration(Number.NaN), '0:00');
  assert.equal(formatMinutesAs(95, 'clock'), '1:35');
});

test('week rows 1:30 + 1:00 + 0:49 that showed 3:19 under a total of 3:20 now add up to 3:20', () => {
  const rows = [90 * 60 + 24, 60 * 60 + 18, 49 * 60 + 30]; // 90.4, 60.3 and 49.5 minutes: 200.2
  const total = rows.reduce((a, b) => a + b, 0);
  assert.deepEqual(rows.map(flooredMinutes), [90, 60, 49], 'flooring each row alone loses a minute');
  const shown = shownTable(rows, total);
  assert.deepEqual(shown, { rows: [90, 60, 50], overlap: 0, total: 200 });
});

test('a table of overlapping rows shows the overlap, so that rows minus overlap is the total', () => {
  // Writing 1:30 and Review 1:00 that share 0:20: covered 2:10.
  const shown = shownTable([90 * 60, 60 * 60 + 30], 130 * 60 + 10);
  assert.deepEqual(shown, { rows: [90, 60], overlap: 20, total: 130 });
});

const rowSeconds = fc.array(fc.integer({ min: 0, max: 40 * 3600 }), { maxLength: 40 });

test('rows shown add up to the total shown, each within a minute of its exact value, in the same order', () => {
  fc.assert(
    fc.property(rowSeconds, (rows) => {
      const total = rows.reduce((a, b) => a + b, 0);
      const shown = shownTable(rows, total);
      assert.equal(shown.total, Math.floor(total / 60));
      assert.equal(shown.overlap, 0);
      assert.equal(
        shown.rows.reduce((a, b) => a + b, 0),
        shown.total,
      );
      shown.rows.forEach((minutes, i) => {
        const exact = (rows[i] as number) / 60;
        assert.ok(Math.abs(minutes - exact) < 1, `${minutes} for ${exact}`);
        assert.ok(minutes >= Math.floor(exact), 'never below the floor');
      });
      for (let i = 0; i < rows.length; i++) {
        for (let j = 0; j < rows.length; j++) {
          if ((rows[i] as number) > (rows[j] as number)) assert.ok((shown.rows[i] as number) >= (shown.rows[j] as number));
        }
      }
    }),
    { numRuns: 500 },
  );
});

test('with overlapping rows, rows shown minus the overlap shown is the total shown, each within a minute', () => {
  fc.assert(
    fc.property(rowSeconds, fc.double({ min: 0, max: 1, noNaN: true }), (rows, share) => {
      const sum = rows.reduce((a, b) => a + b, 0);
      const overlapSeconds = Math.floor(sum * share * (rows.length > 1 ? 0.5 : 0));
      const total = sum - overlapSeconds;
      const shown = shownTable(rows, total);
      assert.equal(shown.total, Math.floor(total / 60));
      assert.equal(shown.rows.reduce((a, b) => a + b, 0) - shown.overlap, shown.total);
      assert.ok(Math.abs(shown.overlap - overlapSeconds / 60) < 1, `${shown.overlap} for ${overlapSeconds / 60}`);
      shown.rows.forEach((minutes, i) => {
        assert.ok(Math.abs(minutes - (rows[i] as number) / 60) < 1);
      });
    }),
    { numRuns: 500 },
  );
});

test('largest remainder can share out a larger total, round and round', () => {
  assert.deepEqual(largestRemainderMinutes([30, 20, 10], 4), [2, 1, 1]);
  assert.deepEqual(largestRemainderMinutes([], 3), []);
  assert.deepEqual(largestRemainderMinutes([-5, Number.NaN, 59]), [0, 0, 0]);
});
