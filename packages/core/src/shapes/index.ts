/**
 * `@tock/core/shapes`: core's shapes — interfaces, literal unions and `as const` lists — in
 * modules that import nothing but each other, core's Node-free `day.ts` and `@tock/protocol`
 * types, so a Node-free bundle (the window) or type check can use them. Core's index exports
 * them too; the modules that fill them import them from here.
 */
export type { ActivityInfo, DailyTotal } from './activities.ts';
export {
  RULE_FIELDS,
  type CaptureSettings,
  type CaptureSpan,
  type RuleField,
  type RuleMatch,
  type RuleTest,
  type SpanSource,
  type SuggestionRule,
  type Timeline,
} from './capture.ts';
export { IMPORT_FORMATS, type ImportCounts, type ImportFormat, type ImportResult } from './import.ts';
export {
  LEDGER_SETTING_KEYS,
  WEEKDAYS,
  type ActivityLedger,
  type Business,
  type Client,
  type InvoiceDocument,
  type InvoiceLine,
  type InvoiceSummary,
  type InvoiceTax,
  type InvoiceTotal,
  type LedgerSettingKey,
  type LedgerSettings,
  type Rounding,
  type Targets,
  type Weekday,
} from './ledger.ts';
