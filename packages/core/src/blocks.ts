/**
 * Blocks of tracked time as the UI sees them — sessions (timed, with breaks) and entries
 * (logged after the fact) — and the interval arithmetic they share.
 */

import type { ActivityRef } from '@tock/protocol';

/** A pause inside a session. `endedAt` is null while the break is on. */
export interface BreakSpan {
  /** The break's ID, for editing or deleting it (the tracker's `updateBreak`, `deleteBreak`). */
  id: string;
  startedAt: string;
  endedAt: string | null;
}

/**
 * One block of tracked time. `seconds` is the worked time of the whole block (breaks left
 * out; a running session counts up to now). Sessions have `durationMinutes: null`;
 * entries have `breaks: []` and always an `endedAt`. Both kinds may carry a `note` (null: none).
 */
export interface Block {
  id: string;
  kind: 'session' | 'entry';
  activity: ActivityRef;
  startedAt: string;
  endedAt: string | null;
  seconds: number;
  note: string | null;
  durationMinutes: number | null;
  breaks: BreakSpan[];
  /** Its tags (docs/data.md "The ledger"), in the order given. */
  tags: string[];
  /** Whether it is billable: its own flag, else its activity's default; one on an invoice is (it was billed). */
  billable: boolean;
  /**
   * The block's own flag when it has one (`billable` is then this); absent when the block
   * follows its activity's default (docs/data.md "The ledger").
   */
  ownBillable?: boolean;
  /** The device it was made on when that is another device (sync, docs/sync.md); absent for this one's. */
  device?: string;
  /** The number of the invoice it is on (docs/data.md "Invoices": it cannot change); absent when on none. */
  invoice?: string;
}

/** Milliseconds that `[start, end)` and `[from, to)` have in common. */
export function overlapMs(start: number, end: number, from: number, to: number): number {
  return Math.max(0, Math.min(end, to) - Math.max(start, from));
}

/** Whole seconds in a duration of milliseconds (rounded down, never negative). */
export function wholeSeconds(ms: number): number {
  return Math.max(0, Math.floor(ms / 1000));
}

/**
 * A half-open span `[start, end)` of time in one unit throughout (the totals count whole
 * seconds). A span whose end is not after its start is empty.
 */
export interface Span {
  start: number;
  end: number;
}

/**
 * The union of `spans` (docs/product.md "The application": a second covered by several
 * blocks counts once): sorted, disjoint, non-touching, non-empty spans that cover exactly
 * what the given ones cover. Pure; the input is left as it was.
 */
export function unionOfSpans(spans: Iterable<Span>): Span[] {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const union: Span[] = [];
  for (const span of sorted) {
    const last = union[union.length - 1];
    if (last !== undefined && span.start <= last.end) {
      if (span.end > last.end) last.end = span.end;
    } else {
      union.push({ start: span.start, end: span.end });
    }
  }
  return union;
}

/** The time `spans` cover, each instant once however many spans hold it. */
export function coveredLength(spans: Iterable<Span>): number {
  let length = 0;
  for (const span of unionOfSpans(spans)) length += span.end - span.start;
  return length;
}

/**
 * What is left of `span` once `cuts` are taken out of it, in order: a session without its
 * breaks. Cuts outside the span change nothing.
 */
export function spanWithout(span: Span, cuts: Iterable<Span>): Span[] {
  const left: Span[] = [];
  let at = span.start;
  for (const cut of unionOfSpans(cuts)) {
    if (cut.end <= at) continue;
    if (cut.start >= span.end) break;
    if (cut.start > at) left.push({ start: at, end: cut.start });
    at = cut.end;
  }
  if (at < span.end) left.push({ start: at, end: span.end });
  return left;
}

/** The parts of `spans` inside `[from, to)`, empty parts left out. */
export function clipSpans<S extends Span>(spans: Iterable<S>, from: number, to: number): S[] {
  const clipped: S[] = [];
  for (const span of spans) {
    const start = Math.max(span.start, from);
    const end = Math.min(span.end, to);
    if (end > start) clipped.push({ ...span, start, end });
  }
  return clipped;
}

/**
 * A union of spans prepared to answer "how much of `[from, to)` does it cover" in
 * O(log n) (running sums over its sorted spans): today's total asks it on every status poll
 * about the running session, against every block that has ended.
 */
export interface Coverage {
  /** The union, sorted and disjoint. */
  readonly spans: readonly Span[];
  /** `before[i]`: the length of `spans[0 … i−1]`. */
  readonly before: readonly number[];
  /** The length of the whole union. */
  readonly length: number;
}

/** The {@link Coverage} of `spans`. */
export function coverageOf(spans: Iterable<Span>): Coverage {
  const union = unionOfSpans(spans);
  const before: number[] = [];
  let length = 0;
  for (const span of union) {
    before.push(length);
    length += span.end - span.start;
  }
  return { spans: union, before, length };
}

/** How much of `[from, to)` `coverage` covers. */
export function coveredWithin(coverage: Coverage, from: number, to: number): number {
  return to > from ? coveredBefore(coverage, to) - coveredBefore(coverage, from) : 0;
}

/** How much of the time before `at` `coverage` covers. */
function coveredBefore({ spans, before }: Coverage, at: number): number {
  // i: the number of spans that start before `at` (binary search).
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((spans[mid] as Span).start < at) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return 0;
  const last = spans[lo - 1] as Span;
  return (before[lo - 1] as number) + Math.min(last.end, at) - last.start;
}

/**
 * Splits a sorted, disjoint union of spans over consecutive `days` (sorted, disjoint, in
 * the same unit): the covered length inside each day, in the days' order.
 */
export function coveredPerDay(union: readonly Span[], days: readonly Span[]): number[] {
  const perDay = days.map(() => 0);
  let d = 0;
  for (const span of union) {
    while (d < days.length && (days[d] as Span).end <= span.start) d++;
    for (let i = d; i < days.length; i++) {
      const day = days[i] as Span;
      if (day.start >= span.end) break;
      perDay[i] = (perDay[i] as number) + Math.max(0, Math.min(span.end, day.end) - Math.max(span.start, day.start));
    }
  }
  return perDay;
}
