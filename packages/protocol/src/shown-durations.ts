/**
 * Durations as people read them (docs/product.md "Durations shown to people"): floored to the
 * minute, and a table's rows shown so that they add up to its total as shown. One
 * implementation for the CLI, the window, the VS Code extension and the tray, so a 49 min 40 s
 * session is `0:49` / `49 min` everywhere and never `50 min` in one place. Pure: no I/O.
 *
 * Floor, not round: a total shown never runs ahead of the clock, and a running timer changes
 * its minute when the minute is full. Tables: each row is floored and the minutes the floors
 * lost together go, one each, to the rows that lost the most (largest-remainder rounding,
 * ties to the earlier row), so the rows add up to the floored total and each stays within a
 * minute of its exact value.
 */

/** How a duration is written: `2:05` (tables, status bars), `2h 05m` (CLI lines), `2 h 5 min` (the window). */
export type DurationStyle = 'clock' | 'short' | 'words';

/** Whole minutes in `seconds`, rounded down; negative or not a number is 0. */
export function flooredMinutes(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds / 60) : 0;
}

/**
 * A number of whole minutes written in `style`: `clock` `0:49`, `2:05`; `short` `49m`, `2h`,
 * `2h 05m`; `words` `49 min`, `2 h`, `2 h 5 min`. Use {@link formatDuration} for seconds;
 * this is for minutes already shown by {@link shownTable}.
 */
export function formatMinutesAs(minutes: number, style: DurationStyle = 'clock'): string {
  const whole = Number.isFinite(minutes) && minutes > 0 ? Math.floor(minutes) : 0;
  const h = Math.floor(whole / 60);
  const m = whole % 60;
  switch (style) {
    case 'clock':
      return `${h}:${String(m).padStart(2, '0')}`;
    case 'short':
      return h === 0 ? `${m}m` : m === 0 ? `${h}h` : `${h}h ${String(m).padStart(2, '0')}m`;
    case 'words':
      return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
  }
}

/**
 * Seconds of worked time as people read them, floored to the minute: 2 980 s (49 min 40 s) is
 * `0:49`, `49m` or `49 min`, never 50. Negative spans (a clock stepped back) read as zero.
 */
export function formatDuration(seconds: number, style: DurationStyle = 'clock'): string {
  return formatMinutesAs(flooredMinutes(seconds), style);
}

/**
 * Shares `totalMinutes` out over rows of exact `seconds` by largest remainder: each row gets
 * its floored minutes, and the minutes still missing from `totalMinutes` go one each to the
 * rows with the largest remainders (ties: the earlier row). With `totalMinutes` the floor of
 * the rows' sum (the default) every row stays within a minute of its exact value, and a row
 * with more seconds never shows fewer minutes than one with less.
 */
export function largestRemainderMinutes(seconds: readonly number[], totalMinutes?: number): number[] {
  const whole = seconds.map((s) => (Number.isFinite(s) && s > 0 ? Math.floor(s) : 0));
  const target = totalMinutes ?? flooredMinutes(whole.reduce((sum, s) => sum + s, 0));
  const shown = whole.map((s) => Math.floor(s / 60));
  const missing = target - shown.reduce((sum, m) => sum + m, 0);
  const byRemainder = whole.map((s, i) => ({ i, remainder: s % 60 })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  // Fewer than one minute per row is missing when the target is the floor of the sum; a
  // larger target given by the caller goes round the rows again.
  for (let k = 0; k < missing && byRemainder.length > 0; k++) {
    const row = byRemainder[k % byRemainder.length] as { i: number };
    shown[row.i] = (shown[row.i] as number) + 1;
  }
  return shown;
}

/** A table of durations as shown, in whole minutes: see {@link shownTable}. */
export interface ShownTable {
  /** Each row's minutes; they add up to `total + overlap`. */
  rows: number[];
  /** Time several rows share, shown once in `total` (a report's `overlapSeconds`); 0 when rows do not overlap. */
  overlap: number;
  /** The floored total. */
  total: number;
}

/**
 * The minutes to show for a table whose rows have exact `rowSeconds` and whose total is
 * `totalSeconds`: the total floored, the rows by {@link largestRemainderMinutes} so that they
 * add up to the floor of their own sum, and the overlap the difference. When the rows add up
 * to the total (a report by day) the overlap is 0 and the rows add up to the total as shown;
 * when rows overlap (a report by activity, `overlapSeconds` > 0) the table reads
 * rows − overlap = total, every figure as shown and each within a minute of its exact value.
 */
export function shownTable(rowSeconds: readonly number[], totalSeconds: number): ShownTable {
  const rows = largestRemainderMinutes(rowSeconds);
  const total = flooredMinutes(totalSeconds);
  const overlap = Math.max(0, rows.reduce((sum, m) => sum + m, 0) - total);
  return { rows, overlap, total };
}

/**
 * Integers that add up to `target`, one per row of exact value `numerators[i] / denominator`
 * units, by largest remainder: each row gets its floor, and the units still missing go one
 * each to the rows whose floors lost the most (ties: the earlier row). The default target is
 * the rows' exact sum rounded half up, so every row stays within one unit of its exact value.
 * Integer arithmetic on the numerators (no 1.1 × 60 surprises); negative or non-finite
 * numerators count as zero. The one rounding behind every shown column of decimal hours and
 * shares ({@link shownHours}, {@link shownShares}) in the window and the CLI.
 */
export function largestRemainder(numerators: readonly number[], denominator: number, target?: number): number[] {
  if (!(denominator > 0)) return numerators.map(() => 0);
  const whole = numerators.map((n) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0));
  const sum = whole.reduce((a, n) => a + n, 0);
  const goal = target ?? Math.floor((2 * sum + denominator) / (2 * denominator));
  const shown = whole.map((n) => Math.floor(n / denominator));
  const missing = goal - shown.reduce((a, n) => a + n, 0);
  const order = whole.map((n, i) => ({ i, remainder: n % denominator })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (let k = 0; k < missing && order.length > 0; k++) {
    const row = order[k % order.length] as { i: number };
    shown[row.i] = (shown[row.i] as number) + 1;
  }
  return shown;
}

/**
 * Hundredths of an hour in `minutes` whole minutes, rounded half up: 1 000 min (16 h 40 min) is
 * 1 667 (16.67), 325 min is 542 (5.42). Decimal hours are always of the minutes shown, so
 * `16 h 40 min` and `16.67` are the same figure in both forms.
 */
export function hundredthsOfHours(minutes: number): number {
  const whole = Number.isFinite(minutes) && minutes > 0 ? Math.floor(minutes) : 0;
  // minutes × 100 / 60 = 5m / 3, plus a half, floored.
  return Math.floor((10 * whole + 3) / 6);
}

/** Hundredths of an hour written as decimal hours with two decimals: 1 667 is `16.67`; a negative number gets a `−`. */
export function formatHundredths(hundredths: number): string {
  const n = Math.abs(Math.trunc(hundredths));
  return `${hundredths < 0 ? '−' : ''}${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}

/** Seconds as the decimal hours people read (`16.67`): of the floored minutes, to the hundredth, rounded half up. */
export function decimalHours(seconds: number): string {
  return formatHundredths(hundredthsOfHours(flooredMinutes(seconds)));
}

/** A column of decimal hours as shown, in hundredths: see {@link shownHours}. */
export interface ShownHours {
  /** Each row's hundredths; they add up to `total + overlap`. */
  rows: number[];
  /** Hundredths several rows share, counted once in `total`; 0 when rows do not overlap. */
  overlap: number;
  /** The total's hundredths ({@link hundredthsOfHours} of its minutes). */
  total: number;
}

/**
 * The decimal hours of a table whose rows show `rowMinutes` (from {@link shownTable}) under a
 * total of `totalMinutes`: the total is {@link hundredthsOfHours}, the rows are shared out by
 * {@link largestRemainder} so that they add up to the hours of their own minutes, which is the
 * total's when rows do not overlap; otherwise the overlap is the difference, as for minutes.
 */
export function shownHours(rowMinutes: readonly number[], totalMinutes: number): ShownHours {
  const rows = largestRemainder(
    rowMinutes.map((m) => 5 * m),
    3,
  );
  const total = hundredthsOfHours(totalMinutes);
  const overlap = Math.max(0, rows.reduce((a, c) => a + c, 0) - total);
  return { rows, overlap, total };
}

/** A column of shares as shown, in whole percent: see {@link shownShares}. */
export interface ShownShares {
  /** Each row's percent of the total; they add up to `100 + overlap` (0 everywhere for an empty total). */
  rows: number[];
  /** Percent several rows share, counted once in the total's 100 %; 0 when rows do not overlap. */
  overlap: number;
}

/**
 * Each row's share of `totalSeconds` in whole percent, by {@link largestRemainder}: rows that
 * do not overlap add up to exactly 100 % (41 + 33 + 26, never 102); rows that do (a block
 * counted under two tags) add up to 100 plus the overlap's share.
 */
export function shownShares(rowSeconds: readonly number[], totalSeconds: number): ShownShares {
  const total = Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.floor(totalSeconds) : 0;
  if (total === 0) return { rows: rowSeconds.map(() => 0), overlap: 0 };
  const rows = largestRemainder(
    rowSeconds.map((s) => 100 * s),
    total,
  );
  return { rows, overlap: Math.max(0, rows.reduce((a, p) => a + p, 0) - 100) };
}

/**
 * The name of a table's overlap line, said plainly for what the rows are: by tag it is a
 * block under several tags (`Blocks with several tags, counted once`), otherwise blocks that
 * ran at the same time (`Blocks at the same time, counted once`). The window and the CLI.
 */
export function overlapLabel(by: 'activity' | 'day' | 'client' | 'tag'): string {
  return by === 'tag' ? 'Blocks with several tags, counted once' : 'Blocks at the same time, counted once';
}
