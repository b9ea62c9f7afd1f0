/**
 * One source for the shapes of the eight endpoints of docs/protocol.md "Endpoints": request bodies, query
 * parameters and results, as plain JSON-Schema-style objects, plus the validator the
 * listener runs on requests. `scripts/gen-openapi.ts` turns the same objects into
 * `spec/openapi.yaml`, so the documentation cannot drift from what the server checks.
 * Pure: no I/O, no clock (the caller passes `nowMs` for the one check that needs it).
 */

import { LIMITS, ROUTES, type RoutePath } from './constants.ts';
import type { ErrorCode, FieldProblem } from './errors.ts';
import type { BranchRequest, EntryRequest, SearchRequest, StartRequest } from './wire.ts';

/** A JSON Schema (2020-12, as used by OpenAPI 3.1) describing a result or an envelope. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  enum?: (string | number | boolean | null)[];
  const?: string | number | boolean | null;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: string | number | boolean;
  additionalProperties?: boolean;
  examples?: (string | number | boolean)[];
}

interface FieldBase {
  description: string;
}

/** A string field. Lengths count Unicode code points, as JSON Schema does. */
export interface StringField extends FieldBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: 'uuid' | 'date-time';
  /** Lengths are checked after trimming white space at both ends (OpenAPI: `x-trimmed`). */
  trim?: boolean;
  /** Unicode control characters (category Cc) are refused. */
  noControlChars?: boolean;
  default?: string;
  /** Only for `endedAt`: at most this many seconds after the server clock. */
  maxFutureSeconds?: number;
}

/** A number field; `integer` also refuses fractions. Always finite. */
export interface NumberField extends FieldBase {
  type: 'number' | 'integer';
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  default?: number;
}

/** A boolean field: `true` or `false`, nothing else (not `"true"`, not 1). */
export interface BooleanField extends FieldBase {
  type: 'boolean';
  default?: boolean;
}

/** One field of a request body or query. */
export type FieldSchema = StringField | NumberField | BooleanField;

/** A JSON object request body. Fields other than `required` ones may be absent or `null`. */
export interface BodySchema {
  description: string;
  properties: Record<string, FieldSchema>;
  required: readonly string[];
  /** Exactly one of these two fields must be given (non-null). */
  exactlyOneOf?: readonly [string, string];
  /** An empty body is accepted and read as `{}`. */
  emptyAllowed?: boolean;
}

/** Query parameters; every one is optional and has a default. */
export interface QuerySchema {
  properties: Record<string, FieldSchema>;
}

/** Everything the documentation and the listener need to know about one endpoint. */
export interface EndpointSchema {
  method: 'GET' | 'POST';
  operationId: string;
  summary: string;
  description: string;
  successStatus: 200 | 201;
  result: JsonSchema;
  body?: BodySchema;
  query?: QuerySchema;
  /**
   * Set for `GET /events`: the 200 is a `text/event-stream` of signed events (see
   * events.ts), not a JSON envelope; `result` then describes the events' data.
   */
  eventStream?: true;
  /**
   * The error codes this operation can answer with. Not listed: 431 (which Node may send on its
   * own), and `route_not_found` / `method_not_allowed`, which belong to no operation.
   */
  errors: readonly ErrorCode[];
}

// ---------------------------------------------------------------------------------------
// Results (docs/protocol.md "Endpoints")

const ISO_TIME: JsonSchema = { type: 'string', format: 'date-time', examples: ['2026-11-22T09:15:00.000Z'] };
const UUID: JsonSchema = { type: 'string', format: 'uuid' };
const LOCAL_DATE: JsonSchema = { type: 'string', format: 'date', examples: ['2026-11-22'] };

/** Named result schemas, referenced as `#/components/schemas/<name>`. */
export const RESULT_SCHEMAS: Record<string, JsonSchema> = {
  Health: {
    type: 'object',
    required: ['status', 'apiVersion', 'appVersion', 'license'],
    properties: {
      status: { const: 'ok' },
      apiVersion: { const: 1 },
      appVersion: { type: 'string', examples: ['1.0.0'] },
      license: { enum: ['trial', 'licensed', 'locked'] },
    },
  },
  ActivityRef: {
    type: 'object',
    required: ['activityID', 'activityName'],
    properties: { activityID: UUID, activityName: { type: 'string' } },
  },
  Status: {
    type: 'object',
    required: ['isTracking', 'isOnBreak', 'currentActivity', 'todaySeconds', 'since'],
    properties: {
      isTracking: { type: 'boolean' },
      isOnBreak: { type: 'boolean', description: 'True while the running session is paused; then isTracking is true too.' },
      currentActivity: { oneOf: [{ $ref: '#/components/schemas/ActivityRef' }, { type: 'null' }] },
      todaySeconds: { type: 'integer', minimum: 0, description: "Worked seconds inside today's local calendar day, breaks left out." },
      since: { oneOf: [ISO_TIME, { type: 'null' }], description: 'Start of the running session, or null.' },
    },
  },
  StartResult: {
    type: 'object',
    required: ['activityID', 'activityName', 'created', 'startedAt'],
    properties: { activityID: UUID, activityName: { type: 'string' }, created: { type: 'boolean' }, startedAt: ISO_TIME },
  },
  StoppedSession: {
    type: 'object',
    required: ['activityID', 'activityName', 'startedAt', 'endedAt', 'seconds'],
    properties: {
      activityID: UUID,
      activityName: { type: 'string' },
      startedAt: ISO_TIME,
      endedAt: ISO_TIME,
      seconds: { type: 'integer', minimum: 0, description: 'Worked time of the session, breaks left out.' },
    },
  },
  Entry: {
    type: 'object',
    required: ['entryID', 'activity', 'created', 'startedAt', 'endedAt', 'durationMinutes', 'note'],
    properties: {
      entryID: UUID,
      activity: { $ref: '#/components/schemas/ActivityRef' },
      created: { type: 'boolean', description: 'True only when this request created the activity.' },
      startedAt: ISO_TIME,
      endedAt: ISO_TIME,
      durationMinutes: { type: 'number' },
      note: { type: ['string', 'null'] },
    },
  },
  BranchPrompt: {
    type: 'object',
    description: 'The tracking prompt a branch switch opened; also the data of a branch-prompt event.',
    required: ['promptID', 'branch', 'repo', 'previousBranch'],
    properties: {
      promptID: UUID,
      branch: { type: 'string' },
      repo: { type: ['string', 'null'] },
      previousBranch: { type: ['string', 'null'] },
    },
  },
  Idle: {
    type: 'object',
    description: 'The data of an idle event: the user was idle while tracking.',
    required: ['since', 'seconds'],
    properties: {
      since: { ...ISO_TIME, description: 'When the idleness began.' },
      seconds: { type: 'integer', minimum: 0, description: 'Whole seconds idle so far.' },
    },
  },
  ActivityReportRow: {
    type: 'object',
    required: ['activityID', 'activityName', 'seconds'],
    properties: { activityID: UUID, activityName: { type: 'string' }, seconds: { type: 'integer', minimum: 0 } },
  },
  DayReportRow: {
    type: 'object',
    required: ['date', 'seconds'],
    properties: { date: LOCAL_DATE, seconds: { type: 'integer', minimum: 0 } },
  },
  Report: {
    type: 'object',
    required: ['from', 'to', 'timeZone', 'totalSeconds', 'rows'],
    properties: {
      from: { ...LOCAL_DATE, description: 'First local day of the range (inclusive).' },
      to: { ...LOCAL_DATE, description: 'Last local day of the range (inclusive).' },
      timeZone: { type: 'string', description: 'The IANA time zone the app counts days in.', examples: ['Europe/Berlin'] },
      totalSeconds: { type: 'integer', minimum: 0, description: 'The sum of the rows.' },
      rows: {
        description:
          'by=activity: activities with time, most seconds first, ties by name. by=day: one row per day of the range, zeros included, ascending.',
        oneOf: [
          { type: 'array', items: { $ref: '#/components/schemas/ActivityReportRow' } },
          { type: 'array', items: { $ref: '#/components/schemas/DayReportRow' } },
        ],
      },
    },
  },
};

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

// ---------------------------------------------------------------------------------------
// Requests (docs/protocol.md "Endpoints" rules)

const activityName = (description: string): StringField => ({
  type: 'string',
  description,
  trim: true,
  minLength: 1,
  maxLength: LIMITS.activityNameMax,
  noControlChars: true,
});

const activityID: StringField = { type: 'string', format: 'uuid', description: 'The ID of an existing activity.' };

const createIfMissing: BooleanField = {
  type: 'boolean',
  default: false,
  description: 'Create the activity named `name` when none matches (applies to `name` only).',
};

/** Request bodies of the POST endpoints. */
export const BODY_SCHEMAS = {
  '/activities/start': {
    description: 'Exactly one of `name` and `activityID`.',
    properties: {
      name: activityName('Activity name, looked up case-insensitively.'),
      activityID,
      createIfMissing,
    },
    required: [],
    exactlyOneOf: ['name', 'activityID'],
  },
  '/activities/stop': {
    description: 'An empty body or any JSON object.',
    properties: {},
    required: [],
    emptyAllowed: true,
  },
  '/entries': {
    description: 'Exactly one of `activityID` and `name`.',
    properties: {
      activityID,
      name: activityName('Activity name, looked up case-insensitively.'),
      durationMinutes: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: LIMITS.durationMinutesMax,
        description: 'Length of the block in minutes.',
      },
      note: { type: 'string', maxLength: LIMITS.noteMax, description: 'Free text.' },
      createIfMissing,
      endedAt: {
        type: 'string',
        format: 'date-time',
        maxFutureSeconds: LIMITS.endedAtFutureSeconds,
        description: `End of the block (default: now); not more than ${LIMITS.endedAtFutureSeconds} s in the future. The block is [endedAt − duration, endedAt].`,
      },
    },
    required: ['durationMinutes'],
    exactlyOneOf: ['activityID', 'name'],
  },
  '/branch-changed': {
    description: 'A branch switch reported by a git hook or an editor.',
    properties: {
      branch: {
        type: 'string',
        trim: true,
        minLength: 1,
        maxLength: LIMITS.branchMax,
        description: 'The branch now checked out.',
      },
      repo: { type: 'string', maxLength: LIMITS.repoMax, description: 'Repository path or name.' },
      previousBranch: { type: 'string', maxLength: LIMITS.branchMax, description: 'The branch checked out before.' },
    },
    required: ['branch'],
  },
} as const satisfies Record<string, BodySchema>;

/** The paths that take a JSON body (the POST endpoints). */
export type BodyRoute = keyof typeof BODY_SCHEMAS;

/** What each POST endpoint's validated body is handed to the handler as. */
export interface RequestBodies {
  '/activities/start': StartRequest;
  '/activities/stop': Record<string, never>;
  '/entries': EntryRequest;
  '/branch-changed': BranchRequest;
}

/** Query parameters of the GET endpoints that take any. */
export const QUERY_SCHEMAS = {
  '/activities/search': {
    properties: {
      q: {
        type: 'string',
        default: '',
        description: 'Search text; empty or missing lists the most recently used activities first.',
      },
      limit: {
        type: 'integer',
        minimum: LIMITS.searchLimitMin,
        maximum: LIMITS.searchLimitMax,
        default: LIMITS.searchLimitDefault,
        description: 'Most results to return.',
      },
    },
  },
  '/report': {
    properties: {
      from: {
        type: 'string',
        description: 'First local calendar day of the range, YYYY-MM-DD (inclusive); default today.',
      },
      to: {
        type: 'string',
        description: `Last local calendar day of the range, YYYY-MM-DD (inclusive); default today. Not before from; at most ${LIMITS.reportMaxDays} days in all.`,
      },
      by: { type: 'string', description: 'Rows per `activity` (default) or per `day`.' },
    },
  },
} as const satisfies Record<string, QuerySchema>;

/** The paths that read query parameters. */
export type QueryRoute = keyof typeof QUERY_SCHEMAS;

/** What each GET endpoint's validated query is handed to the handler as. */
export interface RequestQueries {
  '/activities/search': SearchRequest;
  /** Checked by the report use case, which knows today (docs/protocol.md "GET /report"). */
  '/report': { from?: string; to?: string; by?: string };
}

// ---------------------------------------------------------------------------------------
// Endpoints

const GUARD_ERRORS = [
  'missing_auth',
  'clock_drift',
  'bad_signature',
  'forbidden_host',
  'browser_request',
  'nonce_reused',
  'payload_too_large',
  'locked_out',
  'internal_error',
] as const satisfies readonly ErrorCode[];

const WIRED = [...GUARD_ERRORS, 'license_locked', 'not_wired', 'storage_full'] as const satisfies readonly ErrorCode[];
const POSTED = [
  ...WIRED,
  'validation_failed',
  'invalid_json',
  'unsupported_media_type',
  'idempotency_conflict',
] as const satisfies readonly ErrorCode[];

/** The endpoints of docs/protocol.md "Endpoints", "The event stream" and "GET /report". */
export const ENDPOINTS: { readonly [P in RoutePath]: EndpointSchema } = {
  '/healthcheck': {
    method: ROUTES['/healthcheck'],
    operationId: 'healthcheck',
    summary: 'Check that Tock is listening',
    description: 'Answered by the listener itself; works while the license is locked.',
    successStatus: 200,
    result: ref('Health'),
    errors: GUARD_ERRORS,
  },
  '/current': {
    method: ROUTES['/current'],
    operationId: 'getCurrent',
    summary: 'The activity being tracked',
    description: 'The running activity, or null when nothing is tracked.',
    successStatus: 200,
    result: { oneOf: [ref('ActivityRef'), { type: 'null' }] },
    errors: WIRED,
  },
  '/status': {
    method: ROUTES['/status'],
    operationId: 'getStatus',
    summary: 'Tracking state and today’s total',
    description: 'While on a break, isTracking and isOnBreak are both true and since stays the session start.',
    successStatus: 200,
    result: ref('Status'),
    errors: WIRED,
  },
  '/activities/search': {
    method: ROUTES['/activities/search'],
    operationId: 'searchActivities',
    summary: 'Find activities by name',
    description:
      'Best first: exact, prefix, word prefix, substring; case- and accent-insensitive; ties by most recent use. Unknown query parameters are ignored.',
    successStatus: 200,
    result: { type: 'array', items: ref('ActivityRef') },
    query: QUERY_SCHEMAS['/activities/search'],
    errors: [...WIRED, 'validation_failed'],
  },
  '/activities/start': {
    method: ROUTES['/activities/start'],
    operationId: 'startActivity',
    summary: 'Start tracking an activity',
    description:
      'Starting while another activity runs ends that session first. Starting the running activity returns its session unchanged (it only ends a break).',
    successStatus: 200,
    result: ref('StartResult'),
    body: BODY_SCHEMAS['/activities/start'],
    errors: [...POSTED, 'activity_not_found'],
  },
  '/activities/stop': {
    method: ROUTES['/activities/stop'],
    operationId: 'stopActivity',
    summary: 'Stop tracking',
    description: 'The ended session, or null when nothing ran (not an error).',
    successStatus: 200,
    result: { oneOf: [ref('StoppedSession'), { type: 'null' }] },
    body: BODY_SCHEMAS['/activities/stop'],
    errors: POSTED,
  },
  '/entries': {
    method: ROUTES['/entries'],
    operationId: 'logEntry',
    summary: 'Log a block of time',
    description: 'Logs durationMinutes ending at endedAt (default now). Send an Idempotency-Key so that a retry never logs twice.',
    successStatus: 201,
    result: ref('Entry'),
    body: BODY_SCHEMAS['/entries'],
    errors: [...POSTED, 'activity_not_found'],
  },
  '/branch-changed': {
    method: ROUTES['/branch-changed'],
    operationId: 'notifyBranchChange',
    summary: 'Report a branch switch',
    description: "Opens the app's tracking prompt with the branch prefilled.",
    successStatus: 200,
    result: ref('BranchPrompt'),
    body: BODY_SCHEMAS['/branch-changed'],
    errors: POSTED,
  },
  '/events': {
    method: ROUTES['/events'],
    operationId: 'events',
    summary: 'The event stream',
    description:
      'A text/event-stream of signed events (status, branch-prompt, idle), each with the fields id, event, data and sig; see docs/protocol.md "The event stream". Send Last-Event-ID to resume. The 200 is signed over the empty body.',
    successStatus: 200,
    eventStream: true,
    result: { oneOf: [ref('Status'), ref('BranchPrompt'), ref('Idle')] },
    errors: [...WIRED, 'too_many_streams'],
  },
  '/report': {
    method: ROUTES['/report'],
    operationId: 'getReport',
    summary: 'Worked time over a range of days',
    description:
      'Seconds per activity (most first, ties by name) or per day (every day, zeros included) over local calendar days, counted as todaySeconds is. to before from, a range over 366 days or a malformed date is 400 validation_failed.',
    successStatus: 200,
    result: ref('Report'),
    query: QUERY_SCHEMAS['/report'],
    errors: [...WIRED, 'validation_failed'],
  },
};

// ---------------------------------------------------------------------------------------
// Validation

/** The outcome of checking a request: the normalized value, or what is wrong with it. */
export type Validated<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** Context for the checks that need more than the value itself. */
export interface ValidateOptions {
  /** Server clock, ms since the epoch; enables the "not too far in the future" checks. */
  nowMs?: number;
}

/** Keys that could reach an object's prototype if some code copied the body naively. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const CONTROL_CHAR = /\p{Cc}/u;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DIGITS = /^[0-9]+$/;

/** The JSON-Schema pattern equivalent of `noControlChars`, for the documentation. */
export const NO_CONTROL_CHARS_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** True for an RFC 3339 date-time with a real calendar date and a time zone. */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME_PATTERN.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return false;
  if (m[8] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return true;
}

function describeRange(field: NumberField): string {
  const noun = field.type === 'integer' ? 'an integer' : 'a number';
  if (field.minimum !== undefined && field.maximum !== undefined) return `${noun} from ${field.minimum} to ${field.maximum}`;
  const parts: string[] = [];
  if (field.exclusiveMinimum !== undefined) parts.push(`greater than ${field.exclusiveMinimum}`);
  if (field.minimum !== undefined) parts.push(`at least ${field.minimum}`);
  if (field.maximum !== undefined) parts.push(`at most ${field.maximum}`);
  return parts.length ? `${noun} ${parts.join(' and ')}` : noun;
}

/** The one-line message for a field that broke its schema (the same for every way to break it). */
export function fieldRuleMessage(name: string, field: FieldSchema): string {
  switch (field.type) {
    case 'boolean':
      return `${name} must be true or false`;
    case 'number':
    case 'integer':
      return `${name} must be ${describeRange(field)}`;
    case 'string': {
      if (field.format === 'uuid') return `${name} must be a UUID such as 0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12`;
      if (field.format === 'date-time') return `${name} must be an ISO-8601 date-time such as 2026-11-22T09:15:00.000Z`;
      const after = field.trim ? ' after trimming' : '';
      const min = field.minLength ?? 0;
      let rule =
        field.maxLength === undefined
          ? min > 0
            ? `at least ${min} characters${after}`
            : ''
          : min > 0
            ? `${min} to ${field.maxLength} characters${after}`
            : `at most ${field.maxLength} characters`;
      if (field.noControlChars) rule += `${rule ? ', ' : ''}without control characters`;
      return `${name} must be a string${rule ? ' of ' + rule : ''}`;
    }
  }
}

/** Checks one present, non-null value; returns the normalized value or a problem message. */
function checkField(
  name: string,
  field: FieldSchema,
  value: unknown,
  options: ValidateOptions,
): { value: unknown } | { message: string } {
  const broken = { message: fieldRuleMessage(name, field) };
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? { value } : broken;
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return broken;
      if (field.type === 'integer' && !Number.isInteger(value)) return broken;
      if (field.exclusiveMinimum !== undefined && !(value > field.exclusiveMinimum)) return broken;
      if (field.minimum !== undefined && value < field.minimum) return broken;
      if (field.maximum !== undefined && value > field.maximum) return broken;
      return { value };
    }
    case 'string': {
      if (typeof value !== 'string') return broken;
      const text = field.trim ? value.trim() : value;
      if (field.format === 'uuid' && !UUID_PATTERN.test(text)) return broken;
      if (field.format === 'date-time') {
        if (!isDateTime(text)) return broken;
        if (field.maxFutureSeconds !== undefined && options.nowMs !== undefined) {
          if (Date.parse(text) > options.nowMs + field.maxFutureSeconds * 1000) {
            return { message: `${name} must not be more than ${field.maxFutureSeconds} s in the future` };
          }
        }
      }
      if (field.minLength !== undefined || field.maxLength !== undefined) {
        const length = codePoints(text);
        if (field.minLength !== undefined && length < field.minLength) return broken;
        if (field.maxLength !== undefined && length > field.maxLength) return broken;
      }
      if (field.noControlChars && CONTROL_CHAR.test(text)) return broken;
      return { value: text };
    }
  }
}

/** Finds a `__proto__`, `constructor` or `prototype` key anywhere in a parsed JSON value. */
function findForbiddenKey(root: unknown): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) return key;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates a parsed JSON body against a {@link BodySchema}; `undefined` is an empty body. */
export function validateAgainst(schema: BodySchema, body: unknown, options: ValidateOptions = {}): Validated<Record<string, unknown>> {
  if (body === undefined) {
    if (schema.emptyAllowed) return { ok: true, value: {} };
    return { ok: false, problems: [{ field: 'body', message: 'the request body must be a JSON object; it is empty' }] };
  }
  if (!isPlainObject(body)) {
    return { ok: false, problems: [{ field: 'body', message: 'the request body must be a JSON object' }] };
  }
  const forbidden = findForbiddenKey(body);
  if (forbidden !== undefined) {
    return { ok: false, problems: [{ field: forbidden, message: `${forbidden} is not allowed as a field name` }] };
  }
  const problems: FieldProblem[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const given = Object.hasOwn(body, name) ? body[name] : undefined;
    if (given === undefined || given === null) {
      if (schema.required.includes(name)) problems.push({ field: name, message: `${name} is required` });
      continue;
    }
    const checked = checkField(name, field, given, options);
    if ('message' in checked) problems.push({ field: name, message: checked.message });
    else value[name] = checked.value;
  }
  if (schema.exactlyOneOf) {
    const [a, b] = schema.exactlyOneOf;
    const hasA = body[a] !== undefined && body[a] !== null;
    const hasB = body[b] !== undefined && body[b] !== null;
    if (hasA && hasB) problems.push({ field: a, message: `give either ${a} or ${b}, not both` });
    else if (!hasA && !hasB) problems.push({ field: a, message: `${a} or ${b} is required` });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

/**
 * Validates the parsed JSON body of a POST endpoint (`undefined` for an empty body) by the
 * rules of docs/protocol.md "Endpoints": unknown fields are dropped, `null` counts as absent, names are trimmed.
 */
export function validateBody<P extends BodyRoute>(
  route: P,
  body: unknown,
  options: ValidateOptions = {},
): Validated<RequestBodies[P]> {
  return validateAgainst(BODY_SCHEMAS[route], body, options) as unknown as Validated<RequestBodies[P]>;
}

/**
 * Validates the query of a GET endpoint (the part after `?`, or parsed parameters). Missing
 * parameters take their defaults; integers must be plain decimal digits within range.
 */
export function validateQuery<P extends QueryRoute>(
  route: P,
  query: string | URLSearchParams,
): Validated<RequestQueries[P]> {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const schema: QuerySchema = QUERY_SCHEMAS[route];
  const problems: FieldProblem[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const raw = params.get(name);
    if (raw === null) {
      value[name] = field.default;
      continue;
    }
    let given: unknown = raw;
    if (field.type === 'integer' || field.type === 'number') {
      given = DIGITS.test(raw) ? Number(raw) : Number.NaN;
    } else if (field.type === 'boolean') {
      given = raw === 'true' ? true : raw === 'false' ? false : raw;
    }
    const checked = checkField(name, field, given, {});
    if ('message' in checked) problems.push({ field: name, message: checked.message });
    else value[name] = checked.value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: value as unknown as RequestQueries[P] };
}
