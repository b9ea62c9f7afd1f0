/**
 * @tock/core — Tock's tracking domain and its SQLite store: activities, sessions with
 * breaks, entries, today's total, search, and the small generic stores (settings,
 * idempotency keys, nonces) the app keeps in the same `tock.db`. Knows nothing of HTTP.
 */

/**
 * The store: {@link openStore} opens `tock.db` (WAL, `synchronous=FULL`, foreign keys,
 * busy timeout) and migrates it; the returned {@link Store} carries `settings`,
 * `idempotency` and `nonces` and is what {@link createTracker} works on.
 */
export {
  BUSY_TIMEOUT_MS,
  openStore,
  type IdempotencyRecord,
  type IdempotencyStore,
  type NonceStore,
  type RememberedNonce,
  type SettingsStore,
  type Store,
} from './store.ts';

/**
 * The tracking domain: {@link createTracker} binds a store, a clock, an ID source and a time
 * zone into a {@link Tracker} whose methods are the use cases of docs/protocol.md "Endpoints" (returning the wire
 * shapes) plus what the UI needs to list, edit and chart blocks of time.
 */
export {
  createTracker,
  type BreakPatch,
  type EntryPatch,
  type LogEntryInput,
  type NewBreak,
  type SessionPatch,
  type Tracker,
  type TrackerOptions,
} from './tracker.ts';
/** New row IDs: random, or for an entry time-ordered by its start (docs/decisions.md "Row IDs"). */
export { newRowId, type NewId } from './ids.ts';

/**
 * Idle time and continuing (docs/desktop.md): {@link discardIdleSpan} puts a break over time
 * the user was away, {@link stopAtIdleStart} ends the session when the idleness began (one
 * transaction each); {@link runningSessionSpan} names the running session;
 * {@link lastTrackedActivity} is the activity tracked last, {@link lastContinuableActivity} what
 * `tock continue` starts again (the last one not archived).
 */
export {
  discardIdleSpan,
  lastContinuableActivity,
  lastTrackedActivity,
  runningSessionSpan,
  stopAtIdleStart,
  type IdleResolution,
  type IdleSpan,
  type LastTracked,
} from './idle-time.ts';
/** How long after a stop *Continue* resumes that session (docs/product.md "No crumbs"). */
export { RESUME_WINDOW_MS } from './sessions.ts';

/**
 * Change notifications for the event stream: {@link StatusChanges} tells subscribers the new
 * status after a change that matters to a client (never because time alone passed); the app
 * calls its `check()` after writes and on a timer.
 */
export { StatusChanges, statusChanged, type StatusChangesOptions } from './status-changes.ts';
/** Whether the list of every activity, as a screen shows it, may have changed (the window reads it again only then). */
export { watchActivityList, type ActivityListChanges, type ActivityListOptions } from './activity-list-changes.ts';

/**
 * Blocks of time as listed for the UI ({@link Block}: a session with its breaks, or an
 * entry) and per-day totals ({@link DailyTotal}) for charts.
 */
export type { Block, BreakSpan } from './blocks.ts';
export { dailyTotals } from './totals.ts';

/**
 * Reports (docs/protocol.md "GET /report"): {@link buildReport} sums worked seconds over a
 * range of local days, per activity or per day, in SQL; {@link reportPeriod} turns the named
 * ranges of `tock report` (today, week, last-month, …) into days.
 */
export { buildReport, type Report, type ReportActivityRow, type ReportDayRow, type ReportRow } from './report.ts';
export {
  readReportQuery,
  reportPeriod,
  REPORT_MAX_DAYS,
  REPORT_PERIODS,
  type ReportGrouping,
  type ReportPeriod,
  type ReportQuery,
  type ReportRange,
} from './report-range.ts';
/** A report as RFC 4180 CSV (`activity,seconds` / `date,seconds`), for the CLI and the window. */
export { reportCsv, reportMatrixCsv } from './report-csv.ts';

/**
 * `tock import` (docs/data.md "Import"): {@link importFile} reads a Tock, Toggl Track,
 * Timewarrior or Watson file as a stream and writes it in one transaction (or, refused with
 * an {@link ImportProblem} naming the line or index, writes nothing).
 */
export { detectFormat, importFile, ImportProblem, IMPORT_MAX_BYTES, type ImportOptions } from './import/index.ts';

/**
 * The schema: the ordered {@link MIGRATIONS}, the version this build writes, and the
 * function that applies the missing ones (openStore runs it; exported for tools and tests).
 */
export { MIGRATIONS, SCHEMA_VERSION, migrate, schemaVersionOf, type Migration } from './migrations.ts';

/**
 * Name rules and keys (docs/protocol.md "Endpoints"): `nameError` says why a name is refused, `cleanName` returns
 * the stored form or throws `validation_failed`, `nameKey` is the case-insensitive identity,
 * `searchKey` the accent- and case-insensitive search form, `codePointLength` counts as the
 * spec counts.
 */
export { cleanName, codePointLength, nameError, nameKey, searchKey, wordKey } from './names.ts';

/**
 * Local calendar days in a time zone, correct on 23- and 25-hour DST days and where a DST
 * change skips midnight: the day an instant falls on, a day's `[start, end)`, the instant of a
 * wall-clock time, the week's Monday (also `@tock/core/day`, which the window imports), and
 * the process's zone.
 */
export {
  addDays,
  DAY_STARTS_AT_MAX,
  localDayAt,
  localDayKey,
  localDaySpan,
  localDaySpans,
  localTimeOfDay,
  localTimeToMs,
  startOfLocalDay,
  startOfWeek,
  type DayKey,
  type DaySpan,
  type WeekStartDay,
} from './day.ts';
export { systemTimeZone } from './zone.ts';

/**
 * Instants: strict ISO-8601 parsing (an offset is required; Python's microseconds are
 * accepted) and the `Z` form every result uses.
 */
export { parseIsoInstant, toIso } from './instants.ts';

/** An instant as the editing methods take it: ISO-8601 text or ms since the epoch. */
export type { InstantInput } from './requests.ts';

/**
 * `tock export` (docs/data.md): {@link checkExportRequest} validates a request,
 * {@link openExportSource} opens a read snapshot of the store, and {@link exportChunks}
 * yields the JSON or CSV text in chunks, reading SQLite iterators as it goes.
 */
export { checkExportRequest, exportChunks, openExportSource, type ExportSource } from './export.ts';
export { sessionWorkedSeconds, type ExportCounts, type ExportFormat, type ExportRequest } from './export-reads.ts';
export { EXPORT_CSV_HEADER } from './export-csv.ts';

/** RFC 4180 CSV writing, shared by every CSV Tock writes: {@link csvRow}, {@link csvField}. */
export { csvField, csvRow, CSV_LINE_END, type CsvValue } from './csv.ts';

/**
 * Editor heartbeats (docs/protocol.md "Editors: WakaTime heartbeats"): {@link recordHeartbeats}
 * checks and stores a request's heartbeats in one transaction (a repeat keeps its first id),
 * {@link pruneHeartbeats} deletes those past the capture retention, {@link statusBarToday}
 * answers `wakatime-cli --today`. Heartbeats are never synced nor exported.
 */
export { browserFromUserAgent, domainOfEntity, editorFromUserAgent, machineFromHeader } from './heartbeat-senders.ts';
export {
  lastHeartbeatPerEditor,
  listHeartbeats,
  pruneHeartbeats,
  recordHeartbeats,
  type Heartbeat,
  type HeartbeatSource,
  type RecordHeartbeatsOptions,
  type StoredHeartbeat,
} from './heartbeats.ts';
export { statusBarToday } from './statusbar.ts';

/**
 * Capture settings (docs/data.md "Capture settings"): windows, titles, retentionDays, exclude,
 * editorTimeout, and the suggestions' mergeGapMinutes and minMinutes.
 */
export {
  CAPTURE_SETTING_KEYS,
  DEFAULT_CAPTURE_SETTINGS,
  DEFAULT_EXCLUDE,
  EDITOR_TIMEOUT_MINUTES,
  EXCLUDE_LIMITS,
  MERGE_GAP_MINUTES,
  MIN_SUGGESTION_MINUTES,
  RETENTION_DAYS,
  readCaptureSettings,
  retentionStartMs,
  setCaptureSetting,
  type CaptureSettingKey,
} from './capture-settings.ts';

/**
 * Suggestions (docs/desktop.md "Suggestions"): {@link suggestDay} is a day's suggestions as a
 * pure function of its blocks, spans, rules and settings; the rules are kept in the settings
 * (`capture-rules.ts`); {@link daySuggestions}, {@link acceptSuggestion},
 * {@link acceptAllSuggestions}, {@link dismissSuggestion} and {@link testRule} are the use cases.
 */
export {
  ruleWithinLimits,
  suggestDay,
  suggestionDay,
  suggestionId,
  timedSpans,
  trackedSpans,
  type SuggestionInput,
  type SuggestionSettings,
} from './suggestions.ts';
export { RULE_LIMITS, addRule, checkRule, editRule, listRules, removeRule, type NewRule } from './capture-rules.ts';
export {
  FROM_CAPTURE_NOTE,
  acceptAllSuggestions,
  acceptSuggestion,
  daySuggestions,
  dismissSuggestion,
  testRule,
  type AcceptSuggestionInput,
  type SuggestionContext,
} from './day-suggestions.ts';

/**
 * The glob of capture exclusions and suggestion rules (docs/desktop.md "Capture"): `*` and `?`,
 * case-insensitive, matched in time linear in the text; {@link GLOB_LIMITS} caps a pattern.
 */
export { GLOB_LIMITS, compileGlob, globMatches, globMatchesCounted, globOverLimits, type CompiledGlob, type GlobSteps } from './glob.ts';

/**
 * Capture spans (docs/data.md "Capture"): window, idle and excluded spans stored as they end
 * ({@link recordSpan}), editor spans made from heartbeats, a day's {@link timeline}, forgetting
 * a range of days, pruning by the retention, and `tock export --capture`.
 */
export {
  EDITOR_TAIL_MS,
  CAPTURED_TEXT_LIMITS,
  captureExportChunks,
  capturedWindow,
  cutToCharacters,
  browserSpans,
  editorSpans,
  forgetCapture,
  isExcluded,
  listRecordedSpans,
  pruneCapture,
  recordSpan,
  timedTimeline,
  timeline,
  type CaptureDeleted,
  type BrowserSpan,
  type EditorSpan,
  type RecordedSpan,
  type TimedSpan,
  type TimelineRequest,
} from './capture.ts';

/**
 * The ledger (docs/data.md "The ledger"): clients, an activity's client, rate, billable
 * default and budget, a block's tags and billable flag; money as decimal strings worked out
 * in integer minor units; the settings `rounding`, `targets` and `business`.
 */
export {
  activityLedger,
  addClient,
  cleanTags,
  editClient,
  INVOICE_LANGUAGES,
  languageError,
  listClients,
  removeClient,
  requireClient,
  setActivityLedger,
  lastBlockID,
  setBlockBillable,
  tagBlock,
  untagBlock,
  type ActivityLedgerInput,
  type BlockLedger,
  type ClientInput,
} from './ledger.ts';
/** A block's tags and billable flag set in one change (the window's block editor). */
export { setBlockLedger, type BlockLedgerChange } from './block-ledger.ts';
/**
 * Activities' lifecycle (docs/product.md "Activities"): archive and bring back, merge one into
 * another (its blocks move, it goes), delete one without blocks. Callers own the transaction.
 */
export { activityNamed, deleteActivity, mergeActivities, renameActivityNamed, setActivityArchived, type ActivityMerge } from './activities.ts';
/**
 * Budgets (docs/data.md "The ledger"): an activity's worked time against its budget, and the
 * 80 % and 100 % thresholds announced once each.
 */
export {
  announceBudgetCrossings,
  BUDGET_THRESHOLDS,
  BudgetWatch,
  budgetUsage,
  type BudgetCrossing,
  type BudgetThreshold,
  type BudgetUsage,
  type BudgetWatchOptions,
} from './budgets.ts';
/**
 * Invoices (docs/data.md "Invoices"): a client's billable blocks over a range as one document,
 * numbered per year, its blocks marked so they are never invoiced twice, kept for a reissue.
 */
export {
  draftInvoice,
  invoiceByNumber,
  invoiceSummary,
  invoiceTotal,
  issueInvoice,
  listInvoices,
  nothingToInvoice,
  overlapWarning,
  type InvoiceDraft,
  type InvoiceOverlap,
  type InvoiceRequest,
} from './invoices.ts';
/** Invoiced is final (docs/data.md "Invoices"): the store's guard, its one problem, and a void. */
export { asInvoicedProblem, asRendered, invoiceOfBlock, invoicedOpNumber, invoicedOpRefusal, invoicedProblem, isVoid, voidInvoice } from './invoiced.ts';
export {
  CURRENCY_MINOR_UNITS,
  cleanCurrency,
  cleanRate,
  cleanTaxRate,
  exactAmount,
  lineAmountMinor,
  minorUnits,
  quantityHundredths,
  quantityText,
  taxMinor,
  roundAmount,
  sumAmounts,
} from './money.ts';
export {
  DEFAULT_MIN_SESSION_SECONDS,
  billedSeconds,
  checkDayStartsAt,
  checkLanguage,
  checkWeekStart,
  localeWeekStart,
  readDayStartsAt,
  readWeekStart,
  WEEK_STARTS,
  type WeekStart,
  dayTargetHours,
  getLedgerSetting,
  readLanguage,
  readMinSessionSeconds,
  readBusiness,
  readRounding,
  readTargets,
  roundBilled,
  setLedgerSetting,
} from './ledger-settings.ts';

/**
 * The shapes (`@tock/core/shapes`): what core's use cases take and answer, declarations that
 * reach no Node module, so the window's contract imports them from the same place —
 * activities and daily totals, capture spans, settings, rules and rule tests, the ledger's
 * clients, settings and invoices, and an import's counts.
 */
export * from './shapes/index.ts';
