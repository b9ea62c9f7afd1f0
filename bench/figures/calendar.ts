/**
 * Meetings in suggestions' cost (docs/calendar.md), figure `calendar-suggestions`: a day's
 * suggestions (core's `daySuggestions`, with the app's calendars giving the day's meetings, as
 * `tock suggest` does) with a calendar of 5 years of weekly recurring meetings (30 series, a
 * third with COUNT so that they are expanded from their first day and kept) and 2 000 single
 * events, the day asked the last of the 5 years; beside a day of window capture. In alternating
 * rounds, the p99 of that and of the same day's suggestions with no calendar. Target: p99 ≤ 25 ms
 * (figure 23's).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCalendars } from '@tock/app/calendars';
import { createTracker, daySuggestions, openStore, recordSpan } from '@tock/core';
import { round, unmeasured, type BenchConfig, type FigureResult } from '../lib/figure.ts';
import { percentileOfSorted } from '../lib/stats.ts';

const FIGURE = {
  id: 'calendar-suggestions',
  title: "a day's suggestions with 5 years of weekly meetings and 2 000 events, p99",
  unit: 'ms',
  baselineLabel: "the same day's suggestions without a calendar, p99",
};
const DAY_MS = 86_400_000;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR'];

const stamp = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');

/** The calendar's text: `series` weekly meetings over `years` years and `singles` events spread over them. */
function calendarText(firstMs: number, lastMs: number, series: number, singles: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//tock bench//EN'];
  for (let i = 0; i < series; i++) {
    const start = firstMs + (i % 5) * DAY_MS + (8 + (i % 9)) * 3_600_000;
    const rule = i % 3 === 0 ? `FREQ=WEEKLY;COUNT=${Math.floor((lastMs - firstMs) / (7 * DAY_MS)) + 2}` : `FREQ=WEEKLY;BYDAY=${WEEKDAYS[i % 5]};UNTIL=${stamp(lastMs + 365 * DAY_MS)}`;
    lines.push('BEGIN:VEVENT', `UID:series-${i}`, `DTSTART:${stamp(start)}`, 'DURATION:PT30M', `RRULE:${rule}`, `SUMMARY:Weekly ${i}`, 'END:VEVENT');
  }
  for (let i = 0; i < singles; i++) {
    const start = firstMs + Math.floor(((lastMs - firstMs) / singles) * i / 3_600_000) * 3_600_000;
    lines.push('BEGIN:VEVENT', `UID:single-${i}`, `DTSTART:${stamp(start)}`, `DTEND:${stamp(start + 45 * 60_000)}`, `SUMMARY:Meeting ${i}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

/** The `calendar-suggestions` figure. */
export async function calendarFigure(config: BenchConfig): Promise<FigureResult> {
  const target = { kind: 'report', text: 'p99 ≤ 25 ms' } as const;
  const dir = mkdtempSync(join(tmpdir(), 'tock-bench-calendar-'));
  try {
    const store = openStore(join(dir, 'tock.db'));
    const now = Date.now();
    const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
    const day = new Date(today - DAY_MS).toISOString().slice(0, 10);
    const dayStart = Date.parse(`${day}T00:00:00.000Z`);
    const years = config.smoke ? 1 : 5;
    const first = dayStart - years * 365 * DAY_MS;
    const singles = config.smoke ? 200 : 2_000;
    // Every single event falls on some day of the years; a few on the day asked.
    const text = calendarText(first, dayStart + DAY_MS, 30, singles);
    const extra = ['BEGIN:VEVENT', 'UID:today', `DTSTART:${day.replaceAll('-', '')}T130000Z`, `DTEND:${day.replaceAll('-', '')}T140000Z`, 'SUMMARY:Planning', 'END:VEVENT'].join('\r\n');
    writeFileSync(join(dir, 'work.ics'), text.replace('END:VCALENDAR', `${extra}\r\nEND:VCALENDAR`));
    // The day's capture: 8 h of window spans, every 30 s.
    store.transaction(() => {
      for (let t = 0; t < 8 * 3600; t += 30) {
        const at = dayStart + 9 * 3_600_000 + t * 1000;
        recordSpan(store, { startMs: at, endMs: at + 30_000, source: 'window', app: ['firefox', 'Code', 'Slack'][Math.floor(t / 420) % 3] as string, title: null });
      }
    });
    const tracker = createTracker({ store, clock: () => now, timeZone: 'UTC' });
    tracker.logEntry({ name: 'Tock', createIfMissing: true, durationMinutes: 45, endedAt: `${day}T15:30:00.000Z` });
    const calendars = createCalendars({ settings: store.settings, timeZone: () => 'UTC', watchFile: () => ({ close() {} }) });
    const added = await calendars.add(join(dir, 'work.ics'), 'Work');
    const withCalendar = { timeZone: 'UTC', nowMs: now, meetings: calendars.meetings };
    const without = { timeZone: 'UTC', nowMs: now };
    // The first ask expands the series with COUNT from their first day (kept afterwards).
    const cold = performance.now();
    const meetings = daySuggestions(store, day, withCalendar).suggestions.filter((s) => s.sources.some((x) => x.source === 'calendar')).length;
    const firstAskMs = performance.now() - cold;
    if (meetings === 0) throw new Error('the day has no meeting suggested');
    const rounds = config.smoke ? 20 : 300;
    const withMs: number[] = [];
    const withoutMs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? [true, false] : [false, true];
      for (const calendar of order) {
        const t0 = performance.now();
        daySuggestions(store, day, calendar ? withCalendar : without);
        (calendar ? withMs : withoutMs).push(performance.now() - t0);
      }
    }
    store.close();
    withMs.sort((a, b) => a - b);
    withoutMs.sort((a, b) => a - b);
    const p99 = percentileOfSorted(withMs, 0.99);
    const base = percentileOfSorted(withoutMs, 0.99);
    return {
      ...FIGURE,
      target,
      value: round(p99, 2),
      baseline: round(base, 2),
      ratio: round(p99 / base, 3),
      pass: config.smoke ? null : p99 <= 25,
      status: 'measured',
      note: `${added.events} events (30 weekly series over ${years} years, ${singles} single), the last day asked, ${meetings} meeting suggestions on it, the first ask ${round(firstAskMs, 1)} ms; target p99 ≤ 25 ms`,
      details: { years, rounds, firstAskMs, events: added.events, withP50: percentileOfSorted(withMs, 0.5), withoutP50: percentileOfSorted(withoutMs, 0.5), problems: added.problems },
    };
  } catch (error) {
    return unmeasured({ ...FIGURE, target }, 'error', error instanceof Error ? error.message : String(error));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
