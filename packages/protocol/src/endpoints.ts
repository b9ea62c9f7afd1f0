/**
 * Everything the documentation and the listener need to know about each endpoint: method,
 * success status, result schema, request schemas and the error codes it can answer with.
 * The listener's route table (packages/listener/src/routes.ts) and spec/openapi.yaml are
 * built from {@link ENDPOINTS}.
 */

import { ROUTES, type RoutePath } from './constants.ts';
import type { ErrorCode } from './errors.ts';
import { schemaRef, type JsonSchema } from './json-schema.ts';
import { BODY_SCHEMAS, QUERY_SCHEMAS, type BodySchema, type QuerySchema } from './requests.ts';

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

const ref = schemaRef;

const GUARD_ERRORS = [
  'missing_auth',
  'clock_drift',
  'bad_signature',
  'forbidden_host',
  'browser_request',
  'nonce_reused',
  'payload_too_large',
  'request_timeout',
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
      'A text/event-stream of signed events (status, branch-prompt, idle, budget), each with the fields id, event, data and sig; see docs/protocol.md "The event stream". Send Last-Event-ID to resume. The 200 is signed over the empty body.',
    successStatus: 200,
    eventStream: true,
    result: { oneOf: [ref('Status'), ref('BranchPrompt'), ref('Idle'), ref('Budget')] },
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
  '/suggestions': {
    method: ROUTES['/suggestions'],
    operationId: 'getSuggestions',
    summary: 'Untracked time where capture saw work',
    description:
      'A local day\'s suggestions (default today), oldest first: stretches no block covers where window or editor spans were seen, labelled by the rules or the editor project. Dismissed ones are left out. Nothing else of capture is answered: sources carry the application, project and branch, and the title only while the capture setting titles is on.',
    successStatus: 200,
    result: ref('Suggestions'),
    query: QUERY_SCHEMAS['/suggestions'],
    errors: [...WIRED, 'validation_failed'],
  },
  '/suggestions/accept': {
    method: ROUTES['/suggestions/accept'],
    operationId: 'acceptSuggestion',
    summary: 'Log a suggestion as an entry',
    description:
      'Makes an entry for the suggestion\'s stretch with the note "from capture" (its activity created when new) and answers as POST /entries does. An id that is no current suggestion (accepted, dismissed or changed) is 404 suggestion_not_found; an unlabelled one without activityName is 400.',
    successStatus: 201,
    result: ref('Entry'),
    body: BODY_SCHEMAS['/suggestions/accept'],
    errors: [...POSTED, 'suggestion_not_found'],
  },
};
