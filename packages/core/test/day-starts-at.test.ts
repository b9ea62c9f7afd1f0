/**
 * The one definition of "a day" with `dayStartsAt`, and the week with `weekStart` (docs/data.md
 * "Days and weeks"): every instant is on exactly one day, days tile time across DST changes,
 * 02:30 with "04:00" is on the day before; the settings are checked as they are set.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  addDays,
  buildReport,
  DAY_STARTS_AT_MAX,
  daySuggestions,
  getLedgerSetting,
  localDayAt,
  localDayKey,
  localDaySpan,
  localeWeekStart,
  readDayStartsAt,
  readWeekStart,
  recordSpan,
  reportPeriod,
  setLedgerSetting,
  StatusChanges,
  startOfWeek,
  statusBarToday,
} from '../src/index.ts';
import { fixture, problemOf } from './support.ts';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Asia/Tokyo', 'UTC'] as const;
/** 2026: the spring and autumn changes of Berlin, New York, Lord Howe (half an hour) and more. */
const YEAR_START = Date.UTC(2026, 0, 1);
const YEAR_END = Date.UTC(2027, 0, 1);

test('every instant is on exactly one day, and days tile time across DST changes, for any dayStartsAt (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: YEAR_START, max: YEAR_END }), fc.constantFrom(...ZONES), fc.integer({ min: 0, max: DAY_STARTS_AT_MAX }), (ms, zone, startsAt) => {
      const day = localDayKey(ms, zone, startsAt);
      const span = localDaySpan(day, zone, startsAt);
      assert.ok(span.start <= ms && ms < span.end, `${new Date(ms).toISOString()} ${zone} ${startsAt}: ${day} is ${new Date(span.start).toISOString()} … ${new Date(span.end).toISOString()}`);
      // The next day starts where this one ends, and the instant before a day's start is on the day before.
      assert.equal(localDaySpan(addDays(day, 1), zone, startsAt).start, span.end);
      assert.equal(localDayKey(span.start, zone, startsAt), day);
      assert.equal(localDayKey(span.start - 1, zone, startsAt), addDays(day, -1));
      // A day is 23 to 25 hours long (Lord Howe: 23.5 and 24.5).
      assert.ok(span.end - span.start >= 23 * 3_600_000 && span.end - span.start <= 25 * 3_600_000);
      assert.deepEqual(localDayAt(ms, zone, startsAt), span);
    }),
    { numRuns: 3000, seed: 25 },
  );
});

test('days tile time minute by minute through each DST change of Berlin and New York in 2026, dayStartsAt 02:30', () => {
  // Berlin springs forward at 02:00 → 03:00 on 29 March: 02:30 is skipped; falls back 03:00 → 02:00 on 25 October: 02:30 is twice.
  for (const [zone, from] of [
    ['Europe/Berlin', Date.UTC(2026, 2, 28, 12)],
    ['Europe/Berlin', Date.UTC(2026, 9, 24, 12)],
    ['America/New_York', Date.UTC(2026, 2, 7, 12)],
    ['America/New_York', Date.UTC(2026, 10, 0, 12)],
  ] as const) {
    let previous = localDayKey(from, zone, 150);
    let changes = 0;
    for (let ms = from; ms < from + 3 * 86_400_000; ms += 60_000) {
      const day = localDayKey(ms, zone, 150);
      if (day !== previous) {
        assert.equal(day, addDays(previous, 1), `${zone} ${new Date(ms).toISOString()}: days go forward one at a time`);
        assert.equal(localDaySpan(day, zone, 150).start <= ms, true);
        changes++;
        previous = day;
      }
    }
    assert.equal(changes, 3, zone);
  }
  // The skipped 02:30: the day starts at the change itself, 03:00 CEST (01:00 UTC).
  assert.equal(new Date(localDaySpan('2026-03-29', 'Europe/Berlin', 150).start).toISOString(), '2026-03-29T01:00:00.000Z');
  // The twice-shown 02:30: the day starts at the first (00:30 UTC, CEST).
  assert.equal(new Date(localDaySpan('2026-10-25', 'Europe/Berlin', 150).start).toISOString(), '2026-10-25T00:30:00.000Z');
});

test('a session at 02:30 with dayStartsAt "04:00" is on the day before; at 04:00 on its own date', () => {
  const zone = 'Europe/Berlin';
  assert.equal(localDayKey(Date.parse('2026-11-24T02:30:00+01:00'), zone, 240), '2026-11-23');
  assert.equal(localDayKey(Date.parse('2026-11-24T03:59:59+01:00'), zone, 240), '2026-11-23');
  assert.equal(localDayKey(Date.parse('2026-11-24T04:00:00+01:00'), zone, 240), '2026-11-24');
  assert.equal(localDayKey(Date.parse('2026-11-24T02:30:00+01:00'), zone), '2026-11-24', 'the default: midnight');
  assert.deepEqual(localDaySpan('2026-11-23', zone, 240), { day: '2026-11-23', start: Date.parse('2026-11-23T04:00:00+01:00'), end: Date.parse('2026-11-24T04:00:00+01:00') });
});

test('dayStartsAt is "00:00" to "06:00": set, read as minutes, anything else refused with one line', (t) => {
  const f = fixture(t);
  assert.equal(readDayStartsAt(f.store.settings), 0);
  setLedgerSetting(f.store.settings, 'dayStartsAt', '"04:00"');
  assert.equal(getLedgerSetting(f.store.settings, 'dayStartsAt'), '04:00');
  assert.equal(readDayStartsAt(f.store.settings), 240);
  setLedgerSetting(f.store.settings, 'dayStartsAt', '"06:00"');
  assert.equal(readDayStartsAt(f.store.settings), 360);
  for (const bad of ['"06:01"', '"4:00"', '"23:00"', '"24:00"', '240', '"04:60"', 'true']) {
    const problem = problemOf(() => setLedgerSetting(f.store.settings, 'dayStartsAt', bad));
    assert.equal(problem.code, 'validation_failed', bad);
    assert.equal(problem.details?.[0]?.message, 'must be a time from "00:00" to "06:00", such as "04:00"');
  }
  assert.equal(readDayStartsAt(f.store.settings), 360, 'a refused value changes nothing');
  setLedgerSetting(f.store.settings, 'dayStartsAt', null);
  assert.equal(readDayStartsAt(f.store.settings), 0);
});

test('weekStart: the locale\'s first day by default, or "mon", "sun", "sat"; the week a day is in starts there', (t) => {
  const f = fixture(t);
  // Thursday 26 November 2026.
  assert.equal(startOfWeek('2026-11-26'), '2026-11-23', 'Monday by default');
  assert.equal(startOfWeek('2026-11-26', 1), '2026-11-23');
  assert.equal(startOfWeek('2026-11-26', 7), '2026-11-22');
  assert.equal(startOfWeek('2026-11-26', 6), '2026-11-21');
  assert.equal(startOfWeek('2026-11-22', 7), '2026-11-22', 'a Sunday starts its own week when weeks start on Sunday');
  assert.equal(startOfWeek('2026-11-22', 1), '2026-11-16', 'and ends the week before when they start on Monday');
  assert.equal(startOfWeek('2026-11-27', 6), '2026-11-21', 'a Friday is in the week of the Saturday before');
  assert.equal(readWeekStart(f.store.settings, 'de'), 1, 'German: Monday');
  assert.equal(readWeekStart(f.store.settings, 'en'), 7, 'English (en-US): Sunday');
  assert.equal(readWeekStart(f.store.settings, 'ja'), 7, 'Japanese: Sunday');
  assert.deepEqual(['fr', 'es'].map(localeWeekStart), [1, 1]);
  for (const [value, day] of [
    ['"mon"', 1],
    ['"sun"', 7],
    ['"sat"', 6],
  ] as const) {
    setLedgerSetting(f.store.settings, 'weekStart', value);
    assert.equal(readWeekStart(f.store.settings, 'de'), day, value);
  }
  const problem = problemOf(() => setLedgerSetting(f.store.settings, 'weekStart', '"fri"'));
  assert.equal(problem.details?.[0]?.message, 'must be one of "locale", "mon", "sun", "sat"');
  assert.equal(readWeekStart(f.store.settings, 'de'), 6, 'a refused value changes nothing');
});

test('02:30 with dayStartsAt "04:00" counts on the day before: Today, the report by day, daily totals and suggestions', (t) => {
  const zone = 'Europe/Berlin';
  const f = fixture(t, { now: '2026-11-24T10:00:00+01:00', timeZone: zone });
  const local = (text: string): number => Date.parse(`${text}+01:00`);
  f.tracker.logEntry({ name: 'Night', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-24T03:00:00+01:00' });
  f.tracker.logEntry({ name: 'Morning', createIfMissing: true, durationMinutes: 20, endedAt: '2026-11-24T09:20:00+01:00' });
  recordSpan(f.store, { startMs: local('2026-11-24T03:10:00'), endMs: local('2026-11-24T03:40:00'), source: 'window', app: 'Firefox', title: 'Late reading' });
  const context = { timeZone: zone, nowMs: f.clock() };
  let store = f.store;
  const report = (): unknown => buildReport(store, { from: '2026-11-23', to: '2026-11-24', by: 'day' }, f.clock(), zone).rows.map((r) => ['date' in r ? r.date : null, r.seconds]);
  const suggested = (day: string): string[] => daySuggestions(store, day, context).suggestions.map((s) => s.start);

  // Midnight (the default): all of it is on the 24th.
  assert.equal(f.tracker.getStatus().todaySeconds, 50 * 60);
  assert.deepEqual(report(), [
    ['2026-11-23', 0],
    ['2026-11-24', 50 * 60],
  ]);
  assert.deepEqual(suggested('2026-11-24'), ['2026-11-24T02:10:00.000Z']);

  setLedgerSetting(f.store.settings, 'dayStartsAt', '"04:00"');
  const g = f.reopen(); // a fresh tracker: its today was kept for the day it found
  store = g.store;
  assert.equal(g.tracker.getStatus().todaySeconds, 20 * 60, 'today is from 04:00: the night is not in it');
  assert.deepEqual(report(), [
    ['2026-11-23', 30 * 60],
    ['2026-11-24', 20 * 60],
  ]);
  assert.deepEqual(
    g.tracker.dailyTotals('2026-11-23', '2026-11-24').map((d) => [d.day, d.activityName, d.seconds]),
    [
      ['2026-11-23', 'Night', 30 * 60],
      ['2026-11-24', 'Morning', 20 * 60],
    ],
  );
  assert.deepEqual(suggested('2026-11-23'), ['2026-11-24T02:10:00.000Z'], 'the reading at 03:10 is suggested on the day before');
  assert.deepEqual(suggested('2026-11-24'), []);
});

test('suggestions without a day are today\'s: at 02:30 with "04:00" the day before, its night reading included', (t) => {
  const zone = 'Europe/Berlin';
  const f = fixture(t, { now: '2026-11-24T02:30:00+01:00', timeZone: zone });
  recordSpan(f.store, { startMs: Date.parse('2026-11-24T01:00:00+01:00'), endMs: Date.parse('2026-11-24T01:40:00+01:00'), source: 'window', app: 'Firefox', title: 'Late reading' });
  const today = (): { date: string; starts: string[] } => {
    const said = daySuggestions(f.store, undefined, { timeZone: zone, nowMs: f.clock() });
    return { date: said.date, starts: said.suggestions.map((s) => s.start) };
  };
  assert.deepEqual(today(), { date: '2026-11-24', starts: ['2026-11-24T00:00:00.000Z'] }, 'midnight: the 24th');
  setLedgerSetting(f.store.settings, 'dayStartsAt', '"04:00"');
  assert.deepEqual(today(), { date: '2026-11-23', starts: ['2026-11-24T00:00:00.000Z'] }, '04:00: still the 23rd');
});

test('targets count the days that have begun with dayStartsAt: at 02:30 with "04:00" Tuesday has not, at 04:00 it has', (t) => {
  const zone = 'Europe/Berlin';
  const f = fixture(t, { now: '2026-11-24T02:30:00+01:00', timeZone: zone });
  setLedgerSetting(f.store.settings, 'targets', '{"mon":8,"tue":6}');
  setLedgerSetting(f.store.settings, 'dayStartsAt', '"04:00"');
  const target = (at: string): number | null => buildReport(f.store, { from: '2026-11-23', to: '2026-11-24', by: 'day' }, Date.parse(at), zone).targetSeconds;
  // Monday 2026-11-23 runs to Tuesday 04:00: Tuesday's 6 hours are not due yet.
  assert.equal(target('2026-11-24T02:30:00+01:00'), 8 * 3600);
  assert.equal(target('2026-11-24T04:00:00+01:00'), 14 * 3600);
  setLedgerSetting(f.store.settings, 'dayStartsAt', null);
  assert.equal(target('2026-11-24T02:30:00+01:00'), 14 * 3600, 'at midnight (the default) Tuesday has begun');
});

test('the named ranges of reports follow weekStart sun, mon, sat and dayStartsAt', () => {
  const zone = 'Europe/Berlin';
  // Sunday 22 November 2026, 02:30: with "04:00" still Saturday the 21st.
  const sundayNight = Date.parse('2026-11-22T02:30:00+01:00');
  assert.deepEqual(reportPeriod('week', sundayNight, zone), { from: '2026-11-16', to: '2026-11-22' }, 'Monday weeks by default');
  assert.deepEqual(reportPeriod('week', sundayNight, zone, { weekStart: 1 }), { from: '2026-11-16', to: '2026-11-22' });
  assert.deepEqual(reportPeriod('week', sundayNight, zone, { weekStart: 7 }), { from: '2026-11-22', to: '2026-11-28' });
  assert.deepEqual(reportPeriod('week', sundayNight, zone, { weekStart: 6 }), { from: '2026-11-21', to: '2026-11-27' });
  assert.deepEqual(reportPeriod('last-week', sundayNight, zone, { weekStart: 7 }), { from: '2026-11-15', to: '2026-11-21' });
  assert.deepEqual(reportPeriod('today', sundayNight, zone, { dayStartsAt: 240 }), { from: '2026-11-21', to: '2026-11-21' });
  assert.deepEqual(reportPeriod('week', sundayNight, zone, { dayStartsAt: 240, weekStart: 7 }), { from: '2026-11-15', to: '2026-11-21' }, 'Saturday night is in the week that started on the 15th');
  assert.deepEqual(reportPeriod('week', sundayNight, zone, { dayStartsAt: 240, weekStart: 6 }), { from: '2026-11-21', to: '2026-11-27' });
});

test('the status line (WakaTime statusbar) and the status bus end today at dayStartsAt, not midnight', () => {
  const zone = 'Europe/Berlin';
  const night = Date.parse('2026-11-24T02:30:00+01:00');
  const status = { isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 0, since: null };
  const range = statusBarToday(status, night, zone, 240).data.range;
  assert.deepEqual([range.date, range.start, range.end], ['2026-11-23', '2026-11-23T03:00:00.000Z', '2026-11-24T02:59:59.000Z']);
  assert.equal(statusBarToday(status, night, zone).data.range.date, '2026-11-24', 'midnight by default');

  // The bus tells of a new day at 04:00: a check at 03:59 is the same day, at 04:00 a new one.
  let now = night;
  const changes = new StatusChanges({ generation: () => 0, status: () => status, clock: () => now, timeZone: () => zone, dayStartsAt: () => 240 });
  const heard: unknown[] = [];
  changes.subscribe((s) => heard.push(s));
  changes.check();
  now = Date.parse('2026-11-24T03:59:00+01:00');
  assert.equal(changes.check(), null);
  now = Date.parse('2026-11-24T04:00:00+01:00');
  assert.notEqual(changes.check(), null);
  assert.equal(heard.length, 1);
});
