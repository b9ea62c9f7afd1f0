/**
 * Reports (docs/protocol.md "GET /report"): worked seconds over a range of local calendar
 * days, per activity or per day. One function serves `GET /report`, `tock report` and the
 * window's Reports screen. Seconds follow the rules of today's total (docs/product.md
 * "The application"): each session and entry counts its part inside the range, breaks left
 * out, a running session counts up to now and nothing after now counts. A second covered by
 * several blocks counts once in the total and in a day's row; an activity's row counts that
 * activity's own covered time, so activity rows can add up to more than the total, by
 * `overlapSeconds`.
 *
 * The blocks that overlap the range are found through the `ended_at` indexes (totals.ts), so
 * a report's cost follows the blocks of the range, not the size of the history; they are
 * joined in JavaScript (blocks.ts), in whole seconds.
 */

import {
  type Amount,
  checkField,
  QUERY_SCHEMAS,
  validationProblem,
  type ActivityReportRow,
  type ClientReportRow,
  type DayReportRow,
  type TagReportRow,
  type FieldProblem,
  type Report,
  type ReportBy,
  type ReportRow,
} from '@tock/protocol';
import { invoiceShares, type InvoiceShare } from './invoice-shares.ts';
import { clipSpans, coveredLength, coveredPerDay, unionOfSpans, type Span } from './blocks.ts';
import { tagsOf } from './tags.ts';
import { billedSeconds, dayTargetHours, readBusiness, readDayStartsAt, readRounding, readTargets, roundBilled } from './ledger-settings.ts';
import { WEEKDAYS, type Rounding, type Weekday } from './shapes/ledger.ts';
import { EXACT_DENOMINATOR, exactAmount, minorUnits, roundAmount, sumAmounts } from './money.ts';
import { nameKey } from './names.ts';
import { addDays, localDayKey, localDaySpan, startOfWeek, type DayKey, type DaySpan, type WeekStartDay } from './day.ts';
import type { Store } from './store.ts';
import {
  activityNames,
  BLOCKS_OVERLAPPING_SQL,
  blocksOverlapping,
  daySeconds,
  secondOf,
  spansByActivity,
  workedSpans,
  type WorkedSpan,
} from './totals.ts';

/** The wire result and its rows, as @tock/protocol defines them (docs/protocol.md "GET /report"). */
export type { Report, ReportRow };

/** How a report groups its rows. */
export type ReportGrouping = ReportBy;

/** A row of a report by activity: an activity with time in the range. */
export type ReportActivityRow = ActivityReportRow;

/** A row of a report by day: one local calendar day of the range. */
export type ReportDayRow = DayReportRow;

/**
 * What a report is asked for. Every field is optional (absent or `null`: `from` and `to`
 * default to today, `by` to `activity`); values are checked, since they come from a query
 * string, an admin request or a form.
 */
export interface ReportQuery {
  from?: unknown;
  to?: unknown;
  by?: unknown;
  billable?: unknown;
  /**
   * Only the time of one client's activities: its ID, or {@link NO_CLIENT} for time without a
   * client. The window's Reports screen asks for it; the signed `GET /report` has no such
   * parameter (docs/protocol.md "GET /report").
   */
  client?: unknown;
}

/** The `client` of a report query that keeps only the time without a client. */
export const NO_CLIENT = 'none';

/** The longest range a report covers, in days (a leap year). */
export const REPORT_MAX_DAYS = 366;

/** The report's SQL, for the query-plan test: the one read of totals.ts. */
export const REPORT_SQL = { blocks: BLOCKS_OVERLAPPING_SQL } as const;

/** The query fields of `GET /report`: the one rule for a day and a grouping, in every path. */
const REPORT_FIELDS = QUERY_SCHEMAS['/report'].properties;

/**
 * Reads one field of a report or export range with @tock/protocol's rule, so the listener,
 * the CLI and the window refuse a bad day or grouping in the same words. Absent (`undefined`
 * or `null`) gives `fallback`.
 */
export function readQueryField<F extends keyof typeof REPORT_FIELDS, T>(name: F, value: unknown, fallback: T, problems: FieldProblem[], as: string = name): string | T | undefined {
  if (value === undefined || value === null) return fallback;
  const checked = checkField(REPORT_FIELDS[name], value);
  if ('message' in checked) {
    problems.push({ field: as, message: checked.message });
    return undefined;
  }
  return checked.value as string;
}

/** Number of calendar days from `from` to `to`, both included (negative when `to` is before `from`). */
function daysBetween(from: DayKey, to: DayKey): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A checked report query: the range, the grouping and the billable filter. */
export interface ReportRange {
  from: DayKey;
  to: DayKey;
  by: ReportGrouping;
  /** Only billable blocks (true), only the others (false), or every block (undefined). */
  billable?: boolean;
  /** Only one client's time (its ID), only the time without a client (null), or all of it (undefined). */
  client?: string | null;
}

/**
 * Checks a report query and fills in its defaults (today, by activity), or throws the
 * `validation_failed` problem the listener answers with 400: a malformed or impossible date,
 * `to` before `from`, a range over {@link REPORT_MAX_DAYS} days, or an unknown grouping.
 */
export function readReportQuery(query: ReportQuery, now: number, timeZone: string, dayStartsAt = 0): ReportRange {
  const problems: FieldProblem[] = [];
  const today = localDayKey(now, timeZone, dayStartsAt);
  const input = query ?? {};
  const from = readQueryField('from', input.from, today, problems);
  const to = readQueryField('to', input.to, today, problems);
  const by = (readQueryField('by', input.by, 'activity', problems) ?? 'activity') as ReportGrouping;
  if (from !== undefined && to !== undefined) {
    const days = daysBetween(from, to);
    if (days < 1) problems.push({ field: 'to', message: `must not be before from (${from})` });
    else if (days > REPORT_MAX_DAYS) {
      problems.push({ field: 'to', message: `the range covers ${days} days; a report covers at most ${REPORT_MAX_DAYS}` });
    }
  }
  const billableText = input.billable === 'true' ? true : input.billable === 'false' ? false : input.billable;
  const billable = readQueryField('billable', billableText, undefined, problems) as boolean | undefined;
  const client = readClient(input.client, problems);
  if (problems.length > 0 || from === undefined || to === undefined) throw validationProblem(problems);
  return { from, to, by, ...(billable === undefined ? {} : { billable }), ...(client === undefined ? {} : { client }) };
}

/** A report's client filter: absent or empty is every client; {@link NO_CLIENT} is null. */
function readClient(value: unknown, problems: FieldProblem[]): string | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 64) {
    problems.push({ field: 'client', message: `must be a client's ID, or ${NO_CLIENT} for time without a client` });
    return undefined;
  }
  return value === NO_CLIENT ? null : value;
}

/**
 * The report for `query` (docs/protocol.md "GET /report") as of `now` (ms since the epoch),
 * over the local calendar days of `timeZone` (an IANA name). By activity: only activities
 * with time, most seconds first, ties by name; each counts its own covered time. By day:
 * every day of the range, zeros included, in order; the rows add up to `totalSeconds`, the
 * covered time of the range, each second once. By client and by tag: each row its own covered
 * time, like by activity. `overlapSeconds` is the activity rows' sum minus `totalSeconds`
 * whichever way the rows are grouped. Every row says what of it is billed and worth
 * (ledger.ts's rules: billable blocks only, rounded by the `rounding` setting, at the
 * activity's rate, else its client's — but a block on an invoice that stands at what its
 * invoice line says, so money once invoiced never drifts); `amounts` adds up the rows shown, per currency (each
 * row's part in a currency rounded half-up, a row in several currencies contributing each
 * part), so the rows add up to the totals as an invoice's lines do — except by tag when a
 * block carries several tags, where the rows would bill it twice: then the activity rows'.
 * `billable` keeps only billable blocks, or only the others; `client` only one client's
 * activities, or those without a client. Throws
 * `validation_failed` (see {@link readReportQuery}) for a bad query.
 */
export function buildReport(store: Store, query: ReportQuery, now: number, timeZone: string): Report {
  const dayStartsAt = readDayStartsAt(store.settings);
  const { from, to, by, billable, client } = readReportQuery(query, now, timeZone, dayStartsAt);
  const days: DaySpan[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(localDaySpan(day, timeZone, dayStartsAt));
  const first = days[0] as DaySpan;
  const last = days[days.length - 1] as DaySpan;
  const at = Math.floor(now);
  const shares = invoiceShares(store, first.start, last.end);
  const ledger = ledgerOf(store, shares);
  let spans = clipSpans(
    workedSpans(blocksOverlapping(store, first.start, last.end), at),
    secondOf(first.start),
    Math.min(secondOf(last.end), secondOf(at)),
  );
  if (billable !== undefined) spans = spans.filter((span) => ledger.isBillable(span) === billable);
  if (client !== undefined) {
    if (client !== null && ledger.client(client) === undefined) throw validationProblem([{ field: 'client', message: 'no client has this ID (removed?); choose one of the clients listed' }]);
    spans = spans.filter((span) => ledger.clientOf(span.activityID) === client);
  }
  const union = unionOfSpans(spans);
  const totalSeconds = union.reduce((sum, span) => sum + span.end - span.start, 0);
  const nameOf = activityNames(store);
  const daySpans = days.map(daySeconds);
  const billing = new Billing(ledger, readRounding(store.settings), daySpans, shares, { start: secondOf(first.start), end: secondOf(last.end) });
  const byActivity = spansByActivity(spans);
  const activities = [...byActivity]
    .map(([activityID, own]) => ({ activityID, ...nameOf(activityID), seconds: coveredLength(own), ...billing.row(own) }))
    .filter((a) => a.seconds > 0)
    .sort(
      (a, b) =>
        b.seconds - a.seconds ||
        compareText(a.nameKey, b.nameKey) ||
        compareText(a.name, b.name) ||
        compareText(a.activityID, b.activityID),
    );
  const overlapSeconds = activities.reduce((sum, a) => sum + a.seconds, 0) - totalSeconds;
  let amounts = new AmountTotals();
  for (const a of activities) amounts.addRow(a);
  let rows: ReportRow[];
  if (by === 'activity') {
    rows = activities.map((a) => ({ activityID: a.activityID, activityName: a.name, seconds: a.seconds, billedSeconds: a.billedSeconds, amount: a.amount, currency: a.currency, amounts: a.amounts }));
  } else if (by === 'client') {
    // A client row's amount is the sum of its activities' (each rounded): the activity rows' totals.
    rows = clientRows(ledger, activities, byActivity);
  } else if (by === 'tag') {
    const tags = tagRows(spans, billing);
    rows = tags.rows;
    if (!tags.shared) amounts = tags.amounts;
  } else {
    const perDay = spansPerDay(spans, daySpans);
    amounts = new AmountTotals();
    rows = coveredPerDay(union, daySpans).map((seconds, i) => ({ date: (days[i] as DaySpan).day, seconds, ...billing.row(perDay[i] as WorkedSpan[], amounts, daySpans[i]) }));
  }
  const targetSeconds = targetsOf(store, days, now, timeZone);
  return {
    from,
    to,
    timeZone,
    totalSeconds,
    overlapSeconds,
    rows,
    amounts: amounts.list(),
    targetSeconds,
    balanceSeconds: targetSeconds === null ? null : totalSeconds - targetSeconds,
  };
}

/** The by-client rows: each client's own covered time, the sum of its activities' billed time and amounts. */
function clientRows(
  ledger: Ledger,
  activities: readonly { activityID: string; billedSeconds: number; amounts: readonly Amount[] }[],
  byActivity: ReadonlyMap<string, WorkedSpan[]>,
): ClientReportRow[] {
  const groups = new Map<string | null, { spans: WorkedSpan[]; billedSeconds: number; amounts: AmountTotals }>();
  for (const a of activities) {
    const clientID = ledger.clientOf(a.activityID);
    let group = groups.get(clientID);
    if (group === undefined) {
      group = { spans: [], billedSeconds: 0, amounts: new AmountTotals() };
      groups.set(clientID, group);
    }
    group.spans.push(...(byActivity.get(a.activityID) ?? []));
    group.billedSeconds += a.billedSeconds;
    for (const part of a.amounts) group.amounts.addAmount(part);
  }
  const rows = [...groups].map(([clientID, g]) => {
    const client = clientID === null ? undefined : ledger.client(clientID);
    return {
      clientID,
      clientName: client?.name ?? null,
      nameKey: client?.name.toLowerCase() ?? '',
      seconds: coveredLength(g.spans),
      billedSeconds: g.billedSeconds,
      ...oneOrMany(g.amounts.list()),
    };
  });
  rows.sort((a, b) => b.seconds - a.seconds || (a.clientID === null ? 1 : 0) - (b.clientID === null ? 1 : 0) || compareText(a.nameKey, b.nameKey) || compareText(a.clientID ?? '', b.clientID ?? ''));
  return rows.map(({ nameKey: _nameKey, ...row }) => row);
}

/**
 * The by-tag rows: each tag (case-insensitively, its first spelling) with the time of the
 * blocks that carry it; `null` for blocks without one. `shared` when a block carries several
 * tags (it is in several rows, so the rows' amounts do not add up to what the range is worth);
 * `amounts` adds up the rows' amounts per currency.
 */
function tagRows(spans: readonly WorkedSpan[], billing: Billing): { rows: TagReportRow[]; shared: boolean; amounts: AmountTotals } {
  let shared = false;
  const groups = new Map<string, { tag: string | null; spans: WorkedSpan[] }>();
  const parsed = new Map<string | null, string[]>();
  for (const span of spans) {
    let tags = parsed.get(span.block.tags);
    if (tags === undefined) {
      tags = tagsOf(span.block.tags);
      parsed.set(span.block.tags, tags);
    }
    if (tags.length > 1) shared = true;
    const keys = tags.length === 0 ? [null] : tags;
    for (const tag of keys) {
      const key = tag === null ? '' : `#${nameKey(tag)}`;
      let group = groups.get(key);
      if (group === undefined) {
        group = { tag, spans: [] };
        groups.set(key, group);
      }
      group.spans.push(span);
    }
  }
  const amounts = new AmountTotals();
  const rows = [...groups.values()].map((g) => ({ tag: g.tag, seconds: coveredLength(g.spans), ...billing.row(g.spans, amounts) })).filter((r) => r.seconds > 0);
  rows.sort((a, b) => b.seconds - a.seconds || (a.tag === null ? 1 : 0) - (b.tag === null ? 1 : 0) || compareText(nameKey(a.tag ?? ''), nameKey(b.tag ?? '')) || compareText(a.tag ?? '', b.tag ?? ''));
  return { rows, shared, amounts };
}

/**
 * A report's `amounts`: the rows' amounts added up per currency (docs/data.md "The ledger").
 * A row in one currency adds its amount; a row billed in several (its `amount` null) adds each
 * currency's part, rounded half-up on its own, as that row's lines would be.
 */
class AmountTotals {
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

/** The spans of each day of `days` (a span across midnight is cut in two). */
function spansPerDay(spans: readonly WorkedSpan[], days: readonly Span[]): WorkedSpan[][] {
  const perDay: WorkedSpan[][] = days.map(() => []);
  for (const span of spans) {
    let i = dayIndex(days, span.start);
    for (; i < days.length; i++) {
      const day = days[i] as Span;
      if (day.start >= span.end) break;
      const start = Math.max(span.start, day.start);
      const end = Math.min(span.end, day.end);
      if (end > start) (perDay[i] as WorkedSpan[]).push(start === span.start && end === span.end ? span : { ...span, start, end });
    }
  }
  return perDay;
}

/** The index of the day that holds `second` (0 before the first; days are sorted and consecutive). */
function dayIndex(days: readonly Span[], second: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((days[mid] as Span).start <= second) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** What the ledger knows of activities and clients, read once per report. */
interface Ledger {
  isBillable(span: WorkedSpan): boolean;
  clientOf(activityID: string): string | null;
  client(clientID: string): { name: string } | undefined;
  /** The rate and currency billed for an activity's time, or undefined when none applies. */
  priceOf(activityID: string): { rate: string; currency: string } | undefined;
}

/** The ledger as a report reads it; a block on an invoice (in `shares`) is billable, as it was billed. */
function ledgerOf(store: Store, shares: ReadonlyMap<string, InvoiceShare>): Ledger {
  const activities = new Map<string, { clientID: string | null; rate: string | null; billable: number }>();
  for (const a of store.statement('SELECT id, client_id AS clientID, rate, billable FROM activities WHERE client_id IS NOT NULL OR rate IS NOT NULL OR billable <> 0').all() as unknown as {
    id: string;
    clientID: string | null;
    rate: string | null;
    billable: number;
  }[]) {
    activities.set(a.id, a);
  }
  const clients = new Map<string, { name: string; rate: string | null; currency: string | null }>();
  for (const c of store.statement('SELECT id, name, rate, currency FROM clients').all() as unknown as { id: string; name: string; rate: string | null; currency: string | null }[]) clients.set(c.id, c);
  const fallbackCurrency = readBusiness(store.settings).currency ?? null;
  const prices = new Map<string, { rate: string; currency: string } | undefined>();
  return {
    isBillable: (span) => shares.has(span.block.id) || (span.block.billable ?? activities.get(span.activityID)?.billable ?? 0) === 1,
    clientOf: (activityID) => {
      const clientID = activities.get(activityID)?.clientID ?? null;
      return clientID !== null && clients.has(clientID) ? clientID : null;
    },
    client: (clientID) => clients.get(clientID),
    priceOf: (activityID) => {
      if (!prices.has(activityID)) {
        const a = activities.get(activityID);
        const client = a?.clientID ? clients.get(a.clientID) : undefined;
        const rate = a?.rate ?? client?.rate ?? null;
        const currency = client?.currency ?? fallbackCurrency;
        prices.set(activityID, rate !== null && currency !== null ? { rate, currency } : undefined);
      }
      return prices.get(activityID);
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
class Billing {
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

/** The targets of the range's days up to and including today, in seconds; null without targets. */
function targetsOf(store: Store, days: readonly DaySpan[], now: number, timeZone: string): number | null {
  const targets = readTargets(store.settings);
  if (targets === undefined) return null;
  const today = localDayKey(now, timeZone, readDayStartsAt(store.settings));
  let seconds = 0;
  for (const { day } of days) {
    if (day > today) break;
    const weekday = WEEKDAYS[(new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7] as Weekday;
    seconds += Math.round(dayTargetHours(targets, weekday) * 3600);
  }
  return seconds;
}

/** A row's money: one currency as `amount`/`currency`, several only in `amounts` (`amount` and `currency` null then). */
function oneOrMany(amounts: Amount[]): { amount: string | null; currency: string | null; amounts: Amount[] } {
  const only = amounts.length === 1 ? (amounts[0] as Amount) : undefined;
  return { amount: only?.amount ?? null, currency: only?.currency ?? null, amounts };
}

/** Orders text as SQLite's BINARY collation does for the names Tock keeps (code units). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The named ranges of `tock report` and the window's Reports screen. */
export const REPORT_PERIODS = ['today', 'yesterday', 'week', 'last-week', 'month', 'last-month', 'year', 'last-year'] as const;

/** One of {@link REPORT_PERIODS}. */
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/**
 * The first and last local day of a named range as of `now` in `timeZone`: today,
 * yesterday, this week or the last (weeks start on `days.weekStart`, Monday by default; days at
 * `days.dayStartsAt`, midnight by default), this month or the last, this
 * year or the last. "This week", "this month" and "this year" run to their last day, so the
 * days still to come show as zeros.
 */
export function reportPeriod(period: ReportPeriod, now: number, timeZone: string, days: { dayStartsAt?: number; weekStart?: WeekStartDay } = {}): { from: DayKey; to: DayKey } {
  const today = localDayKey(now, timeZone, days.dayStartsAt);
  const [year, month] = today.split('-').map(Number) as [number, number];
  const monday = startOfWeek(today, days.weekStart);
  const firstOfMonth = `${today.slice(0, 8)}01`;
  const lastOfMonth = addDays(monthStart(year, month + 1), -1);
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'week':
      return { from: monday, to: addDays(monday, 6) };
    case 'last-week':
      return { from: addDays(monday, -7), to: addDays(monday, -1) };
    case 'month':
      return { from: firstOfMonth, to: lastOfMonth };
    case 'last-month':
      return { from: monthStart(year, month - 1), to: addDays(firstOfMonth, -1) };
    case 'year':
      return { from: monthStart(year, 1), to: addDays(monthStart(year + 1, 1), -1) };
    case 'last-year':
      return { from: monthStart(year - 1, 1), to: addDays(monthStart(year, 1), -1) };
  }
}

/** The first day of a month given as year and month number (months past 12 or before 1 roll over). */
function monthStart(year: number, month: number): DayKey {
  const y = year + Math.floor((month - 1) / 12);
  const m = ((((month - 1) % 12) + 12) % 12) + 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`;
}
