/**
 * The person's calendars (docs/calendar.md): `.ics` files and folders of them, named, kept in
 * the settings (`calendars`, and `calendarMe` the person's addresses), read — never written,
 * never fetched — and followed: a change is read again within 5 s (fs.watch with a debounce,
 * and a check every few seconds where watching is not possible). Each file is parsed once per
 * change by core's `ParsedCalendar` and kept; suggestions ask for the meetings of a day.
 *
 * Hostile files: only regular files are read (lstat, O_NOFOLLOW|O_NONBLOCK, fstat: a FIFO or a
 * link is refused), at most core's `CALENDAR_LIMITS.maxFileBytes` each; what is refused or not
 * understood is one line naming the file, in `tock calendar list` and the app's output, and beside
 * it its code and values (core's `CalendarProblem` with the file as `path`), which the window and
 * `tock` word in the person's language (docs/i18n.md).
 */
import type { Stats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { StepBudget } from '@tock/core/calendar';
import type { SettingsStore, TimedSpan } from '@tock/core';
import { ruleLine } from '@tock/protocol';
import { AdminError } from '../admin.ts';
import type { CalendarListing, CalendarProblemReason, CalendarSource } from '@tock/admin';
import { calendarModule, type FileState, loadedCalendarModule, readCalendarFile } from './calendar-file.ts';
import { type CalendarTimers, createFollower, nodeWatch, realTimers, type WatchFile } from './calendar-follow.ts';

export { type CalendarTimers, DEBOUNCE_MS, FALLBACK_CHECK_MS } from './calendar-follow.ts';

/** Declared once, in the admin contract (@tock/admin views.ts), which the handlers are typed by. */
export type { CalendarListing, CalendarProblemReason, CalendarSource } from '@tock/admin';

/** The settings keys (docs/data.md "Calendars"). */
export const CALENDAR_SETTINGS = { calendars: 'calendars', me: 'calendarMe' } as const;

/** At most this many `.ics` files are read from one folder. */
export const MAX_FOLDER_FILES = 20_000;

/** What {@link createCalendars} needs. */
export interface CalendarsOptions {
  settings: SettingsStore;
  timeZone: () => string;
  timers?: CalendarTimers;
  /** Watching files; tests pass one that throws to exercise the fallback check. */
  watchFile?: WatchFile;
  /** Told when a calendar was read again (the window and suggestions change). */
  onChange?: () => void;
  /** Each new problem line, once. */
  onProblem?: (line: string) => void;
  /** The bytes of files read over every calendar (default core's `CALENDAR_LIMITS.maxTotalBytes`; tests pass less). */
  maxTotalBytes?: number;
  newId?: () => string;
  /** Reads one file (default calendar-file.ts's); tests pass one that counts the event loop's turns between reads. */
  readFile?: typeof readCalendarFile;
}

/** What the app offers of calendars. */
export interface Calendars {
  list(): CalendarListing[];
  /** Adds the .ics file or folder at `path` as `name` (blank: the file's); both trimmed. */
  add(path: string, name?: string): Promise<CalendarListing>;
  remove(nameOrPath: string): CalendarSource;
  me(): string[];
  setMe(value: unknown): string[];
  /** The meetings of `[fromMs, toMs)` as `calendar` spans. */
  meetings(fromMs: number, toMs: number): TimedSpan[];
  /** Reads every calendar again where a file changed (what the watchers and the check call). */
  refresh(): Promise<void>;
  /** Starts following the files. */
  start(): Promise<void>;
  stop(): void;
}

/** The example of `calendarMe` its refusals give. */
const ME_EXAMPLE = '["ana@example.org"]';

function checkMe(value: unknown): string[] {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new AdminError(...ruleLine('calendarMe', { rule: 'calendarMeJson', values: { example: ME_EXAMPLE } }));
    }
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || parsed.length > 50 || parsed.some((a) => typeof a !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(a) || a.length > 254)) {
    throw new AdminError(...ruleLine('calendarMe', { rule: 'calendarMeList', values: { max: 50, example: ME_EXAMPLE } }));
  }
  return [...new Set((parsed as string[]).map((a) => a.toLowerCase()))];
}

/** Where the file or folder at `path` really is: its folder's real path and its name (a link itself is not followed). */
async function realFile(path: string): Promise<string> {
  const folder = await realpath(dirname(path)).catch(() => dirname(path));
  return join(folder, basename(path));
}

/**
 * The `lstat` of each path (none where it failed), many at a time: a folder of 20 000 files is
 * looked at again in well under the 5 s a change must be read in, where one file after another
 * (open, fstat, close each) took 6 s.
 */
async function statsOf(paths: readonly string[]): Promise<Map<string, Stats>> {
  const found = new Map<string, Stats>();
  for (let i = 0; i < paths.length; i += 64) {
    await Promise.all(
      paths.slice(i, i + 64).map(async (path) => {
        const stats = await lstat(path).catch(() => undefined);
        if (stats !== undefined) found.set(path, stats);
      }),
    );
  }
  return found;
}

/** One turn of the event loop: what else waits (a `/status`, a command) is answered before the next file is read. */
const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

/** Binds the calendars to the settings, the files and the timers. */
export function createCalendars(options: CalendarsOptions): Calendars {
  const follower = createFollower(options.timers ?? realTimers, options.watchFile ?? nodeWatch, () => void service.refresh());
  const readFile = options.readFile ?? readCalendarFile;
  const files = new Map<string, Map<string, FileState>>();
  /** Each calendar's files as read, by where they really are (its folder's real path and its name). */
  const reals = new Map<string, Set<string>>();
  /** The calendars whose path was a folder when last read (the others are files, whatever their name). */
  const folders = new Set<string>();
  const reported = new Set<string>();
  let started = false;
  let reading: Promise<void> = Promise.resolve();

  const sources = (): CalendarSource[] => {
    const kept = options.settings.get<CalendarSource[]>(CALENDAR_SETTINGS.calendars);
    return Array.isArray(kept) ? kept : [];
  };
  const me = (): string[] => {
    try {
      return checkMe(options.settings.get(CALENDAR_SETTINGS.me) ?? null);
    } catch {
      return [];
    }
  };

  const report = (line: string): void => {
    if (reported.has(line)) return;
    reported.add(line);
    options.onProblem?.(line);
  };

  /**
   * The `.ics` files of a calendar's path: the file itself, or a folder's (not its subfolders'),
   * each with where it really is (a link on the way followed; the file itself is never a link).
   */
  async function filesOf(source: CalendarSource): Promise<{ path: string; real: string }[]> {
    let stats: Awaited<ReturnType<typeof lstat>>;
    try {
      stats = await lstat(source.path);
    } catch {
      return [{ path: source.path, real: await realFile(source.path) }];
    }
    if (!stats.isDirectory()) {
      folders.delete(source.id);
      return [{ path: source.path, real: await realFile(source.path) }];
    }
    folders.add(source.id);
    const folder = await realpath(source.path).catch(() => source.path);
    const names = (await readdir(source.path).catch(() => [] as string[])).filter((n) => n.toLowerCase().endsWith('.ics')).sort();
    if (names.length > MAX_FOLDER_FILES) report(`${source.path}: more than ${MAX_FOLDER_FILES} .ics files; the first ${MAX_FOLDER_FILES} are read`);
    return names.slice(0, MAX_FOLDER_FILES).map((n) => ({ path: join(source.path, n), real: join(folder, n) }));
  }

  /**
   * The files read by the calendars listed before `source`: a file is read once, by the first
   * calendar that holds it (a file added alone and in an added folder too; docs/decisions.md).
   */
  function readBefore(source: CalendarSource): Set<string> {
    const before = new Set<string>();
    for (const other of sources()) {
      if (other.id === source.id) break;
      for (const real of reals.get(other.id) ?? []) before.add(real);
    }
    return before;
  }

  /**
   * The bytes of the files kept parsed of the calendars before `source` in the list (the calendars
   * after it as last read, until their turn): what `source`'s files may add to within the total.
   */
  function bytesBesides(source: CalendarSource): number {
    let bytes = 0;
    for (const other of sources()) {
      if (other.id === source.id) continue;
      for (const state of files.get(other.id)?.values() ?? []) if (state.parsed !== undefined) bytes += state.size;
    }
    return bytes;
  }

  /**
   * Reads the files of `source` that changed since last time; parses each once. A file that would
   * take the files kept parsed over every calendar past the total (docs/calendar.md "Limits") is
   * refused unread, like one over the size of a file.
   */
  async function read(source: CalendarSource): Promise<void> {
    const known = files.get(source.id) ?? new Map<string, FileState>();
    const next = new Map<string, FileState>();
    const { CALENDAR_LIMITS } = await calendarModule();
    const total = options.maxTotalBytes ?? CALENDAR_LIMITS.maxTotalBytes;
    let kept = bytesBesides(source);
    const taken = readBefore(source);
    const mine = new Set<string>();
    const paths = (await filesOf(source)).filter(({ real }) => !taken.has(real));
    const now = await statsOf(paths.filter(({ path }) => known.has(path)).map(({ path }) => path));
    for (const { path, real } of paths) {
      mine.add(real);
      const before = known.get(path);
      // What is left of the total is this file's limit too (refused by its size, unread, and looked at again once there is room).
      const limit = Math.min(CALENDAR_LIMITS.maxFileBytes, total - kept);
      const stats = now.get(path);
      // Unchanged since it was read (a regular file of its size and time): kept as it is, unopened.
      const same = before !== undefined && before.size >= 0 && before.size <= limit && stats?.isFile() === true && stats.size === before.size && stats.mtimeMs === before.mtimeMs;
      const state = same ? before : await readFile(path, limit, total, before);
      // A read file (its I/O, then its parse in slices) is all the loop is held for: a folder of
      // 20 000 files read for the first time takes seconds, and the app answers meanwhile.
      if (!same) await turn();
      next.set(path, state);
      if (state.parsed !== undefined) kept += state.size;
      if (state.problem !== undefined) report(`calendar ${source.name}: ${path} ${state.problem.line}`);
      for (const line of state.parsed?.problems ?? []) report(`calendar ${source.name}: ${path}: ${line}`);
    }
    files.set(source.id, next);
    reals.set(source.id, mine);
  }

  function listing(source: CalendarSource): CalendarListing {
    const read = files.get(source.id) ?? new Map<string, FileState>();
    let events = 0;
    const problems: string[] = [];
    const reasons: CalendarProblemReason[] = [];
    for (const [path, state] of read) {
      events += state.parsed?.events ?? 0;
      if (state.problem !== undefined) {
        problems.push(`${path} ${state.problem.line}`);
        reasons.push({ code: state.problem.reason.code, values: { ...state.problem.reason.values, path } });
      }
      const lines = state.parsed?.problems ?? [];
      for (const [i, problem] of (state.parsed?.found ?? []).entries()) {
        problems.push(`${path}: ${lines[i]}`);
        reasons.push({ code: problem.code, values: { ...problem.values, path } });
      }
    }
    return { ...source, events, problems: problems.slice(0, 20), reasons: reasons.slice(0, 20) };
  }

  /** The folder each calendar is followed through: a folder itself, a file (whatever its name) its folder. */
  function watched(): Map<string, string> {
    return new Map(sources().map((source) => [source.id, folders.has(source.id) ? source.path : dirname(source.path)]));
  }

  const service: Calendars = {
    list: () => sources().map(listing),
    async add(sent, name) {
      // Trimmed here, once, for both doors; a blank name is the file's.
      const path = sent.trim();
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
        throw new AdminError(...ruleLine('path', { rule: 'calendarAddress', values: { path } }));
      }
      if (!isAbsolute(path)) throw new AdminError(...ruleLine('path', { rule: 'calendarFullPath', values: { path } }));
      const full = resolve(path);
      let stats: Awaited<ReturnType<typeof lstat>>;
      try {
        stats = await lstat(full);
      } catch {
        throw new AdminError(...ruleLine('path', { rule: 'calendarMissing', values: { path: full } }));
      }
      if (!stats.isDirectory() && !stats.isFile()) throw new AdminError(...ruleLine('path', { rule: 'calendarNotFile', values: { path: full } }));
      const given = (name?.trim() || basename(full).replace(/\.ics$/i, '')).trim();
      if (given === '' || given.length > 100) throw new AdminError(...ruleLine('name', { rule: 'calendarName', values: { min: 1, max: 100 } }));
      const list = sources();
      // The same file or folder by another way to it (a link on the way) is the same calendar.
      const real = await realFile(full);
      const reached = await Promise.all(list.map(async (s) => ({ s, real: await realFile(s.path) })));
      if (list.some((s) => s.path === full) || reached.some((r) => r.real === real)) throw new AdminError(...ruleLine('path', { rule: 'calendarAdded', values: { path: full } }));
      // A file in an added folder is read with it already: adding it too would show its meetings
      // twice. Said before a taken name: the folder's own name is often the file's (Work/work.ics).
      const holder = stats.isDirectory() ? undefined : reached.find((r) => r.real === dirname(real));
      if (holder !== undefined) throw new AdminError(...ruleLine('path', { rule: 'calendarInFolder', values: { path: full, name: holder.s.name } }));
      if (list.some((s) => s.name.toLowerCase() === given.toLowerCase())) throw new AdminError(...ruleLine('name', { rule: 'calendarNameTaken', values: { name: given } }));
      const source: CalendarSource = { id: options.newId?.() ?? crypto.randomUUID(), name: given, path: full };
      options.settings.set(CALENDAR_SETTINGS.calendars, [...list, source]);
      await read(source);
      if (started) follower.follow(watched());
      options.onChange?.();
      return listing(source);
    },
    remove(which) {
      const list = sources();
      // A full path as `add` keeps it (`/a/b/` is `/a/b`), whichever door typed it, and one kept before it did.
      const path = isAbsolute(which.trim()) ? resolve(which.trim()) : undefined;
      const found = list.find((s) => s.path === which || (path !== undefined && resolve(s.path) === path) || s.name.toLowerCase() === which.toLowerCase());
      if (found === undefined) throw new AdminError(...ruleLine('calendar', { rule: 'noCalendar', values: { which } }));
      options.settings.set(
        CALENDAR_SETTINGS.calendars,
        list.filter((s) => s !== found),
      );
      files.delete(found.id);
      folders.delete(found.id);
      const freed = reals.get(found.id)?.size ?? 0;
      reals.delete(found.id);
      if (started) follower.follow(watched());
      options.onChange?.();
      // A file it read may be another calendar's to read now (its folder's).
      if (freed > 0 && list.length > 1) void service.refresh();
      return found;
    },
    me,
    setMe(value) {
      const addresses = checkMe(value);
      if (addresses.length === 0) options.settings.delete(CALENDAR_SETTINGS.me);
      else options.settings.set(CALENDAR_SETTINGS.me, addresses);
      options.onChange?.();
      return addresses;
    },
    meetings(fromMs, toMs) {
      const zone = options.timeZone();
      const mine = me();
      // One budget of recurrence steps for the whole ask, over every file of every calendar.
      // (A parsed file means the module is loaded.)
      const budget: StepBudget = loadedCalendarModule()?.stepBudget() ?? { left: 0 };
      const spans: TimedSpan[] = [];
      for (const source of sources()) {
        for (const [path, state] of files.get(source.id) ?? []) {
          if (state.parsed === undefined) continue;
          const known = state.parsed.found.length;
          const meetings = state.parsed.meetingsBetween(fromMs, toMs, zone, mine, budget);
          // A recurrence given up on is found while asking: said once, like the file's other problems.
          for (const line of state.parsed.problems.slice(known)) report(`calendar ${source.name}: ${path}: ${line}`);
          for (const m of meetings) {
            const startMs = Math.max(m.startMs, fromMs);
            const endMs = Math.min(m.endMs, toMs);
            spans.push({
              startMs,
              endMs,
              span: {
                start: new Date(startMs).toISOString(),
                end: new Date(endMs).toISOString(),
                source: 'calendar',
                app: source.name,
                title: m.summary === '' ? null : m.summary,
                project: null,
                branch: null,
                language: null,
                entity: null,
                editor: null,
                machine: null,
              },
            });
          }
        }
      }
      return spans;
    },
    refresh() {
      reading = reading.then(async () => {
        for (const source of sources()) await read(source);
        if (started) follower.followAgainIfMoved(watched());
        options.onChange?.();
      });
      return reading;
    },
    async start() {
      started = true;
      await service.refresh();
      follower.follow(watched());
    },
    stop() {
      started = false;
      follower.stop();
    },
  };
  return service;
}
