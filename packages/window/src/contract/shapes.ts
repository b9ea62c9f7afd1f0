/**
 * What the window's API answers that no other door does, as types (and the rule fields, a
 * constant): the routes of routes.ts name these as their results, and the server's routes must
 * return values of these types, so a change in core or the app that breaks one fails the type
 * check of the server instead of the window at run time. Node-free: the window imports them.
 *
 * Core's shapes are not restated here: they come from `@tock/core/shapes` (Node-free
 * declarations, the same ones core's use cases fill), re-exported under the names the window
 * uses. What is here is only the window API's own: its views, and a core shape with what a
 * route adds.
 */
import type { ActivityLedger as CoreActivityLedger, InvoiceDocument } from '@tock/core/shapes';
import type { Locale } from '@tock/i18n/languages';
import type { ActivityRef, EditorKeyResult, EditorsStatus } from '@tock/protocol';
import type { DesktopView, LicenseInfo, ListenerStatus, PromptView, StatusView, SyncStatus, TokenView } from './views.ts';

export {
  RULE_FIELDS,
  type ActivityInfo,
  type CaptureSettings,
  type CaptureSpan,
  type Client,
  type DailyTotal,
  type InvoiceSummary,
  type InvoiceTotal,
  type LedgerSettings,
  type RuleField,
  type RuleTest,
  type SuggestionRule,
  /** `GET /api/capture/timeline`: the captured spans of a day. */
  type Timeline as CaptureTimeline,
  /** `POST /api/import`: what an import did (or would do, dry run), and the format it read. */
  type ImportResult as ImportCounts,
} from '@tock/core/shapes';

/** A line of the listener's request list. */
export interface RequestRecord {
  time: string;
  method: string;
  path: string;
  status: number;
}

/** A session another device runs now (`GET /api/sync/running`). */
export interface RunningElsewhere {
  sessionID: string;
  deviceID: string;
  activity: ActivityRef;
  startedAt: string;
  note: string | null;
  onBreak: boolean;
  /** Worked so far, breaks left out. */
  seconds: number;
}

/** `GET /api/state`: everything a window needs to draw itself at once. */
export interface Snapshot {
  appVersion: string;
  timeZone: string;
  now: string;
  status: StatusView;
  listener: ListenerStatus;
  token: TokenView;
  requests: RequestRecord[];
  license: LicenseInfo;
  prompts: PromptView[];
  desktop: DesktopView;
  sync: SyncStatus;
  /** When the person's day starts, minutes after midnight (the setting `dayStartsAt`; 0 to 360). */
  dayStartsAt: number;
  /** The first day of the person's week: 1 Monday, 6 Saturday, 7 Sunday (the setting `weekStart`, `locale` resolved). */
  weekStart: 1 | 6 | 7;
  /** The language the window is written in: the setting `language`, `system` resolved from the app's locale variables (docs/ui.md "Languages"). */
  language: Locale;
}

/** `GET /api/capture`: what is recorded, and which desktop source works here and why the others do not (the desktop's own view, declared once there). */
export type { CaptureStatus, FocusSourceID, FocusSourceStatus } from '@tock/desktop/view';

/** `GET /api/activities/:id/ledger`: an activity's client, rate, billable default and budget (core's), and its worked time. */
export interface ActivityLedger extends CoreActivityLedger {
  /** Worked seconds against the budget (a second two blocks cover counted once); null without a budget. */
  usedSeconds: number | null;
}

/**
 * `POST /api/invoices/preview`: what would be invoiced, with its page as HTML; nothing kept.
 * `warning`: the period overlaps an earlier invoice of the client (only blocks on none are on it).
 */
export type InvoicePreview = Pick<InvoiceDocument, 'number' | 'billedSeconds' | 'totals'> & {
  lines: number;
  html: string;
  warning?: string;
  /** The earlier invoices `warning` names, for the window to word in the person's language. */
  overlaps?: { number: string; from: string; to: string }[];
};

/** Which device issues invoices: @tock/sync's book (Node-free types, erased by the window's build). */
export type { BookView } from '@tock/sync/status';

/** `GET /api/editors`: the WakaTime door's state and each editor's last heartbeat (what `tock editors` shows), with the folder the config is in. */
export interface EditorsView extends EditorsStatus {
  configDir: string;
}

/** The editors' key, shown once (turned on, a new key, set up: then with what setting up wrote). */
export interface EditorKey extends EditorKeyResult {
  path?: string;
  backup?: string | null;
}

/** A backup file as Settings › Data lists it. */
export interface BackupFile {
  name: string;
  path: string;
  bytes: number;
  made: string;
  automatic: boolean;
}

/** `GET /api/backups`. */
export interface Backups {
  dir: string;
  backups: BackupFile[];
}
