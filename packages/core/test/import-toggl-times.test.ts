/**
 * Toggl's date and time cells (docs/data.md "Import"), read by hand in import/toggl.ts: the
 * forms taken (`YYYY-MM-DD`; `H:MM`, `HH:MM`, `H:MM:SS`, `HH:MM:SS`; each cell trimmed), the
 * calendar's days (leap years as `Date.UTC` has them), and the three refusals, each naming the
 * line and the cell and writing nothing.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importFile, type Store } from '../src/index.ts';
import { fixture } from './support.ts';

const HEADER = 'Project,Description,Start date,Start time,End date,End time';

function csv(startDate: string, startTime: string, endDate: string, endTime: string): string {
  const cell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return `${HEADER}\r\n${['Work', '', startDate, startTime, endDate, endTime].map(cell).join(',')}\r\n`;
}

function entries(store: Store): { start: number; end: number }[] {
  return (store.db.prepare('SELECT started_at AS start, ended_at AS end FROM entries ORDER BY started_at').all() as { start: number; end: number }[]).map((r) => ({ ...r }));
}

test('reads each form of date and time Toggl cells take, trimmed, on the days of the calendar', async (t) => {
  const { store, dir, clock } = fixture(t);
  const cases: [string, string, string, string, string, string][] = [
    // start date, start time, end date, end time → the start and end, UTC
    ['2026-02-02', '9:05', '2026-02-02', '10:05', '2026-02-02T09:05:00Z', '2026-02-02T10:05:00Z'],
    ['2026-02-03', '09:05', '2026-02-03', '9:06:07', '2026-02-03T09:05:00Z', '2026-02-03T09:06:07Z'],
    ['2026-02-04', '09:05:07', '2026-02-04', '23:59:59', '2026-02-04T09:05:07Z', '2026-02-04T23:59:59Z'],
    [' 2026-02-05 ', ' 0:00:00\t', '2026-02-05', '00:30', '2026-02-05T00:00:00Z', '2026-02-05T00:30:00Z'],
    ['2024-02-29', '12:00', '2024-03-01', '01:00', '2024-02-29T12:00:00Z', '2024-03-01T01:00:00Z'], // a leap day
    ['2000-02-29', '12:00', '2000-02-29', '13:00', '2000-02-29T12:00:00Z', '2000-02-29T13:00:00Z'], // 2000 is a leap year
    ['2026-12-31', '23:00', '2027-01-01', '00:15', '2026-12-31T23:00:00Z', '2027-01-01T00:15:00Z'],
  ];
  for (const [i, [sd, st, ed, et]] of cases.entries()) {
    const path = join(dir, `ok-${i}.csv`);
    writeFileSync(path, csv(sd, st, ed, et));
    await importFile(store, { path, timeZone: 'UTC', now: clock() });
  }
  assert.deepEqual(
    entries(store),
    cases.map(([, , , , start, end]) => ({ start: Date.parse(start), end: Date.parse(end) })).sort((a, b) => a.start - b.start),
  );
});

test('refuses a date not YYYY-MM-DD, a time not H:MM[:SS], and a day or time the calendar lacks, naming the line and the cell; nothing is written', async (t) => {
  const { store, dir, clock } = fixture(t);
  const notDate = (d: string): [string, string, string] => [d, '09:00', `line 2: the start date "${d}" is not a date YYYY-MM-DD`];
  const notTime = (time: string): [string, string, string] => ['2026-02-02', time, `line 2: the start time "${time}" is not a time HH:MM:SS`];
  const notCalendar = (d: string, time: string): [string, string, string] => [d, time, `line 2: the start "${d} ${time}" is not a date and time of the calendar`];
  const cases: [string, string, string][] = [
    notDate('2026-2-02'),
    notDate('02.02.2026'),
    notDate('2026/02/02'),
    notDate('20260202'),
    notDate('2026-02-02T09:00'),
    notDate('２０２６-02-02'), // full-width digits
    notDate('+026-02-02'),
    notDate(''),
    notTime('9'),
    notTime('9:5'),
    notTime('09:05:7'),
    notTime('09:05:'),
    notTime('123:00'),
    notTime('09-05'),
    notTime('09:05:07.5'),
    notTime('٠٩:05'), // Arabic-Indic digits
    notTime(''),
    notCalendar('2026-02-29', '09:00'),
    notCalendar('2100-02-29', '09:00'), // not a leap year
    notCalendar('1900-02-29', '09:00'),
    notCalendar('2026-13-01', '09:00'),
    notCalendar('2026-00-10', '09:00'),
    notCalendar('2026-04-31', '09:00'),
    notCalendar('2026-01-00', '09:00'),
    notCalendar('2026-02-02', '24:00:00'),
    notCalendar('2026-02-02', '12:60'),
    notCalendar('2026-02-02', '12:00:60'),
    notCalendar('2026-02-02', '99:99:99'),
  ];
  for (const [i, [date, time, message]] of cases.entries()) {
    const path = join(dir, `bad-${i}.csv`);
    writeFileSync(path, csv(date, time, '2026-02-02', '10:00'));
    await assert.rejects(importFile(store, { path, timeZone: 'UTC', now: clock() }), (error: Error) => {
      assert.equal(error.name, 'ImportProblem');
      assert.equal(error.message, message);
      return true;
    });
  }
  // The end's cells are read by the same rules and named as the end's.
  const path = join(dir, 'bad-end.csv');
  writeFileSync(path, csv('2026-02-02', '09:00', '2026-02-02', '10:5'));
  await assert.rejects(importFile(store, { path, timeZone: 'UTC', now: clock() }), /^ImportProblem: line 2: the end time "10:5" is not a time HH:MM:SS$/);
  assert.deepEqual(entries(store), []);
});
