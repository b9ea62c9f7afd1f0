/**
 * Toggl Track's detailed-report CSV (docs/data.md "Import"): a header row naming at least
 * `Project`, `Description`, `Start date`, `Start time`, `End date`, `End time`; dates
 * `YYYY-MM-DD`, times `HH:MM:SS` on the wall clock of the zone given. Parsed by csv-parse
 * as RFC 4180 (quoted fields, embedded newlines, a byte-order mark), record by record.
 */

import type { Readable } from 'node:stream';
import type { CsvError } from 'csv-parse';
import { addForeignBlock, checkClientName, checkLedgerValue, type ReadFile } from './blocks.ts';
import { wallTimeInstants } from '../day.ts';
import { ImportProblem, type ImportReason } from './problem.ts';

/** The columns an import needs, as Toggl names them. */
const REQUIRED = ['Project', 'Description', 'Start date', 'Start time', 'End date', 'End time'] as const;

/** Activity name for a row with neither a project nor a description. */
const TOGGL_NO_PROJECT = 'No project';

/** The largest CSV record taken, in characters (a row is a few hundred). */
const MAX_RECORD_CHARS = 1 << 20;

/** True when `head` (the start of a file) looks like a Toggl CSV header. */
export function looksLikeToggl(head: string): boolean {
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return /(^|,)"?Start date"?(,|$)/.test(firstLine) && /(^|,)"?Project"?(,|$)/.test(firstLine);
}

/*
 * Dates and times are read by hand, character by character: two regular expressions a row
 * made a match array and its substrings per cell, nearly half of what a 100 k-row file
 * allocated while it was read (bench/README.md figure 11). The forms taken are the same:
 * `YYYY-MM-DD`, and `H:MM`, `HH:MM`, `H:MM:SS` or `HH:MM:SS`, each cell trimmed first.
 */

/** The number the ASCII digits of `text` from `from` to `to` make, or -1 when one is not 0–9. */
function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** {@link calendarDate}'s answer for a text that is not `YYYY-MM-DD`. */
const NOT_A_DATE = -1;
/** {@link calendarDate}'s answer for a `YYYY-MM-DD` the calendar lacks (2026-02-30). */
const NOT_IN_CALENDAR = -2;

/**
 * A trimmed `YYYY-MM-DD` as `year * 10 000 + month * 100 + day`, or {@link NOT_A_DATE} or
 * {@link NOT_IN_CALENDAR}. The calendar is `Date.UTC`'s, which the check used before: the
 * years 0–99 have the leap years of 1900–1999.
 */
function calendarDate(text: string): number {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return NOT_A_DATE;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  if (year < 0 || month < 0 || day < 0) return NOT_A_DATE;
  const leapYear = year < 100 ? year + 1900 : year;
  const leap = leapYear % 4 === 0 && (leapYear % 100 !== 0 || leapYear % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  if (month < 1 || month > 12 || day < 1 || day > days) return NOT_IN_CALENDAR;
  return year * 10_000 + month * 100 + day;
}

/** A trimmed `H:MM[:SS]` or `HH:MM[:SS]` as `hour * 10 000 + minute * 100 + second` (each as written, up to 99), or -1. */
function timeOfDay(text: string): number {
  const colon = text.charCodeAt(1) === 58 ? 1 : text.charCodeAt(2) === 58 ? 2 : -1;
  if (colon < 0 || (text.length !== colon + 3 && text.length !== colon + 6)) return -1;
  const hour = digits(text, 0, colon);
  const minute = digits(text, colon + 1, colon + 3);
  const second = text.length === colon + 3 ? 0 : text.charCodeAt(colon + 3) === 58 ? digits(text, colon + 4, colon + 6) : -1;
  if (hour < 0 || minute < 0 || second < 0) return -1;
  return hour * 10_000 + minute * 100 + second;
}

/** A date and time cell pair read in `timeZone`; every reading of it (see wallTimeInstants). */
function instants(place: string, what: string, date: string, time: string, timeZone: string): number[] {
  const d = calendarDate(date.trim());
  const t = timeOfDay(time.trim());
  const which = what === 'the start' ? 'start' : 'end';
  if (d === NOT_A_DATE) throw new ImportProblem(place, `${what} date "${date}" is not a date YYYY-MM-DD`, { code: 'import_date', values: { what: which, date } });
  if (t < 0) throw new ImportProblem(place, `${what} time "${time}" is not a time HH:MM:SS`, { code: 'import_time', values: { what: which, time } });
  const hour = Math.floor(t / 10_000);
  const minute = Math.floor(t / 100) % 100;
  const second = t % 100;
  if (d === NOT_IN_CALENDAR || hour > 23 || minute > 59 || second > 59) {
    throw new ImportProblem(place, `${what} "${date} ${time}" is not a date and time of the calendar`, { code: 'import_calendar', values: { what: which, date, time } });
  }
  const found = wallTimeInstants(Math.floor(d / 10_000), Math.floor(d / 100) % 100, d % 100, hour, minute, second, timeZone);
  if (found.length === 0) {
    throw new ImportProblem(
      place,
      `${what} ${date} ${time} does not exist in ${timeZone} (the clocks skipped it); check --tz, or fix the time in the file`,
      { code: 'import_no_such_time', values: { what: which, date, time, zone: timeZone } },
    );
  }
  return found;
}

/**
 * csv-parse, loaded by the first Toggl import: ten modules the running app would otherwise
 * load at start and keep for an import that may never come (bench/README.md "A lighter idle app").
 */
function loadCsvParse(): Promise<typeof import('csv-parse')> {
  return import('csv-parse');
}

/**
 * Reads a Toggl CSV from `input` into `file`, in `timeZone`. Activity = `Project`, or
 * `Description` when there is no project; note = `Description` when there is one. A time
 * the clock showed twice (fall-back) is read as its first instant, except an end that only
 * its second reading puts after the start.
 */
export async function readToggl(input: Readable, timeZone: string, file: ReadFile): Promise<void> {
  // Each record carries the number of the line it ends on as one more field (cheaper than
  // csv-parse's `info` object per record).
  const { parse } = await loadCsvParse();
  const parser = parse({
    bom: true,
    max_record_size: MAX_RECORD_CHARS,
    skip_empty_lines: true,
    on_record: (record: string[], context: { lines: number }) => {
      record.push(String(context.lines));
      return record;
    },
  });
  let columns: Record<(typeof REQUIRED)[number], number> | undefined;
  let optional: OptionalColumns | undefined;
  let lastLine = 0;

  const onRecord = (record: string[]): void => {
    const line = lastLine + 1;
    lastLine = Number(record.pop());
    if (columns === undefined) {
      const found = new Map(record.map((name, i) => [name.trim(), i]));
      const missing = REQUIRED.filter((name) => !found.has(name));
      if (missing.length > 0) {
        const lacks = missing.map((m) => `"${m}"`).join(', ');
        throw new ImportProblem('line 1', `not a Toggl Track detailed report: the header lacks ${lacks}`, { code: 'import_toggl_header', values: { missing: lacks } });
      }
      columns = Object.fromEntries(REQUIRED.map((name) => [name, found.get(name) as number])) as Record<(typeof REQUIRED)[number], number>;
      const amount = [...found.keys()].find((name) => /^Amount \([A-Za-z]{3}\)$/.test(name));
      optional = {
        client: found.get('Client'),
        tags: found.get('Tags'),
        billable: found.get('Billable'),
        duration: found.get('Duration'),
        amount: amount === undefined ? undefined : found.get(amount),
        currency: amount === undefined ? undefined : (amount.slice(8, 11).toUpperCase() as string),
      };
      if (optional.currency !== undefined && checkLedgerValue('line 1', 'currency', optional.currency) === null) optional.currency = undefined;
      return;
    }
    const c = columns as Record<(typeof REQUIRED)[number], number>;
    const o = optional as OptionalColumns;
    const place = `line ${line}`;
    const project = (record[c.Project] ?? '').trim();
    const description = (record[c.Description] ?? '').trim();
    const start = instants(place, 'the start', record[c['Start date']] ?? '', record[c['Start time']] ?? '', timeZone)[0] as number;
    const ends = instants(place, 'the end', record[c['End date']] ?? '', record[c['End time']] ?? '', timeZone);
    const end = ends.length === 1 || (ends[0] as number) >= start ? (ends[0] as number) : (ends.find((e) => e >= start) ?? (ends[0] as number));
    const activity = project || description || TOGGL_NO_PROJECT;
    const tagsText = cell(record, o.tags);
    const tags = tagsText === '' ? NO_TAGS : tagsText.split(',').map((t) => t.trim()).filter((t) => t !== '');
    const billableText = cell(record, o.billable).toLowerCase();
    const billable = billableText === 'yes' || billableText === 'true' ? true : billableText === 'no' || billableText === 'false' ? false : null;
    addForeignBlock(file, place, activity, start, end, project && description ? description : null, { tags, billable });
    // The activity's client and rate: the first row that says them (Toggl repeats them on every row).
    let known = file.foreign.ledger.get(activity);
    if (known === undefined) {
      known = {};
      file.foreign.ledger.set(activity, known);
    }
    const client = cell(record, o.client);
    if (client !== '' && known.client === undefined) {
      checkClientName(place, 'Client', client);
      known.client = client;
      if (o.currency !== undefined) known.currency = o.currency;
    }
    if (known.rate === undefined && billable === true && o.currency !== undefined) {
      const rate = rateFrom(cell(record, o.amount), cell(record, o.duration));
      if (rate !== undefined) {
        known.rate = rate;
        known.currency = o.currency;
      }
    }
  };

  // Records are taken as csv-parse emits them ('data'), without a promise per record.
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown): void => {
        if (failed) return;
        failed = true;
        input.unpipe(parser);
        parser.destroy();
        reject(error);
      };
      parser.on('data', (record: string[]) => {
        if (failed) return;
        try {
          onRecord(record);
        } catch (error) {
          fail(error);
        }
      });
      parser.on('error', fail);
      parser.on('end', resolve);
      input.on('error', fail);
      input.pipe(parser);
    });
  } catch (error) {
    if (error instanceof ImportProblem) throw error;
    const csv = error as CsvError & { lines?: number };
    if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) {
      const line = csv.lines ?? lastLine + 1;
      const reason =
        csv.code === 'CSV_QUOTE_NOT_CLOSED'
          ? 'a quoted field is never closed (the file is cut short, or a quote is missing)'
          : csv.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
            ? 'the row has a different number of fields than the header (the file is cut short, or a comma is unquoted)'
            : csv.message.replace(/ at line \d+\.?$/, '').replace(/^Invalid /, 'invalid ');
      const because: ImportReason =
        csv.code === 'CSV_QUOTE_NOT_CLOSED'
          ? { code: 'import_csv_quote' }
          : csv.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
            ? { code: 'import_csv_fields' }
            : { code: 'import_csv_other', values: { error: reason } };
      throw new ImportProblem(`line ${line}`, reason, because);
    }
    throw error;
  }
  if (columns === undefined) throw new ImportProblem('line 1', 'the file has no header row; it is not a Toggl Track detailed report', { code: 'import_toggl_no_header' });
}

/** A row without tags: one empty list for all of them. */
const NO_TAGS: readonly string[] = [];

/** The cell of an optional column, trimmed; empty when the file has no such column. */
function cell(record: readonly string[], i: number | undefined): string {
  return i === undefined ? '' : (record[i] ?? '').trim();
}

/** Toggl's columns an import uses when they are there (docs/data.md "The ledger"). */
interface OptionalColumns {
  client: number | undefined;
  tags: number | undefined;
  billable: number | undefined;
  duration: number | undefined;
  amount: number | undefined;
  /** From the header `Amount (USD)`: a currency Tock knows, or undefined. */
  currency: string | undefined;
}

/**
 * The hourly rate a billable row was billed at: its `Amount` over its `Duration` (`HH:MM:SS`),
 * exact in BigInt and rounded half-up to the cent (Toggl's rates are in cents); undefined when
 * either is missing, zero or unreadable.
 */
export function rateFrom(amount: string, duration: string): string | undefined {
  const a = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(amount.replaceAll(',', ''));
  const d = /^(\d{1,4}):(\d{2}):(\d{2})$/.exec(duration);
  if (!a || !d) return undefined;
  const seconds = BigInt(Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]));
  const units = BigInt(a[1] as string) * 10_000n + BigInt((a[2] ?? '').padEnd(4, '0'));
  if (seconds === 0n || units === 0n) return undefined;
  // Cents per hour = amount in 1/10 000 × 3600 / seconds / 100, half-up.
  const cents = (units * 3600n * 2n + seconds * 100n) / (seconds * 200n);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}
