import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration as readDuration } from '@tock/protocol';
import { formatMinutes, formatSeconds, parseDuration, refuseSplitDuration } from '../src/duration.ts';
import { CliError } from '../src/io.ts';

// The grammar itself is tested in packages/protocol/test/duration.test.ts; these check that the
// CLI reads it the same way and turns a refusal into its one error line.
describe('parseDuration', () => {
  const accepted: [string, number][] = [
    ['90', 90],
    ['45m', 45],
    ['45min', 45],
    ['2h', 120],
    ['1h30m', 90],
    ['1h 30m', 90],
    ['1:30', 90],
    ['1.5h', 90],
    ['1H05M', 65],
    ['  20m ', 20],
    ['1', 1],
    ['1440', 1440],
    ['24h', 1440],
    ['23:59', 1439],
  ];
  for (const [text, minutes] of accepted) {
    it(`reads "${text}" as ${minutes} minutes, as the protocol does`, () => {
      assert.equal(parseDuration(text), minutes);
      assert.deepEqual(readDuration(text), { ok: true, minutes });
    });
  }

  const refused = ['', 'm', 'h', '1,5h', '90s', '1h5', '30m1h', '-5', '+5', '1d', 'abc', '1h90m', '1:75', '90.5', '1.51h', '0', '0:00', '1441', '25h', '24h1m'];
  for (const text of refused) {
    it(`refuses "${text}" with the protocol's one-line reason`, () => {
      const parsed = readDuration(text);
      assert.equal(parsed.ok, false);
      assert.throws(
        () => parseDuration(text),
        (error: unknown) => error instanceof CliError && !parsed.ok && error.message === parsed.reason && !error.message.includes('\n'),
      );
    });
  }

  it('says what was wrong and shows the accepted forms', () => {
    assert.throws(() => parseDuration('1h90m'), { message: '"1h90m" has 90 minutes after the hours; write 90, 45m, 1h30m, 1:30 or 1.5h' });
    assert.throws(() => parseDuration('1,5h'), { message: '"1,5h" is not a duration; write 90, 45m, 1h30m, 1:30 or 1.5h' });
  });

  it('says how much it logs at most when a duration is over a day', () => {
    assert.throws(() => parseDuration('25h'), { message: '"25h" is more than a day; a duration is at most 1440 minutes (24h)' });
  });
});

describe('refuseSplitDuration', () => {
  it('asks to quote a duration the shell split in two', () => {
    assert.throws(() => refuseSplitDuration('1h', '30m'), { message: '"1h 30m" is one duration; quote it: tock log "1h 30m" NAME' });
    assert.throws(() => refuseSplitDuration('45', 'min'), { message: '"45 min" is one duration; quote it: tock log "45 min" NAME' });
  });

  it('lets a duration and a name through', () => {
    for (const [first, second] of [['1h', 'Review'], ['1h30m', '30m'], ['45m', 'Writing docs'], ['1h', undefined], [undefined, undefined], ['soon', '30m']] as const) {
      assert.doesNotThrow(() => refuseSplitDuration(first, second));
    }
  });
});

describe('formatMinutes and formatSeconds', () => {
  it('writes minutes as 45m, 2h and 1h 05m', () => {
    assert.deepEqual([5, 45, 60, 65, 90, 120, 1440].map(formatMinutes), ['5m', '45m', '1h', '1h 05m', '1h 30m', '2h', '24h']);
  });

  it('writes seconds of work as a clock would, never rounding up', () => {
    // Floored to the minute, as every duration Tock shows (docs/product.md).
    assert.deepEqual([0, 40, 59, 60, 119, 2980, 3599, 3600, 7500, 7559].map(formatSeconds), ['0m', '0m', '0m', '1m', '1m', '49m', '59m', '1h', '2h 05m', '2h 05m']);
  });
});
