/**
 * The tracking domain: what the user does (start, switch, break, resume, stop, log an entry,
 * edit and delete blocks, rename activities) and what they read (current activity, status,
 * search, blocks, daily totals). This file binds the store, clock, ID source and time zone
 * and makes every mutating method one transaction; the work itself is in activities.ts,
 * sessions.ts and entries.ts, the row shapes in rows.ts. Time comes from the injected clock
 * only, read inside the transaction.
 */

import type { ActivityRef, Entry, StartRequest, StartResult, Status, StoppedSession } from '@tock/protocol';
import { ruleProblem, validationProblem } from '@tock/protocol';
import { createActivity, listActivities, renameActivity } from './activities.ts';
import { addBreak, deleteBreak, updateBreak, type BreakPatch, type NewBreak } from './breaks.ts';
import type { Block } from './blocks.ts';
import { assertTimeZone, DayKeyError, type DayKey } from './day.ts';
import { deleteEntry, entryBlocksOverlapping, logEntry, updateEntry, type EntryPatch, type LogEntryInput } from './entries.ts';
import { toIso } from './instants.ts';
import { newRowId, type NewId } from './ids.ts';
import { cleanName } from './names.ts';
import { readStartRequest } from './requests.ts';
import { lastContinuableActivity } from './idle-time.ts';
import { readMinSessionSeconds } from './ledger-settings.ts';
import type { SessionRow } from './rows.ts';
import { searchActivities } from './search.ts';
import { sessionBlocksOverlapping } from './session-blocks.ts';
import {
  deleteSession,
  continuableName,
  droppedResumable,
  openBreak,
  resumeBreak,
  runningSession,
  startBreak,
  resumeStopped,
  startSession,
  stopSession,
  updateSession,
  type DroppedSession,
  type EndedSession,
  type SessionPatch,
} from './sessions.ts';
import type { Store } from './store.ts';
import type { ActivityInfo, DailyTotal } from './shapes/activities.ts';
import { dailyTotals, dayIntervals, secondsInDay, type DayIntervals } from './totals.ts';
import { systemTimeZone } from './zone.ts';

/** The shapes the tracker's methods take and give, defined beside their use cases. */
export type { ActivityInfo } from './shapes/activities.ts';
export type { EntryPatch, LogEntryInput } from './entries.ts';
export type { SessionPatch } from './sessions.ts';
export type { BreakPatch, NewBreak } from './breaks.ts';

/** What {@link createTracker} needs. Only `store` is required. */
export interface TrackerOptions {
  store: Store;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** New IDs. Default {@link newRowId}: random (UUID v4), an entry's time-ordered (v7, its start). */
  newId?: NewId;
  /** IANA zone that decides what "today" is. Default: the process's zone (`TZ`), read on each call. */
  timeZone?: string;
}

/** The tracking domain, bound to one store, clock and time zone. All methods are synchronous. */
export interface Tracker {
  /** The activity being tracked (on a break too), or null. */
  getCurrent(): ActivityRef | null;
  /**
   * `GET /status`: tracking, break, current activity, today's worked seconds, the running
   * session's start. Frozen, and the very same object again while nothing in it changed (no
   * write, the same whole second of today's total): callers copy it to change it.
   */
  getStatus(): Status;
  /**
   * Whether a session runs and whether it is on a break: the part of {@link getStatus} that
   * costs two indexed reads, without today's total (counted again after every write).
   */
  getTracking(): { isTracking: boolean; isOnBreak: boolean };
  /** `GET /activities/search`: best matches first (exact, prefix, word prefix, substring), ties by recent use. */
  searchActivities(q: string, limit: number): ActivityRef[];
  /** `POST /activities/start`: starts, switches to, or keeps the activity; ends a break. */
  startActivity(input: StartRequest): StartResult;
  /**
   * `POST /activities/stop`: ends the running session (and its break); null when nothing runs.
   * A session shorter than the setting `minSessionSeconds` without a note is not kept (a switch
   * by `startActivity` ends the running one the same way).
   */
  stopActivity(): StoppedSession | null;
  /**
   * `tock continue`, the window's and the tray's *Continue*: within 60 s of a stop (nothing
   * tracked since) resumes that session, the gap a break; else starts the activity tracked last
   * again. Null when nothing was ever tracked.
   */
  continueLast(): StartResult | null;
  /**
   * The activity {@link continueLast} would start or resume now (for a *Continue* button's
   * label): a crumb the last stop dropped within the minute, else the activity tracked last.
   */
  continueCandidate(): ActivityRef | null;
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
  /** Changes a session's times, activity or note; refused when a break would end up outside it. */
  updateSession(sessionID: string, patch: SessionPatch): Block;
  /** Adds a break with both ends to a session; answers the session. */
  addBreak(sessionID: string, input: NewBreak): Block;
  /** Moves a break, or ends the break that is on earlier; answers its session. */
  updateBreak(breakID: string, patch: BreakPatch): Block;
  /** Deletes a break (its time counts again); false when there was none with that ID. */
  deleteBreak(breakID: string): boolean;
  /** Deletes a session and its breaks; false when there was none with that ID. */
  deleteSession(sessionID: string): boolean;
  /** Changes an entry's activity, duration, end or note. */
  updateEntry(entryID: string, patch: EntryPatch): Block;
  /** Deletes an entry; false when there was none with that ID. */
  deleteEntry(entryID: string): boolean;
  /** Worked seconds per local day and activity, `fromDay` to `toDay` included (`YYYY-MM-DD`). */
  dailyTotals(fromDay: DayKey, toDay: DayKey): DailyTotal[];
}

/**
 * What the status reads from the store, kept while the store's data and the local day stay
 * the same: clients poll `GET /status`, and between two writes its three queries would
 * return the same rows. Only the clock moves, and the total is counted from it on each call.
 */
interface StatusRows {
  generation: number;
  timeZone: string;
  running: SessionRow | undefined;
  /** The running session's start as ISO 8601 (formatting it per call cost as much as the rest). */
  since: string | null;
  /** The running session's activity, frozen (null when none runs). */
  currentActivity: Status['currentActivity'];
  onBreak: boolean;
  today: DayIntervals;
  /**
   * The last status made from these rows, frozen: handed out again while its total is still
   * right, so a poller gets the very same object (and the listener the same bytes, see its
   * `successBody`) until the next second, write or day.
   */
  last: Status | undefined;
  /**
   * The whole second of the clock `last` was counted for. Today's total depends on the clock
   * only through its whole second (`secondsInDay` counts whole seconds), so within that second
   * `last` is handed out without counting again: counting joins the running session's spans
   * (arrays per call), which was most of a cached status's cost (bench/README.md, figure 1b).
   */
  lastSecond: number;
}

/**
 * Creates the tracker over an open store. Inject `clock`, `newId` and `timeZone` in tests;
 * the defaults are the real clock, {@link newRowId} and the process's time zone.
 */
export function createTracker(options: TrackerOptions): Tracker {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  const newId = options.newId ?? newRowId;
  if (options.timeZone !== undefined) assertTimeZone(options.timeZone);
  const timeZone = (): string => options.timeZone ?? systemTimeZone();
  const now = (): number => Math.floor(clock());

  let statusRows: StatusRows | undefined;
  /** The last {@link Tracker.getTracking} answer and the store generation it was read at. */
  let tracking: { generation: number; value: Readonly<{ isTracking: boolean; isOnBreak: boolean }> } | undefined;
  // The crumb the last stop or switch dropped, for a continue within the minute after it.
  let dropped: DroppedSession | undefined;
  const ended = (end: EndedSession | null): void => {
    if (end !== null) dropped = end.dropped ?? undefined;
  };
  const minSeconds = (): number => readMinSessionSeconds(store.settings);

  const status = (at: number): Status => {
    const zone = timeZone();
    let rows = statusRows;
    if (
      rows === undefined ||
      rows.generation !== store.generation ||
      rows.timeZone !== zone ||
      !(at >= rows.today.day.start && at < rows.today.day.end)
    ) {
      const running = runningSession(store);
      const onBreak = running !== undefined && openBreak(store) !== undefined;
      const today = dayIntervals(store, at, zone);
      // Read after the queries: the first one may have committed an open group of writes.
      const since = running ? toIso(running.startedAt) : null;
      const currentActivity = running ? Object.freeze({ activityID: running.activityID, activityName: running.activityName }) : null;
      rows = { generation: store.generation, timeZone: zone, running, since, currentActivity, onBreak, today, last: undefined, lastSecond: Number.NaN };
      statusRows = rows;
    }
    const second = Math.floor(at / 1000);
    if (rows.last !== undefined && rows.lastSecond === second) return rows.last;
    rows.lastSecond = second;
    const todaySeconds = secondsInDay(rows.today, at);
    if (rows.last !== undefined && rows.last.todaySeconds === todaySeconds) return rows.last;
    const { running, onBreak, currentActivity, since } = rows;
    rows.last = Object.freeze({ isTracking: running !== undefined, isOnBreak: onBreak, currentActivity, todaySeconds, since });
    return rows.last;
  };

  return {
    getCurrent(): ActivityRef | null {
      const running = runningSession(store);
      return running ? { activityID: running.activityID, activityName: running.activityName } : null;
    },

    getStatus(): Status {
      return status(now());
    },

    getTracking(): { isTracking: boolean; isOnBreak: boolean } {
      // Asked after every write by more than one look (the desktop's wakes, the budgets): the
      // store's data decide it alone, so one answer serves them all until the next write.
      if (tracking !== undefined && tracking.generation === store.generation) return tracking.value;
      // The status's rows when they are current, else the two reads.
      const rows = statusRows?.generation === store.generation ? statusRows : undefined;
      const running = rows ? rows.running : runningSession(store);
      const isOnBreak = rows ? rows.onBreak : running !== undefined && openBreak(store) !== undefined;
      const value = Object.freeze({ isTracking: running !== undefined, isOnBreak });
      // Read after the queries: the first one may have committed an open group of writes.
      tracking = { generation: store.generation, value };
      return value;
    },

    searchActivities(text: string, limit: number): ActivityRef[] {
      return searchActivities(store, text ?? '', limit);
    },

    startActivity(input: StartRequest): StartResult {
      const start = readStartRequest(input);
      return store.transaction(() => startSession(store, start, now(), newId, minSeconds(), ended));
    },

    stopActivity(): StoppedSession | null {
      return store.transaction(() => {
        const end = stopSession(store, now(), minSeconds());
        ended(end);
        return end?.stopped ?? null;
      });
    },

    continueLast(): StartResult | null {
      return store.transaction(() => {
        const at = now();
        const resumed = resumeStopped(store, at, dropped, newId);
        dropped = undefined;
        if (resumed !== null) return resumed;
        const last = lastContinuableActivity(store);
        if (last === null) return null;
        return startSession(store, readStartRequest({ activityID: last.activityID }), at, newId, minSeconds(), ended);
      });
    },

    logEntry(input: LogEntryInput): Entry {
      return store.transaction(() => logEntry(store, input, now(), newId));
    },

    startBreak(): Status {
      return store.transaction(() => {
        const at = now();
        startBreak(store, at, newId);
        return status(at);
      });
    },

    resumeBreak(): Status {
      return store.transaction(() => {
        const at = now();
        resumeBreak(store, at);
        return status(at);
      });
    },

    continueCandidate(): ActivityRef | null {
      if (dropped !== undefined && droppedResumable(store, now(), dropped)) {
        const name = continuableName(store, dropped.activityID);
        if (name !== undefined) return { activityID: dropped.activityID, activityName: name };
      }
      const last = lastContinuableActivity(store);
      return last === null ? null : { activityID: last.activityID, activityName: last.activityName };
    },

    listActivities(): ActivityInfo[] {
      return listActivities(store);
    },

    createActivity(name: string): ActivityRef {
      const clean = cleanName(name);
      return store.transaction(() => createActivity(store, clean, now(), newId));
    },

    renameActivity(activityID: string, name: string): ActivityRef {
      const clean = cleanName(name);
      return store.transaction(() => renameActivity(store, String(activityID), clean));
    },

    listBlocks(fromMs: number, toMs: number): Block[] {
      if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || fromMs > toMs) {
        throw validationProblem([ruleProblem('toMs', { rule: 'atOrAfter', values: { other: 'fromMs' } })]);
      }
      // Sessions first, then entries: of two blocks that start together, the sort (stable) keeps that order.
      const blocks = [...sessionBlocksOverlapping(store, fromMs, toMs, now()), ...entryBlocksOverlapping(store, fromMs, toMs)];
      return blocks.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
    },

    updateSession(sessionID: string, patch: SessionPatch): Block {
      return store.transaction(() => updateSession(store, sessionID, patch, now(), timeZone()));
    },

    addBreak(sessionID: string, input: NewBreak): Block {
      return store.transaction(() => addBreak(store, sessionID, input, now(), newId, timeZone()));
    },

    updateBreak(breakID: string, patch: BreakPatch): Block {
      return store.transaction(() => updateBreak(store, breakID, patch, now(), timeZone()));
    },

    deleteBreak(breakID: string): boolean {
      return store.transaction(() => deleteBreak(store, breakID));
    },

    deleteSession(sessionID: string): boolean {
      return store.transaction(() => deleteSession(store, sessionID));
    },

    updateEntry(entryID: string, patch: EntryPatch): Block {
      return store.transaction(() => updateEntry(store, entryID, patch, now()));
    },

    deleteEntry(entryID: string): boolean {
      return store.transaction(() => deleteEntry(store, entryID));
    },

    dailyTotals(fromDay: DayKey, toDay: DayKey): DailyTotal[] {
      try {
        return dailyTotals(store, fromDay, toDay, now(), timeZone());
      } catch (error) {
        // A day that cannot be read by its rule beside the English (docs/i18n.md); any other RangeError as it came.
        if (error instanceof DayKeyError) throw validationProblem([ruleProblem('day', error.rule)]);
        if (error instanceof RangeError) throw validationProblem([{ field: 'day', message: error.message }]);
        throw error;
      }
    },
  };
}
