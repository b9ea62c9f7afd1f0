/**
 * Checks of the tracking requests (docs/protocol.md "Endpoints") that come before any lookup:
 * the shape of a start or an entry, names, durations, notes and instants. The rules and their
 * messages are @tock/protocol's (`validateBody`, `checkField`, `parseDateTime`), the same the
 * listener runs, so a request the window or the CLI sends is held to the same words as one
 * that comes over HTTP. Each check reports every field that is wrong at once, as a
 * `validation_failed` problem with details.
 */

import {
  BODY_SCHEMAS,
  LIMITS,
  checkField,
  fieldRule,
  parseDateTime,
  ruleProblem,
  validateBody,
  validationProblem,
  type FieldProblem,
} from '@tock/protocol';
import { cleanName } from './names.ts';
import { cleanTags } from './tags.ts';

/** Who a request is about: an activity by name (maybe to be created) or by ID. */
export type ActivityChoice = { name: string; createIfMissing: boolean } | { activityID: string };

/** A start request after its checks: the activity and the session's note (null: none given). */
export interface CheckedStart {
  activity: ActivityChoice;
  note: string | null;
}

/** An entry request after its checks: what {@link readEntryRequest} returns. */
export interface CheckedEntry {
  activity: ActivityChoice;
  durationMs: number;
  note: string | null;
  endedAtMs: number;
  /** Its tags, cleaned (docs/data.md "The ledger"). */
  tags: string[];
  /** Its billable flag; null: the activity's. */
  billable: boolean | null;
}

/** An instant as the domain API accepts it: ISO-8601 text or ms since the epoch. */
export type InstantInput = string | number;

const MINUTE_MS = 60_000;
/** The largest distance from the epoch a `Date` can hold (ECMAScript: 10^8 days). */
const MAX_DATE_MS = 8.64e15;
const ENTRY_FIELDS = BODY_SCHEMAS['/entries'].properties;

/** The request's fields, or the protocol's problems with them thrown as `validation_failed`. */
function validated<T>(checked: { ok: true; value: T } | { ok: false; problems: FieldProblem[] }): T {
  if (!checked.ok) throw validationProblem(checked.problems);
  return checked.value;
}

/** Checks a start request: exactly one of `name` and `activityID`, a valid name, a note within its limit. */
export function readStartRequest(input: unknown): CheckedStart {
  const start = validated(validateBody('/activities/start', input));
  const note = start.note ?? null;
  if ('activityID' in start && start.activityID !== undefined) return { activity: { activityID: start.activityID }, note };
  const byName = start as { name: string; createIfMissing?: boolean };
  return { activity: { name: cleanName(byName.name), createIfMissing: byName.createIfMissing === true }, note };
}

/** The problem of a duration in minutes that is not acceptable (its rule beside its English), or `undefined`. */
export function durationProblem(minutes: unknown): FieldProblem | undefined {
  const checked = checkField(ENTRY_FIELDS.durationMinutes, minutes);
  return 'message' in checked ? ruleProblem('durationMinutes', checked) : undefined;
}

/** A valid duration in minutes as whole milliseconds (at least 1). */
export function durationMs(minutes: number): number {
  return Math.max(1, Math.round(minutes * MINUTE_MS));
}

/** The problem of a note that is not acceptable (its rule beside its English), or `undefined`. `null`/absent is acceptable. */
export function noteProblem(note: unknown): FieldProblem | undefined {
  if (note === undefined || note === null) return undefined;
  const checked = checkField(ENTRY_FIELDS.note, note);
  return 'message' in checked ? ruleProblem('note', checked) : undefined;
}

/**
 * An instant given as ISO-8601 text (with an offset) or ms since the epoch, in ms; pushes a
 * problem about `field` and returns undefined when it is neither.
 */
export function readInstant(value: InstantInput | unknown, field: string, problems: FieldProblem[]): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_DATE_MS) return Math.round(value);
  const ms = typeof value === 'string' ? parseDateTime(value) : undefined;
  if (ms === undefined) problems.push(ruleProblem(field, fieldRule(ENTRY_FIELDS.endedAt)));
  return ms;
}

/** Pushes a problem when `ms` lies more than the allowed 60 s after `now`. */
export function checkNotFuture(ms: number, now: number, field: string, problems: FieldProblem[]): void {
  if (ms - now > LIMITS.endedAtFutureSeconds * 1000) {
    problems.push(ruleProblem(field, { rule: 'notFuture', values: { seconds: LIMITS.endedAtFutureSeconds } }));
  }
}

/** Checks an entry request (docs/protocol.md "Endpoints", `POST /entries`) against the clock reading `now`. */
export function readEntryRequest(input: unknown, now: number): CheckedEntry {
  const entry = validated(validateBody('/entries', input, { nowMs: now }));
  const activity: ActivityChoice =
    entry.activityID !== undefined
      ? { activityID: entry.activityID }
      : { name: cleanName(entry.name), createIfMissing: entry.createIfMissing === true };
  return {
    activity,
    durationMs: durationMs(entry.durationMinutes),
    note: entry.note ?? null,
    endedAtMs: entry.endedAt === undefined ? now : (parseDateTime(entry.endedAt) as number),
    tags: entry.tags === undefined ? [] : cleanTags(entry.tags),
    billable: entry.billable ?? null,
  };
}
