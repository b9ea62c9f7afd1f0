/**
 * Names and numbers fixed by the contract (docs/protocol.md). Every package reads them from here so that a
 * header name or a limit is written exactly once in TypeScript.
 */

export const API_VERSION = 1;
export const DEFAULT_PORT = 39847;
export const MIN_LISTENER_PORT = 1024;
export const MAX_PORT = 65535;

export const HEADER = {
  timestamp: 'x-tock-timestamp',
  nonce: 'x-tock-nonce',
  signature: 'x-tock-signature',
  responseSignature: 'x-tock-response-signature',
  apiVersion: 'x-tock-api-version',
  idempotencyKey: 'idempotency-key',
} as const;

/** First line of the request signed string (docs/protocol.md "Request signing"). */
export const REQUEST_SIGNING_PREFIX = 'TOCK-HMAC-SHA256';
/** First line of the response signed string (docs/protocol.md "Request signing"). */
export const RESPONSE_SIGNING_PREFIX = 'TOCK-HMAC-SHA256-RESPONSE';
export const SIGNATURE_VERSION_PREFIX = 'v1=';

export const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const SIGNATURE_PATTERN = /^v1=[0-9a-f]{64}$/;
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const LIMITS = {
  /** Request body, bytes. */
  maxBodyBytes: 64 * 1024,
  /** Request line plus headers, bytes. */
  maxHeaderBytes: 16 * 1024,
  /** Allowed distance between a request's timestamp and the server clock, seconds. */
  clockSkewSeconds: 60,
  /** How long a nonce is remembered, seconds. */
  nonceWindowSeconds: 180,
  /** Failed authentications tolerated within the sliding window; the next one locks out. */
  lockoutThreshold: 10,
  lockoutWindowSeconds: 30,
  lockoutSeconds: 60,
  /** Requests kept in the settings' debug list. */
  requestListSize: 25,
  /** How long an idempotency key is remembered, seconds. */
  idempotencyWindowSeconds: 24 * 60 * 60,
  /** Right after a start, timestamps earlier than the start are refused for this long, seconds. */
  restartGuardSeconds: 60,
  activityNameMax: 200,
  noteMax: 2000,
  /** Tags one block carries at most (docs/data.md "The ledger"). */
  tagsMax: 20,
  durationMinutesMax: 1440,
  endedAtFutureSeconds: 60,
  branchMax: 255,
  repoMax: 1024,
  searchLimitMin: 1,
  searchLimitMax: 100,
  searchLimitDefault: 20,
  /** Branch prompts kept while no window is open. */
  pendingPromptsMax: 20,
  /** Longest range of a report, local calendar days (docs/protocol.md "GET /report"). */
  reportMaxDays: 366,
  trialDays: 14,
} as const;

/**
 * Characters no name may hold, wherever it enters (docs/security.md "Names"): control
 * characters (U+0000–U+001F, U+007F–U+009F) and the bidirectional overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) that make a terminal or a page show other text than is stored.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this rule's purpose.
export const FORBIDDEN_NAME_CHARACTER = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;
/** The JSON-Schema pattern of a text without any `FORBIDDEN_NAME_CHARACTER`, for the documentation. */
export const NO_FORBIDDEN_NAME_CHARACTERS_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*$';

/**
 * Every instant in Tock's data lies in the years 1970–2199 UTC (docs/security.md "Times"): the
 * earliest and latest Unix milliseconds allowed, both included.
 */
export const TIME_RANGE = { minMs: 0, maxMs: Date.UTC(2200, 0, 1) - 1 } as const;

/** True when `ms` is a whole Unix millisecond in `TIME_RANGE`. */
export function isTimeInRange(ms: number): boolean {
  return Number.isInteger(ms) && ms >= TIME_RANGE.minMs && ms <= TIME_RANGE.maxMs;
}

/** Listener routes: path → allowed method (docs/protocol.md "Endpoints"). */
export const ROUTES = {
  '/healthcheck': 'GET',
  '/current': 'GET',
  '/status': 'GET',
  '/activities/search': 'GET',
  '/activities/start': 'POST',
  '/activities/stop': 'POST',
  '/entries': 'POST',
  '/branch-changed': 'POST',
  '/events': 'GET',
  '/report': 'GET',
  '/suggestions': 'GET',
  '/suggestions/accept': 'POST',
} as const;

export type RoutePath = keyof typeof ROUTES;

/**
 * Statuses the listener may answer before it has verified the request, when it has no key to
 * sign with (docs/protocol.md "Request signing", "Order of checks on the server" steps 0–5):
 * only these may come back without `X-Tock-Response-Signature`; clients refuse any other
 * unsigned answer as `bad_response_signature`. 408 is Node's answer to a request that did not
 * arrive in time (a slow upload), 500 a failure of the listener before verification. Answered
 * after verification, 400, 429 and 500 are signed like everything else.
 */
export const UNSIGNED_STATUSES: readonly number[] = [400, 401, 403, 408, 413, 429, 431, 500];
