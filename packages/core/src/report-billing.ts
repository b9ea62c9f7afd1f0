/**
 * A report's money (docs/data.md "The ledger"): what the ledger knows of the report's activities
 * and their clients, each read once per report; the billed time and amounts of a set of worked
 * spans; and the rows' amounts added up per currency. report.ts groups the spans into rows and asks for each row's.
 */

import type { Amount } from '@tock/protocol';
import { coveredLength, coveredPerDay, unionOfSpans, type Span } from './blocks.ts';
import type { InvoiceShare } from './invoice-shares.ts';
import { billedSeconds, readBusiness, roundBilled } from './ledger-settings.ts';
import { EXACT_DENOMINATOR, exactAmount, minorUnits, roundAmount, sumAmounts } from './money.ts';
import type { Rounding } from './shapes/ledger.ts';
import type { Store } from './store.ts';
import { spansByActivity, type WorkedSpan } from './totals.ts';

/**
 * A report's `amounts`: the rows' amounts added up per currency (docs/data.md "The ledger").
 * A row in one currency adds its amount; a row billed in several (its `amount` null) adds each
 * currency's part, rounded half-up on its own, as that row's lines would be.
 */
export class AmountTotals {
  private readonly parts = new Map<string, string[]>();

  /** Adds a row's amounts, one per currency it is billed in. */
  addRow(row: { amounts: readonly Amount[] }): void {
    for (const part of row.amounts) this.add(part.currency, part.amount);
  }

  /** Adds one amount. */
  addAmount(part: Amount): void {
    this.add(part.currency, part.amount);
  }

  private add(currency: string, amount: string): void {
    const list = this.parts.get(currency);
    if (list === undefined) this.parts.set(currency, [amount]);
    else list.push(amount);
  }

  /** The totals, by currency code. */
  list(): { currency: string; amount: string }[] {
    return [...this.parts].sort(([a], [b]) => compareText(a, b)).map(([currency, list]) => ({ currency, amount: sumAmounts(list, currency) }));
  }
}

/** What the ledger knows of activities and clients, read once per report. */
export interface Ledger {
  isBillable(span: WorkedSpan): boolean;
  clientOf(activityID: string): string | null;
  /** Whose a span's time and money are: its invoice's client when it is on one that stands, else its activity's. */
  clientOfSpan(span: WorkedSpan): string | null;
  client(clientID: string): { name: string } | undefined;
  /** The rate and currency billed for an activity's time, or undefined when none applies. */
  priceOf(activityID: string): { rate: string; currency: string } | undefined;
  /** An activity's name and the key names sort by (`name_key`), read with its ledger fields. */
  nameOf(activityID: string): { name: string; nameKey: string };
}

/** An activity's ledger fields, and a client's, as a report reads them. */
type ActivityLedgerRow = { clientID: string | null; rate: string | null; billable: number; name: string; nameKey: string };
type ClientLedgerRow = { name: string; rate: string | null; currency: string | null };

/** The ledger fields and name of the activities of a JSON array of IDs, as arrays: one statement for a range's activities. */
const ACTIVITIES_LEDGER_SQL = 'SELECT id, client_id, rate, billable, name, name_key FROM activities WHERE id IN (SELECT value FROM json_each(?))';

/**
 * The ledger as a report reads it; a block on an invoice (in `shares`) is billable, as it was
 * billed. The activities of the report's spans (`activityIDs`) are read at once, by their keys
 * in one statement (a month of 2 000 activities: 3.5 ms, 8.5 ms one look-up each); any other
 * activity, and each client, by its key when a span first asks for it: reading every activity
 * with a ledger field for a day of a few of them cost a scan that grew with the person's list
 * (8 ms at 20 000). The name too: rows by activity show it.
 */
export function ledgerOf(store: Store, shares: ReadonlyMap<string, InvoiceShare>, activityIDs: Iterable<string> = []): Ledger {
  const activityRow = store.statement('SELECT client_id AS clientID, rate, billable, name, name_key AS nameKey FROM activities WHERE id = ?');
  const activities = new Map<string, ActivityLedgerRow | undefined>();
  const ids = [...new Set(activityIDs)];
  if (ids.length > 0) {
    const read = store.statement(ACTIVITIES_LEDGER_SQL);
    read.setReturnArrays(true);
    for (const [id, clientID, rate, billable, name, nameKey] of read.all(JSON.stringify(ids)) as unknown as [string, string | null, string | null, number, string, string][]) {
      activities.set(id, { clientID, rate, billable, name, nameKey });
    }
  }
  const activityOf = (activityID: string): ActivityLedgerRow | undefined => {
    if (!activities.has(activityID)) activities.set(activityID, activityRow.get(activityID) as ActivityLedgerRow | undefined);
    return activities.get(activityID);
  };
  const clientRow = store.statement('SELECT name, rate, currency FROM clients WHERE id = ?');
  const clients = new Map<string, ClientLedgerRow | undefined>();
  const clientOfId = (clientID: string): ClientLedgerRow | undefined => {
    if (!clients.has(clientID)) clients.set(clientID, clientRow.get(clientID) as ClientLedgerRow | undefined);
    return clients.get(clientID);
  };
  const fallbackCurrency = readBusiness(store.settings).currency ?? null;
  const prices = new Map<string, { rate: string; currency: string } | undefined>();
  const clientOf = (activityID: string): string | null => {
    const clientID = activityOf(activityID)?.clientID ?? null;
    return clientID !== null && clientOfId(clientID) !== undefined ? clientID : null;
  };
  return {
    isBillable: (span) => shares.has(span.block.id) || (span.block.billable ?? activityOf(span.activityID)?.billable ?? 0) === 1,
    clientOf,
    clientOfSpan: (span) => {
      const invoiced = shares.get(span.block.id);
      return invoiced === undefined ? clientOf(span.activityID) : clientOfId(invoiced.clientID) !== undefined ? invoiced.clientID : null;
    },
    client: (clientID) => clientOfId(clientID),
    priceOf: (activityID) => {
      if (!prices.has(activityID)) {
        const a = activityOf(activityID);
        const client = a?.clientID ? clientOfId(a.clientID) : undefined;
        const rate = a?.rate ?? client?.rate ?? null;
        const currency = client?.currency ?? fallbackCurrency;
        prices.set(activityID, rate !== null && currency !== null ? { rate, currency } : undefined);
      }
      return prices.get(activityID);
    },
    nameOf: (activityID) => {
      const a = activityOf(activityID);
      return { name: a?.name ?? '', nameKey: a?.nameKey ?? '' };
    },
  };
}

/**
 * Billed time and amounts of a set of worked spans (docs/data.md "The ledger"): only billable
 * blocks are billed; rounded per block (each block's part in the set) or per activity and
 * local day, or not at all (each activity's own covered time); an amount is worked out exactly
 * per currency and rounded once, half-up, for the row. A block on an invoice that stands is
 * billed what its invoice line says (invoice-shares.ts), whole, in the row whose window holds
 * its start — the report range, or a by-day row's day, as the invoice puts it on the day it
 * starts — and never at today's rate or rounding.
 */
export class Billing {
  private readonly ledger: Ledger;
  private readonly rounding: Rounding;
  private readonly days: readonly Span[];
  private readonly shares: ReadonlyMap<string, InvoiceShare>;
  private readonly range: Span;

  constructor(ledger: Ledger, rounding: Rounding, days: readonly Span[], shares: ReadonlyMap<string, InvoiceShare>, range: Span) {
    this.ledger = ledger;
    this.rounding = rounding;
    this.days = days;
    this.shares = shares;
    this.range = range;
  }

  /** Billed seconds per activity of `spans`. */
  billedPerActivity(spans: readonly WorkedSpan[]): Map<string, number> {
    const billed = new Map<string, number>();
    const add = (activityID: string, seconds: number): void => {
      billed.set(activityID, (billed.get(activityID) ?? 0) + seconds);
    };
    const billable = spans.filter((span) => this.ledger.isBillable(span));
    // Each block's part of the set, per activity: what rounding per block and minimumMinutes bill.
    const perBlock = new Map<string, { activityID: string; seconds: number }>();
    for (const span of billable) {
      const found = perBlock.get(span.block.id);
      if (found) found.seconds += span.end - span.start;
      else perBlock.set(span.block.id, { activityID: span.activityID, seconds: span.end - span.start });
    }
    const blocksOf = new Map<string, number[]>();
    for (const { activityID, seconds } of perBlock.values()) {
      const list = blocksOf.get(activityID);
      if (list === undefined) blocksOf.set(activityID, [seconds]);
      else list.push(seconds);
    }
    if (this.rounding.mode === 'none') {
      for (const [activityID, own] of spansByActivity(billable)) add(activityID, billedSeconds(coveredLength(own), blocksOf.get(activityID) ?? [], this.rounding));
    } else if (this.rounding.per === 'block') {
      for (const [activityID, blocks] of blocksOf) add(activityID, billedSeconds(0, blocks, this.rounding));
    } else {
      const topUps: Rounding = { ...this.rounding, mode: 'none' };
      for (const [activityID, own] of spansByActivity(billable)) {
        for (const day of coveredPerDay(unionOfSpans(own), this.days)) add(activityID, roundBilled(day, this.rounding));
        // A short block adds what it lacks of the minimum once, whichever days it covers.
        add(activityID, billedSeconds(0, blocksOf.get(activityID) ?? [], topUps));
      }
    }
    return billed;
  }

  /**
   * A row's `billedSeconds`, `amount`, `currency` and `amounts` for `spans` (each currency's
   * part worked out exactly and rounded once, half-up); added to `totals` when given.
   */
  row(spans: readonly WorkedSpan[], totals?: AmountTotals, window: Span = this.range): { billedSeconds: number; amount: string | null; currency: string | null; amounts: Amount[] } {
    let billed = 0;
    const exact = new Map<string, bigint>();
    const open: WorkedSpan[] = [];
    const counted = new Set<string>();
    for (const span of spans) {
      const share = this.shares.get(span.block.id);
      if (share === undefined) {
        open.push(span);
        continue;
      }
      if (counted.has(span.block.id) || share.start < window.start || share.start >= window.end) continue;
      counted.add(span.block.id);
      billed += share.billedSeconds;
      if (share.currency !== null) {
        // Whole minor units, as exact as the rest: the row's one rounding leaves them as they are.
        const value = (share.minor * EXACT_DENOMINATOR) / 10n ** BigInt(minorUnits(share.currency));
        exact.set(share.currency, (exact.get(share.currency) ?? 0n) + value);
      }
    }
    for (const [activityID, seconds] of this.billedPerActivity(open)) {
      billed += seconds;
      const price = this.ledger.priceOf(activityID);
      if (price !== undefined) exact.set(price.currency, (exact.get(price.currency) ?? 0n) + exactAmount(seconds, price.rate));
    }
    const amounts = [...exact].sort(([a], [b]) => compareText(a, b)).map(([currency, value]) => ({ currency, amount: roundAmount(value, currency) }));
    totals?.addRow({ amounts });
    return { billedSeconds: billed, ...oneOrMany(amounts) };
  }
}

/** A row's money: one currency as `amount`/`currency`, several only in `amounts` (`amount` and `currency` null then). */
export function oneOrMany(amounts: Amount[]): { amount: string | null; currency: string | null; amounts: Amount[] } {
  const only = amounts.length === 1 ? (amounts[0] as Amount) : undefined;
  return { amount: only?.amount ?? null, currency: only?.currency ?? null, amounts };
}

/** Orders text as SQLite's BINARY collation does for the names Tock keeps (code units). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
