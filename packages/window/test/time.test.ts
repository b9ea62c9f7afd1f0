/**
 * The window's days are the app's: the window's time helpers (packages/window/src/time.ts)
 * must give the same day boundaries as the tracker that counts today's total, also where a
 * DST change skips midnight (a window that started the day an hour early showed a timeline
 * that disagreed with the total).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localDaySpan } from '@tock/core';
import { atMinutes, longBlockQuestion, minutesOf, readRange, timeForm } from '../src/screens/history/times.ts';
import { setWindowLanguage, windowLanguageLoaded, windowMessages } from '../src/i18n/index.ts';
import { atLocalTime, clockHour, clockSeconds, clockTime, dayKey, daySpan, setAppClock, setClockFormat, timeInputValue, timeOfDay, twelveHours, weekStart } from '../src/time.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

for (const [zone, day, start] of [
  ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
  ['America/Havana', '2026-03-08', '2026-03-08T05:00:00.000Z'],
] as const) {
  test(`the window starts ${day} in ${zone} where the app does, though midnight is skipped`, () => {
    setAppClock(zone, `${day}T18:00:00.000Z`);
    const span = daySpan(day);
    assert.equal(iso(span.start), start);
    assert.deepEqual(span, localDaySpan(day, zone));
    assert.equal(dayKey(span.start), day);
    assert.notEqual(dayKey(span.start - 1), day);
    // 00:00 typed into a form is the day's first instant, shown back as 01:00.
    assert.equal(atLocalTime(day, 0), span.start);
    assert.equal(timeInputValue(span.start), '01:00');
  });
}

test('the window reads a typed time in the app zone, not the browser one', () => {
  setAppClock('Asia/Tokyo', '2026-11-22T00:00:00.000Z');
  assert.equal(iso(atLocalTime('2026-11-22', 9 * 60 + 15)), '2026-11-22T00:15:00.000Z');
  assert.equal(timeInputValue(Date.parse('2026-11-22T00:15:00.000Z')), '09:15');
  assert.equal(weekStart('2026-11-22'), '2026-11-16');
});

test('the History forms read a cleared date or time field as missing, not as an invalid time', () => {
  setAppClock('Europe/Berlin', '2026-11-22T12:00:00.000Z');
  assert.equal(minutesOf(''), null);
  assert.equal(minutesOf('09:30'), 570);
  assert.equal(atMinutes('', 570), null);
  assert.deepEqual(readRange('', '09:00', '10:00'), { ok: false, field: 'day', message: 'Choose the day.' });
  assert.deepEqual(readRange('2026-11-22', '09:00', ''), { ok: false, field: 'to', message: 'Enter the time it ended.' });
  assert.equal(iso(atMinutes('2026-11-22', 570) as number), '2026-11-22T08:30:00.000Z');
});

test('typed times are read on the 24-hour clock or with AM/PM; anything else is no time of day', () => {
  for (const [typed, minutes] of [
    ['09:30', 570],
    ['9:30', 570],
    ['0930', 570],
    ['9.30', 570],
    ['9', 540],
    ['23:59', 1439],
    ['00:00', 0],
  ] as const) {
    assert.equal(minutesOf(typed), minutes, typed);
  }
  // The 12-hour clock reads back whatever the window shows on it (Settings › Desktop › Clock).
  for (const [typed, minutes] of [
    ['12:06 PM', 726],
    ['12:06 am', 6],
    ['9:30 AM', 570],
    ['2:05 p.m.', 845],
    ['2pm', 840],
    ['11:59 PM', 1439],
  ] as const) {
    assert.equal(minutesOf(typed), minutes, typed);
  }
  for (const typed of ['24:00', '9:75', '9:5', 'soon', '-1:00', '13 PM', '0:30 AM', '2 PMX', '']) assert.equal(minutesOf(typed), null, typed);
});

test('every time of day follows the clock setting: 24 h, 12 h, or the window’s language', () => {
  setAppClock('Europe/Berlin', '2026-11-22T12:00:00.000Z');
  const at = Date.parse('2026-11-22T13:05:09.000Z'); // 14:05:09 in Berlin
  const midnight = Date.parse('2026-11-21T23:00:30.000Z'); // 00:00:30 in Berlin
  assert.deepEqual([clockTime(at), clockSeconds(at), timeOfDay(0)], ['14:05', '14:05:09', '00:00']);
  setClockFormat('12h');
  try {
    assert.deepEqual([clockTime(at), clockSeconds(at), clockTime(midnight), clockSeconds(midnight), timeOfDay(12 * 60)], ['2:05 PM', '2:05:09 PM', '12:00 AM', '12:00:30 AM', '12:00 PM']);
    assert.equal(minutesOf(timeInputValue(at)), 14 * 60 + 5, 'a time the window shows reads back');
    assert.match(timeForm(), /9:30 AM/);
    setClockFormat('system');
    // The window's language (English here) decides, not the browser's or Node's.
    assert.equal(clockTime(at), '2:05 PM');
  } finally {
    setClockFormat('24h');
  }
});

/** Switches the window to `language` and waits until its catalog has loaded (a dynamic import). */
async function speak(language: string): Promise<void> {
  // The language switch marks the page's `lang`; node has no page.
  (globalThis as { document?: unknown }).document ??= { documentElement: { lang: 'en' } };
  setWindowLanguage(language);
  await windowLanguageLoaded();
  assert.equal(windowMessages().locale, language);
}

const SHOWN_IN = {
  en: ['2:05 PM', '2:05:09 PM', '12:00 AM', '2:05 PM'],
  de: ['2:05 PM', '2:05:09 PM', '12:00 AM', '14:05'],
  fr: ['2:05 PM', '2:05:09 PM', '12:00 AM', '14:05'],
  es: ['2:05 p. m.', '2:05:09 p. m.', '12:00 a. m.', '14:05'],
  ja: ['午後2:05', '午後2:05:09', '午前12:00', '14:05'],
  'en-XA': ['2:05 PM', '2:05:09 PM', '12:00 AM', '2:05 PM'],
} as const;

for (const [language, [twelve, twelveSeconds, midnight, system]] of Object.entries(SHOWN_IN)) {
  test(`in ${language} the 12-hour clock has the language's words, system its own clock, and what is shown reads back`, async () => {
    await speak(language);
    setAppClock('Europe/Berlin', '2026-11-22T12:00:00.000Z');
    const at = Date.parse('2026-11-22T13:05:09.000Z'); // 14:05:09 in Berlin
    try {
      setClockFormat('12h');
      assert.deepEqual([clockTime(at), clockSeconds(at), timeOfDay(0)], [twelve, twelveSeconds, midnight]);
      // The timeline's ticks: the hour alone, never the half of the day's word cut short (`午前`, `8:`).
      assert.deepEqual([clockHour(at), clockHour(Date.parse('2026-11-22T07:00:00.000Z')), clockHour(Date.parse('2026-11-21T23:00:00.000Z'))], ['2', '8', '12']);
      assert.equal(minutesOf(timeInputValue(at)), 14 * 60 + 5);
      for (let minutes = 0; minutes < 24 * 60; minutes += 13) assert.equal(minutesOf(timeOfDay(minutes)), minutes, timeOfDay(minutes));
      setClockFormat('system');
      assert.equal(clockTime(at), system);
      assert.equal(twelveHours(), system !== '14:05');
      assert.equal(minutesOf(timeInputValue(at)), 14 * 60 + 5);
      setClockFormat('24h');
      assert.deepEqual([clockTime(at), clockSeconds(at)], ['14:05', '14:05:09']);
      assert.deepEqual([clockHour(at), clockHour(Date.parse('2026-11-22T07:00:00.000Z'))], ['14', '08']);
      // 24-hour times are read in every language, whatever the clock shows.
      assert.equal(minutesOf('15:05'), 905);
    } finally {
      setClockFormat('24h');
      await speak('en');
    }
  });
}

test('the time field reads what each language types and refuses hostile text at once', () => {
  for (const [typed, minutes] of [
    ['3:05 p. m.', 905],
    ['3:05 p.m.', 905],
    ['午後3:05', 905],
    ['午後３：０５', 905],
    ['15時05分', 905],
    ['15h05', 905],
  ] as const) {
    assert.equal(minutesOf(typed), minutes, typed);
  }
  for (const typed of ['3:05 p. m. p. m.', '午後15:05', '9'.repeat(100_000), `9:30${'\u0301'.repeat(40)}`, '\u202e3:05', '٣:٠٥']) assert.equal(minutesOf(typed), null, typed.slice(0, 12));
  setAppClock('Europe/Berlin', '2026-11-22T12:00:00.000Z');
  assert.deepEqual(readRange('2026-11-22', 'x'.repeat(5000), '10:00'), { ok: false, field: 'from', message: `Write the start ${timeForm()}.` });
});

test('an end before the start is a mistake unless the block ends the next day (never a silent 23 h 30 min)', () => {
  setAppClock('Europe/Berlin', '2026-11-22T12:00:00.000Z');
  const swapped = readRange('2026-11-20', '11:00', '10:30');
  assert.deepEqual(swapped, { ok: false, field: 'to', message: 'It ends (10:30) before it starts (11:00). Correct the times, or choose “Ends the next day”.' });
  assert.equal(readRange('2026-11-20', '11:00', '11:00').ok, false);
  const overnight = readRange('2026-11-22', '23:00', '01:00', true);
  assert.ok(overnight.ok);
  assert.deepEqual([iso(overnight.start), iso(overnight.end)], ['2026-11-22T22:00:00.000Z', '2026-11-23T00:00:00.000Z']);
  assert.equal(longBlockQuestion(12 * 3_600_000), null);
  assert.equal(longBlockQuestion(12 * 3_600_000 + 60_000), 'This block is 12 h 1 min long, more than 12 hours. Is that right?');
});
