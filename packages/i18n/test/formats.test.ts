/**
 * Times of day as each language writes them (docs/i18n.md "Formats"): the 12-hour clock's
 * words and their place come from `Intl` for the chosen language, `system` is that language's
 * own clock, and every time written reads back through the one lenient, bounded reader.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatClockTime, formatTimeOfDay, type Locale, MAX_TYPED_TIME, readClockTime, usesTwelveHours } from '@tock/i18n';

const LOCALES: readonly Locale[] = ['en', 'de', 'fr', 'es', 'ja', 'en-XA'];
const afternoon = { hours: 15, minutes: 5 };

describe('times of day in each language', () => {
  it('writes the 12-hour clock with the language’s words, before the time in Japanese', () => {
    const twelve = LOCALES.map((locale) => formatClockTime(locale, afternoon, '12h'));
    assert.deepEqual(twelve, ['3:05 PM', '3:05 PM', '3:05 PM', '3:05 p. m.', '午後3:05', '3:05 PM']);
    assert.deepEqual(
      LOCALES.map((locale) => formatClockTime(locale, { hours: 0, minutes: 5 }, '12h')),
      ['12:05 AM', '12:05 AM', '12:05 AM', '12:05 a. m.', '午前12:05', '12:05 AM'],
    );
    assert.equal(formatClockTime('es', { hours: 12, minutes: 0 }, '12h'), '12:00 p. m.');
  });

  it('writes the 24-hour clock as HH:MM in every language, seconds when asked', () => {
    for (const locale of LOCALES) {
      assert.equal(formatClockTime(locale, { hours: 9, minutes: 5 }, '24h'), '09:05', locale);
      assert.equal(formatClockTime(locale, { hours: 0, minutes: 0, seconds: 30 }, '24h'), '00:00:30', locale);
    }
    assert.equal(formatClockTime('ja', { hours: 14, minutes: 3, seconds: 22 }, '12h'), '午後2:03:22');
    assert.equal(formatClockTime('es', { hours: 14, minutes: 3, seconds: 22 }, '12h'), '2:03:22 p. m.');
  });

  it('follows the chosen language’s own clock for system, not the process’s locale', () => {
    assert.deepEqual(
      LOCALES.map((locale) => formatClockTime(locale, afternoon, 'system')),
      ['3:05 PM', '15:05', '15:05', '15:05', '15:05', '3:05 PM'],
    );
    assert.deepEqual(LOCALES.map((locale) => usesTwelveHours(locale, 'system')), [true, false, false, false, false, true]);
    assert.equal(usesTwelveHours('de', '12h'), true);
    assert.equal(usesTwelveHours('en', '24h'), false);
  });

  it('writes an instant in its time zone, spaces as a person types them', () => {
    const at = Date.parse('2026-11-22T06:05:00.000Z');
    assert.equal(formatTimeOfDay('ja', at, 'Asia/Tokyo', '12h'), '午後3:05');
    assert.equal(formatTimeOfDay('es', at, 'Europe/Madrid', '12h'), '7:05 a. m.');
    assert.equal(formatTimeOfDay('de', at, 'Europe/Berlin'), '07:05');
    for (const locale of LOCALES) assert.doesNotMatch(formatTimeOfDay(locale, at, 'UTC', '12h'), /[\u00a0\u202f]/, locale);
  });
});

describe('reading a typed time of day', () => {
  it('reads back every time each language writes, on both clocks', () => {
    for (const locale of LOCALES) {
      for (const clock of ['12h', '24h'] as const) {
        for (let minutes = 0; minutes < 24 * 60; minutes += 7) {
          const shown = formatClockTime(locale, { hours: Math.floor(minutes / 60), minutes: minutes % 60 }, clock);
          assert.equal(readClockTime(shown), minutes, `${locale} ${clock} ${shown}`);
        }
      }
    }
  });

  it('reads the forms a person types in each language', () => {
    for (const [typed, minutes] of [
      ['15:05', 905],
      ['3:05 PM', 905],
      ['3:05 pm', 905],
      ['3pm', 900],
      ['3:05 p. m.', 905],
      ['3:05 p.m.', 905],
      ['3:05 P. M.', 905],
      ['12:05 a.\u00a0m.', 5],
      ['3:05\u202fPM', 905],
      ['午後3:05', 905],
      ['午前12:05', 5],
      ['午後 3:05', 905],
      ['午後3時', 900],
      ['15時05分', 905],
      ['１５：０５', 905],
      ['午後３：０５', 905],
      ['15h05', 905],
      ['0930', 570],
      ['9.30', 570],
      ['9', 540],
    ] as const) {
      assert.equal(readClockTime(typed), minutes, typed);
    }
  });

  it('refuses what is no time of day', () => {
    for (const typed of ['', '24:00', '9:75', '9:5', 'soon', '-1:00', '13 PM', '0:30 AM', '2 PMX', 'pm 3:05 pm', '午後15:05', '3:05 p. m. p. m.', '\u202e3:05', '3:05\u0000', '٣:٠٥', '🕒']) {
      assert.equal(readClockTime(typed), null, JSON.stringify(typed));
    }
  });

  it('refuses hostile text unread: too long, or swelling past the bound when normalized', () => {
    assert.equal(readClockTime(`${'1'.repeat(MAX_TYPED_TIME)}:00`), null);
    assert.equal(readClockTime(`9:30${' '.repeat(MAX_TYPED_TIME)}`), null);
    assert.equal(readClockTime('9'.repeat(100_000)), null);
    // U+FDFA is one character that NFKC makes eighteen.
    assert.equal(readClockTime(`3:05 ${'\ufdfa'.repeat(3)}`), null);
    assert.equal(readClockTime(`${'a'.repeat(MAX_TYPED_TIME - 1)}9`), null);
  });
});
