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

export interface BranchPrompt {
  promptID: string;
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
