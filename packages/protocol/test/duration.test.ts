import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DURATION_EXAMPLES, LIMITS, parseDuration } from '../src/index.ts';

const FORMS = `; write ${DURATION_EXAMPLES}`;

describe('parseDuration', () => {
  const accepted: [string, number][] = [
    // bare minutes, and the boundaries
    ['1', 1],
    ['90', 90],
    ['1439', 1439],
    ['1440', 1440],
    ['007', 7],
    // minutes with a unit
    ['45m', 45],
    ['45M', 45],
    ['45min', 45],
    ['45 min', 45],
    ['45mins', 45],
    ['1 minute', 1],
    ['45 Minutes', 45],
    // whole hours
    ['2h', 120],
    ['2H', 120],
    ['2 h', 120],
    ['2hr', 120],
    ['2 hrs', 120],
    ['1 hour', 60],
    ['2 hours', 120],
    ['24h', 1440],
    // hours and minutes
    ['1h30m', 90],
    ['1H05M', 65],
    ['0h5m', 5],
    ['1h 30m', 90],
    ['1 h 30 m', 90],
    ['1hr 30min', 90],
    ['1 hour 30 minutes', 90],
    ['1h0m', 60],
    ['1h59m', 119],
    ['23h59m', 1439],
    ['1h30', 90],
    ['1h 05', 65],
    // h:mm
    ['1:30', 90],
    ['0:01', 1],
    ['0:45', 45],
    ['01:30', 90],
    ['23:59', 1439],
    ['24:00', 1440],
    // decimal hours that are whole minutes
    ['1.5h', 90],
    ['1.5H', 90],
    ['1.5 hours', 90],
    ['.5h', 30],
    ['0.25h', 15],
    ['1.1h', 66],
    ['1.05h', 63],
    ['2.0h', 120],
    ['1.50h', 90],
    ['24.0h', 1440],
    ['0.1h', 6],
    // surrounding spaces
    ['  20m ', 20],
    ['\t1:30\n', 90],
  ];
  for (const [text, minutes] of accepted) {
    it(`reads ${JSON.stringify(text)} as ${minutes} minutes`, () => assert.deepEqual(parseDuration(text), { ok: true, minutes }));
  }

  const refused: [string, string][] = [
    // nothing, or not a duration at all
    ['', `no duration given${FORMS}`],
    ['   ', `no duration given${FORMS}`],
    ['soon', `"soon" is not a duration${FORMS}`],
    ['m', `"m" is not a duration${FORMS}`],
    ['h', `"h" is not a duration${FORMS}`],
    ['1d', `"1d" is not a duration${FORMS}`],
    ['+5', `"+5" is not a duration${FORMS}`],
    ['1,5h', `"1,5h" is not a duration${FORMS}`],
    ['30m1h', `"30m1h" is not a duration${FORMS}`],
    ['4 5m', `"4 5m" is not a duration${FORMS}`],
    ['1h5', `"1h5" is not a duration${FORMS}`],
    ['1:5', `"1:5" is not a duration${FORMS}`],
    [':30', `":30" is not a duration${FORMS}`],
    ['1.h', `"1.h" is not a duration${FORMS}`],
    ['1.5h30m', `"1.5h30m" is not a duration${FORMS}`],
    ['1h and 30m', `"1h and 30m" is not a duration${FORMS}`],
    ['４５m', `"４５m" is not a duration${FORMS}`],
    // minutes past the hour
    ['1h90m', `"1h90m" has 90 minutes after the hours${FORMS}`],
    ['1h60m', `"1h60m" has 60 minutes after the hours${FORMS}`],
    ['0h90m', `"0h90m" has 90 minutes after the hours${FORMS}`],
    ['1h75', `"1h75" has 75 minutes after the hours${FORMS}`],
    ['1:75', `"1:75" has 75 minutes after the hours${FORMS}`],
    ['1:60', `"1:60" has 60 minutes after the hours${FORMS}`],
    // seconds
    ['90s', `"90s" counts seconds, but Tock logs whole minutes${FORMS}`],
    ['30 sec', `"30 sec" counts seconds, but Tock logs whole minutes${FORMS}`],
    ['1m30s', `"1m30s" counts seconds, but Tock logs whole minutes${FORMS}`],
    ['1:30:00', `"1:30:00" counts seconds, but Tock logs whole minutes${FORMS}`],
    // negative
    ['-5', `"-5" is negative${FORMS}`],
    ['-1h', `"-1h" is negative${FORMS}`],
    ['-0.5h', `"-0.5h" is negative${FORMS}`],
    // fractions
    ['1.5', `"1.5" has a decimal point but no unit${FORMS}`],
    ['90.5', `"90.5" has a decimal point but no unit${FORMS}`],
    ['90.0', `"90.0" has a decimal point but no unit${FORMS}`],
    ['45.5m', `"45.5m" is not a whole number of minutes${FORMS}`],
    ['1.51h', `"1.51h" is not a whole number of minutes${FORMS}`],
    ['0.001h', `"0.001h" is not a whole number of minutes${FORMS}`],
    ['1.333h', `"1.333h" is not a whole number of minutes${FORMS}`],
    // zero
    ['0', '"0" is zero; a duration is at least 1 minute'],
    ['0m', '"0m" is zero; a duration is at least 1 minute'],
    ['0h', '"0h" is zero; a duration is at least 1 minute'],
    ['0h0m', '"0h0m" is zero; a duration is at least 1 minute'],
    ['0:00', '"0:00" is zero; a duration is at least 1 minute'],
    ['0.0h', '"0.0h" is zero; a duration is at least 1 minute'],
    // more than a day
    ['1441', '"1441" is more than a day; a duration is at most 1440 minutes (24h)'],
    ['24h1m', '"24h1m" is more than a day; a duration is at most 1440 minutes (24h)'],
    ['24:01', '"24:01" is more than a day; a duration is at most 1440 minutes (24h)'],
    ['25h', '"25h" is more than a day; a duration is at most 1440 minutes (24h)'],
    ['24.1h', '"24.1h" is more than a day; a duration is at most 1440 minutes (24h)'],
    ['99999999999999999999999', '"99999999999999999999999" is more than a day; a duration is at most 1440 minutes (24h)'],
  ];
  /** The reason's code, read from its English text here only to check that the two agree. */
  const codeOf = (reason: string): string =>
    reason.startsWith('no duration')
      ? 'empty'
      : reason.includes('minutes after the hours')
        ? 'minutesAfterHours'
        : reason.includes('whole number of minutes')
          ? 'notWholeMinutes'
          : reason.includes('is negative')
            ? 'negative'
            : reason.includes('counts seconds')
              ? 'seconds'
              : reason.includes('decimal point')
                ? 'decimalNoUnit'
                : reason.includes('is zero')
                  ? 'zero'
                  : reason.includes('more than a day')
                    ? 'overDay'
                    : 'notDuration';
  for (const [text, reason] of refused) {
    it(`refuses ${JSON.stringify(text)}: ${reason}`, () => {
      const parsed = parseDuration(text);
      assert.equal(parsed.ok, false);
      if (parsed.ok) return;
      assert.equal(parsed.reason, reason);
      assert.equal(parsed.code, codeOf(reason));
      assert.equal(parsed.typed, reason.startsWith('no duration') ? '""' : reason.slice(0, reason.indexOf('" ') + 1));
    });
  }

  it('says the minutes after the hours as a number of its own', () => {
    assert.deepEqual(parseDuration('1h90m'), { ok: false, reason: `"1h90m" has 90 minutes after the hours${FORMS}`, code: 'minutesAfterHours', typed: '"1h90m"', after: 90 });
  });

  it('quotes what was typed on one short line, however long or odd it is', () => {
    const long = parseDuration(`  ${'x'.repeat(500)}  `);
    assert.deepEqual(long, { ok: false, reason: `"${'x'.repeat(23)}…" is not a duration${FORMS}`, code: 'notDuration', typed: `"${'x'.repeat(23)}…"` });
    const odd = parseDuration('1h\u0000\r\n90m');
    assert.deepEqual(odd, { ok: false, reason: `"1h 90m" is not a duration${FORMS}`, code: 'notDuration', typed: '"1h 90m"' });
  });

  it('parses back every duration from 1 to 1440 minutes written as XhYm, H:MM and bare minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: LIMITS.durationMinutesMax }), fc.boolean(), (minutes, upper) => {
        const h = Math.floor(minutes / 60);
        const m = minutes % 60;
        const written = [`${h}h${m}m`, `${h}:${String(m).padStart(2, '0')}`, String(minutes), `${h}h ${m}m`];
        for (const text of written) {
          assert.deepEqual(parseDuration(upper ? text.toUpperCase() : text), { ok: true, minutes }, text);
        }
      }),
      { numRuns: 1000, seed: 20261129 },
    );
  });

  it('answers any text with whole minutes in range or a one-line reason, never throwing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[-+ .:0-9hmins]{0,12}$/)), (text) => {
        const parsed = parseDuration(text);
        if (parsed.ok) {
          assert.ok(Number.isInteger(parsed.minutes) && parsed.minutes >= 1 && parsed.minutes <= LIMITS.durationMinutesMax, text);
        } else {
          assert.doesNotMatch(parsed.reason, /[\n\r]/);
          assert.ok(parsed.reason.length <= 120, parsed.reason);
        }
      }),
      { numRuns: 2000, seed: 20261129 },
    );
  });
});
