/**
 * The shapes the window's API sends (see packages/app/src/ui/api.ts). Wire and domain types
 * come from their packages, and the app's views from its Node-free type modules
 * (`@tock/app/views`): type-only imports, erased by the build. The rest are the window
 * API's own views.
 */
import type { DesktopView, LicenseInfo, ListenerStatus, PromptView as Prompt, StatusView as Status, SyncStatus, TokenView } from '@tock/app/views';
import type { ActivityRef } from '@tock/protocol';

export type { ActivityRef, Entry, FieldProblem } from '@tock/protocol';
export type { Block, BreakSpan } from '@tock/core/blocks';
export type {
  DesktopSettings,
  DesktopView,
  IdleQuestion,
  LicenseInfo,
  ListenerStatus,
  PromptView as Prompt,
  StatusView as Status,
  SyncStatus,
  TokenView,
} from '@tock/app/views';

/** An activity as `/api/activities/all` lists it. */
export interface ActivityInfo extends ActivityRef {
  createdAt: string;
  lastUsedAt: string;
}

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

export interface DailyTotal {
  day: string;
  activityID: string;
  activityName: string;
  seconds: number;
}

export interface Snapshot {
  appVersion: string;
  timeZone: string;
  now: string;
  status: Status;
  listener: ListenerStatus;
  token: TokenView;
  requests: RequestRecord[];
  license: LicenseInfo;
  prompts: Prompt[];
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
