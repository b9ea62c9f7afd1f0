/**
 * What the window's API answers that no other door does, as types (and the rule fields, a
 * constant): the routes of routes.ts name these as their results, and the server's routes must
 * return values of these types, so a change in core or the app that breaks one fails the type
 * check of the server instead of the window at run time. Node-free: the window imports them.
 */
import type { ActivityRef } from '@tock/protocol';
import type { DesktopView, LicenseInfo, ListenerStatus, PromptView, StatusView, SyncStatus, TokenView } from '../../views.ts';

/** An activity as `/api/activities/all` lists it. */
export interface ActivityInfo extends ActivityRef {
  createdAt: string;
  lastUsedAt: string;
}

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
  seconds: number;
}

/** `GET /api/totals`: an activity's worked seconds on a day. */
export interface DailyTotal {
  day: string;
  activityID: string;
  activityName: string;
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
}

/** A captured span as `GET /api/capture/timeline` gives it (docs/data.md "Capture"): absent fields are null. */
export interface CaptureSpan {
  start: string;
  end: string;
  source: 'window' | 'editor' | 'idle' | 'excluded';
  app: string | null;
  title: string | null;
  project: string | null;
  branch: string | null;
  language: string | null;
  entity: string | null;
  editor: string | null;
  machine: string | null;
}

/** A day's captured spans. */
export interface CaptureTimeline {
  date: string;
  timeZone: string;
  spans: CaptureSpan[];
}

/** The capture settings (docs/data.md "Capture settings"). */
export interface CaptureSettings {
  windows: boolean;
  titles: boolean;
  retentionDays: number;
  exclude: string[];
  editorTimeout: number;
}

/** `GET /api/capture`: what is recorded, and which desktop source works here and why the others do not. */
export interface CaptureStatus {
  settings: CaptureSettings;
  state: 'off' | 'starting' | 'following' | 'none';
  source: { id: string; name: string } | null;
  sources: { id: string; name: string; works: boolean; reason: string | null }[];
  idleSource: string | null;
}

/** A client (docs/data.md "The ledger"): rate a decimal per hour, currency ISO 4217. */
export interface Client {
  id: string;
  name: string;
  rate: string | null;
  currency: string | null;
  address: string | null;
}

/** `GET /api/activities/:id/ledger`: an activity's client, rate, billable default and budget, and its worked time. */
export interface ActivityLedger {
  activityID: string;
  activityName: string;
  clientID: string | null;
  clientName: string | null;
  rate: string | null;
  billable: boolean;
  budgetHours: number | null;
  /** Worked seconds against the budget (a second two blocks cover counted once); null without a budget. */
  usedSeconds: number | null;
}

/** The ledger's settings as `GET /api/settings/ledger` gives them (null: not set). */
export interface LedgerSettings {
  rounding: { mode: 'none' | 'up' | 'down' | 'nearest'; minutes: number; per: 'block' | 'day' } | null;
  targets: Partial<Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', number>> | null;
  business: { name: string; address: string; taxID: string; paymentTerms: string; currency?: string } | null;
}

/** One currency's total of an invoice (lines without a rate are in none). */
export interface InvoiceTotal {
  currency: string;
  billedSeconds: number;
  amount: string;
}

/** `GET /api/invoices`: an issued invoice as listed, newest first. */
export interface InvoiceSummary {
  number: string;
  issued: string;
  clientID: string;
  clientName: string;
  from: string;
  to: string;
  lines: number;
  billedSeconds: number;
  totals: InvoiceTotal[];
}

/** `POST /api/invoices/preview`: what would be invoiced, with its page as HTML; nothing kept. */
export interface InvoicePreview {
  number: string;
  lines: number;
  billedSeconds: number;
  totals: InvoiceTotal[];
  html: string;
}

/** The span fields a suggestion rule matches (docs/desktop.md "Suggestions"). */
export const RULE_FIELDS = ['source', 'app', 'title', 'project', 'branch', 'language', 'entity'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/** `GET /api/rules`: a rule, in order — the first that matches a span labels it. */
export interface SuggestionRule {
  id: string;
  match: Partial<Record<RuleField, string>>;
  activity: string;
}

/** `GET /api/rules/:id/test`, `POST /api/rules/test`: what a rule would label over the last 7 days. */
export interface RuleTest {
  ruleID: string | null;
  days: { date: string; seconds: number }[];
  seconds: number;
}

/** `GET /api/editors`: the WakaTime door's state and each editor's last heartbeat. */
export interface EditorsView {
  enabled: boolean;
  apiUrl: string;
  listenerOn: boolean;
  editors: { editor: string | null; lastHeartbeat: string }[];
  configDir: string;
}

/** The editors' key, shown once (turned on, a new key, set up). */
export interface EditorKey {
  key: string;
  apiUrl: string;
  lines: string[];
  listenerOn: boolean;
  path?: string;
  backup?: string | null;
}

/** `POST /api/import`: what an import did (or would do, dry run). */
export interface ImportCounts {
  imported: number;
  skipped: number;
  activitiesCreated: number;
  openSkipped: number;
  emptySkipped: number;
  format: string;
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
