/**
 * The results of the endpoints (docs/protocol.md "Endpoints", "The event stream", "GET /report")
 * as JSON Schemas: the one source of their shape. wire.ts derives the TypeScript types from
 * them, `scripts/gen-openapi.ts` writes them into spec/openapi.yaml, and the Python client's
 * drift tests read them there.
 */

import { schemaRef, type JsonSchema } from './json-schema.ts';

const ISO_TIME = { type: 'string', format: 'date-time', examples: ['2026-11-22T09:15:00.000Z'] } as const;
const UUID = { type: 'string', format: 'uuid' } as const;
const LOCAL_DATE = { type: 'string', format: 'date', examples: ['2026-11-22'] } as const;
const AMOUNT = {
  type: 'string',
  pattern: '^[0-9]+(\\.[0-9]+)?$',
  description: "A decimal amount in the currency's minor unit (never a binary float).",
  examples: ['1062.50'],
} as const;
const CURRENCY = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.', examples: ['EUR'] } as const;

/** What every report row carries for the ledger (docs/protocol.md "GET /report"). */
const LEDGER_FIELDS = {
  billedSeconds: {
    type: 'integer',
    minimum: 0,
    description: 'The billable part of the row as billed: worked seconds rounded by the setting rounding (per block, or per activity and day).',
  },
  amount: { oneOf: [AMOUNT, { type: 'null' }], description: 'billedSeconds × rate, rounded half-up to the minor unit; null where no rate applies, or where the row is billed in several currencies (see amounts).' },
  currency: { oneOf: [CURRENCY, { type: 'null' }], description: 'The currency of amount; null with it.' },
  amounts: {
    type: 'array',
    items: schemaRef('Amount'),
    description:
      'What the row is worth in each currency it is billed in, sorted by currency code: one entry when amount is set, several when the row is billed in several currencies (amount and currency null then), none without a rate. Currencies are never added together.',
  },
} as const;

/**
 * Named result schemas, referenced as `#/components/schemas/<name>`. Every object forbids
 * fields it does not list (`additionalProperties: false`): a result carries exactly its fields.
 */
export const RESULT_SCHEMAS = {
  Health: {
    type: 'object',
    additionalProperties: false,
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
    additionalProperties: false,
    required: ['activityID', 'activityName'],
    properties: { activityID: UUID, activityName: { type: 'string' } },
  },
  Status: {
    type: 'object',
    additionalProperties: false,
    required: ['isTracking', 'isOnBreak', 'currentActivity', 'todaySeconds', 'since'],
    properties: {
      isTracking: { type: 'boolean' },
      isOnBreak: { type: 'boolean', description: 'True while the running session is paused; then isTracking is true too.' },
      currentActivity: { oneOf: [schemaRef('ActivityRef'), { type: 'null' }] },
      todaySeconds: { type: 'integer', minimum: 0, description: "Worked seconds inside today's local calendar day, breaks left out." },
      since: { oneOf: [ISO_TIME, { type: 'null' }], description: 'Start of the running session, or null.' },
    },
  },
  StartResult: {
    type: 'object',
    additionalProperties: false,
    required: ['activityID', 'activityName', 'created', 'startedAt'],
    properties: { activityID: UUID, activityName: { type: 'string' }, created: { type: 'boolean' }, startedAt: ISO_TIME },
  },
  StoppedSession: {
    type: 'object',
    additionalProperties: false,
    required: ['activityID', 'activityName', 'startedAt', 'endedAt', 'seconds', 'kept'],
    properties: {
      activityID: UUID,
      activityName: { type: 'string' },
      startedAt: ISO_TIME,
      endedAt: ISO_TIME,
      seconds: { type: 'integer', minimum: 0, description: 'Worked time of the session, breaks left out.' },
      kept: {
        type: 'boolean',
        description: 'false: the session was shorter than the setting minSessionSeconds, had no note and was not kept (docs/data.md).',
      },
    },
  },
  Entry: {
    type: 'object',
    additionalProperties: false,
    required: ['entryID', 'activity', 'created', 'startedAt', 'endedAt', 'durationMinutes', 'note'],
    properties: {
      entryID: UUID,
      activity: schemaRef('ActivityRef'),
      created: { type: 'boolean', description: 'True only when this request created the activity.' },
      startedAt: ISO_TIME,
      endedAt: ISO_TIME,
      durationMinutes: { type: 'number' },
      note: { type: ['string', 'null'] },
    },
  },
  BranchPrompt: {
    type: 'object',
    additionalProperties: false,
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
    additionalProperties: false,
    description: 'The data of an idle event: the user was idle while tracking.',
    required: ['since', 'seconds'],
    properties: {
      since: { ...ISO_TIME, description: 'When the idleness began.' },
      seconds: { type: 'integer', minimum: 0, description: 'Whole seconds idle so far.' },
    },
  },
  Budget: {
    type: 'object',
    additionalProperties: false,
    description: 'The data of a budget event: an activity\'s worked time (all of it) passed 80 % or 100 % of its budget for the first time.',
    required: ['activityID', 'activityName', 'usedSeconds', 'budgetSeconds', 'percent'],
    properties: {
      activityID: UUID,
      activityName: { type: 'string' },
      usedSeconds: { type: 'integer', minimum: 0, description: 'Worked seconds of all its blocks so far.' },
      budgetSeconds: { type: 'integer', minimum: 0, description: 'The budget, in seconds.' },
      percent: { type: 'integer', enum: [80, 100], description: 'The threshold passed.' },
    },
  },
  ActivityReportRow: {
    type: 'object',
    additionalProperties: false,
    required: ['activityID', 'activityName', 'seconds', 'billedSeconds', 'amount', 'currency', 'amounts'],
    properties: { activityID: UUID, activityName: { type: 'string' }, seconds: { type: 'integer', minimum: 0 }, ...LEDGER_FIELDS },
  },
  DayReportRow: {
    type: 'object',
    additionalProperties: false,
    required: ['date', 'seconds', 'billedSeconds', 'amount', 'currency', 'amounts'],
    properties: { date: LOCAL_DATE, seconds: { type: 'integer', minimum: 0 }, ...LEDGER_FIELDS },
  },
  ClientReportRow: {
    type: 'object',
    additionalProperties: false,
    required: ['clientID', 'clientName', 'seconds', 'billedSeconds', 'amount', 'currency', 'amounts'],
    properties: {
      clientID: { oneOf: [UUID, { type: 'null' }], description: 'null: the time of activities without a client.' },
      clientName: { type: ['string', 'null'] },
      seconds: { type: 'integer', minimum: 0, description: "The client's own covered time: a second two of its activities share counts once." },
      ...LEDGER_FIELDS,
    },
  },
  TagReportRow: {
    type: 'object',
    additionalProperties: false,
    required: ['tag', 'seconds', 'billedSeconds', 'amount', 'currency', 'amounts'],
    properties: {
      tag: { type: ['string', 'null'], description: 'null: the time of blocks without a tag. A block with two tags counts in both rows.' },
      seconds: { type: 'integer', minimum: 0, description: "The tag's own covered time." },
      ...LEDGER_FIELDS,
    },
  },
  Amount: {
    type: 'object',
    additionalProperties: false,
    required: ['currency', 'amount'],
    properties: { currency: CURRENCY, amount: AMOUNT },
  },
  Report: {
    type: 'object',
    additionalProperties: false,
    required: ['from', 'to', 'timeZone', 'totalSeconds', 'overlapSeconds', 'rows', 'amounts', 'targetSeconds', 'balanceSeconds'],
    properties: {
      from: { ...LOCAL_DATE, description: 'First local day of the range (inclusive).' },
      to: { ...LOCAL_DATE, description: 'Last local day of the range (inclusive).' },
      timeZone: { type: 'string', description: 'The IANA time zone the app counts days in.', examples: ['Europe/Berlin'] },
      totalSeconds: {
        type: 'integer',
        minimum: 0,
        description: 'The time covered in the range, a second covered by several blocks counted once. by=day: the sum of the rows.',
      },
      overlapSeconds: {
        type: 'integer',
        minimum: 0,
        description:
          'How much more the by=activity rows add up to than totalSeconds: time covered by blocks of several activities at once, counted once per activity there. The same figure whichever way the rows are grouped.',
      },
      rows: {
        description:
          'by=activity: activities with time, most seconds first, ties by name. by=day: one row per day of the range, zeros included, ascending.',
        type: 'array',
        items: { oneOf: [schemaRef('ActivityReportRow'), schemaRef('DayReportRow'), schemaRef('ClientReportRow'), schemaRef('TagReportRow')] },
      },
      amounts: {
        type: 'array',
        items: schemaRef('Amount'),
        description:
          'What the range is worth per currency, by currency code: the sum of the by=activity rows\' amounts (each rounded half-up), whatever the grouping. Currencies are never added together.',
      },
      targetSeconds: {
        type: ['integer', 'null'],
        minimum: 0,
        description: 'The targets of the range\'s days up to and including today (setting targets); null when no targets are set.',
      },
      balanceSeconds: { type: ['integer', 'null'], description: 'totalSeconds − targetSeconds; null when no targets are set.' },
    },
  },
  SuggestionSource: {
    type: 'object',
    additionalProperties: false,
    description: 'What capture saw in a suggestion: one row per source, application, title, project and branch.',
    required: ['source', 'app', 'title', 'project', 'branch', 'seconds'],
    properties: {
      source: { enum: ['window', 'editor', 'browser', 'calendar'], description: 'calendar: a meeting (app is the calendar, title its summary; docs/calendar.md); browser: pages of the WakaTime browser extension (app is the browser).' },
      app: { type: ['string', 'null'], description: 'The focused application (window spans).' },
      title: { type: ['string', 'null'], description: "The window's title: null unless the capture setting titles is on." },
      project: { type: ['string', 'null'], description: "The editor's project (editor spans)." },
      branch: { type: ['string', 'null'], description: "The editor's branch (editor spans)." },
      seconds: { type: 'integer', minimum: 0, description: 'Whole seconds of the suggestion this source was seen in.' },
    },
  },
  Suggestion: {
    type: 'object',
    additionalProperties: false,
    description: 'A stretch of untracked time where capture saw work, labelled with an activity (or not).',
    required: ['id', 'start', 'end', 'seconds', 'activityID', 'activityName', 'sources', 'ruleID'],
    properties: {
      id: { type: 'string', description: 'The same for the same day, start, end and label.', examples: ['20261122-3f2a9c0d51e4b7a8'] },
      start: ISO_TIME,
      end: ISO_TIME,
      seconds: { type: 'integer', minimum: 0, description: 'Whole seconds from start to end.' },
      activityID: { oneOf: [UUID, { type: 'null' }], description: "The label's activity; null when unlabelled or when the rule names an activity that does not exist yet." },
      activityName: { type: ['string', 'null'], description: 'The label; null: unlabelled (accepting it needs activityName).' },
      sources: { type: 'array', items: schemaRef('SuggestionSource'), description: 'Most seconds first.' },
      ruleID: { type: ['string', 'null'], description: 'The rule that labelled it; null: labelled by its editor project, or unlabelled.' },
    },
  },
  Suggestions: {
    type: 'object',
    additionalProperties: false,
    required: ['date', 'suggestions'],
    properties: {
      date: { ...LOCAL_DATE, description: 'The local day.' },
      suggestions: { type: 'array', items: schemaRef('Suggestion'), description: 'Oldest first; dismissed ones left out.' },
    },
  },
} as const satisfies { readonly [name: string]: JsonSchema };
