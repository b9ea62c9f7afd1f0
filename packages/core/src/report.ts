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

import { ruleProblem, validationProblem, type ActivityReportRow, type Amount, type ClientReportRow, type DayReportRow, type Report, type ReportRow, type TagReportRow } from '@tock/protocol';
import { clipSpans, coveredLength, coveredPerDay, unionOfSpans, type Span } from './blocks.ts';
import { addDays, localDayKey, localDaySpan, type DaySpan } from './day.ts';
import { invoiceShares } from './invoice-shares.ts';
import { dayTargetHours, readDayStartsAt, readRounding, readTargets } from './ledger-settings.ts';
import { nameKey } from './names.ts';
import { AmountTotals, Billing, compareText, ledgerOf, oneOrMany, type Ledger } from './report-billing.ts';
import { readReportQuery, type ReportQuery } from './report-range.ts';
import { WEEKDAYS, type Weekday } from './shapes/ledger.ts';
import type { Store } from './store.ts';
import { tagsOf } from './tags.ts';
import {
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

/** A row of a report by activity: an activity with time in the range. */
export type ReportActivityRow = ActivityReportRow;

/** A row of a report by day: one local calendar day of the range. */
export type ReportDayRow = DayReportRow;

/** The report's SQL, for the query-plan test: the one read of totals.ts. */
export const REPORT_SQL = { blocks: BLOCKS_OVERLAPPING_SQL } as const;

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
  let spans = clipSpans(
    workedSpans(blocksOverlapping(store, first.start, last.end), at),
    secondOf(first.start),
    Math.min(secondOf(last.end), secondOf(at)),
  );
  const ledger = ledgerOf(store, shares, spans.map((span) => span.activityID));
  if (billable !== undefined) spans = spans.filter((span) => ledger.isBillable(span) === billable);
  if (client !== undefined) {
    if (client !== null && ledger.client(client) === undefined) throw validationProblem([ruleProblem('client', { rule: 'clientRemoved' })]);
    spans = spans.filter((span) => ledger.clientOfSpan(span) === client);
  }
  const union = unionOfSpans(spans);
  const totalSeconds = union.reduce((sum, span) => sum + span.end - span.start, 0);
  const daySpans = days.map(daySeconds);
  const billing = new Billing(ledger, readRounding(store.settings), daySpans, shares, { start: secondOf(first.start), end: secondOf(last.end) });
  const byActivity = spansByActivity(spans);
  const activities = [...byActivity].map(([activityID, own]) => ({ activityID, seconds: coveredLength(own), ...billing.row(own) })).filter((a) => a.seconds > 0);
  const overlapSeconds = activities.reduce((sum, a) => sum + a.seconds, 0) - totalSeconds;
  let amounts = new AmountTotals();
  for (const a of activities) amounts.addRow(a);
  let rows: ReportRow[];
  if (by === 'activity') {
    // Only these rows show names, read with the activity's ledger fields: the other groupings
    // sort no names (a week by day of 500 activities spent a quarter of its time on them).
    // Their sums are exact, in any order.
    rows = activities
      .map((a) => ({ ...a, ...ledger.nameOf(a.activityID) }))
      .sort((a, b) => b.seconds - a.seconds || compareText(a.nameKey, b.nameKey) || compareText(a.name, b.name) || compareText(a.activityID, b.activityID))
      .map((a) => ({ activityID: a.activityID, activityName: a.name, seconds: a.seconds, billedSeconds: a.billedSeconds, amount: a.amount, currency: a.currency, amounts: a.amounts }));
  } else if (by === 'client') {
    // A client row's amount is the sum of its activities' (each rounded): the activity rows' totals.
    rows = clientRows(ledger, billing, activities, byActivity);
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

/**
 * The by-client rows: each client's own covered time, the sum of its activities' billed time and
 * amounts. A block on an invoice stays its invoice's client's, whichever client its activity has
 * since: an activity split that way adds each part, billed on its own.
 */
function clientRows(
  ledger: Ledger,
  billing: Billing,
  activities: readonly { activityID: string; billedSeconds: number; amounts: readonly Amount[] }[],
  byActivity: ReadonlyMap<string, WorkedSpan[]>,
): ClientReportRow[] {
  const groups = new Map<string | null, { spans: WorkedSpan[]; billedSeconds: number; amounts: AmountTotals }>();
  for (const a of activities) {
    const parts = new Map<string | null, WorkedSpan[]>();
    for (const span of byActivity.get(a.activityID) ?? []) {
      const clientID = ledger.clientOfSpan(span);
      const part = parts.get(clientID);
      if (part === undefined) parts.set(clientID, [span]);
      else part.push(span);
    }
    for (const [clientID, spans] of parts) {
      let group = groups.get(clientID);
      if (group === undefined) {
        group = { spans: [], billedSeconds: 0, amounts: new AmountTotals() };
        groups.set(clientID, group);
      }
      const billed = parts.size === 1 ? a : billing.row(spans);
      group.spans.push(...spans);
      group.billedSeconds += billed.billedSeconds;
      for (const part of billed.amounts) group.amounts.addAmount(part);
    }
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
