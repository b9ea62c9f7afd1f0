/**
 * The JSON shapes that cross the wire (docs/protocol.md "Listener basics", docs/protocol.md "Endpoints"). Time values are ISO-8601 UTC strings
 * ending in `Z`; IDs are UUID strings.
 */

export type LicenseState = 'trial' | 'licensed' | 'locked';

export interface Health {
  status: 'ok';
  apiVersion: number;
  appVersion: string;
  license: LicenseState;
}

export interface ActivityRef {
  activityID: string;
  activityName: string;
}

export interface Status {
  isTracking: boolean;
  isOnBreak: boolean;
  currentActivity: ActivityRef | null;
  todaySeconds: number;
  since: string | null;
}

export interface StartResult {
  activityID: string;
  activityName: string;
  created: boolean;
  startedAt: string;
}

export interface StoppedSession {
  activityID: string;
  activityName: string;
  startedAt: string;
  endedAt: string;
  seconds: number;
}

export interface Entry {
  entryID: string;
  activity: ActivityRef;
  created: boolean;
  startedAt: string;
  endedAt: string;
  durationMinutes: number;
  note: string | null;
}

/**
 * The tracking prompt a reported branch switch opened: the answer of `POST /branch-changed`
 * and the data of a `branch-prompt` event (docs/protocol.md "The event stream"). `repo` and
 * `previousBranch` are null when the report had none.
 */
export interface BranchPrompt {
  promptID: string;
  branch: string;
  repo: string | null;
  previousBranch: string | null;
}

/** The data of an `idle` event: since when the user was idle while tracking, and for how long. */
export interface Idle {
  /** ISO time the idleness began. */
  since: string;
  /** Whole seconds idle so far. */
  seconds: number;
}

/** How a report groups its rows (docs/protocol.md "GET /report"). */
export type ReportBy = 'activity' | 'day';

/** A row of a report by activity: only activities with time, most seconds first, ties by name. */
export interface ActivityReportRow {
  activityID: string;
  activityName: string;
  seconds: number;
}

/** A row of a report by day: one per local day of the range, zeros included, ascending. */
export interface DayReportRow {
  /** The local calendar day, YYYY-MM-DD. */
  date: string;
  seconds: number;
}

/** A row of a {@link Report}: by activity or by day, as asked. */
export type ReportRow = ActivityReportRow | DayReportRow;

/** The result of `GET /report` (docs/protocol.md "GET /report"). */
export interface Report {
  /** First local day of the range, YYYY-MM-DD (inclusive). */
  from: string;
  /** Last local day of the range, YYYY-MM-DD (inclusive). */
  to: string;
  /** The IANA time zone the days are counted in: the app's. */
  timeZone: string;
  /** The sum of the rows' seconds. */
  totalSeconds: number;
  rows: ReportRow[];
}

export type StartRequest =
  | { name: string; createIfMissing?: boolean }
  | { activityID: string };

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
