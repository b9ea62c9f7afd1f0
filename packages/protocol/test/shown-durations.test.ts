/**
 * Durations shown to people (docs/product.md "Durations shown to people"): floored to the
 * minute, and tables whose rows add up to their total as shown, checked on the cases of
 * issue 31 and as properties of any rows.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  decimalHours,
  flooredMinutes,
  formatDuration,
  formatHundredths,
  formatMinutesAs,
  hundredthsOfHours,
  largestRemainder,
  largestRemainderMinutes,
  shownHours,
  shownShares,
  shownTable,
} from '../src/index.ts';

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
    { numRuns: 500, seed: 20261129 },
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
    { numRuns: 500, seed: 20261129 },
  );
});

test('largest remainder can share out a larger total, round and round', () => {
  assert.deepEqual(largestRemainderMinutes([30, 20, 10], 4), [2, 1, 1]);
  assert.deepEqual(largestRemainderMinutes([], 3), []);
  assert.deepEqual(largestRemainderMinutes([-5, Number.NaN, 59]), [0, 0, 0]);
});

test('16 h 40 min is 16.67 hours, not 16.66; 5 h 25 min is 5.42 in every place', () => {
  assert.equal(decimalHours(1000 * 60), '16.67');
  assert.equal(decimalHours(325 * 60), '5.42');
  // Of the minutes shown: 5 h 25 min 59 s is still 5 h 25 min, so still 5.42.
  assert.equal(decimalHours(325 * 60 + 59), '5.42');
  assert.equal(decimalHours(90 * 60), '1.50');
  assert.equal(decimalHours(0), '0.00');
  assert.equal(decimalHours(60), '0.02', '1 min is 0.0167 h');
  assert.equal(hundredthsOfHours(1), 2);
  assert.equal(formatHundredths(-250), '−2.50');
});

test('shares add up to 100 %: 41.5 + 33.5 + 25 is 42 + 33 + 25, not 42 + 34 + 25 = 101; thirds are 34 + 33 + 33, not 99', () => {
  assert.deepEqual(shownShares([415, 335, 250], 1000), { rows: [42, 33, 25], overlap: 0 });
  assert.deepEqual(shownShares([1, 1, 1], 3), { rows: [34, 33, 33], overlap: 0 });
  assert.deepEqual(shownShares([0, 0], 0), { rows: [0, 0], overlap: 0 });
  // A block under two tags: 2 h + 2 h of a 3 h total is 67 + 67 = 133, 33 of it the overlap.
  assert.deepEqual(shownShares([7200, 7200], 10800), { rows: [67, 66], overlap: 33 });
});

test('decimal hours of the rows add up to the total’s hours: 3 × 20 min is 0.33 + 0.33 + 0.34 = 1.00', () => {
  assert.deepEqual(shownHours([20, 20, 20], 60), { rows: [34, 33, 33], overlap: 0, total: 100 });
  assert.deepEqual(shownHours([1000], 1000), { rows: [1667], overlap: 0, total: 1667 });
  // Overlapping rows: 1:30 and 1:00 sharing 0:20 under 2:10 — 1.50 + 1.00 − 0.33 = 2.17.
  assert.deepEqual(shownHours([90, 60], 130), { rows: [150, 100], overlap: 33, total: 217 });
});

const exactUnits = fc.record({
  numerators: fc.array(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 40 }),
  denominator: fc.integer({ min: 1, max: 100_000 }),
});

test('largest remainder: the rows add up to the rounded sum, each within one unit of its exact value, order kept', () => {
  fc.assert(
    fc.property(exactUnits, ({ numerators, denominator }) => {
      const shown = largestRemainder(numerators, denominator);
      const sum = numerators.reduce((a, b) => a + b, 0);
      assert.equal(
        shown.reduce((a, b) => a + b, 0),
        Math.floor((2 * sum + denominator) / (2 * denominator)),
      );
      shown.forEach((units, i) => {
        const exact = (numerators[i] as number) / denominator;
        assert.ok(Math.abs(units - exact) < 1, `${units} for ${exact}`);
      });
      for (let i = 0; i < numerators.length; i++) {
        for (let j = 0; j < numerators.length; j++) {
          if ((numerators[i] as number) > (numerators[j] as number)) assert.ok((shown[i] as number) >= (shown[j] as number));
        }
      }
    }),
    { numRuns: 1000, seed: 20261129 },
  );
});

test('a table’s minutes, hours and shares as shown each add up to its total as shown', () => {
  fc.assert(
    fc.property(rowSeconds, (rows) => {
      const total = rows.reduce((a, b) => a + b, 0);
      const minutes = shownTable(rows, total);
      const hours = shownHours(minutes.rows, minutes.total);
      assert.equal(hours.overlap, 0);
      assert.equal(
        hours.rows.reduce((a, b) => a + b, 0),
        hours.total,
      );
      assert.equal(hours.total, hundredthsOfHours(minutes.total));
      hours.rows.forEach((c, i) => {
        const exact = ((minutes.rows[i] as number) * 100) / 60;
        assert.ok(Math.abs(c - exact) < 1, `${c} hundredths for ${exact}`);
      });
      const shares = shownShares(rows, total);
      assert.equal(
        shares.rows.reduce((a, b) => a + b, 0),
        total > 0 ? 100 : 0,
      );
      assert.equal(shares.overlap, 0);
      shares.rows.forEach((p, i) => {
        if (total > 0) assert.ok(Math.abs(p - ((rows[i] as number) * 100) / total) < 1);
      });
    }),
    { numRuns: 500, seed: 20261129 },
  );
});

test('with overlapping rows, hours and shares shown minus their overlap are the total shown', () => {
  fc.assert(
    fc.property(rowSeconds, fc.double({ min: 0, max: 1, noNaN: true }), (rows, part) => {
      const sum = rows.reduce((a, b) => a + b, 0);
      const total = sum - Math.floor(sum * part * (rows.length > 1 ? 0.5 : 0));
      const minutes = shownTable(rows, total);
      const hours = shownHours(minutes.rows, minutes.total);
      assert.equal(hours.rows.reduce((a, b) => a + b, 0) - hours.overlap, hours.total);
      const shares = shownShares(rows, total);
      if (total > 0) assert.equal(shares.rows.reduce((a, b) => a + b, 0) - shares.overlap, 100);
    }),
    { numRuns: 500, seed: 20261129 },
  );
});
