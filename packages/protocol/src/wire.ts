/**
 * The JSON shapes that cross the wire (docs/protocol.md "Listener basics", "Endpoints"). Time
 * values are ISO-8601 UTC strings ending in `Z`; IDs are UUID strings. Result types are derived
 * from their schemas in results.ts (one source); request types are what the validator hands on.
 */

import type { FromSchema } from './json-schema.ts';
import type { RESULT_SCHEMAS } from './results.ts';

/** Where the app's license stands (the `license` of {@link Health}). */
export type LicenseState = Health['license'];

/** The named result schemas, as the type-level converter reads them. */
type Results = typeof RESULT_SCHEMAS;

/** `GET /healthcheck`. */
export type Health = FromSchema<Results['Health'], Results>;
/** An activity reference: `GET /current`, search results, an entry's activity. */
export type ActivityRef = FromSchema<Results['ActivityRef'], Results>;
/** `GET /status`: while on a break, `isTracking` and `isOnBreak` are both true. */
export type Status = FromSchema<Results['Status'], Results>;
/** `POST /activities/start`. */
export type StartResult = FromSchema<Results['StartResult'], Results>;
/** `POST /activities/stop`: the ended session (`seconds` leaves breaks out). */
export type StoppedSession = FromSchema<Results['StoppedSession'], Results>;
/** `POST /entries`: the logged block. */
export type Entry = FromSchema<Results['Entry'], Results>;
/**
 * The tracking prompt a reported branch switch opened: the answer of `POST /branch-changed`
 * and the data of a `branch-prompt` event (docs/protocol.md "The event stream"). `repo` and
 * `previousBranch` are null when the report had none.
 */
export type BranchPrompt = FromSchema<Results['BranchPrompt'], Results>;
/** The data of an `idle` event: since when the user was idle while tracking, and for how long. */
export type Idle = FromSchema<Results['Idle'], Results>;
/** The data of a `budget` event: an activity's worked time passed 80 % or 100 % (`percent`) of its budget, the first time. */
export type Budget = FromSchema<Results['Budget'], Results>;
/** A row of a report by activity: only activities with time, most seconds first, ties by name. */
export type ActivityReportRow = FromSchema<Results['ActivityReportRow'], Results>;
/** A row of a report by day (`date` is a local day, YYYY-MM-DD): every day of the range, ascending. */
export type DayReportRow = FromSchema<Results['DayReportRow'], Results>;
/** A row of a report by client (`clientID` null: activities without a client). */
export type ClientReportRow = FromSchema<Results['ClientReportRow'], Results>;
/** A row of a report by tag (`tag` null: blocks without a tag). */
export type TagReportRow = FromSchema<Results['TagReportRow'], Results>;
/** What a report's range is worth in one currency. */
export type Amount = FromSchema<Results['Amount'], Results>;
/** A row of a {@link Report}: by activity, day, client or tag, as asked. */
export type ReportRow = ActivityReportRow | DayReportRow | ClientReportRow | TagReportRow;
/**
 * `GET /report` (docs/protocol.md "GET /report"): `totalSeconds` is the covered time (each
 * second once; by day, the sum of the rows); `overlapSeconds` is how much more the activity
 * rows add up to.
 */
export type Report = FromSchema<Results['Report'], Results>;

/** What capture saw in a {@link Suggestion} (docs/protocol.md "Suggestions"). */
export type SuggestionSource = FromSchema<Results['SuggestionSource'], Results>;
/**
 * A stretch of untracked time where capture saw work (docs/protocol.md "Suggestions"):
 * `activityName` null is unlabelled; `id` stays the same for the same day, start, end and label.
 */
export type Suggestion = FromSchema<Results['Suggestion'], Results>;
/** `GET /suggestions`: a local day's suggestions, oldest first. */
export type Suggestions = FromSchema<Results['Suggestions'], Results>;

/** How a report groups its rows (docs/protocol.md "GET /report"). */
export type ReportBy = 'activity' | 'day' | 'client' | 'tag';

/** `POST /activities/start`: `note` is the new session's description (docs/protocol.md "Endpoints"). */
export type StartRequest =
  | { name: string; createIfMissing?: boolean; note?: string }
  | { activityID: string; note?: string };

export interface SearchRequest {
  q: string;
  limit: number;
}

export interface EntryRequest {
  activityID?: string;
  name?: string;
  durationMinutes: number;
  note?: string;
  createIfMissing?: boolean;
  endedAt?: string;
  /** The block's tags (docs/data.md "The ledger"). */
  tags?: string[];
  /** Whether the block is billable; absent: its activity's default. */
  billable?: boolean;
}

/** `GET /report`'s query once validated: days as given (defaults are today's, set by the use case). */
export interface ReportRequest {
  from?: string;
  to?: string;
  by: ReportBy;
  /** Only billable blocks, or only the others; absent: every block. */
  billable?: boolean;
}

/** `GET /suggestions`: the local day (default today). */
export interface SuggestionsRequest {
  date?: string;
}

/** `POST /suggestions/accept`: a current suggestion's id, and the activity for it (required when it is unlabelled). */
export interface AcceptSuggestionRequest {
  id: string;
  activityName?: string;
}

export interface BranchRequest {
  branch: string;
  repo?: string;
  previousBranch?: string;
}

export interface SuccessEnvelope<T> {
  ok: true;
  result: T;
}

export interface ErrorEnvelope {
  ok: false;
  error: string;
  code: string;
  details?: { field: string; message: string }[];
}

/** The exact body of every 423 (docs/protocol.md "Listener basics"). */
export const LICENSE_LOCKED_BODY = '{"error":"license locked"}';
