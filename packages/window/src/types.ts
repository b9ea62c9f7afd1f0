/**
 * The shapes the window's API sends, for the window's modules: none written here. The window
 * API's own shapes and the views it shows come from its contract (`@tock/window/contract`,
 * contract/, which the server's routes are type-checked against), wire and domain types from
 * their packages: type-only imports, erased by the build (RULE_FIELDS, a constant, is bundled).
 */
export type { ActivityRef, Entry, FieldProblem, Report } from '@tock/protocol';
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
} from './contract/index.ts';
export {
  type ActivityInfo,
  type ActivityLedger,
  type BackupFile,
  type CaptureSettings,
  type CaptureSpan,
  type CaptureStatus,
  type CaptureTimeline,
  type Client,
  type DailyTotal,
  type EditorKey,
  type EditorsView,
  type ImportCounts,
  type InvoicePreview,
  type InvoiceSummary,
  type InvoiceTotal,
  type LedgerSettings,
  type RequestRecord,
  RULE_FIELDS,
  type RuleField,
  type RuleTest,
  type RunningElsewhere,
  type Snapshot,
  type SuggestionRule,
} from './contract/index.ts';
