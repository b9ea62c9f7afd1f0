/**
 * Pure request building: what each operation sends (method, path, query,
 * JSON body), and the signed request for one attempt. The URL is built first and its
 * serialized path and query are what gets signed, so the signature covers exactly the
 * target the runtime's `fetch` puts on the wire.
 */

import {
  EMPTY_BODY_SHA256,
  HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  type ReportBy,
  type RoutePath,
  type SigningKey,
  base64url,
  requestStringToSign,
  sha256Hex,
} from '@tock/protocol';

/** One call to the listener, before signing. */
export interface Operation {
  method: 'GET' | 'POST';
  path: RoutePath;
  /** Query parameters, in order; encoded with `encodeURIComponent` (a space is `%20`). */
  query?: ReadonlyArray<readonly [string, string]>;
  /** The JSON body; `undefined` sends no body at all. */
  body?: unknown;
  /** Sent as `Idempotency-Key`; only `logEntry` has one. */
  idempotencyKey?: string;
}

/** What `startActivity` accepts as its first argument. */
export type ActivitySelector = string | { activityID: string };

/** What `logEntry` accepts: the activity by `name` or by `activityID`, and the block. */
export type LogEntryInput = LogEntryBlock & (
  | { name: string; activityID?: undefined; createIfMissing?: boolean | undefined }
  | { activityID: string; name?: undefined; createIfMissing?: undefined }
);

/** The fields of `logEntry` that do not depend on how the activity is named. */
export interface LogEntryBlock {
  /** Minutes, > 0 and ≤ 1440. */
  durationMinutes: number;
  /** At most 2000 characters. */
  note?: string | undefined;
  /** When the block ended (ISO-8601 string or `Date`); default: now. */
  endedAt?: string | Date | undefined;
  /** Tags of the block (at most 20; names by the activity name rules). */
  tags?: readonly string[] | undefined;
  /** Whether the block is billable; absent: its activity's default. */
  billable?: boolean | undefined;
  /** Key that makes a repeated request harmless; default: 16 random bytes, base64url. */
  idempotencyKey?: string | undefined;
}

/**
 * What `getReport` accepts: local days `YYYY-MM-DD` (both default to today), the grouping
 * (default `activity`; also `day`, `client`, `tag`) and the billable filter (absent: every block).
 */
export interface ReportQuery {
  from?: string | undefined;
  to?: string | undefined;
  by?: ReportBy | undefined;
  billable?: boolean | undefined;
}

/** What `getSuggestions` accepts: the local day `YYYY-MM-DD` (default today). */
export interface SuggestionsQuery {
  date?: string | undefined;
}

/** What `acceptSuggestion` accepts besides the id: the activity (required for an unlabelled suggestion). */
export interface AcceptSuggestionOptions {
  activityName?: string | undefined;
}

/** What `notifyBranchChange` accepts. */
export interface BranchChange {
  branch: string;
  repo?: string | undefined;
  previousBranch?: string | undefined;
}

/**
 * The request of each operation of docs/protocol.md "Endpoints", one to one with the client's methods. Optional
 * fields left `undefined` are not sent (`JSON.stringify` drops them).
 */
export const operations = {
  healthcheck: (): Operation => ({ method: 'GET', path: '/healthcheck' }),
  getCurrent: (): Operation => ({ method: 'GET', path: '/current' }),
  getStatus: (): Operation => ({ method: 'GET', path: '/status' }),
  searchActivities: (q: string, limit?: number): Operation => ({
    method: 'GET',
    path: '/activities/search',
    query: limit === undefined ? [['q', q]] : [['q', q], ['limit', String(limit)]],
  }),
  startActivity: (activity: ActivitySelector, createIfMissing?: boolean, note?: string): Operation => ({
    method: 'POST',
    path: '/activities/start',
    body: typeof activity === 'string' ? { name: activity, createIfMissing, note } : { activityID: activity.activityID, note },
  }),
  stopActivity: (): Operation => ({ method: 'POST', path: '/activities/stop' }),
  logEntry: (entry: LogEntryInput, idempotencyKey: string): Operation => ({
    method: 'POST',
    path: '/entries',
    body: {
      ...(entry.activityID !== undefined ? { activityID: entry.activityID } : { name: entry.name }),
      durationMinutes: entry.durationMinutes,
      note: entry.note,
      createIfMissing: entry.createIfMissing,
      endedAt: entry.endedAt instanceof Date ? isoString(entry.endedAt) : entry.endedAt,
      ...(entry.tags === undefined ? {} : { tags: [...entry.tags] }),
      ...(entry.billable === undefined ? {} : { billable: entry.billable }),
    },
    idempotencyKey,
  }),
  notifyBranchChange: (change: BranchChange): Operation => ({
    method: 'POST',
    path: '/branch-changed',
    body: { branch: change.branch, repo: change.repo, previousBranch: change.previousBranch },
  }),
  getReport: (query: ReportQuery): Operation => {
    const params = (['from', 'to', 'by', 'billable'] as const).flatMap((name) => {
      const value = query[name];
      return value === undefined ? [] : [[name, String(value)] as const];
    });
    // No `?` at all without parameters: a bare `?` would be sent but not signed.
    return params.length === 0 ? { method: 'GET', path: '/report' } : { method: 'GET', path: '/report', query: params };
  },
  getSuggestions: (query: SuggestionsQuery): Operation =>
    query.date === undefined ? { method: 'GET', path: '/suggestions' } : { method: 'GET', path: '/suggestions', query: [['date', query.date]] },
  acceptSuggestion: (id: string, options: AcceptSuggestionOptions, idempotencyKey: string): Operation => ({
    method: 'POST',
    path: '/suggestions/accept',
    body: { id, activityName: options.activityName },
    idempotencyKey,
  }),
} as const;

function isoString(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new TypeError('endedAt is an invalid Date');
  return date.toISOString();
}

/** A caller's idempotency key, checked; or a fresh one (16 random bytes, base64url). */
export function idempotencyKeyFor(given: string | undefined, random: (n: number) => Uint8Array): string {
  if (given === undefined) return base64url(random(16));
  if (!IDEMPOTENCY_KEY_PATTERN.test(given)) {
    throw new TypeError('idempotencyKey must be 1–64 characters of A–Z a–z 0–9 _ -');
  }
  return given;
}

/** One signed attempt, ready for `fetch`. */
export interface SignedRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The exact body bytes that were hashed; `undefined` for no body. */
  body: Uint8Array | undefined;
  /** The request's nonce: the response signature is checked against it. */
  nonce: string;
}

/** What signing one attempt needs besides the operation. */
export interface SigningContext {
  baseUrl: string;
  key: SigningKey;
  /** Unix seconds. */
  timestamp: number;
  nonce: string;
}

const encoder = new TextEncoder();

/**
 * Builds and signs one attempt of an operation: the URL first, then the signature over its
 * serialized `pathname + search` and the exact body bytes.
 */
export function buildRequest(op: Operation, ctx: SigningContext): SignedRequest {
  const query = op.query?.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const url = new URL(query === undefined ? op.path : `${op.path}?${query}`, ctx.baseUrl);
  const body = op.body === undefined ? undefined : encoder.encode(JSON.stringify(op.body));
  const timestamp = String(Math.floor(ctx.timestamp));
  const signature = ctx.key.sign(
    requestStringToSign({
      timestamp,
      nonce: ctx.nonce,
      method: op.method,
      target: url.pathname + url.search,
      bodySha256: body === undefined ? EMPTY_BODY_SHA256 : sha256Hex(body),
    }),
  );
  const headers: Record<string, string> = {
    accept: 'application/json',
    [HEADER.timestamp]: timestamp,
    [HEADER.nonce]: ctx.nonce,
    [HEADER.signature]: signature,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (op.idempotencyKey !== undefined) headers[HEADER.idempotencyKey] = op.idempotencyKey;
  return { url: url.href, method: op.method, headers, body, nonce: ctx.nonce };
}
