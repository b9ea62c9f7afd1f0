import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMinutes, formatSeconds, parseDuration } from '../src/duration.ts';
import { CliError } from '../src/io.ts';

describe('parseDuration', () => {
  const accepted: [string, number][] = [
    ['90', 90],
    ['1', 1],
    ['45m', 45],
    ['45M', 45],
    ['2h', 120],
    ['1h30m', 90],
    ['1H05M', 65],
    ['0h5m', 5],
    ['  20m ', 20],
    ['24h', 1440],
    ['1440', 1440],
    ['23h59m', 1439],
  ];
  for (const [text, minutes] of accepted) {
    it(`reads "${text}" as ${minutes} minutes`, () => assert.equal(parseDuration(text), minutes));
  }

  const refused = ['', 'm', 'h', '1.5h', '1,5h', '90s', '1h 30m', '1h30', '30m1h', '-5', '+5', '1d', 'abc', '1h90m', '1h60m', '45 m', '0', '0m', '0h0m', '1441', '25h', '24h1m'];
  for (const text of refused) {
    it(`refuses "${text}" with one line`, () => {
      assert.throws(
        () => parseDuration(text),
        (error: unknown) => error instanceof CliError && !error.message.includes('\n'),
      );
    });
  }

  it('shows the accepted forms when it cannot read a duration', () => {
    assert.throws(() => parseDuration('1.5h'), { message: '"1.5h" is not a duration; write 90 (minutes), 45m, 2h or 1h30m' });
  });

  it('says how much it logs at most when a duration is over a day', () => {
    assert.throws(() => parseDuration('25h'), /at most 24h \(1440 minutes\)/);
  });
});

describe('formatMinutes and formatSeconds', () => {
  it('writes minutes as 45m, 2h and 1h 05m', () => {
    assert.deepEqual([5, 45, 60, 65, 90, 120, 1440].map(formatMinutes), ['5m', '45m', '1h', '1h 05m', '1h 30m', '2h', '24h']);
  });

  it('writes seconds of work as a clock would, never rounding up', () => {
    assert.deepEqual([0, 40, 59, 60, 119, 3599, 3600, 7500, 7559].map(formatSeconds), ['0s', '40s', '59s', '1m', '1m', '59m', '1h 00m', '2h 05m', '2h 05m']);
  });
});
