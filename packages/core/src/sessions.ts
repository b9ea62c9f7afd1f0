/**
 * Sessions and their breaks: starting, switching, stopping, pausing and resuming the one
 * running session (a row with `ended_at` NULL, so it survives a restart and keeps its start),
 * and editing or deleting a session afterwards. Callers own the transaction and the clock:
 * every function takes the instant `at` it acts at.
 */

import {
  Problem,
  ruleLine,
  ruleProblem,
  validationProblem,
  type FieldProblem,
  type StartResult,
  type StoppedSession,
} from '@tock/protocol';
import { readActivityID, requireActivity, resolveActivity, touchActivity } from './activities.ts';
import { wholeSeconds, type Block } from './blocks.ts';
import { localDateTime } from './day.ts';
import { toIso } from './instants.ts';
import { checkNotFuture, noteProblem, readInstant, type CheckedStart, type InstantInput } from './requests.ts';
import {
  BREAK_COLUMNS,
  SESSION_COLUMNS,
  blockNotFound,
  sessionBlock,
  workedMs,
  type ActivityRow,
  type BreakRow,
  type SessionRow,
} from './rows.ts';
import type { Store } from './store.ts';

/** Changes to a session; absent fields stay as they are. */
export interface SessionPatch {
  startedAt?: InstantInput;
  /** Setting it on the running session stops that session at that time. */
  endedAt?: InstantInput;
  activityID?: string;
  /** The session's note; `null` removes it (docs/product.md "Notes on sessions"). */
  note?: string | null;
}

const FROM_SESSIONS = 'FROM sessions s JOIN activities a ON a.id = s.activity_id';

/** The running session, if any (at most one has `ended_at` NULL). */
export function runningSession(store: Store): SessionRow | undefined {
  return store.statement(`SELECT ${SESSION_COLUMNS} ${FROM_SESSIONS} WHERE s.ended_at IS NULL`).get() as
    | SessionRow
    | undefined;
}

/** The session with that ID, if any. */
export function sessionById(store: Store, id: string): SessionRow | undefined {
  return store.statement(`SELECT ${SESSION_COLUMNS} ${FROM_SESSIONS} WHERE s.id = ?`).get(id) as
    | SessionRow
    | undefined;
}

/** The break that is on, if any (only the running session can have one). */
export function openBreak(store: Store): BreakRow | undefined {
  return store.statement(`SELECT ${BREAK_COLUMNS} FROM breaks WHERE ended_at IS NULL`).get() as BreakRow | undefined;
}

/** A session's breaks, by start. */
export function breaksOf(store: Store, sessionID: string): BreakRow[] {
  return store
    .statement(`SELECT ${BREAK_COLUMNS} FROM breaks WHERE session_id = ? ORDER BY started_at`)
    .all(sessionID) as unknown as BreakRow[];
}

/** Ends the break that is on, at `at` or its start if that is later. */
function endOpenBreak(store: Store, at: number): void {
  store.statement('UPDATE breaks SET ended_at = max(started_at, ?) WHERE ended_at IS NULL').run(at);
}

/** How long after a stop `tock continue` resumes the stopped session (docs/product.md "No crumbs"). */
export const RESUME_WINDOW_MS = 60_000;

/**
 * A session that was not kept when it stopped (shorter than `minSessionSeconds`, no note): what
 * a continue within {@link RESUME_WINDOW_MS} needs to put it back.
 */
export interface DroppedSession {
  activityID: string;
  activityName: string;
  startedAt: number;
  endedAt: number;
  tags: string | null;
  ownBillable: number | null;
  breaks: { startedAt: number; endedAt: number }[];
}

/** A session just ended: what the caller answers, and the crumb it dropped (null: kept). */
export interface EndedSession {
  stopped: StoppedSession;
  dropped: DroppedSession | null;
}

/**
 * Ends a session (and its break) at `at`, or at its start if that is later. A session worked
 * for less than `minSeconds` and without a note is a crumb (a start by mistake, a stop and a
 * start again) and is deleted with its breaks (docs/product.md "No crumbs").
 */
function endSession(store: Store, session: SessionRow, at: number, minSeconds = 0): EndedSession {
  const end = Math.max(session.startedAt, at);
  endOpenBreak(store, end);
  store.statement('UPDATE sessions SET ended_at = ? WHERE id = ?').run(end, session.id);
  const ended = { ...session, endedAt: end };
  const breaks = breaksOf(store, session.id);
  const seconds = wholeSeconds(workedMs(ended, breaks, end));
  // `kept: false` tells the caller (`tock stop`) why the session will not be seen again.
  const kept = seconds >= minSeconds || (session.note !== null && session.note.trim() !== '');
  const stopped = {
    activityID: session.activityID,
    activityName: session.activityName,
    startedAt: toIso(session.startedAt),
    endedAt: toIso(end),
    seconds,
    kept,
  };
  if (kept) return { stopped, dropped: null };
  const dropped: DroppedSession = {
    activityID: session.activityID,
    activityName: session.activityName,
    startedAt: session.startedAt,
    endedAt: end,
    tags: session.tags ?? null,
    ownBillable: session.ownBillable ?? null,
    breaks: breaks.map((b) => ({ startedAt: b.startedAt, endedAt: b.endedAt ?? end })),
  };
  deleteSession(store, session.id);
  return { stopped, dropped };
}

/** Break and resume only: the app's own doors (the listener has neither), so the rule travels as the line. */
function nothingTracked(): Problem {
  return new Problem('validation_failed', ...ruleLine('session', { rule: 'nothingTracking' }));
}

/**
 * Starts the chosen activity at `at`: keeps the running session when it is already that
 * activity (ending a break; a note given replaces its note), else ends the running one and
 * starts a new session with the note.
 */
export function startSession(store: Store, start: CheckedStart, at: number, newId: () => string, minSeconds = 0, onEnded?: (ended: EndedSession) => void): StartResult {
  const { activity, created } = resolveActivity(store, start.activity, at, newId);
  const running = runningSession(store);
  if (running && running.activityID === activity.id) {
    endOpenBreak(store, at);
    // A note typed with the start is what the person means the session to say: never dropped silently.
    if (start.note !== null && start.note !== running.note) {
      store.statement('UPDATE sessions SET note = ? WHERE id = ?').run(start.note, running.id);
    }
    return { activityID: activity.id, activityName: activity.name, created: false, startedAt: toIso(running.startedAt) };
  }
  if (running) onEnded?.(endSession(store, running, at, minSeconds));
  store
    .statement('INSERT INTO sessions (id, activity_id, started_at, ended_at, note) VALUES (?, ?, ?, NULL, ?)')
    .run(newId(), activity.id, at, start.note);
  touchActivity(store, activity.id, at);
  return { activityID: activity.id, activityName: activity.name, created, startedAt: toIso(at) };
}

/** Ends the running session at `at` (dropping it when it is a crumb, see endSession); null when nothing runs. */
export function stopSession(store: Store, at: number, minSeconds = 0): EndedSession | null {
  const running = runningSession(store);
  return running ? endSession(store, running, at, minSeconds) : null;
}

/** When the last block ended (0: none ended yet). */
function lastBlockEnd(store: Store): number {
  const row = store
    .statement('SELECT max(coalesce((SELECT max(ended_at) FROM sessions), 0), coalesce((SELECT max(ended_at) FROM entries), 0)) AS at')
    .get() as { at: number };
  return row.at;
}

/**
 * The name of the activity `activityID` when Continue may take it up, else undefined: an
 * archived activity is not continued (docs/product.md "Activities").
 */
export function continuableName(store: Store, activityID: string): string | undefined {
  return (store.statement('SELECT name FROM activities WHERE id = ? AND archived = 0').get(activityID) as { name: string } | undefined)?.name;
}

/** Whether the crumb a stop dropped is what a continue at `at` resumes: within the minute, nothing tracked since. */
export function droppedResumable(store: Store, at: number, dropped: DroppedSession): boolean {
  return at >= dropped.endedAt && at - dropped.endedAt <= RESUME_WINDOW_MS && dropped.endedAt >= lastBlockEnd(store) && !runningSession(store);
}

/**
 * Resumes the session stopped last when the stop was at most {@link RESUME_WINDOW_MS} before
 * `at` and nothing was tracked since (docs/product.md "No crumbs"): the session runs again from
 * its own start, and the time between the stop and now is a break of it (it was not worked).
 * `dropped` is the crumb the stop deleted, if that stop was the last one: it comes back the
 * same way, under a new ID. Null when there is nothing to resume (then a continue starts anew).
 */
export function resumeStopped(store: Store, at: number, dropped: DroppedSession | undefined, newId: () => string): StartResult | null {
  if (runningSession(store)) return null;
  const lastEnd = { at: lastBlockEnd(store) };
  const reopen = (sessionID: string, stoppedAt: number): void => {
    store.statement('UPDATE sessions SET ended_at = NULL WHERE id = ?').run(sessionID);
    if (at > stoppedAt) {
      store.statement('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)').run(newId(), sessionID, stoppedAt, at);
    }
  };
  if (dropped !== undefined && droppedResumable(store, at, dropped)) {
    const name = continuableName(store, dropped.activityID);
    if (name !== undefined) {
      const id = newId();
      store
        .statement('INSERT INTO sessions (id, activity_id, started_at, ended_at, note, tags, billable) VALUES (?, ?, ?, ?, NULL, ?, ?)')
        .run(id, dropped.activityID, dropped.startedAt, dropped.endedAt, dropped.tags, dropped.ownBillable);
      for (const b of dropped.breaks) {
        store.statement('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)').run(newId(), id, b.startedAt, b.endedAt);
      }
      reopen(id, dropped.endedAt);
      return { activityID: dropped.activityID, activityName: name, created: false, startedAt: toIso(dropped.startedAt) };
    }
  }
  const last = store
    .statement(`SELECT ${SESSION_COLUMNS} ${FROM_SESSIONS} WHERE s.ended_at IS NOT NULL ORDER BY s.ended_at DESC LIMIT 1`)
    .get() as SessionRow | undefined;
  if (last === undefined || last.endedAt === null || last.endedAt < lastEnd.at) return null;
  if (at < last.endedAt || at - last.endedAt > RESUME_WINDOW_MS) return null;
  if (continuableName(store, last.activityID) === undefined) return null;
  reopen(last.id, last.endedAt);
  return { activityID: last.activityID, activityName: last.activityName, created: false, startedAt: toIso(last.startedAt) };
}

/** Starts a break of the running session at `at` (refused when nothing runs or a break is on). */
export function startBreak(store: Store, at: number, newId: () => string): void {
  const running = runningSession(store);
  if (!running) throw nothingTracked();
  if (openBreak(store)) throw new Problem('validation_failed', ...ruleLine('session', { rule: 'onBreakAlready' }));
  store
    .statement('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, NULL)')
    .run(newId(), running.id, Math.max(at, running.startedAt));
}

/** Ends the break that is on at `at` (refused when nothing runs or no break is on). */
export function resumeBreak(store: Store, at: number): void {
  if (!runningSession(store)) throw nothingTracked();
  if (!openBreak(store)) throw new Problem('validation_failed', ...ruleLine('session', { rule: 'notOnBreak' }));
  endOpenBreak(store, at);
}

/** Sessions overlapping `[fromMs, toMs)`, a running one counted as reaching `toMs`. */
export function sessionsOverlapping(store: Store, fromMs: number, toMs: number): SessionRow[] {
  return store.statement(overlappingSessions(`${SESSION_COLUMNS}, s.device_id AS deviceID`)).all(fromMs, toMs) as unknown as SessionRow[];
}

/**
 * The sessions that overlap `[?1, ?2)`, each with `columns`. Three index lookups instead of an
 * OR that would scan: the sessions that end within a day after the range, the few longer than a
 * day that end later (sessions_long), the running one; `+started_at` keeps SQLite from choosing
 * a `started_at < to` range (the whole history). Same reading as totals.ts.
 */
export function overlappingSessions(columns: string): string {
  return `SELECT ${columns} ${FROM_SESSIONS} WHERE s.ended_at > ?1 AND s.ended_at < ?2 + 86400000 AND +s.started_at < ?2
       UNION ALL
       SELECT ${columns} ${FROM_SESSIONS} WHERE s.ended_at - s.started_at > 86400000 AND s.ended_at >= ?2 + 86400000 AND +s.started_at < ?2
       UNION ALL
       SELECT ${columns} ${FROM_SESSIONS} WHERE s.ended_at IS NULL AND s.started_at < ?2`;
}

/** A session row as a {@link Block}, with its breaks read from the store. */
export function sessionBlockOf(store: Store, session: SessionRow, at: number): Block {
  return sessionBlock(session, breaksOf(store, session.id), at);
}

/** A break's span as a person reads it in a message: `10:00–10:30` in the store's zone. */
export function breakTimes(b: BreakRow, timeZone: string): string {
  const clock = (ms: number): string => localDateTime(ms, timeZone).slice(11, 16);
  return b.endedAt === null ? `${clock(b.startedAt)}–now` : `${clock(b.startedAt)}–${clock(b.endedAt)}`;
}

/**
 * Checks that a session's breaks still lie inside `[start, end]` (end null: still running)
 * and pushes a problem naming each one that would not: an edit never drops or cuts a break
 * silently (docs/product.md "Breaks"). The one exception is the break that is on when the
 * running session gets an end: it ends with the session, and goes when it began after that end.
 * Returns the writes that make the open break fit, to run once the edit is known to be valid.
 */
function checkBreaksInside(
  store: Store,
  sessionID: string,
  start: number,
  end: number | null,
  timeZone: string,
  problems: FieldProblem[],
): () => void {
  const fixes: (() => void)[] = [];
  for (const b of breaksOf(store, sessionID)) {
    if (b.startedAt < start) {
      problems.push(ruleProblem('startedAt', { rule: 'wouldLeaveBreak', values: { times: breakTimes(b, timeZone) } }));
    } else if (b.endedAt === null && end !== null) {
      if (b.startedAt >= end) fixes.push(() => store.statement('DELETE FROM breaks WHERE id = ?').run(b.id));
      else fixes.push(() => store.statement('UPDATE breaks SET ended_at = ? WHERE id = ?').run(end, b.id));
    } else if (b.endedAt !== null && end !== null && b.endedAt > end) {
      problems.push(ruleProblem('endedAt', { rule: 'wouldLeaveBreak', values: { times: breakTimes(b, timeZone) } }));
    }
  }
  return () => {
    for (const fix of fixes) fix();
  };
}

/**
 * Changes a session's start, end, activity or note as of `at` (nothing in the future, the end
 * not before the start, a note of at most 2000 characters, every break still inside the new
 * span). Every wrong field is reported at once; `timeZone` is the one messages tell times in.
 */
export function updateSession(store: Store, sessionID: string, patch: SessionPatch, at: number, timeZone: string): Block {
  const session = sessionById(store, sessionID);
  if (!session) throw blockNotFound('session', sessionID);
  const problems: FieldProblem[] = [];
  const fields = (patch ?? {}) as Record<string, unknown>;
  const start =
    fields.startedAt === undefined ? session.startedAt : readInstant(fields.startedAt, 'startedAt', problems);
  const end =
    fields.endedAt === undefined || fields.endedAt === null
      ? session.endedAt
      : readInstant(fields.endedAt, 'endedAt', problems);
  const activityID = readActivityID(fields.activityID ?? undefined, problems);
  // Only the times given are checked against the clock: a note or activity changed on a session
  // another device's clock ended a little ahead of this one's is not refused for a time it keeps.
  if (start !== undefined && fields.startedAt !== undefined) checkNotFuture(start, at, 'startedAt', problems);
  if (end !== undefined && end !== null && fields.endedAt !== undefined && fields.endedAt !== null) checkNotFuture(end, at, 'endedAt', problems);
  if (start !== undefined && end !== undefined && end !== null && end < start) {
    problems.push(ruleProblem('endedAt', { rule: 'notBeforeField', values: { other: 'startedAt' } }));
  }
  const badNote = noteProblem(fields.note);
  if (badNote !== undefined) problems.push(badNote);
  const fitBreaks =
    problems.length === 0 && start !== undefined && end !== undefined ? checkBreaksInside(store, session.id, start, end, timeZone, problems) : undefined;
  if (problems.length > 0 || start === undefined || end === undefined || fitBreaks === undefined) throw validationProblem(problems);
  const note = fields.note === undefined ? session.note : (fields.note as string | null);
  const activity: ActivityRow =
    activityID === undefined ? { id: session.activityID, name: session.activityName } : requireActivity(store, activityID);
  fitBreaks();
  store
    .statement('UPDATE sessions SET started_at = ?, ended_at = ?, activity_id = ?, note = ? WHERE id = ?')
    .run(start, end, activity.id, note, session.id);
  touchActivity(store, activity.id, start);
  const updated = { ...session, startedAt: start, endedAt: end, activityID: activity.id, activityName: activity.name, note };
  return sessionBlockOf(store, updated, at);
}

/** Deletes a session and its breaks; false when there was none with that ID. */
export function deleteSession(store: Store, sessionID: string): boolean {
  return Number(store.statement('DELETE FROM sessions WHERE id = ?').run(sessionID).changes) > 0;
}
