/**
 * `tock report` (docs/cli.md "tock report"; the result is docs/protocol.md "GET /report"):
 * worked time over a named range (today, yesterday, week, last-week, month, last-month, year,
 * last-year) or `--from`/`--to` days, by activity or by day; `--csv --matrix` is a timesheet of
 * activities by day. An admin command: the app reads its own store
 * and resolves the range in its own time zone, so no token is needed and the CLI's `TZ`
 * cannot make it count other days than the app does.
 */
import type { AdminInput, AdminResult } from '@tock/admin';
import { REPORT_PERIODS, reportCsv, reportMatrixCsv, type Report, type ReportActivityRow, type ReportDayRow } from '@tock/core';
import type { ClientReportRow, ReportBy, TagReportRow } from '@tock/protocol';
import { formatMinutesAs, largestRemainderMinutes, shownTable } from '@tock/protocol';
import { admin, asFlagRefusal, type FlagsByField } from './admin-call.ts';
import { formatCurrency, formatDate, formatList, intlLocale } from '@tock/i18n';
import { englishForms } from './client-format.ts';
import { flags } from './flags.ts';
import type { CliMessages } from './i18n/index.ts';
import { messagesOf, refusal, type Io } from './io.ts';
import { terminalJson, terminalText } from './terminal-text.ts';
import { padEndColumns, padStartColumns, textWidth } from './text-width.ts';

const PERIODS: readonly string[] = REPORT_PERIODS;

/** Whether a report has anything billed to show: billed time or an amount on any row (as the window decides). */
function hasBilling(report: Report): boolean {
  return report.amounts.length > 0 || (report.rows as { billedSeconds: number; amount: string | null }[]).some((r) => r.billedSeconds > 0 || r.amount !== null);
}

/**
 * The report as a table: a title, one line per row, and a total line, every time as
 * @tock/protocol shows durations: floored to the minute, the rows by largest remainder so that
 * they add up to the total as shown. By activity, time two activities shared is in both rows
 * and once in the total: a `Blocks at the same time, counted once` line takes it off, so the column still adds up
 * (by client the same; by tag `Blocks with several tags, counted once`, as the window says). Where
 * anything is billed (docs/data.md "The ledger"), the columns are Worked, Billed (shared out
 * the same way over its own sum; no sum by tag, where a block with two tags is billed under
 * each) and Amount (the row's, in its currency; the total per currency), as the window shows.
 */
export function reportTable(t: CliMessages, report: Report, by: ReportBy): string {
  const day = (date: string): string => (englishForms(t) ? date : formatDate(t.locale, Date.parse(`${date}T12:00:00Z`), 'UTC', 'medium'));
  // A range as the locale writes one (`9–15 nov. 2026`, `2026/11/09～2026/11/15`); English keeps its ISO days.
  const range = report.from === report.to ? day(report.from) : englishForms(t) ? `${report.from} – ${report.to}` : dayRange(t, report.from, report.to);
  const title = t('report.title', { range, zone: report.timeZone, by });
  const shown = shownTable(
    report.rows.map((r) => r.seconds),
    report.totalSeconds,
  );
  const labels =
    by === 'activity'
      ? (report.rows as ReportActivityRow[]).map((r) => terminalText(r.activityName))
      : by === 'client'
        ? (report.rows as ClientReportRow[]).map((r) => (r.clientName === null ? t('report.noClient') : terminalText(r.clientName)))
        : by === 'tag'
          ? (report.rows as TagReportRow[]).map((r) => (r.tag === null ? t('report.noTag') : terminalText(r.tag)))
          : // The day as the title writes it, with its weekday where the locale puts it (`So., 29.11.2026`,
            // `dim. 29 nov. 2026`, `2026/11/29(日)`); English keeps `2026-11-29 Sun`.
            (report.rows as ReportDayRow[]).map((r) => (englishForms(t) ? `${r.date} ${weekday(t, r.date)}` : dayWithWeekday(t, r.date)));
  if (by !== 'day' && labels.length === 0) return `${title}\n${t('report.nothing')}`;
  const billing = hasBilling(report);
  const ledgerRows = report.rows as { billedSeconds: number; amount: string | null; currency: string | null; amounts?: { currency: string; amount: string }[] }[];
  const billed = largestRemainderMinutes(ledgerRows.map((r) => r.billedSeconds));
  // An amount is the decimal amount and the currency's code (never `€`), each currency's on its own
  // (`190.00 EUR + 240.00 USD`, never added); `–` only where no rate applies.
  const worthOf = (amounts: readonly { currency: string; amount: string }[]): string => (amounts.length === 0 ? '–' : amounts.map((a) => money(t, a)).join(' + '));
  const worth = (row: (typeof ledgerRows)[number]): string => worthOf(row.amounts ?? (row.amount === null || row.currency === null ? [] : [{ amount: row.amount, currency: row.currency }]));
  const cells: string[][] = labels.map((label, i) => {
    const time = formatMinutesAs(shown.rows[i] ?? 0);
    const row = ledgerRows[i];
    return billing && row ? [label, time, formatMinutesAs(billed[i] ?? 0), worth(row)] : [label, time];
  });
  const blank = billing ? ['', ''] : [];
  // The rows' own shared time (their sum as shown less the total as shown), so the column adds up
  // in every grouping: clients whose blocks lay at the same time, a block with two tags.
  const overlap: string[][] = shown.overlap > 0 ? [[t(by === 'tag' ? 'report.overlapTag' : 'report.overlap'), `−${formatMinutesAs(shown.overlap)}`, ...blank]] : [];
  const amounts = worthOf(report.amounts);
  const billedTotal = by === 'tag' ? '–' : formatMinutesAs(billed.reduce((sum, m) => sum + m, 0));
  const total = billing ? [t('report.total'), formatMinutesAs(shown.total), billedTotal, amounts] : [t('report.total'), formatMinutesAs(shown.total)];
  const first = t('report.first', { by });
  const header = billing ? [first, t('report.worked'), t('report.billed'), t('report.amount')] : [first, t('report.time')];
  const all = [header, ...cells, ...overlap, total];
  // Widths in terminal columns: `設計レビュー` and a Japanese header take two a character.
  const widths = header.map((_, column) => Math.max(...all.map((row) => textWidth(row[column] ?? ''))));
  // The first column left-aligned, the figures right-aligned.
  const line = (row: string[]): string => row.map((cell, column) => (column === 0 ? padEndColumns(cell, widths[0] as number) : padStartColumns(cell, widths[column] as number))).join('  ');
  const rule = '─'.repeat(widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1));
  return [title, '', line(header), rule, ...cells.map(line), rule, ...overlap.map(line), line(total)].join('\n');
}

/** Two calendar days as the locale writes a range of them (`Intl`'s `formatRange`, the title's medium dates). */
function dayRange(t: CliMessages, from: string, to: string): string {
  return new Intl.DateTimeFormat(intlLocale(t.locale), { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(Date.parse(`${from}T12:00:00Z`), Date.parse(`${to}T12:00:00Z`));
}

/**
 * A calendar day and its weekday as the locale writes them: the title's medium date (numeric in
 * German and Japanese, the month's short name in French and Spanish) with the weekday in its place.
 */
function dayWithWeekday(t: CliMessages, day: string): string {
  const at = Date.parse(`${day}T12:00:00Z`);
  const numeric = !/\p{L}/u.test(formatDate(t.locale, at, 'UTC', 'medium'));
  const parts: Intl.DateTimeFormatOptions = numeric ? { year: 'numeric', month: '2-digit', day: '2-digit' } : { year: 'numeric', month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(intlLocale(t.locale), { ...parts, weekday: 'short', timeZone: 'UTC' }).format(at);
}

/** `Mon` … `Sun` for a calendar day, in the locale's words. */
function weekday(t: CliMessages, day: string): string {
  return new Intl.DateTimeFormat(intlLocale(t.locale), { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

/**
 * An amount as the locale writes money (`1.234,50 €`); English keeps the decimal and the code
 * (`190.00 EUR`), as before. A currency `Intl` does not know is written as it came.
 */
function money(t: CliMessages, a: { currency: string; amount: string }): string {
  if (englishForms(t)) return `${a.amount} ${a.currency}`;
  try {
    return formatCurrency(t.locale, Number(a.amount), a.currency);
  } catch {
    return `${a.amount} ${a.currency}`;
  }
}

/** The flag of each field the app may refuse (its refusal names the field). */
const FLAGS: FlagsByField = { from: '--from', to: '--to', by: '--by', billable: '--billable' };

/** Runs `tock report ARGS` (its usage is in admin-commands.ts); returns the exit status. */
export async function runReport(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(
    args,
    {
      from: { type: 'string' },
      to: { type: 'string' },
      by: { type: 'string' },
      billable: { type: 'string' },
      csv: { type: 'boolean' },
      matrix: { type: 'boolean' },
    },
    1,
  );
  const period = positionals[0];
  if (period !== undefined && !PERIODS.includes(period)) {
    // One choice among the ranges and the dates: `today, …, last-year, or --from and --to`.
    const t = messagesOf(io);
    throw refusal('report.unknownRange', { period, periods: formatList(t.locale, [...PERIODS, t('report.fromAndTo')], 'disjunction') });
  }
  if (period !== undefined && (values.from !== undefined || values.to !== undefined)) {
    throw refusal('report.rangeAndDates', { period });
  }
  if (values.json === true && values.csv === true) throw refusal('report.jsonAndCsv');
  const matrix = values.matrix === true;
  if (matrix && values.csv !== true) throw refusal('report.matrixNeedsCsv');
  if (matrix && values.by !== undefined) throw refusal('report.matrixBy');
  const by = values.by ?? 'activity';
  if (by !== 'activity' && by !== 'day' && by !== 'client' && by !== 'tag') throw refusal('report.byValues', { value: String(by) });
  if (values.billable !== undefined && values.billable !== 'true' && values.billable !== 'false') {
    throw refusal('report.billableValues', { value: String(values.billable) });
  }
  const input: AdminInput<'GET /report'> = matrix ? { by, matrix } : { by };
  if (values.billable !== undefined) input.billable = values.billable === 'true';
  if (values.from !== undefined || values.to !== undefined) {
    input.from = values.from as string | undefined;
    input.to = values.to as string | undefined;
  } else {
    input.period = period ?? 'today';
  }
  let report: AdminResult<'GET /report'>;
  try {
    report = await admin(io, 'GET /report', input);
  } catch (error) {
    throw asFlagRefusal(error, FLAGS);
  }
  if (values.json === true) io.out(terminalJson(report));
  // Every record ends with CRLF; io.out adds the last record's LF itself.
  else if (matrix && 'cells' in report) {
    io.out(reportMatrixCsv(report, report.cells, report.days).slice(0, -1));
  } else if (values.csv === true) io.out(reportCsv(report, by).slice(0, -1));
  else io.out(reportTable(messagesOf(io), report, by));
  return 0;
}
