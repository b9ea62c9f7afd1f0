/**
 * A report's figures as the Reports table shows them: each row's time, decimal hours, share,
 * billed time and money, shared out so every column adds up to its total as shown.
 */
import { formatHundredths, largestRemainderMinutes, type Report, shownHours, shownShares, shownTable } from '@tock/protocol';
import { windowMessages } from '../../i18n/index.ts';
import { localHours, moneyList } from '../../report-format.ts';
import { duration } from '../../time.ts';

/** A row's worked and billed time, and what it is worth. */
type LedgerRow = { seconds: number; billedSeconds: number; amount: string | null; currency: string | null; amounts?: { amount: string; currency: string }[] };

/** A row's money, each currency on its own: its `amounts`, else its one `amount`. */
function rowAmounts(row: LedgerRow | undefined): { amount: string; currency: string }[] {
  if (row === undefined) return [];
  if (row.amounts !== undefined) return row.amounts;
  return row.amount === null || row.currency === null ? [] : [{ amount: row.amount, currency: row.currency }];
}

/**
 * A report's cells as shown (docs/product.md "Durations shown to people"): each row's time
 * floored and shared out by largest remainder so the column adds up to the total as shown,
 * with the overlap (time several rows shared, counted once in the total) as a row of its own;
 * the decimal hours and the shares the same way (@tock/protocol `shownHours`, `shownShares`:
 * the CLI's digits). Billed time is shared out the same way over its own sum; `billedTotal`
 * is null where rows share blocks (by tag: a block with two tags is billed under each), since
 * their sum would bill a block twice.
 */
export interface ShownCells {
  rows: { time: string; hours: string; share: string; billed: string; amount: string }[];
  overlap: { time: string; hours: string; share: string } | null;
  total: { time: string; hours: string; share: string; billed: string | null; amount: string };
}

/** Whether a report has anything billed to show: billed time or an amount on any row. */
export function hasBilling(report: Report): boolean {
  return report.amounts.length > 0 || (report.rows as LedgerRow[]).some((r) => r.billedSeconds > 0 || rowAmounts(r).length > 0);
}

/** The {@link ShownCells} of a report; `sharedBlocks` when its rows may count one block twice (by tag). */
export function shownCells(report: Report, sharedBlocks = false): ShownCells {
  const rows = report.rows as LedgerRow[];
  const seconds = rows.map((r) => r.seconds);
  const table = shownTable(seconds, report.totalSeconds);
  const hours = shownHours(table.rows, table.total);
  const shares = shownShares(seconds, report.totalSeconds);
  const t = windowMessages();
  const percent = (p: number): string => (report.totalSeconds > 0 ? t('report.percent', { percent: p }) : '–');
  const words = (minutes: number): string => duration(minutes * 60);
  const hundredths = (h: number): string => localHours(formatHundredths(h));
  const billed = largestRemainderMinutes(rows.map((r) => r.billedSeconds));
  const billedSum = billed.reduce((a, b) => a + b, 0);
  const overlapping = table.overlap > 0 || hours.overlap > 0 || shares.overlap > 0;
  return {
    rows: table.rows.map((m, i) => ({
      time: words(m),
      hours: hundredths(hours.rows[i] as number),
      share: percent(shares.rows[i] as number),
      billed: words(billed[i] as number),
      amount: moneyList(rowAmounts(rows[i])),
    })),
    overlap: overlapping
      ? { time: `−${words(table.overlap)}`, hours: hundredths(-hours.overlap), share: `−${percent(shares.overlap)}` }
      : null,
    total: {
      time: words(table.total),
      hours: hundredths(hours.total),
      share: percent(100),
      billed: sharedBlocks ? null : words(billedSum),
      amount: moneyList(report.amounts),
    },
  };
}

/** The time column's heading: *Worked* beside *Billed*, else *Time*. */
export function timeLabel(billing: boolean): string {
  return windowMessages()(billing ? 'report.worked' : 'report.time');
}
