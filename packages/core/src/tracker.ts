/**
 * The tracking domain: what the user does (start, switch, break, resume, stop, log an entry,
 * edit and delete blocks, rename activities) and what they read (current activity, status,
 * search, blocks, daily totals). Every mutating method is one transaction. A running session
 * is a row with `ended_at` NULL, so it survives a restart and keeps its original start.
 * Time comes from the injected clock only.
 */

import {
  TockProblem,
  validationProblem,
  type ActivityRef,
  type Entry,
  type EntryRequest,
  type FieldProblem,
  type StartRequest,
  type StartResult,
  type Status,
  type StoppedSession,
} from '@tock/protocol';
import { wholeSeconds, type Block, type BreakSpan } from './blocks.ts';
import { assertTimeZone, systemTimeZone, type DayKey } from './day.ts';
import { toIso } from './instants.ts';
import { cleanName, nameKey, searchKey, wordKey } from './names.ts';
import {
  checkNotFuture,
  durationError,
  durationMs,
  noteError,
  readEntryRequest,
  readInstant,
  readStartRequest,
  type ActivityChoice,
  type InstantInput,
} from './requests.ts';
import { searchActivities } from './search.ts';
import type { Store } from './store.ts';
import { dailyTotals, dayIntervals, secondsInDay, type DailyTotal, type DayIntervals } from './totals.ts';

/** What {@link createTracker} needs. Only `store` is required. */
export interface TrackerOptions {
  store: Store;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** New IDs. Default `crypto.randomUUID` (UUID v4). */
  newId?: () => string;
  /** IANA zone that decides what "today" is. Default: the process's zone (`TZ`), read on each call. */
  timeZone?: string;
}

/** An activity as listed for the UI. */
export interface ActivityInfo extends ActivityRef {
  createdAt: string;
  /** Latest of its creation and the starts of its sessions and entries. */
  lastUsedAt: string;
}

/** Changes to a session; absent fields stay as they are. */
export interface SessionPatch {
  startedAt?: InstantInput;
  /** Setting it on the running session stops that session at that time. */
  endedAt?: InstantInput;
  activityID?: string;
}

/** Changes to an entry; absent fields stay as they are. The block is `[endedAt − duration, endedAt]`. */
export interface EntryPatch {
  activityID?: string;
  durationMinutes?: number;
  endedAt?: InstantInput;
  /** `null` removes the note. */
  note?: string | null;
}

/** An entry request as the tracker takes it: the wire request (docs/protocol.md "Endpoints"). */
export type LogEntryInput = EntryRequest & { endedAt?: string };

/** The tracking domain, bound to one store, clock and time zone. All methods are synchronous. */
export interface Tracker {
  /** The activity being tracked (on a break too), or null. */
  getCurrent(): ActivityRef | null;
  /** `GET /status`: tracking, break, current activity, today's worked seconds, the running session's start. */
  getStatus(): Status;
  /** `GET /activities/search`: best matches first (exact, prefix, word prefix, substring), ties by recent use. */
  searchActivities(q: string, limit: number): ActivityRef[];
  /** `POST /activities/start`: starts, switches to, or keeps the activity; ends a break. */
  startActivity(input: StartRequest): StartResult;
  /** `POST /activities/stop`: ends the running session (and its break); null when nothing runs. */
  stopActivity(): StoppedSession | null;
  /** `POST /entries`: logs a block of time that ended at `endedAt` (default now). */
  logEntry(input: LogEntryInput): Entry;
  /** Pauses the running session. */
  startBreak(): Status;
  /** Resumes the running session after a break. */
  resumeBreak(): Status;
  /** Every activity, by name. */
  listActivities(): ActivityInfo[];
  /** Creates an activity; its name must follow the name rules and be new (case-insensitively). */
  createActivity(name: string): ActivityRef;
  /** Renames an activity (a change of case or accents of its own name is allowed). */
  renameActivity(activityID: string, name: string): ActivityRef;
  /** Sessions (with breaks) and entries overlapping `[fromMs, toMs)`, by start. */
  listBlocks(fromMs: number, toMs: number): Block[];
  /** Changes a session's times or activity; breaks are clipped to its new span. */
  updateSession(sessionID: string, patch: SessionPatch): Block;
  /** Deletes a session and its breaks; false when there was none with that ID. */
  deleteSession(sessionID: string): boolean;
  /** Changes an entry's activity, duration, end or note. */
  updateEntry(entryID: string, patch: EntryPatch): Block;
  /** Deletes an entry; false when there was none with that ID. */
  deleteEntry(entryID: string): boolean;
  /** Worked seconds per local day and activity, `fromDay` to `toDay` included (`YYYY-MM-DD`). */
  dailyTotals(fromDay: DayKey, toDay: DayKey): DailyTotal[];
}

interface ActivityRow {
  id: string;
  name: string;
}

interface SessionRow {
  id: string;
  activityID: string;
  activityName: string;
  startedAt: number;
  endedAt: number | null;
}

interface EntryRow {
  id: string;
  activityID: string;
  activityName: string;
  startedAt: number;
  endedAt: number;
  note: string | null;
}

interface BreakRow {
  id: string;
  startedAt: number;
  endedAt: number | null;
}

const SESSION_COLUMNS = `s.id AS id, s.activity_id AS activityID, a.name AS activityName,
  s.started_at AS startedAt, s.ended_at AS endedAt`;
const ENTRY_COLUMNS = `e.id AS id, e.activity_id AS activityID, a.name AS activityName,
  e.started_at AS startedAt, e.ended_at AS endedAt, e.note AS note`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function nothingTracked(): TockProblem {
  return new TockProblem('validation_failed', 'nothing is being tracked; start an activity first');
}

function notFound(kind: 'session' | 'entry', id: string): TockProblem {
  return validationProblem([{ field: 'id', message: `no ${kind} with ID "${id}"` }]);
}

/**
 * Creates the tracker over an open store. Inject `clock`, `newId` and `timeZone` in tests;
 * the defaults are the real clock, `crypto.randomUUID` and the process's time zone.
 */
export function createTracker(options: TrackerOptions): Tracker {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  const newId = options.newId ?? (() => crypto.randomUUID());
  if (options.timeZone !== undefined) assertTimeZone(options.timeZone);
  const timeZone = (): string => options.timeZone ?? systemTimeZone();
  const now = (): number => Math.floor(clock());
  const q = store.statement;

  // ---- activities ----

  const activityById = (id: string): ActivityRow | undefined => {
    const key = UUID.test(id) ? id.toLowerCase() : id;
    return q('SELECT id, name FROM activities WHERE id = ?').get(key) as ActivityRow | undefined;
  };
  const activityByName = (name: string): ActivityRow | undefined =>
    q('SELECT id, name FROM activities WHERE name_key = ?').get(nameKey(name)) as ActivityRow | undefined;

  const insertActivity = (name: string, at: number): ActivityRow => {
    const id = newId();
    q(
      `INSERT INTO activities (id, name, name_key, search_key, word_key, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, name, nameKey(name), searchKey(name), wordKey(name), at, at);
    return { id, name };
  };

  const touchActivity = (id: string, at: number): void => {
    q('UPDATE activities SET last_used_at = max(last_used_at, ?) WHERE id = ?').run(at, id);
  };

  const activityNotFoundById = (id: string): TockProblem =>
    new TockProblem('activity_not_found', `no activity with ID "${id}"`);

  /** The activity a request is about, created when asked to; `created` tells whether it was. */
  const resolveActivity = (choice: ActivityChoice, at: number): { activity: ActivityRow; created: boolean } => {
    if ('activityID' in choice) {
      const activity = activityById(choice.activityID);
      if (!activity) throw activityNotFoundById(choice.activityID);
      return { activity, created: false };
    }
    const existing = activityByName(choice.name);
    if (existing) return { activity: existing, created: false };
    if (!choice.createIfMissing) {
      throw new TockProblem(
        'activity_not_found',
        `no activity named "${choice.name}"; pass createIfMissing to create it`,
      );
    }
    return { activity: insertActivity(choice.name, at), created: true };
  };

  const ref = (a: ActivityRow): ActivityRef => ({ activityID: a.id, activityName: a.name });

  // ---- sessions and breaks ----

  const runningSession = (): SessionRow | undefined =>
    q(
      `SELECT ${SESSION_COLUMNS} FROM sessions s JOIN activities a ON a.id = s.activity_id
       WHERE s.ended_at IS NULL`,
    ).get() as SessionRow | undefined;

  const sessionById = (id: string): SessionRow | undefined =>
    q(`SELECT ${SESSION_COLUMNS} FROM sessions s JOIN activities a ON a.id = s.activity_id WHERE s.id = ?`).get(
      id,
    ) as SessionRow | undefined;

  const openBreak = (): BreakRow | undefined =>
    q('SELECT id, started_at AS startedAt, ended_at AS endedAt FROM breaks WHERE ended_at IS NULL').get() as
      | BreakRow
      | undefined;

  const breaksOf = (sessionID: string): BreakRow[] =>
    q(
      `SELECT id, started_at AS startedAt, ended_at AS endedAt FROM breaks
       WHERE session_id = ? ORDER BY started_at`,
    ).all(sessionID) as unknown as BreakRow[];

  const endOpenBreak = (at: number): void => {
    q('UPDATE breaks SET ended_at = max(started_at, ?) WHERE ended_at IS NULL').run(at);
  };

  /** Worked ms of a session: its span minus its breaks, running parts counted up to `at`. */
  const workedMs = (session: SessionRow, breaks: BreakRow[], at: number): number => {
    const end = session.endedAt ?? Math.max(session.startedAt, at);
    let ms = end - session.startedAt;
    for (const b of breaks) ms -= (b.endedAt ?? Math.max(b.startedAt, at)) - b.startedAt;
    return ms;
  };

  const endSession = (session: SessionRow, at: number): StoppedSession => {
    const end = Math.max(session.startedAt, at);
    endOpenBreak(end);
    q('UPDATE sessions SET ended_at = ? WHERE id = ?').run(end, session.id);
    const ended = { ...session, endedAt: end };
    return {
      activityID: session.activityID,
      activityName: session.activityName,
      startedAt: toIso(session.startedAt),
      endedAt: toIso(end),
      seconds: wholeSeconds(workedMs(ended, breaksOf(session.id), end)),
    };
  };

  /**
   * What the status reads from the store, kept while the store's data and the local day stay
   * the same: clients poll `GET /status`, and between two writes its three queries would
   * return the same rows. Only the clock moves, and the total is counted from it on each call.
   */
  let statusRows:
    | { generation: number; timeZone: string; running: SessionRow | undefined; onBreak: boolean; today: DayIntervals }
    | undefined;

  const status = (at: number): Status => {
    const zone = timeZone();
    let rows = statusRows;
    if (rows === undefined || rows.generation !== store.generation || rows.timeZone !== zone || !(at >= rows.today.day.start && at < rows.today.day.end)) {
      const running = runningSession();
      const onBreak = running !== undefined && openBreak() !== undefined;
      const today = dayIntervals(store, at, zone);
      // Read after the queries: the first one may have committed an open group of writes.
      rows = { generation: store.generation, timeZone: zone, running, onBreak, today };
      statusRows = rows;
    }
    const { running } = rows;
    return {
      isTracking: running !== undefined,
      isOnBreak: rows.onBreak,
      currentActivity: running ? { activityID: running.activityID, activityName: running.activityName } : null,
      todaySeconds: secondsInDay(rows.today, at),
      since: running ? toIso(running.startedAt) : null,
    };
  };

  // ---- blocks ----

  const sessionBlock = (s: SessionRow, at: number): Block => {
    const breaks = breaksOf(s.id);
    return {
      id: s.id,
      kind: 'session',
      activity: { activityID: s.activityID, activityName: s.activityName },
      startedAt: toIso(s.startedAt),
      endedAt: s.endedAt === null ? null : toIso(s.endedAt),
      seconds: wholeSeconds(workedMs(s, breaks, at)),
      note: null,
      durationMinutes: null,
      breaks: breaks.map(
        (b): BreakSpan => ({ startedAt: toIso(b.startedAt), endedAt: b.endedAt === null ? null : toIso(b.endedAt) }),
      ),
    };
  };

  const entryBlock = (e: EntryRow): Block => ({
    id: e.id,
    kind: 'entry',
    activity: { activityID: e.activityID, activityName: e.activityName },
    startedAt: toIso(e.startedAt),
    endedAt: toIso(e.endedAt),
    seconds: wholeSeconds(e.endedAt - e.startedAt),
    note: e.note,
    durationMinutes: (e.endedAt - e.startedAt) / 60_000,
    breaks: [],
  });

  const entryById = (id: string): EntryRow | undefined =>
    q(`SELECT ${ENTRY_COLUMNS} FROM entries e JOIN activities a ON a.id = e.activity_id WHERE e.id = ?`).get(id) as
      | EntryRow
      | undefined;

  /** Makes a session's breaks fit inside `[start, end]` (end null: still running). */
  const clipBreaks = (sessionID: string, start: number, end: number | null): void => {
    for (const b of breaksOf(sessionID)) {
      const bStart = Math.max(b.startedAt, start);
      const bEnd = end === null ? b.endedAt : Math.min(b.endedAt ?? end, end);
      if (end !== null && bStart >= end) {
        q('DELETE FROM breaks WHERE id = ?').run(b.id);
      } else if (bEnd !== null && bEnd <= bStart) {
        q('DELETE FROM breaks WHERE id = ?').run(b.id);
      } else if (bStart !== b.startedAt || bEnd !== b.endedAt) {
        q('UPDATE breaks SET started_at = ?, ended_at = ? WHERE id = ?').run(bStart, bEnd, b.id);
      }
    }
  };

  const requireActivityID = (value: unknown, problems: FieldProblem[]): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length === 0) {
      problems.push({ field: 'activityID', message: 'must be an activity ID (a UUID string)' });
      return undefined;
    }
    return value;
  };

  return {
    getCurrent(): ActivityRef | null {
      const running = runningSession();
      return running ? { activityID: running.activityID, activityName: running.activityName } : null;
    },

    getStatus(): Status {
      return status(now());
    },

    searchActivities(text: string, limit: number): ActivityRef[] {
      return searchActivities(store, text ?? '', limit);
    },

    startActivity(input: StartRequest): StartResult {
      const choice = readStartRequest(input);
      return store.transaction(() => {
        const at = now();
        const { activity, created } = resolveActivity(choice, at);
        const running = runningSession();
        if (running && running.activityID === activity.id) {
          endOpenBreak(at);
          return {
            activityID: activity.id,
            activityName: activity.name,
            created: false,
            startedAt: toIso(running.startedAt),
          };
        }
        if (running) endSession(running, at);
        q('INSERT INTO sessions (id, activity_id, started_at, ended_at) VALUES (?, ?, ?, NULL)').run(
          newId(),
          activity.id,
          at,
        );
        touchActivity(activity.id, at);
        return { activityID: activity.id, activityName: activity.name, created, startedAt: toIso(at) };
      });
    },

    stopActivity(): StoppedSession | null {
      return store.transaction(() => {
        const running = runningSession();
        return running ? endSession(running, now()) : null;
      });
    },

    logEntry(input: LogEntryInput): Entry {
      return store.transaction(() => {
        const at = now();
        const checked = readEntryRequest(input, at);
        const { activity, created } = resolveActivity(checked.activity, at);
        const startedAt = checked.endedAtMs - checked.durationMs;
        const id = newId();
        q('INSERT INTO entries (id, activity_id, started_at, ended_at, note, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
          id,
          activity.id,
          startedAt,
          checked.endedAtMs,
          checked.note,
          at,
        );
        touchActivity(activity.id, startedAt);
        return {
          entryID: id,
          activity: ref(activity),
          created,
          startedAt: toIso(startedAt),
          endedAt: toIso(checked.endedAtMs),
          durationMinutes: checked.durationMs / 60_000,
          note: checked.note,
        };
      });
    },

    startBreak(): Status {
      return store.transaction(() => {
        const at = now();
        const running = runningSession();
        if (!running) throw nothingTracked();
        if (openBreak()) throw new TockProblem('validation_failed', 'already on a break; resume first');
        q('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, NULL)').run(
          newId(),
          running.id,
          Math.max(at, running.startedAt),
        );
        return status(at);
      });
    },

    resumeBreak(): Status {
      return store.transaction(() => {
        const at = now();
        if (!runningSession()) throw nothingTracked();
        if (!openBreak()) throw new TockProblem('validation_failed', 'not on a break; nothing to resume');
        endOpenBreak(at);
        return status(at);
      });
    },

    listActivities(): ActivityInfo[] {
      const rows = q(
        `SELECT id, name, created_at AS createdAt, last_used_at AS lastUsedAt FROM activities ORDER BY name_key, id`,
      ).all() as unknown as { id: string; name: string; createdAt: number; lastUsedAt: number }[];
      return rows.map((r) => ({
        activityID: r.id,
        activityName: r.name,
        createdAt: toIso(r.createdAt),
        lastUsedAt: toIso(r.lastUsedAt),
      }));
    },

    createActivity(name: string): ActivityRef {
      const clean = cleanName(name);
      return store.transaction(() => {
        const existing = activityByName(clean);
        if (existing) {
          throw validationProblem([{ field: 'name', message: `an activity named "${existing.name}" already exists` }]);
        }
        return ref(insertActivity(clean, now()));
      });
    },

    renameActivity(activityID: string, name: string): ActivityRef {
      const clean = cleanName(name);
      return store.transaction(() => {
        const activity = activityById(String(activityID));
        if (!activity) throw activityNotFoundById(String(activityID));
        const other = activityByName(clean);
        if (other && other.id !== activity.id) {
          throw validationProblem([{ field: 'name', message: `an activity named "${other.name}" already exists` }]);
        }
        q('UPDATE activities SET name = ?, name_key = ?, search_key = ?, word_key = ? WHERE id = ?').run(
          clean,
          nameKey(clean),
          searchKey(clean),
          wordKey(clean),
          activity.id,
        );
        return { activityID: activity.id, activityName: clean };
      });
    },

    listBlocks(fromMs: number, toMs: number): Block[] {
      if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || fromMs > toMs) {
        throw validationProblem([{ field: 'toMs', message: 'must be a time at or after fromMs' }]);
      }
      const at = now();
      const sessions = q(
        `SELECT ${SESSION_COLUMNS} FROM sessions s JOIN activities a ON a.id = s.activity_id
          WHERE s.ended_at > ?1 AND +s.started_at < ?2
         UNION ALL
         SELECT ${SESSION_COLUMNS} FROM sessions s JOIN activities a ON a.id = s.activity_id
          WHERE s.ended_at IS NULL AND s.started_at < ?2`,
      ).all(fromMs, toMs) as unknown as SessionRow[];
      const entries = q(
        `SELECT ${ENTRY_COLUMNS} FROM entries e JOIN activities a ON a.id = e.activity_id
          WHERE e.ended_at > ?1 AND e.ended_at < ?3 AND +e.started_at < ?2`,
      ).all(fromMs, toMs, toMs + 24 * 3_600_000) as unknown as EntryRow[];
      const blocks = [...sessions.map((s) => sessionBlock(s, at)), ...entries.map(entryBlock)];
      return blocks.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
    },

    updateSession(sessionID: string, patch: SessionPatch): Block {
      return store.transaction(() => {
        const at = now();
        const session = sessionById(sessionID);
        if (!session) throw notFound('session', sessionID);
        const problems: FieldProblem[] = [];
        const fields = (patch ?? {}) as Record<string, unknown>;
        const start =
          fields.startedAt === undefined ? session.startedAt : readInstant(fields.startedAt, 'startedAt', problems);
        const end =
          fields.endedAt === undefined || fields.endedAt === null
            ? session.endedAt
            : readInstant(fields.endedAt, 'endedAt', problems);
        const activityID = requireActivityID(fields.activityID ?? undefined, problems);
        if (start !== undefined) checkNotFuture(start, at, 'startedAt', problems);
        if (end !== undefined && end !== null) checkNotFuture(end, at, 'endedAt', problems);
        if (start !== undefined && end !== undefined && end !== null && end < start) {
          problems.push({ field: 'endedAt', message: 'must not be before startedAt' });
        }
        if (problems.length > 0 || start === undefined || end === undefined) throw validationProblem(problems);
        let activity: ActivityRow = { id: session.activityID, name: session.activityName };
        if (activityID !== undefined) {
          const found = activityById(activityID);
          if (!found) throw activityNotFoundById(activityID);
          activity = found;
        }
        clipBreaks(session.id, start, end);
        if (end !== null) endOpenBreakOf(session.id, end);
        q('UPDATE sessions SET started_at = ?, ended_at = ?, activity_id = ? WHERE id = ?').run(
          start,
          end,
          activity.id,
          session.id,
        );
        touchActivity(activity.id, start);
        return sessionBlock({ ...session, startedAt: start, endedAt: end, activityID: activity.id, activityName: activity.name }, at);
      });
    },

    deleteSession(sessionID: string): boolean {
      return store.transaction(() => Number(q('DELETE FROM sessions WHERE id = ?').run(sessionID).changes) > 0);
    },

    updateEntry(entryID: string, patch: EntryPatch): Block {
      return store.transaction(() => {
        const at = now();
        const entry = entryById(entryID);
        if (!entry) throw notFound('entry', entryID);
        const problems: FieldProblem[] = [];
        const fields = (patch ?? {}) as Record<string, unknown>;
        const activityID = requireActivityID(fields.activityID ?? undefined, problems);
        let duration = entry.endedAt - entry.startedAt;
        if (fields.durationMinutes !== undefined) {
          const error = durationError(fields.durationMinutes);
          if (error !== undefined) problems.push({ field: 'durationMinutes', message: error });
          else duration = durationMs(fields.durationMinutes as number);
        }
        const end = fields.endedAt === undefined ? entry.endedAt : readInstant(fields.endedAt, 'endedAt', problems);
        if (end !== undefined && fields.endedAt !== undefined) checkNotFuture(end, at, 'endedAt', problems);
        const noteProblem = noteError(fields.note);
        if (noteProblem !== undefined) problems.push({ field: 'note', message: noteProblem });
        if (problems.length > 0 || end === undefined) throw validationProblem(problems);
        const note = fields.note === undefined ? entry.note : (fields.note as string | null);
        let activity: ActivityRow = { id: entry.activityID, name: entry.activityName };
        if (activityID !== undefined) {
          const found = activityById(activityID);
          if (!found) throw activityNotFoundById(activityID);
          activity = found;
        }
        const start = end - duration;
        q('UPDATE entries SET activity_id = ?, started_at = ?, ended_at = ?, note = ? WHERE id = ?').run(
          activity.id,
          start,
          end,
          note,
          entry.id,
        );
        touchActivity(activity.id, start);
        return entryBlock({ id: entry.id, activityID: activity.id, activityName: activity.name, startedAt: start, endedAt: end, note });
      });
    },

    deleteEntry(entryID: string): boolean {
      return store.transaction(() => Number(q('DELETE FROM entries WHERE id = ?').run(entryID).changes) > 0);
    },

    dailyTotals(fromDay: DayKey, toDay: DayKey): DailyTotal[] {
      try {
        return dailyTotals(store, fromDay, toDay, now(), timeZone());
      } catch (error) {
        if (error instanceof RangeError) throw validationProblem([{ field: 'day', message: error.message }]);
        throw error;
      }
    },
  };

  function endOpenBreakOf(sessionID: string, at: number): void {
    q('UPDATE breaks SET ended_at = max(started_at, ?) WHERE session_id = ? AND ended_at IS NULL').run(at, sessionID);
  }
}
