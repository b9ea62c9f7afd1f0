/**
 * Editing a session's breaks afterwards (docs/product.md "Breaks"): adding a break to a
 * session, moving one, ending the one that is on at an earlier time, and deleting one. Taking
 * and ending a break while tracking (`tock break`, `tock resume`) is in sessions.ts. Every
 * break stays inside its session, after its start and before its end (before now while it
 * runs), and never overlaps another break of the same session: each break's time is taken off
 * the session once. Callers own the transaction and the clock (`at`).
 */

import { ruleProblem, validationProblem, type FieldProblem } from '@tock/protocol';
import type { Block } from './blocks.ts';
import { checkNotFuture, readInstant, type InstantInput } from './requests.ts';
import { BREAK_COLUMNS, type BreakRow, type SessionRow } from './rows.ts';
import { breaksOf, breakTimes, sessionBlockOf, sessionById } from './sessions.ts';
import type { Store } from './store.ts';

/** Changes to a break; absent fields stay as they are. `endedAt` ends the break that is on. */
export interface BreakPatch {
  startedAt?: InstantInput;
  endedAt?: InstantInput;
}

/** A break to add to a session: both ends, inside the session. */
export interface NewBreak {
  startedAt: InstantInput;
  endedAt: InstantInput;
}

function breakById(store: Store, breakID: string): (BreakRow & { sessionID: string }) | undefined {
  return store.statement(`SELECT ${BREAK_COLUMNS}, session_id AS sessionID FROM breaks WHERE id = ?`).get(String(breakID)) as
    | (BreakRow & { sessionID: string })
    | undefined;
}

function breakNotFound(id: string): Error {
  return validationProblem([ruleProblem('id', { rule: 'noRowWithId', values: { kind: 'break', id } })]);
}

/**
 * Pushes a problem for each rule `[start, end]` breaks inside `session` (end null: the break
 * is on). `given` says which times the person gave, so only those are checked against the clock.
 */
function checkBreak(
  store: Store,
  session: SessionRow,
  span: { id: string | null; start: number; end: number | null },
  given: { start: boolean; end: boolean },
  at: number,
  timeZone: string,
  problems: FieldProblem[],
): void {
  const { start, end } = span;
  if (given.start) checkNotFuture(start, at, 'startedAt', problems);
  if (given.end && end !== null) checkNotFuture(end, at, 'endedAt', problems);
  if (end !== null && end <= start) problems.push(ruleProblem('endedAt', { rule: 'afterField', values: { other: 'startedAt' } }));
  if (start < session.startedAt) problems.push(ruleProblem('startedAt', { rule: 'notBeforeSessionStart' }));
  if (session.endedAt !== null && (end ?? start) > session.endedAt) {
    problems.push(ruleProblem('endedAt', { rule: 'notAfterSessionEnd' }));
  }
  if (problems.length > 0) return;
  for (const other of breaksOf(store, session.id)) {
    if (other.id === span.id) continue;
    const otherEnd = other.endedAt ?? Number.POSITIVE_INFINITY;
    if (start < otherEnd && (end ?? Number.POSITIVE_INFINITY) > other.startedAt) {
      problems.push(ruleProblem('startedAt', { rule: 'overlapsBreak', values: { times: breakTimes(other, timeZone) } }));
      return;
    }
  }
}

/** The session a break belongs to, as a block after the change. */
function sessionAfter(store: Store, sessionID: string, at: number): Block {
  const session = sessionById(store, sessionID);
  if (!session) throw validationProblem([ruleProblem('sessionID', { rule: 'noRowWithId', values: { kind: 'session', id: sessionID } })]);
  return sessionBlockOf(store, session, at);
}

/**
 * Moves a break, or ends the break that is on at an earlier time; answers its session as a
 * block. A break that is on cannot be given a start after now, nor an end taken back.
 */
export function updateBreak(store: Store, breakID: string, patch: BreakPatch, at: number, timeZone: string): Block {
  const found = breakById(store, breakID);
  if (!found) throw breakNotFound(String(breakID));
  const session = sessionById(store, found.sessionID);
  if (!session) throw breakNotFound(String(breakID));
  const fields = (patch ?? {}) as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  if (fields.endedAt === null) problems.push(ruleProblem('endedAt', { rule: 'breakEnded' }));
  const start = fields.startedAt === undefined ? found.startedAt : readInstant(fields.startedAt, 'startedAt', problems);
  const end = fields.endedAt === undefined || fields.endedAt === null ? found.endedAt : readInstant(fields.endedAt, 'endedAt', problems);
  if (problems.length > 0 || start === undefined || end === undefined) throw validationProblem(problems);
  // The break that is on may not start after now: it would take time off that has not passed.
  if (end === null) checkNotFuture(start, at, 'startedAt', problems);
  checkBreak(store, session, { id: found.id, start, end }, { start: fields.startedAt !== undefined, end: fields.endedAt !== undefined }, at, timeZone, problems);
  if (problems.length > 0) throw validationProblem(problems);
  store.statement('UPDATE breaks SET started_at = ?, ended_at = ? WHERE id = ?').run(start, end, found.id);
  return sessionAfter(store, session.id, at);
}

/** Adds a break with both ends to a session (a past one, or the running one before now). */
export function addBreak(store: Store, sessionID: string, input: NewBreak, at: number, newId: () => string, timeZone: string): Block {
  const session = sessionById(store, String(sessionID));
  if (!session) throw validationProblem([ruleProblem('sessionID', { rule: 'noRowWithId', values: { kind: 'session', id: sessionID } })]);
  const fields = (input ?? {}) as unknown as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const start = readInstant(fields.startedAt, 'startedAt', problems);
  const end = readInstant(fields.endedAt, 'endedAt', problems);
  if (problems.length > 0 || start === undefined || end === undefined) throw validationProblem(problems);
  checkBreak(store, session, { id: null, start, end }, { start: true, end: true }, at, timeZone, problems);
  if (problems.length > 0) throw validationProblem(problems);
  store.statement('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)').run(newId(), session.id, start, end);
  return sessionAfter(store, session.id, at);
}

/** Deletes a break (its time counts again); false when there was none with that ID. */
export function deleteBreak(store: Store, breakID: string): boolean {
  return Number(store.statement('DELETE FROM breaks WHERE id = ?').run(String(breakID)).changes) > 0;
}
