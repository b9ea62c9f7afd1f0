/**
 * Checks of the tracking requests (docs/protocol.md "Endpoints") that come before any lookup: the shape of a
 * start or an entry, names, durations, notes and instants. Each check reports every field
 * that is wrong at once, as a `validation_failed` problem with details.
 */

import { LIMITS, validationProblem, type FieldProblem } from '@tock/protocol';
import { parseIsoInstant } from './instants.ts';
import { cleanName, codePointLength, isWellFormedText, nameError } from './names.ts';

/** Who a request is about: an activity by name (maybe to be created) or by ID. */
export type ActivityChoice = { name: string; createIfMissing: boolean } | { activityID: string };

/** An entry request after its checks: what {@link readEntryRequest} returns. */
export interface CheckedEntry {
  activity: ActivityChoice;
  durationMs: number;
  note: string | null;
  endedAtMs: number;
}

/** An instant as the domain API accepts it: ISO-8601 text or ms since the epoch. */
export type InstantInput = string | number;

const MINUTE_MS = 60_000;
/** The largest distance from the epoch a `Date` can hold (ECMAScript: 10^8 days). */
const MAX_DATE_MS = 8.64e15;

function fieldsOf(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw validationProblem([{ field: 'body', message: 'must be a JSON object' }]);
  }
  return input as Record<string, unknown>;
}

/** A field's value, with `null` counting as absent (docs/protocol.md "Endpoints"). */
function present(fields: Record<string, unknown>, key: string): unknown {
  const value = Object.hasOwn(fields, key) ? fields[key] : undefined;
  return value === null ? undefined : value;
}

function readActivityChoice(fields: Record<string, unknown>, problems: FieldProblem[]): ActivityChoice | undefined {
  const name = present(fields, 'name');
  const activityID = present(fields, 'activityID');
  const createIfMissing = present(fields, 'createIfMissing');
  if (createIfMissing !== undefined && typeof createIfMissing !== 'boolean') {
    problems.push({ field: 'createIfMissing', message: 'must be true or false' });
  }
  if (name === undefined && activityID === undefined) {
    problems.push({ field: 'name', message: 'give either name or activityID' });
    return undefined;
  }
  if (name !== undefined && activityID !== undefined) {
    problems.push({ field: 'activityID', message: 'give either name or activityID, not both' });
    return undefined;
  }
  if (activityID !== undefined) {
    if (typeof activityID !== 'string' || activityID.length === 0) {
      problems.push({ field: 'activityID', message: 'must be an activity ID (a UUID string)' });
      return undefined;
    }
    return { activityID };
  }
  if (typeof name !== 'string') {
    problems.push({ field: 'name', message: 'must be a string' });
    return undefined;
  }
  const error = nameError(name);
  if (error !== undefined) {
    problems.push({ field: 'name', message: error });
    return undefined;
  }
  return { name: cleanName(name), createIfMissing: createIfMissing === true };
}

/** Checks a start request: exactly one of `name` and `activityID`, a valid name. */
export function readStartRequest(input: unknown): ActivityChoice {
  const problems: FieldProblem[] = [];
  const choice = readActivityChoice(fieldsOf(input), problems);
  if (problems.length > 0 || choice === undefined) throw validationProblem(problems);
  return choice;
}

/** Why a duration in minutes is not acceptable, or `undefined`. */
export function durationError(minutes: unknown): string | undefined {
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes <= 0 || minutes > LIMITS.durationMinutesMax) {
    return `must be a number greater than 0 and at most ${LIMITS.durationMinutesMax}`;
  }
  return undefined;
}

/** A valid duration in minutes as whole milliseconds (at least 1). */
export function durationMs(minutes: number): number {
  return Math.max(1, Math.round(minutes * MINUTE_MS));
}

/** Why a note is not acceptable, or `undefined`. `null`/absent is acceptable. */
export function noteError(note: unknown): string | undefined {
  if (note === undefined || note === null) return undefined;
  if (typeof note !== 'string') return 'must be a string';
  if (!isWellFormedText(note)) return 'must be valid Unicode text';
  if (codePointLength(note) > LIMITS.noteMax) return `must be at most ${LIMITS.noteMax} characters`;
  return undefined;
}

/**
 * An instant given as ISO-8601 text (with an offset) or ms since the epoch, in ms; pushes a
 * problem about `field` and returns undefined when it is neither.
 */
export function readInstant(value: InstantInput | unknown, field: string, problems: FieldProblem[]): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_DATE_MS) return Math.round(value);
  const ms = typeof value === 'string' ? parseIsoInstant(value) : undefined;
  if (ms === undefined) problems.push({ field, message: 'must be an ISO-8601 time with a zone, like 2026-11-22T09:15:00Z' });
  return ms;
}

/** Pushes a problem when `ms` lies more than the allowed 60 s after `now`. */
export function checkNotFuture(ms: number, now: number, field: string, problems: FieldProblem[]): void {
  if (ms - now > LIMITS.endedAtFutureSeconds * 1000) {
    problems.push({ field, message: `must not be more than ${LIMITS.endedAtFutureSeconds} seconds in the future` });
  }
}

/** Checks an entry request (docs/protocol.md "Endpoints", `POST /entries`) against the clock reading `now`. */
export function readEntryRequest(input: unknown, now: number): CheckedEntry {
  const fields = fieldsOf(input);
  const problems: FieldProblem[] = [];
  const activity = readActivityChoice(fields, problems);

  const minutes = present(fields, 'durationMinutes');
  const durationProblem = minutes === undefined ? 'is required' : durationError(minutes);
  if (durationProblem !== undefined) problems.push({ field: 'durationMinutes', message: durationProblem });

  const note = present(fields, 'note');
  const noteProblem = noteError(note);
  if (noteProblem !== undefined) problems.push({ field: 'note', message: noteProblem });

  const endedAtInput = present(fields, 'endedAt');
  let endedAtMs: number | undefined = now;
  if (endedAtInput !== undefined) {
    endedAtMs = typeof endedAtInput === 'string' ? readInstant(endedAtInput, 'endedAt', problems) : undefined;
    if (typeof endedAtInput !== 'string') problems.push({ field: 'endedAt', message: 'must be an ISO-8601 string' });
    if (endedAtMs !== undefined) checkNotFuture(endedAtMs, now, 'endedAt', problems);
  }

  if (problems.length > 0 || activity === undefined || endedAtMs === undefined) throw validationProblem(problems);
  return {
    activity,
    durationMs: durationMs(minutes as number),
    note: (note as string | undefined) ?? null,
    endedAtMs,
  };
}
