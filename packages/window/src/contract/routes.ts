/**
 * The window's API as one table (docs/architecture.md "Add a window route"): each route,
 * `METHOD /path/:param`, with what it takes (body and query fields, checked once by the
 * window's door — server.ts through window-input.ts — before the route runs) and the type of
 * its result. The server's routes are typed by it (a route must return its result type) and the
 * window's caller (packages/window/src/api.ts) too, so the two cannot drift. Plain data and
 * types: the window bundles this module, and it must not reach Node.
 */
import {
  BODY_SCHEMAS,
  LIMITS,
  type ActivityRef,
  type Entry,
  type Report,
  type StartResult,
  type Status,
  type StoppedSession,
  type StringField,
  type Suggestion,
  type Suggestions,
} from '@tock/protocol';
import type { Block } from '@tock/core/blocks';
import type { DesktopSettings, DesktopView, LicenseInfo, ListenerStatus, PromptView, StatusView, StoreSwitch, SyncStatus, TokenView } from './views.ts';
import { answers, byUseCase, returns, type WindowRouteSpec } from './input.ts';
import type { CalendarView } from './calendar.ts';
import type {
  ActivityInfo,
  ActivityLedger,
  Backups,
  BookView,
  CaptureStatus,
  CaptureTimeline,
  Client,
  DailyTotal,
  EditorKey,
  EditorsView,
  ImportCounts,
  InvoicePreview,
  InvoiceSummary,
  LedgerSettings,
  RequestRecord,
  RuleTest,
  RunningElsewhere,
  Snapshot,
  SuggestionRule,
} from './shapes.ts';

const name = (description: string): StringField => ({ type: 'string', description, trim: true, minLength: 1, maxLength: LIMITS.activityNameMax, noControlChars: true });
const day = (description: string): StringField => ({ type: 'string', format: 'date', description });
const text = (description: string): StringField => ({ type: 'string', description });
const instant = (description: string) => byUseCase<string | number>(description);

/** The body of a break, new or edited: its times (core keeps it inside its session). */
const breakTimes = { startedAt: instant('When the break began.'), endedAt: instant('When it ended.') };

/** The body of a rule: what it matches and the activity it labels with (core checks both). */
const ruleFields = {
  match: byUseCase<Partial<Record<string, string>>>('A glob per span field (source, app, title, project, branch, language, entity).'),
  activity: byUseCase<string>('The activity it labels with.'),
};

/** A client's fields (core checks each: name, rate, currency, address). */
const clientFields = {
  name: byUseCase<string>('The client’s name.'),
  rate: byUseCase<string | number | null>('A decimal per hour; null: none.'),
  currency: byUseCase<string | null>('ISO 4217; null: none.'),
  address: byUseCase<string | null>('Its address, for invoices.'),
  taxID: byUseCase<string | null>('Its VAT ID, printed on its invoices; null: none.'),
  taxRate: byUseCase<string | number | null>('Its invoices’ VAT in percent, over the business’s; null: the business’s.'),
  reverseCharge: byUseCase<boolean>('No VAT on its invoices; the reverse-charge note instead.'),
  language: byUseCase<string | null>('Its invoices’ language: en, de, fr, es or ja (BCP 47); null: the default.'),
};

/** An invoice's request: the client and the range of days (core checks them). */
const invoiceFields = {
  properties: { client: byUseCase<string>('The client, by ID or name.'), from: byUseCase<string>('First day, YYYY-MM-DD.'), to: byUseCase<string>('Last day, YYYY-MM-DD.') },
  required: [],
} as const;

/** A download: the answer is a file, read with `download()` in the window. */
const file = { download: true } as const;

/** Every route of the window's API, `METHOD /path` → what it takes and answers. */
export const WINDOW_ROUTES = {
  // What a window draws from.
  'GET /api/state': answers(returns<Snapshot>()),
  'GET /api/status': answers(returns<StatusView>()),

  // Activities and tracking (docs/product.md).
  'GET /api/activities/all': answers(returns<ActivityInfo[]>()),
  'GET /api/activities': answers(returns<ActivityRef[]>(), {
    query: {
      properties: {
        q: { type: 'string', default: '', description: 'Search text; empty lists the most recently used first.' },
        limit: { type: 'integer', minimum: LIMITS.searchLimitMin, maximum: LIMITS.searchLimitMax, default: LIMITS.searchLimitDefault, description: 'Most results.' },
      },
    },
  }),
  // Core checks the new name (and that no other activity has it) and names the field.
  'PATCH /api/activities/:id': answers(returns<ActivityRef>(), { body: { properties: { name: byUseCase<string>('The new name.') }, required: [] } }),
  // Archive or bring back, merge into another (its blocks move, it goes), delete one without
  // blocks (docs/product.md "Activities"); `:id` the activity's ID or name, core checks the rest.
  'POST /api/activities/:id/archive': answers(returns<ActivityRef>(), { body: { properties: { archived: byUseCase<boolean>('true: archived; false: back.') }, required: [] } }),
  'POST /api/activities/:id/merge': answers(returns<{ into: ActivityRef; from: ActivityRef; sessions: number; entries: number }>(), {
    body: { properties: { into: byUseCase<string>('The activity that stays (ID or name).') }, required: [] },
  }),
  'DELETE /api/activities/:id': answers(returns<ActivityRef>()),
  'POST /api/start': answers(returns<StartResult>(), { body: BODY_SCHEMAS['/activities/start'] }),
  'POST /api/stop': answers(returns<StoppedSession | null>()),
  'POST /api/break': answers(returns<Status>()),
  'POST /api/resume': answers(returns<Status>()),
  'GET /api/blocks': answers(returns<Block[]>(), {
    query: {
      properties: {
        from: { type: 'integer', minimum: 0, description: 'Start of the range, ms since the epoch.' },
        to: { type: 'integer', minimum: 0, description: 'End of the range, ms since the epoch.' },
      },
      required: ['from', 'to'],
    },
  }),
  'GET /api/totals': answers(returns<DailyTotal[]>(), { query: { properties: { from: day('First day.'), to: day('Last day.') }, required: ['from', 'to'] } }),
  'POST /api/entries': answers(returns<Entry>(), { body: BODY_SCHEMAS['/entries'] }),
  'PATCH /api/sessions/:id': answers(returns<Block>(), {
    body: {
      properties: { startedAt: instant('New start.'), endedAt: instant('New end.'), activityID: byUseCase<string>('Another activity.'), note: byUseCase<string | null>('The note; null or empty: none.') },
      required: [],
    },
  }),
  'DELETE /api/sessions/:id': answers(returns<null>()),
  'POST /api/sessions/:id/breaks': answers(returns<Block>(), { body: { properties: breakTimes, required: [] } }),
  'PATCH /api/breaks/:id': answers(returns<Block>(), { body: { properties: breakTimes, required: [] } }),
  'DELETE /api/breaks/:id': answers(returns<null>()),
  'DELETE /api/entries/:id': answers(returns<null>()),
  'PATCH /api/entries/:id': answers(returns<Block>(), {
    body: {
      properties: {
        activityID: byUseCase<string>('Another activity.'),
        durationMinutes: byUseCase<number>('Its length in minutes.'),
        endedAt: instant('Its end.'),
        note: byUseCase<string | null>('The note; null or empty: none.'),
      },
      required: [],
    },
  }),

  // Settings › Integrations: the listener, its token, the credential store; the license.
  'GET /api/listener': answers(returns<ListenerStatus>()),
  'POST /api/listener': answers(returns<ListenerStatus>(), {
    body: { properties: { enabled: { type: 'boolean', description: 'On or off; absent: as it is.' }, port: byUseCase<number | string>('The port (checked as `tock listener --port`).') }, required: [] },
  }),
  'GET /api/requests': answers(returns<RequestRecord[]>()),
  'GET /api/token': answers(returns<TokenView>()),
  'POST /api/token/reveal': answers(returns<{ token: string }>()),
  'POST /api/token/rotate': answers(returns<TokenView>()),
  'POST /api/credential-store': answers(returns<StoreSwitch>(), {
    body: { properties: { kind: { type: 'string', enum: ['os', 'file'], description: 'The OS keyring or a file.' } }, required: ['kind'] },
  }),
  'GET /api/license': answers(returns<LicenseInfo>()),
  'POST /api/license/activate': answers(returns<LicenseInfo>(), { body: { properties: { key: { type: 'string', description: 'The license key.' } }, required: ['key'] } }),

  // Settings › Desktop and the idle question (docs/desktop.md).
  'GET /api/desktop': answers(returns<DesktopView>()),
  'PATCH /api/desktop/settings': answers(returns<DesktopSettings>(), { body: 'object' }),
  'POST /api/idle/:id/answer': answers(returns<unknown>(), {
    body: { properties: { choice: { type: 'string', enum: ['keep', 'discard', 'stop'], description: 'What to do with the idle time.' } }, required: ['choice'] },
  }),
  'POST /api/continue': answers(returns<StartResult>()),

  // Settings › Sync (docs/sync.md).
  'GET /api/sync': answers(returns<SyncStatus>()),
  'GET /api/sync/running': answers(returns<RunningElsewhere[]>()),
  'POST /api/sync/enable': answers(returns<unknown>(), {
    body: {
      properties: {
        dir: byUseCase<string>('The sync folder.'),
        name: byUseCase<string>('This device’s name; empty: the host name.'),
        key: byUseCase<string>('The folder key another device shows (tock sync key); empty: none.'),
      },
      required: [],
    },
  }),
  // POST, not GET, as the token's reveal: only an explicit same-origin request gets the key.
  'POST /api/sync/key': answers(returns<{ key: string }>()),
  'POST /api/sync/disable': answers(returns<SyncStatus>()),
  'POST /api/sync/one-timer': answers(returns<SyncStatus>(), { body: { properties: { on: { type: 'boolean', description: 'One timer across devices.' } }, required: ['on'] } }),

  // Reports and Settings › Data.
  'GET /api/report': answers(returns<Report>(), {
    query: {
      properties: {
        period: text('today, week, month, …'),
        from: text('First day.'),
        to: text('Last day.'),
        by: text('activity, day, client or tag.'),
        billable: text('true or false.'),
        client: text('Only this client’s time (its ID), or none: only time without a client.'),
      },
    },
  }),
  'GET /api/report.csv': answers(returns<never>(), {
    ...file,
    query: { properties: { period: text('As the report.'), from: text('First day.'), to: text('Last day.'), by: text('Rows per.'), billable: text('true or false.'), client: text('As the report.') } },
  }),
  'GET /api/export.csv': answers(returns<never>(), { ...file, query: { properties: { from: text('First day.'), to: text('Last day.') } } }),
  'GET /api/export': answers(returns<never>(), { ...file, query: { properties: { format: text('json or csv.'), from: text('First day.'), to: text('Last day.') } } }),
  'POST /api/import': answers(returns<ImportCounts>(), {
    upload: true,
    query: { properties: { format: text('The file’s format; empty: detect.'), tz: text('The zone of times without one.'), name: text('The file’s name, as shown.'), dryRun: { type: 'boolean', default: false, description: 'Only count.' } } },
  }),
  'GET /api/backups': answers(returns<Backups>()),
  'POST /api/backups': answers(returns<{ path: string }>()),

  // Settings › Integrations: editors (docs/integrations.md "WakaTime plugins").
  'GET /api/editors': answers(returns<EditorsView>()),
  'POST /api/editors/enable': answers(returns<EditorKey>()),
  'POST /api/editors/key/rotate': answers(returns<EditorKey>()),
  'POST /api/editors/disable': answers(returns<unknown>()),
  'POST /api/editors/setup': answers(returns<EditorKey>()),

  // Settings › Calendar (docs/calendar.md): calendar files, the person's addresses, this week.
  'GET /api/calendars': answers(returns<CalendarView>()),
  'POST /api/calendars': answers(returns<CalendarView>(), {
    body: { properties: { path: text('The .ics file or folder, its full path.'), name: text('The name it shows as; empty: the file’s.') }, required: ['path'] },
  }),
  'POST /api/calendars/remove': answers(returns<CalendarView>(), { body: { properties: { calendar: text('Its name or path.') }, required: ['calendar'] } }),
  'PUT /api/calendars/me': answers(returns<CalendarView>(), { body: { properties: { addresses: byUseCase<string[]>('Your e-mail addresses.') }, required: [] } }),

  // Settings › Capture and the captured lane (docs/desktop.md "Capture").
  'GET /api/capture': answers(returns<CaptureStatus>()),
  'PATCH /api/capture/settings': answers(returns<CaptureStatus>(), { body: 'object' }),
  'GET /api/capture/timeline': answers(returns<CaptureTimeline>(), { query: { properties: { date: day('The day; absent: today.') } } }),
  'POST /api/capture/forget': answers(returns<{ spans: number; heartbeats: number }>(), { body: { properties: { from: day('First day.'), to: day('Last day.') }, required: ['from', 'to'] } }),
  'POST /api/capture/gnome-extension': answers(returns<unknown>()),

  // The ledger (docs/data.md "The ledger") and invoices.
  'GET /api/clients': answers(returns<Client[]>()),
  'POST /api/clients': answers(returns<Client>(), { body: { properties: clientFields, required: [] } }),
  'PATCH /api/clients/:id': answers(returns<Client>(), { body: { properties: clientFields, required: [] } }),
  'DELETE /api/clients/:id': answers(returns<unknown>()),
  'GET /api/activities/:id/ledger': answers(returns<ActivityLedger>()),
  'PATCH /api/activities/:id/ledger': answers(returns<ActivityLedger>(), {
    body: {
      properties: {
        client: byUseCase<string | null>('The client, by ID or name; null: none.'),
        rate: byUseCase<string | number | null>('A decimal per hour; null: the client’s.'),
        billable: byUseCase<boolean>('Billable by default.'),
        budgetHours: byUseCase<number | string | null>('A budget in hours; null: none.'),
      },
      required: [],
    },
  }),
  'PATCH /api/blocks/:id/ledger': answers(returns<unknown>(), {
    body: { properties: { tags: byUseCase<string[]>('The block’s whole tag list.'), billable: byUseCase<boolean | null>('Its flag; null: the activity’s.') }, required: [] },
  }),
  'GET /api/settings/ledger': answers(returns<LedgerSettings>()),
  'PUT /api/settings/ledger/:key': answers(returns<unknown>(), { body: { properties: { value: byUseCase<unknown>('The setting’s value; null: unset.') }, required: [] } }),
  'GET /api/invoices': answers(returns<InvoiceSummary[]>()),
  'POST /api/invoices/preview': answers(returns<InvoicePreview>(), { body: invoiceFields }),
  'POST /api/invoices': answers(returns<InvoiceSummary | undefined>(), { body: invoiceFields }),
  'GET /api/invoices/:number/:format': answers(returns<never>(), file),
  // Voids a kept invoice: its number stays taken, it renders as VOID, its blocks are free again.
  'POST /api/invoices/:number/void': answers(returns<InvoiceSummary | undefined>()),
  // Which device issues invoices (docs/sync.md "One book"); elsewhere the screen is read-only.
  'GET /api/invoices/book': answers(returns<BookView>()),

  // Suggestions and rules (docs/ui.md "Suggestions lane").
  'GET /api/suggestions': answers(returns<Suggestions>(), { query: { properties: { date: day('The day; absent: today.') } } }),
  'POST /api/suggestions/accept-all': answers(returns<Entry[]>(), { body: { properties: { date: day('The day; absent: today.') }, required: [] } }),
  'POST /api/suggestions/:id/accept': answers(returns<Entry>(), {
    body: {
      properties: {
        activityName: name('The activity (created when new); default: its label.'),
        start: byUseCase<string>('A new start, ISO 8601 (dragged edge).'),
        end: byUseCase<string>('A new end, ISO 8601 (dragged edge).'),
      },
      required: [],
    },
  }),
  'POST /api/suggestions/:id/dismiss': answers(returns<Suggestion>()),
  'GET /api/rules': answers(returns<SuggestionRule[]>()),
  'POST /api/rules/test': answers(returns<RuleTest>(), { body: { properties: ruleFields, required: [] } }),
  'POST /api/rules': answers(returns<SuggestionRule>(), { body: { properties: ruleFields, required: [] } }),
  'PATCH /api/rules/:id': answers(returns<SuggestionRule>(), { body: { properties: { ...ruleFields, at: { type: 'integer', minimum: 0, description: 'Its new place, from 0.' } }, required: [] } }),
  'DELETE /api/rules/:id': answers(returns<null>()),
  'GET /api/rules/:id/test': answers(returns<RuleTest>()),

  // Branch prompts (docs/ui.md "Branch prompt").
  'GET /api/prompts': answers(returns<PromptView[]>()),
  'POST /api/prompts/:id/track': answers(returns<StartResult>(), {
    body: { properties: { activityID: byUseCase<string>('An existing activity.'), name: byUseCase<string>('A name (created when new); default: the branch.') }, required: [] },
  }),
  'POST /api/prompts/:id/dismiss': answers(returns<null>()),
} as const satisfies Record<string, WindowRouteSpec>;

/** A route of the window's API, `METHOD /path`. */
export type WindowRouteKey = keyof typeof WINDOW_ROUTES;
