/**
 * One calendar file read and parsed (docs/calendar.md), for calendars.ts: only a regular file, at
 * most a limit, parsed a slice at a time; what is refused or not understood is core's
 * `CalendarProblem` (a code and values) with its English line.
 */
import type { CalendarProblem, ParsedCalendar } from '@tock/core/calendar';
import { readRegular } from '@tock/sync/folder';

/** Core's calendar module (and ical.js with it), loaded on first use: an app without calendars never loads it. */
let loaded: typeof import('@tock/core/calendar') | undefined;
export async function calendarModule(): Promise<typeof import('@tock/core/calendar')> {
  loaded ??= await import('@tock/core/calendar');
  return loaded;
}

/** A file is parsed an event at a time, giving the event loop a turn at least this often (ms). */
export const PARSE_SLICE_MS = 20;

/**
 * Parses an `.ics` file's text one component at a time, with a turn of the event loop every
 * {@link PARSE_SLICE_MS}: a 10 MiB file takes seconds to parse, and the app answers meanwhile.
 */
async function parseInSlices(text: string): Promise<ParsedCalendar> {
  const { ParsedCalendar, splitCalendar } = await calendarModule();
  const problems: CalendarProblem[] = [];
  const calendar = new ParsedCalendar();
  let sliceStart = performance.now();
  for (const part of splitCalendar(text, problems)) {
    calendar.add(part);
    if (performance.now() - sliceStart >= PARSE_SLICE_MS) {
      await new Promise<void>((done) => setImmediate(done));
      sliceStart = performance.now();
    }
  }
  for (const problem of problems) calendar.note(problem);
  return calendar.finish();
}

/** Core's calendar module if it was loaded (a file read), else undefined. */
export function loadedCalendarModule(): typeof import('@tock/core/calendar') | undefined {
  return loaded;
}

/** One file as last read. */
export interface FileState {
  size: number;
  mtimeMs: number;
  parsed: ParsedCalendar | undefined;
  /** Why the file is not read: a code and values, and its English line. */
  problem: { reason: CalendarProblem; line: string } | undefined;
}

/**
 * Reads the file at `path` unless it is `before`'s (unchanged) and parses it once: at most
 * `limit` bytes (what is left of `total`, the bytes read over every calendar, or the size of one
 * file). A file refused by its size keeps no size and time, so it is looked at again.
 */
export async function readCalendarFile(path: string, limit: number, total: number, before: FileState | undefined): Promise<FileState> {
  const { CALENDAR_LIMITS, calendarProblemLine, CalendarFileError } = await calendarModule();
  const refused = (reason: CalendarProblem): FileState => ({ size: -1, mtimeMs: -1, parsed: undefined, problem: { reason, line: calendarProblemLine(reason) } });
  try {
    const result = await readRegular(path, { limit, unchanged: before });
    if (result.kind === 'unchanged' && before) return before;
    // Moved or deleted since it was added: the line says what to do about it.
    if (result.kind === 'missing') return refused({ code: 'calendar_file_missing', values: {} });
    if (result.kind === 'refused' && result.size !== undefined) {
      const single = result.size > CALENDAR_LIMITS.maxFileBytes;
      const over = single ? CALENDAR_LIMITS.maxFileBytes : total;
      const values = { kib: Math.ceil(result.size / 1024), limitKib: Math.ceil(over / 1024), size: result.size, limit: over };
      return refused({ code: single ? 'calendar_file_too_large' : 'calendar_total_too_large', values });
    }
    if (result.kind === 'refused') return refused({ code: 'calendar_not_regular', values: { kind: result.type ?? 'other' } });
    if (result.kind !== 'read') return refused({ code: 'calendar_unreadable', values: { error: 'unknown' } });
    try {
      const parsed = await parseInSlices(result.bytes.toString('utf8'));
      return { size: result.size, mtimeMs: result.mtimeMs, parsed, problem: undefined };
    } catch (error) {
      const reason: CalendarProblem = error instanceof CalendarFileError ? error.problem : { code: 'calendar_unreadable', values: { error: ((error as Error).message.split('\n')[0] ?? '').slice(0, 200) } };
      return { ...refused(reason), size: result.size, mtimeMs: result.mtimeMs };
    }
  } catch (error) {
    return refused({ code: 'calendar_unreadable', values: { error: (error as NodeJS.ErrnoException).code ?? 'error' } });
  }
}
