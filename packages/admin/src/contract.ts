/**
 * The admin socket's contract (docs/architecture.md "Add an admin command"): one table of
 * route → input schema → result type, shared by the app that answers (packages/app/src/admin/server.ts checks
 * every input against it once, with @tock/protocol's validator) and the CLI that asks
 * (call.ts types every answer by it). A route is `METHOD /path`, as it travels on the
 * socket.
 *
 * An input names every field it takes: checked before the handler runs (the listener's field
 * rules and messages; `refusals` gives a field its own line where the CLI's wording is the better
 * one, as a @tock/protocol rule that `tock` words in the person's language), or, when the use case checks it itself (core's `validation_failed` problems, which name
 * the field), `sent<T>()`: handed on as sent and only typed here. Unknown fields are dropped.
 *
 * Every route may be refused instead of answered: `{ok: false, error, code, field?, details?}`
 * (a streamed one in its trailers), the refusal's one line, its problem code and the field it is
 * about (admin.ts). The caller gets it back as an AdminError, a `Problem` with that code and
 * field, so a command says a refused field as its flag without reading the line.
 */
import type { Report, ImportResult, ExportCounts, Client, ActivityLedger, ActivityMerge, BlockLedger, InvoiceSummary, SuggestionRule, RuleTest, Timeline } from '@tock/core';
import type { RequestRecord } from '@tock/listener';
import type { ActivityRef, BranchPrompt, Entry, StartResult, Status, StoppedSession, Suggestion, Suggestions } from '@tock/protocol';
import { BODY_SCHEMAS, MAX_PORT, MIN_LISTENER_PORT } from '@tock/protocol';
import { answer, day, dayFormat, flagDay, id, NONE, sent, shown, streamed, text, type AdminRouteSpec, type InputOf, type RESULT, type Streamed } from './route-spec.ts';
import type { BookView, SyncEnableResult, SyncStatus } from '@tock/sync/status';
import type {
  CalendarListing,
  CalendarSource,
  CaptureStatus,
  CoveringBlock,
  DesktopSettings,
  DesktopView,
  EditorKeyResult,
  EditorsStatus,
  GnomeExtensionInstall,
  IdleAnswer,
  IdleQuestion,
  InvoiceStreamSummary,
  LicenseInfo,
  ListenerStatus,
  MatrixReport,
  TrackingHealth,
  VersionedStatus,
  WakatimeSetup,
} from './views.ts';

export type { AdminInputSchema, AdminRouteSpec, InputOf } from './route-spec.ts';
export type { InvoiceStreamSummary, TrackingHealth } from './views.ts';

/** The input of a route that takes a listener's request body: its fields and the fields it requires. */
const listenerBody = <P extends '/activities/start' | '/entries' | '/branch-changed'>(path: P) => ({ fields: BODY_SCHEMAS[path].properties, required: BODY_SCHEMAS[path].required });

/** What a capture export (`{capture: true}`) counts. */
type CaptureExportCounts = { days: number; spans: number };


/** A client's fields as `tock clients add/edit` send them (`null` clears one); core checks each. */
const CLIENT_FIELDS = {
  rate: sent<string | null>('The hourly rate, a decimal.'),
  currency: sent<string | null>('ISO 4217, three letters.'),
  address: sent<string | null>('The postal address, lines.'),
  taxID: sent<string | null>('The VAT or tax ID.'),
  taxRate: sent<string | null>('Percent, overriding the business setting.'),
  reverseCharge: sent<boolean>('Invoices carry no tax and the reverse-charge note.'),
  language: sent<string | null>('The invoices\' language: en, de, fr, es or ja.'),
} as const;
const activity = sent<string>("The activity's id or name.");
const blockID = sent<string>('The block\'s id, or "last".');
const invoiceOf = {
  client: sent<string>("The client's id or name."),
  from: sent<string>('The first day, YYYY-MM-DD.'),
  to: sent<string>('The last day, YYYY-MM-DD.'),
  format: sent<string>('pdf, html or csv; default pdf.'),
  showWorked: sent<boolean>('The worked time beside the billed.'),
} as const;
const ruleOf = { match: sent<RuleMatch>('The rule\'s pattern (app, title, project, branch globs).'), activity: sent<string>('The activity it suggests.') } as const;

/** A rule's pattern as `tock rules` sends it (core checks it). */
type RuleMatch = Record<string, unknown>;

/** Every admin route of the app (docs/cli.md "The contract"). */
export const ADMIN_ROUTES = {
  // The app and its listener (admin/app-routes.ts).
  'GET /ping': { input: NONE, result: answer<{ home: string; restoring?: boolean }>() },
  'GET /listener': { input: NONE, result: answer<ListenerStatus>() },
  'POST /listener/on': {
    input: {
      fields: { port: { type: 'integer', minimum: MIN_LISTENER_PORT, maximum: MAX_PORT, description: 'The port to move to; default: the last one.' } },
      required: [],
      refusals: { port: (sent) => ({ rule: 'portRange', values: { min: MIN_LISTENER_PORT, max: MAX_PORT, sent: String(sent) } }) },
    },
    result: answer<ListenerStatus>(),
  },
  'POST /listener/off': { input: NONE, result: answer<ListenerStatus>() },
  'GET /token': { input: NONE, result: answer<{ token: string }>() },
  'POST /token/rotate': { input: NONE, result: answer<{ token: string }>() },
  'GET /requests': { input: NONE, result: answer<RequestRecord[]>() },
  'GET /license': { input: NONE, result: answer<LicenseInfo>() },
  'POST /license/activate': {
    input: { fields: { key: text('The license key.') }, required: ['key'], refusals: { key: () => ({ rule: 'giveLicenseKey' }) } },
    result: answer<LicenseInfo>(),
  },
  'POST /break': { input: NONE, result: answer<Status>() },
  'POST /resume': { input: NONE, result: answer<Status>() },
  'GET /report': {
    input: {
      fields: {
        period: sent<string>('A named range: today, yesterday, week, last-week, month, last-month, year, last-year.'),
        from: sent<string>('The first day.'),
        to: sent<string>('The last day.'),
        by: sent<string>('activity, day, client or tag.'),
        billable: sent<boolean>('Only billable (true) or non-billable (false) time.'),
        client: sent<string>("A client's id or name."),
        matrix: sent<boolean>('Each activity by day as well.'),
      },
      required: [],
    },
    result: answer<Report | MatrixReport>(),
  },
  // Streamed: a long history is sent as it is read, never built in memory.
  'POST /export': {
    input: {
      fields: { capture: { type: 'boolean', description: 'The capture spans instead of the blocks.' }, from: sent<string>('The first day.'), to: sent<string>('The last day.'), format: sent<string>('json or csv.') },
      required: [],
    },
    result: streamed<ExportCounts | CaptureExportCounts>(),
  },
  'POST /import': {
    input: {
      fields: {
        path: sent<string>('The file, an absolute path.'),
        name: sent<string>('The name it is called in messages.'),
        format: sent<string>('tock, toggl, timewarrior or watson; default: found from the file.'),
        tz: sent<string>('The IANA zone of times without one.'),
        dryRun: sent<boolean>('Count what would be imported; keep nothing.'),
      },
      required: [],
    },
    result: answer<ImportResult>(),
  },
  'POST /blocks/covering': {
    input: {
      fields: { at: { type: 'string', format: 'date-time', description: 'The instant, ISO-8601.' } },
      required: ['at'],
      refusals: { at: () => ({ rule: 'giveInstant', values: { example: '{"at": "2026-11-23T12:00:00Z"}' } }) },
    },
    result: answer<{ blocks: CoveringBlock[] }>(),
  },
  'POST /backup': {
    input: { fields: { file: text('An absolute path; default: the backups folder.') }, required: [], refusals: { file: () => ({ rule: 'backupPath' }) } },
    result: answer<{ path: string }>(),
  },

  // The person's own tracking commands (admin/tracking-routes.ts): the listener's paths, its
  // input rules (checked by the use case's route with @tock/protocol's validators) and results.
  // A listener's request takes the listener's fields and rules (`listenerBody`); the route checks
  // the rest of the listener's schema (exactly one of two fields, times against its clock).
  'GET /healthcheck': { input: NONE, result: answer<TrackingHealth>() },
  'GET /current': { input: NONE, result: answer<ActivityRef | null>() },
  'GET /status': { input: NONE, result: answer<Status>() },
  // A long poll: answered when the status's version is no longer `after`, or after 50 s as it is.
  'POST /status/next': { input: { fields: { after: text('The version the caller has; absent: answer at once.') }, required: [] }, result: answer<VersionedStatus>() },
  'POST /activities/search': { input: { fields: { q: sent<string>('Words of the name.'), limit: sent<number>('At most this many.') }, required: [] }, result: answer<ActivityRef[]>() },
  'POST /activities/start': { input: listenerBody('/activities/start'), result: answer<StartResult>() },
  'POST /activities/stop': { input: NONE, result: answer<StoppedSession | null>() },
  'POST /entries': { input: listenerBody('/entries'), result: answer<Entry>() },
  'POST /branch-changed': { input: listenerBody('/branch-changed'), result: answer<BranchPrompt>() },

  // The desktop part (admin/desktop-routes.ts).
  'GET /idle': { input: NONE, result: answer<{ question: IdleQuestion | null; idleSource: DesktopView['idleSource'] }>() },
  'POST /idle/answer': {
    input: {
      fields: { choice: { type: 'string', enum: ['keep', 'discard', 'stop'], description: 'What to do with the idle time.' }, questionID: text('The question answered.') },
      required: ['choice'],
      refusals: { choice: (sent) => ({ rule: 'idleChoice', values: { sent: shown(sent) } }) },
    },
    result: answer<IdleAnswer>(),
  },
  'POST /continue': { input: NONE, result: answer<StartResult>() },
  // `{file: true}`: a launch file the CLI opens a browser on; otherwise an address to print.
  'POST /open': {
    input: { fields: { file: { type: 'boolean', description: 'A launch file instead of an address.' } }, required: [] },
    result: answer<{ url: string } | { origin: string; file: string }>(),
  },
  'GET /desktop': { input: NONE, result: answer<DesktopView>() },
  // Only the settings given change; the desktop checks each and names it.
  'POST /desktop': {
    input: {
      fields: {
        idleThresholdMinutes: sent<number>('Minutes without input before Tock asks; 0: off.'),
        reminderEnabled: sent<boolean>('Remind when nothing is tracked.'),
        reminderAfterMinutes: sent<number>('Minutes with nothing tracked before the reminder.'),
        workingHours: sent<DesktopSettings['workingHours']>('When the reminder may come: from, to, days.'),
        tray: sent<boolean>('Shown in the tray.'),
        clockFormat: sent<DesktopSettings['clockFormat']>('24h, 12h or system.'),
      },
      required: [],
    },
    result: answer<DesktopSettings>(),
  },

  // Capture and the timeline (admin/capture-routes.ts).
  'GET /capture': { input: NONE, result: answer<CaptureStatus>() },
  'POST /capture/set': {
    input: { fields: { key: text('The setting.'), value: sent<unknown>('Its value.') }, required: ['key'], refusals: { key: () => ({ rule: 'giveCaptureSetting' }) } },
    result: answer<CaptureStatus>(),
  },
  'POST /capture/forget': {
    input: {
      fields: { from: day('The first day.'), to: day('The last day.') },
      required: ['from', 'to'],
      refusals: {
        from: (sent) => flagDay('--from', sent),
        to: (sent) => flagDay('--to', sent),
      },
    },
    result: answer<{ spans: number; heartbeats: number }>(),
  },
  'POST /timeline': {
    input: { fields: { date: day('The day; default today.') }, required: [], refusals: { date: dayFormat } },
    result: answer<Timeline>(),
  },
  'POST /capture/gnome-extension/install': { input: NONE, result: answer<GnomeExtensionInstall>() },

  // Calendars (admin/calendar-routes.ts, docs/calendar.md).
  'GET /calendars': { input: NONE, result: answer<CalendarListing[]>() },
  'POST /calendars/add': {
    input: {
      fields: { path: { type: 'string', minLength: 1, description: "The .ics file or folder's full path." }, name: text('The name it shows as.') },
      required: ['path'],
      refusals: { path: () => ({ rule: 'giveCalendarPath' }) },
    },
    result: answer<CalendarListing>(),
  },
  'POST /calendars/remove': {
    input: { fields: { calendar: { type: 'string', minLength: 1, description: 'Its name or path.' } }, required: ['calendar'], refusals: { calendar: () => ({ rule: 'giveCalendar' }) } },
    result: answer<CalendarSource>(),
  },

  // Suggestions and their rules (admin/suggestions-routes.ts).
  'POST /suggestions': {
    input: { fields: { date: day('The day; default today.') }, required: [], refusals: { date: dayFormat } },
    result: answer<Suggestions>(),
  },
  // `{all: true}` accepts every labelled suggestion of the day: `{entries}`.
  'POST /suggestions/accept': {
    input: {
      fields: {
        all: { type: 'boolean', description: 'Every labelled suggestion of `date`.' },
        date: day('The day of `all`; default today.'),
        id: id('suggestion'),
        activityName: text('Another activity to log it as.'),
        start: text('Another start.'),
        end: text('Another end.'),
      },
      required: [],
      refusals: { date: dayFormat, id: () => ({ rule: 'giveId', values: { what: 'suggestion' } }) },
    },
    result: answer<Entry | { entries: Entry[] }>(),
  },
  'POST /suggestions/dismiss': { input: { fields: { id: id('suggestion') }, required: ['id'], refusals: { id: () => ({ rule: 'giveId', values: { what: 'suggestion' } }) } }, result: answer<Suggestion>() },
  'GET /rules': { input: NONE, result: answer<SuggestionRule[]>() },
  'POST /rules/add': {
    input: { fields: { at: { type: 'integer', minimum: 0, description: 'Its place in the list.' }, ...ruleOf }, required: [] },
    result: answer<SuggestionRule>(),
  },
  'POST /rules/edit': {
    input: {
      fields: { id: id('rule'), at: { type: 'integer', minimum: 0, description: 'Its new place.' }, ...ruleOf },
      required: ['id'],
      refusals: { id: () => ({ rule: 'giveId', values: { what: 'rule' } }) },
    },
    result: answer<SuggestionRule>(),
  },
  'POST /rules/remove': { input: { fields: { id: id('rule') }, required: ['id'], refusals: { id: () => ({ rule: 'giveId', values: { what: 'rule' } }) } }, result: answer<{ removed: string }>() },
  'POST /rules/test': {
    input: { fields: { id: text('A kept rule, instead of `match` and `activity`.'), ...ruleOf, days: sent<number>('The days back it is tried on.') }, required: [] },
    result: answer<RuleTest>(),
  },

  // Sync through a folder (admin/sync-routes.ts).
  'GET /sync': { input: NONE, result: answer<SyncStatus>() },
  // Writes what is pending and reads the folder, then answers the status (`tock sync status`).
  'POST /sync/now': { input: NONE, result: answer<SyncStatus>() },
  'POST /sync/enable': {
    input: { fields: { dir: sent<string>('The sync folder.'), name: sent<string>("This device's name."), key: sent<string>("The folder's key, when joining.") }, required: [] },
    result: answer<SyncEnableResult>(),
  },
  'POST /sync/disable': { input: NONE, result: answer<SyncStatus>() },
  'GET /sync/key': { input: NONE, result: answer<{ key: string }>() },
  'POST /sync/one-timer': { input: { fields: { on: sent<boolean>('One timer across devices.') }, required: [] }, result: answer<SyncStatus>() },

  // Editors' WakaTime plugins (admin/editors-routes.ts).
  'GET /editors': { input: NONE, result: answer<EditorsStatus>() },
  'POST /editors/enable': { input: NONE, result: answer<EditorKeyResult>() },
  'POST /editors/disable': { input: NONE, result: answer<EditorsStatus>() },
  'GET /editors/key': { input: NONE, result: answer<EditorKeyResult>() },
  'POST /editors/key/rotate': { input: NONE, result: answer<EditorKeyResult>() },
  'POST /editors/setup': {
    input: {
      fields: { dir: { type: 'string', minLength: 1, description: 'The folder of .wakatime.cfg.' } },
      required: ['dir'],
      refusals: { dir: () => ({ rule: 'giveWakatimeDir' }) },
    },
    result: answer<WakatimeSetup & EditorKeyResult>(),
  },

  // The ledger (admin/ledger-routes.ts): core checks every field and names it.
  'GET /clients': { input: NONE, result: answer<Client[]>() },
  'POST /clients/add': { input: { fields: { name: sent<string>("The client's name."), ...CLIENT_FIELDS }, required: [] }, result: answer<Client>() },
  'POST /clients/edit': { input: { fields: { client: sent<string>("The client's id or name."), name: sent<string>('Its new name.'), ...CLIENT_FIELDS }, required: [] }, result: answer<Client>() },
  'POST /clients/remove': { input: { fields: { client: sent<string>("The client's id or name.") }, required: [] }, result: answer<Client>() },
  'POST /activity/ledger': { input: { fields: { activity }, required: [] }, result: answer<ActivityLedger>() },
  'POST /activity/set': {
    input: {
      fields: {
        activity,
        client: sent<string | null>("A client's id or name; null: none."),
        rate: sent<string | null>('The hourly rate; null: the client\'s.'),
        budgetHours: sent<string | null>('Hours; null: no budget.'),
        billable: sent<boolean>('Billable by default.'),
      },
      required: [],
    },
    result: answer<ActivityLedger>(),
  },
  'POST /activity/rename': { input: { fields: { activity, name: sent<string>('Its new name.') }, required: [] }, result: answer<ActivityRef>() },
  'POST /activity/archive': { input: { fields: { activity, archived: sent<boolean>('Archived (true) or back (false).') }, required: [] }, result: answer<ActivityRef>() },
  'POST /activity/merge': { input: { fields: { from: sent<string>('The activity that goes.'), into: sent<string>('The activity that takes its blocks.') }, required: [] }, result: answer<ActivityMerge>() },
  'POST /activity/delete': { input: { fields: { activity }, required: [] }, result: answer<ActivityRef>() },
  'POST /blocks/tag': { input: { fields: { id: blockID, tags: sent<string[]>('The tags to add.') }, required: [] }, result: answer<BlockLedger>() },
  'POST /blocks/untag': { input: { fields: { id: blockID, tags: sent<string[]>('The tags to take off.') }, required: [] }, result: answer<BlockLedger>() },
  'POST /blocks/billable': { input: { fields: { id: blockID, billable: sent<boolean | null>("Billable; null: the activity's.") }, required: [] }, result: answer<BlockLedger>() },
  // A setting's value is any JSON; core checks it by its key.
  'POST /settings/get': { input: { fields: { key: text('A setting the ledger or the calendars read; `tock settings` lists them.') }, required: ['key'] }, result: answer<unknown>() },
  'POST /settings/set': { input: { fields: { key: text('A setting the ledger or the calendars read; `tock settings` lists them.'), value: sent<unknown>('Its value, any JSON.') }, required: ['key'] }, result: answer<unknown>() },

  // Invoices (admin/invoice-routes.ts): the document is streamed like an export.
  'GET /invoices': { input: NONE, result: answer<InvoiceSummary[]>() },
  'POST /invoices/preview': { input: { fields: invoiceOf, required: [] }, result: streamed<InvoiceStreamSummary>() },
  'POST /invoices/create': { input: { fields: invoiceOf, required: [] }, result: streamed<InvoiceStreamSummary>() },
  'POST /invoices/reissue': { input: { fields: { number: sent<string>("The invoice's number."), format: invoiceOf.format }, required: [] }, result: streamed<InvoiceStreamSummary>() },
  // `tock invoice void NUMBER`: the number stays taken, the invoice renders as VOID, its blocks are free again.
  'POST /invoices/void': { input: { fields: { number: sent<string>("The invoice's number.") }, required: [] }, result: answer<InvoiceSummary>() },
  // One book (docs/sync.md "One book"): which device issues invoices; `tock invoice device NAME` moves it.
  'GET /invoices/book': { input: NONE, result: answer<BookView>() },
  'POST /invoices/device': { input: { fields: { name: sent<string>("The device's name.") }, required: [] }, result: answer<BookView>() },
} as const satisfies Record<string, AdminRouteSpec>;

/** A route of the admin socket, `METHOD /path`. */
export type AdminRoute = keyof typeof ADMIN_ROUTES;

type Spec<R extends AdminRoute> = (typeof ADMIN_ROUTES)[R];

/** What route `R` takes. */
export type AdminInput<R extends AdminRoute> = InputOf<Spec<R>['input']>;

/** What route `R` answers: its result, or for a streamed route the summary of the stream. */
export type AdminResult<R extends AdminRoute> = Spec<R>['result'][typeof RESULT];

/** The routes answered with a stream. */
export type StreamedRoute = { [R in AdminRoute]: Spec<R>['result'] extends Streamed<unknown> ? R : never }[AdminRoute];

/** The routes answered with one JSON value. */
export type AnsweredRoute = Exclude<AdminRoute, StreamedRoute>;

/** The arguments after the route: the input, optional when every field is. */
export type AdminInputArgs<R extends AdminRoute> = Record<string, never> extends AdminInput<R> ? [input?: AdminInput<R>] : [input: AdminInput<R>];
