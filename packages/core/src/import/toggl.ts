/**
 * Toggl Track's detailed-report CSV (docs/data.md "Import"): a header row naming at least
 * `Project`, `Description`, `Start date`, `Start time`, `End date`, `End time`; dates
 * `YYYY-MM-DD`, times `HH:MM:SS` on the wall clock of the zone given. Parsed by csv-parse
 * as RFC 4180 (quoted fields, embedded newlines, a byte-order mark), record by record.
 */

import type { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { addForeignBlock, type ReadFile } from './blocks.ts';
import { wallTimeInstants } from './local-time.ts';
import { ImportProblem } from './problem.ts';

/** The columns an import needs, as Toggl names them. */
const REQUIRED = ['Project', 'Description', 'Start date', 'Start time', 'End date', 'End time'] as const;

/** Activity name for a row with neither a project nor a description. */
export const TOGGL_NO_PROJECT = 'No project';

/** The largest CSV record taken, in characters (a row is a few hundred). */
const MAX_RECORD_CHARS = 1 << 20;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** True when `head` (the start of a file) looks like a Toggl CSV header. */
export function looksLikeToggl(head: string): boolean {
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return /(^|,)"?Start date"?(,|$)/.test(firstLine) && /(^|,)"?Project"?(,|$)/.test(firstLine);
}

/** A date and time cell pair read in `timeZone`; every reading of it (see wallTimeInstants). */
function instants(place: string, what: string, date: string, time: string, timeZone: string): number[] {
  const d = DATE.exec(date.trim());
  const t = TIME.exec(time.trim());
  if (!d) throw new ImportProblem(place, `${what} date "${date}" is not a date YYYY-MM-DD`);
  if (!t) throw new ImportProblem(place, `${what} time "${time}" is not a time HH:MM:SS`);
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [hour, minute, second] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new ImportProblem(place, `${what} "${date} ${time}" is not a date and time of the calendar`);
  }
  const found = wallTimeInstants(year, month, day, hour, minute, second, timeZone);
  if (found.length === 0) {
    throw new ImportProblem(
      place,
      `${what} ${date} ${time} does not exist in ${timeZone} (the clocks skipped it); check --tz, or fix the time in the file`,
    );
  }
  return found;
}

/**
 * Reads a Toggl CSV from `input` into `file`, in `timeZone`. Activity = `Project`, or
 * `Description` when there is no project; note = `Description` when there is one. A time
 * the clock showed twice (fall-back) is read as its first instant, except an end that only
 * its second reading puts after the start.
 */
export async function readToggl(input: Readable, timeZone: string, file: ReadFile): Promise<void> {
  const parser = parse({ bom: true, info: true, max_record_size: MAX_RECORD_CHARS, skip_empty_lines: true });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let columns: Map<string, number> | undefined;
  let lastLine = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const place = `line ${lastLine + 1}`;
      lastLine = info.lines;
      if (columns === undefined) {
        columns = new Map(record.map((name, i) => [name.trim(), i]));
        const missing = REQUIRED.filter((name) => !columns?.has(name));
        if (missing.length > 0) {
          throw new ImportProblem(
            'line 1',
            `not a Toggl Track detailed report: the header lacks ${missing.map((m) => `"${m}"`).join(', ')}`,
          );
        }
        continue;
      }
      const cell = (name: (typeof REQUIRED)[number]): string => record[columns?.get(name) as number] ?? '';
      const project = cell('Project').trim();
      const description = cell('Description').trim();
      const start = instants(place, 'the start', cell('Start date'), cell('Start time'), timeZone)[0] as number;
      const ends = instants(place, 'the end', cell('End date'), cell('End time'), timeZone);
      const end = ends.find((e) => e >= start) ?? (ends[0] as number);
      addForeignBlock(file, {
        place,
        activity: project || description || TOGGL_NO_PROJECT,
        start,
        end,
        note: project && description ? description : null,
      });
    }
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
      throw new ImportProblem(`line ${line}`, reason);
    }
    throw error;
  } finally {
    input.unpipe(parser);
  }
  if (columns === undefined) throw new ImportProblem('line 1', 'the file has no header row; it is not a Toggl Track detailed report');
}
