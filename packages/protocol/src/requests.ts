/**
 * The requests of the endpoints (docs/protocol.md "Endpoints" rules, "GET /report"): the
 * fields of each POST body and GET query, with the rules the listener checks (validate.ts)
 * and `scripts/gen-openapi.ts` documents. What a validated request is handed on as, per route.
 */

import { LIMITS } from './constants.ts';
import type { AcceptSuggestionRequest, BranchRequest, EntryRequest, ReportRequest, SearchRequest, StartRequest, SuggestionsRequest } from './wire.ts';

interface FieldBase {
  description: string;
}

/** A string field. Lengths count Unicode code points, as JSON Schema does. */
export interface StringField extends FieldBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  /** `date-time`: RFC 3339 with a zone; `date`: a local calendar day, YYYY-MM-DD. */
  format?: 'uuid' | 'date-time' | 'date';
  /** The only values allowed. */
  enum?: readonly string[];
  /** Lengths are checked after trimming white space at both ends (OpenAPI: `x-trimmed`). */
  trim?: boolean;
  /** Control characters and bidirectional overrides (`FORBIDDEN_NAME_CHARACTER`) are refused. */
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

/** A list of strings, each held to `items` (tags, docs/protocol.md "Endpoints"). */
export interface ArrayField extends FieldBase {
  type: 'array';
  items: StringField;
  maxItems: number;
  default?: never;
}

/** One field of a request body or query. */
export type FieldSchema = StringField | NumberField | BooleanField | ArrayField;

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
      note: {
        type: 'string',
        maxLength: LIMITS.noteMax,
        description: "Free text about the session, as an entry's note. Given while that activity already runs, it replaces the running session's note.",
      },
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
      tags: {
        type: 'array',
        items: activityName('A tag: a name by the same rules as an activity name.'),
        maxItems: LIMITS.tagsMax,
        description: `Tags of the block (at most ${LIMITS.tagsMax}; names by the activity name rules; repeated ones kept once, case-insensitively).`,
      },
      billable: {
        type: 'boolean',
        description: "Whether the block is billable; absent: the activity's default.",
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
  '/suggestions/accept': {
    description: 'A current suggestion (`GET /suggestions`); `activityName` is required when it is unlabelled.',
    properties: {
      id: { type: 'string', trim: true, minLength: 1, maxLength: 64, description: 'The suggestion\'s id.' },
      activityName: activityName('The activity to log it as (created when new); default: its label.'),
    },
    required: ['id'],
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
  '/suggestions/accept': AcceptSuggestionRequest;
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
        format: 'date',
        description: 'First local calendar day of the range, YYYY-MM-DD (inclusive); default today.',
      },
      to: {
        type: 'string',
        format: 'date',
        description: `Last local calendar day of the range, YYYY-MM-DD (inclusive); default today. Not before from; at most ${LIMITS.reportMaxDays} days in all.`,
      },
      by: {
        type: 'string',
        enum: ['activity', 'day', 'client', 'tag'],
        default: 'activity',
        description: 'Rows per `activity` (default), per `day`, per `client` or per `tag`.',
      },
      billable: {
        type: 'boolean',
        description: 'Only billable blocks (`true`) or only the others (`false`); absent: every block.',
      },
    },
  },
  '/suggestions': {
    properties: {
      date: { type: 'string', format: 'date', description: 'The local calendar day, YYYY-MM-DD; default today.' },
    },
  },
} as const satisfies Record<string, QuerySchema>;

/** The paths that read query parameters. */
export type QueryRoute = keyof typeof QUERY_SCHEMAS;

/** What each GET endpoint's validated query is handed to the handler as. */
export interface RequestQueries {
  '/activities/search': SearchRequest;
  /** The range itself (to before from, too long) is checked by the use case, which knows today. */
  '/report': ReportRequest;
  '/suggestions': SuggestionsRequest;
}
