/**
 * The ledger's shapes (docs/data.md "The ledger", "Invoices"): a client, an activity's ledger,
 * the settings `rounding`, `targets` and `business`, and an invoice's lines, totals, document
 * and summary. Declarations only, reaching no Node module, so the window's contract
 * (`@tock/core/shapes`) imports them too; ledger.ts, ledger-settings.ts and invoices.ts work
 * with them.
 */

import type { DayKey } from '../day.ts';

/** A client as listed (docs/data.md "The ledger"). */
export interface Client {
  id: string;
  name: string;
  /** Decimal per hour (`"85.00"`), or null. */
  rate: string | null;
  /** ISO 4217 code, or null. */
  currency: string | null;
  address: string | null;
  /** Its VAT or tax ID, printed on its invoices (absent: none). */
  taxID?: string | null;
  /** Its invoices' tax rate in percent, overriding `business.taxRate` (absent or null: the business's). */
  taxRate?: number | null;
  /** Its invoices carry no tax and the reverse-charge note instead (EU B2B across borders). */
  reverseCharge?: boolean;
  /** Its invoices' language, a BCP 47 tag of en, de, fr, es or ja (absent or null: the person's). */
  language?: string | null;
}

/** What an activity carries for the ledger. */
export interface ActivityLedger {
  activityID: string;
  activityName: string;
  clientID: string | null;
  clientName: string | null;
  rate: string | null;
  billable: boolean;
  budgetHours: number | null;
}

/** How billed seconds are rounded. */
export interface Rounding {
  mode: 'none' | 'up' | 'down' | 'nearest';
  /** The step, in minutes. */
  minutes: number;
  /** Rounded per block, or per activity and local day. */
  per: 'block' | 'day';
  /** A billable block is billed at least this many minutes (0–60; absent: 0). */
  minimumMinutes?: number;
}

/**
 * Hours each day of the week should have worked (absent or 0: none), or the week's hours
 * (`week`) spread evenly over its working days (`days`, default Monday to Friday).
 */
export type Targets = Partial<Record<Weekday, number>> & { week?: number; days?: Weekday[] };

/** The days of {@link Targets}, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Your details on an invoice; `currency` is the currency of a rate whose client names none. */
export interface Business {
  name: string;
  address: string;
  taxID: string;
  paymentTerms: string;
  currency?: string;
  /** Tax (VAT) in percent on invoices (`19`); absent: invoices show no tax. */
  taxRate?: number;
  /** Days from an invoice's date to its due date; absent: no due date. */
  paymentDays?: number;
}

/** The keys `tock settings get|set` takes. */
export const LEDGER_SETTING_KEYS = ['rounding', 'targets', 'business', 'minSessionSeconds', 'language', 'dayStartsAt', 'weekStart'] as const;
export type LedgerSettingKey = (typeof LEDGER_SETTING_KEYS)[number];

/** The ledger's settings, each as stored or null when not set (`GET /api/settings/ledger`). */
export interface LedgerSettings {
  rounding: Rounding | null;
  targets: Targets | null;
  business: Business | null;
  /** Shortest session kept when it stops, in seconds (null: the default, 60). */
  minSessionSeconds?: number | null;
  /** The language the person reads Tock in (null: not set, `"system"`; docs/i18n.md). */
  language?: 'system' | 'en' | 'de' | 'fr' | 'es' | 'ja' | null;
  /** When a day starts, `"00:00"` to `"06:00"` (null: not set, `"00:00"`; docs/data.md "Days and weeks"). */
  dayStartsAt?: string | null;
  /** The week's first day (null: not set, `"locale"`; docs/data.md "Days and weeks"). */
  weekStart?: 'locale' | 'mon' | 'sun' | 'sat' | null;
}

/** One line of an invoice: an activity on a local day. */
export interface InvoiceLine {
  date: DayKey;
  activity: string;
  /** The notes of its blocks, each once, in time order, joined by `; ` (empty: none). */
  note: string;
  /** The tags of its blocks, each once (case-insensitively). */
  tags: string[];
  workedSeconds: number;
  billedSeconds: number;
  /** The billed hours as printed: two decimals, half-up (`"1.75"`); absent on invoices issued before it. */
  quantity?: string;
  /** Per hour, as stored (`"85.00"`); null: no rate applies. */
  rate: string | null;
  currency: string | null;
  /** quantity × rate, half-up to the currency's minor unit (so the line multiplies out as printed); null without a rate. */
  amount: string | null;
  /** How many blocks it holds. */
  blocks: number;
}

/** One tax line of a currency: the rate in percent, the net it is on, and the tax. */
export interface InvoiceTax {
  rate: number;
  base: string;
  amount: string;
}

/**
 * The totals of one currency (lines without a rate are in none): `amount` is the net (the sum
 * of the lines), `taxes` one line per rate, `gross` net + taxes. Invoices issued before taxes
 * carry `amount` only.
 */
export interface InvoiceTotal {
  currency: string;
  billedSeconds: number;
  amount: string;
  taxes?: InvoiceTax[];
  gross?: string;
}

/** An invoice as rendered, and as kept for a reissue. */
export interface InvoiceDocument {
  number: string;
  /** The local day it was made. */
  issued: DayKey;
  from: DayKey;
  to: DayKey;
  timeZone: string;
  /** The due date: issued + `business.paymentDays` (absent or null: none). */
  due?: DayKey | null;
  /** The language its dates and numbers are written in (BCP 47; absent: en). */
  language?: string;
  /** Worked time is shown beside the billed quantity (`tock invoice --show-worked`). */
  showWorked?: boolean;
  /** No tax: the reverse-charge note instead. */
  reverseCharge?: boolean;
  seller: { name: string; address: string; taxID: string; paymentTerms: string };
  client: { id: string; name: string; address: string; taxID?: string };
  lines: InvoiceLine[];
  workedSeconds: number;
  billedSeconds: number;
  totals: InvoiceTotal[];
  /** The local day it was voided (`tock invoice void`); absent while it stands. */
  voided?: DayKey;
}

/** An invoice as listed. */
export interface InvoiceSummary {
  number: string;
  issued: DayKey;
  clientID: string;
  clientName: string;
  from: DayKey;
  to: DayKey;
  lines: number;
  billedSeconds: number;
  totals: InvoiceTotal[];
  /** `issued`, or `void` once voided (its number stays taken). */
  state: 'issued' | 'void';
}
