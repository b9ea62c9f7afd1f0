/**
 * Suggestions (docs/desktop.md "Suggestions"): the forgotten time of a local day, one click
 * away. A pure function of the day's blocks (every device's), its capture spans, the ordered
 * rules and the settings — nothing here reads a store or a clock, so the same inputs give the
 * same suggestions with the same ids, and the property tests drive it directly.
 *
 * The untracked time is what no block covers (a session counts whole: breaks are tracked time).
 * Capture's `window` and `editor` spans say where work happened; `idle` and `excluded` spans,
 * like tracked time, are never suggested. Each span gets a label — the first rule whose every
 * given glob matches it, else (an editor span with a project) the activity of that name when one
 * exists, else none — and each stretch of untracked time the label of the best span over it.
 * Consecutive pieces with the same label are joined across gaps of at most `mergeGapMinutes` of
 * untracked time seen by nothing; a suggestion shorter than `minMinutes` is not made.
 */

import type { ActivityRef, Suggestion, SuggestionSource } from '@tock/protocol';
import { unionOfSpans, wholeSeconds, type Span } from './blocks.ts';
import type { TimedSpan } from './capture.ts';
import type { DayKey } from './day.ts';
import { toIso } from './instants.ts';
import type { CaptureSpan, SuggestionRule } from './shapes/capture.ts';
import { labeller, type Label, type SourceRow } from './suggestion-labels.ts';

export { labelNames, ruleWithinLimits } from './suggestion-labels.ts';

/** The settings suggestions follow (in the capture settings, docs/data.md "Capture settings"). */
export interface SuggestionSettings {
  /** Consecutive pieces with one label are joined across at most this much untracked time. */
  mergeGapMinutes: number;
  /** Shorter suggestions are not made. */
  minMinutes: number;
  /** Whether titles are shown (in `sources` too). */
  titles: boolean;
}

/** Everything a day's suggestions are made of. */
export interface SuggestionInput {
  day: DayKey;
  /** The day's start, and its end or now if earlier (ms). */
  fromMs: number;
  toMs: number;
  /** Now: a running session counts up to it. */
  nowMs: number;
  /** The day's blocks, every device's; a session with `endedAt` null runs up to now. */
  blocks: readonly { startedAt: string; endedAt: string | null }[];
  /** The day's capture spans (the timeline, with times in ms: core's `timedTimeline`, or {@link timedSpans}). */
  spans: readonly TimedSpan[];
  /** Ordered: the first matching rule wins. */
  rules: readonly SuggestionRule[];
  settings: SuggestionSettings;
  /**
   * The activities the labels may name, for their IDs and the editor-project default: at least
   * those named by suggestion-labels.ts `labelNames` (every activity does too; the others are not looked at).
   */
  activities: readonly ActivityRef[];
  /** Ids dismissed for good. */
  dismissed?: ReadonlySet<string>;
}

/** Which source labels an instant when labels tie: the meeting the person was in, then the editor. */
const SOURCE_ORDER: Record<CaptureSpan['source'], number> = { calendar: 0, editor: 1, window: 2, browser: 2, idle: 3, excluded: 3 };

/** A work span (window, editor, browser or calendar) in ms, with its label. */
interface WorkSpan {
  start: number;
  end: number;
  span: CaptureSpan;
  label: Label;
  source: SourceRow;
}

/**
 * A stretch of untracked time with one label. The spans seen over it are those that overlap it:
 * it is made of whole cuts between span boundaries, and is never cut inside a span.
 */
interface Piece {
  start: number;
  end: number;
  label: Label;
}

/** Whether `a` labels an instant rather than `b`: the better label, then a meeting over editor over window, then the earlier span. */
function better(a: WorkSpan, b: WorkSpan): boolean {
  if (a.label.rank !== b.label.rank) return a.label.rank < b.label.rank;
  if (a.span.source !== b.span.source) return SOURCE_ORDER[a.span.source] < SOURCE_ORDER[b.span.source];
  return a.start < b.start;
}

/**
 * The stable id of a suggestion: its day and a 64-bit hash of its day, start, end and label
 * (cyrb53-style, two 32-bit lanes). Not a secret, only a name: the same stretch with the same
 * label keeps it, so a dismissal holds and an accept finds it again.
 */
export function suggestionId(day: DayKey, startMs: number, endMs: number, labelKey: string): string {
  const text = `${day}|${startMs}|${endMs}|${labelKey}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
  return `${day.replaceAll('-', '')}-${hex(h1)}${hex(h2)}`;
}

/** The local day an id names (`20261122-…` → `2026-11-22`), or undefined when it names none. */
export function suggestionDay(id: string): DayKey | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})-[0-9a-f]{16}$/.exec(id);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** Timeline spans with their times in ms, for callers that hold only the spans. */
export function timedSpans(spans: readonly CaptureSpan[]): TimedSpan[] {
  return spans.map((span) => ({ startMs: Date.parse(span.start), endMs: Date.parse(span.end), span }));
}

/** Tracked time as spans in ms: every block whole, a running session up to now. */
export function trackedSpans(blocks: SuggestionInput['blocks'], nowMs: number): Span[] {
  return blocks.map((b) => ({ start: Date.parse(b.startedAt), end: b.endedAt === null ? Math.max(nowMs, Date.parse(b.startedAt)) : Date.parse(b.endedAt) }));
}

/**
 * A day's suggestions, oldest first: stretches of untracked time where capture saw work,
 * never over tracked, idle or excluded time, never overlapping each other, dismissed ones
 * left out. Pure.
 */
export function suggestDay(input: SuggestionInput): Suggestion[] {
  const { fromMs, toMs } = input;
  if (!(toMs > fromMs)) return [];
  const blocked = unionOfSpans([
    ...trackedSpans(input.blocks, input.nowMs),
    ...input.spans.filter((s) => s.span.source === 'idle' || s.span.source === 'excluded').map((s) => ({ start: s.startMs, end: s.endMs })),
  ]);
  const label = labeller(input.rules, input.activities, input.settings.titles);
  const work: WorkSpan[] = [];
  for (const { startMs, endMs, span } of input.spans) {
    if (span.source !== 'window' && span.source !== 'editor' && span.source !== 'browser' && span.source !== 'calendar') continue;
    const start = Math.max(startMs, fromMs);
    const end = Math.min(endMs, toMs);
    if (end > start) {
      const { label: l, source } = label(span);
      work.push({ start, end, span, label: l, source });
    }
  }
  // Oldest first (a stable sort: spans that start together keep their order).
  work.sort((a, b) => a.start - b.start);
  const groups = groupsOf(piecesOf(work, blocked), blocked, input.settings.mergeGapMinutes * 60_000).filter(
    (g) => (g[g.length - 1] as Piece).end - (g[0] as Piece).start >= input.settings.minMinutes * 60_000,
  );
  const seen = sourcesOf(groups, work);
  return groups.map((g, i) => suggestionOf(input.day, g, seen[i] as Map<SourceRow, number>)).filter((s) => !(input.dismissed?.has(s.id) ?? false));
}

/**
 * Cuts the untracked time seen by work spans (oldest first) into pieces at every span and block
 * boundary; each piece takes the best label of the spans over it, and pieces side by side with
 * one label are one piece.
 */
function piecesOf(byStart: readonly WorkSpan[], blocked: readonly Span[]): Piece[] {
  // Every boundary, sorted as numbers; the same one twice is skipped below.
  const points = new Float64Array(2 * (byStart.length + blocked.length));
  let n = 0;
  for (const w of byStart) {
    points[n++] = w.start;
    points[n++] = w.end;
  }
  for (const b of blocked) {
    points[n++] = b.start;
    points[n++] = b.end;
  }
  sortNearlySorted(points, n);
  const pieces: Piece[] = [];
  const active: WorkSpan[] = [];
  let next = 0;
  let blockIndex = 0;
  let to = points[0] as number;
  for (let i = 1; i < n; i++) {
    const from = to;
    to = points[i] as number;
    if (to === from) continue;
    let kept = 0;
    for (const w of active) if (w.end > from) active[kept++] = w;
    active.length = kept;
    while (next < byStart.length && (byStart[next] as WorkSpan).start <= from) {
      const w = byStart[next++] as WorkSpan;
      if (w.end > from) active.push(w);
    }
    if (active.length === 0) continue;
    while (blockIndex < blocked.length && (blocked[blockIndex] as Span).end <= from) blockIndex++;
    const block = blocked[blockIndex];
    if (block !== undefined && block.start <= from) continue;
    let best = active[0] as WorkSpan;
    for (const w of active) if (better(w, best)) best = w;
    const last = pieces[pieces.length - 1];
    if (last !== undefined && last.end === from && last.label.key === best.label.key) {
      last.end = to;
      if (best.label.rank < last.label.rank) last.label = best.label;
    } else {
      pieces.push({ start: from, end: to, label: best.label });
    }
  }
  return pieces;
}

/**
 * Sorts the first `n` numbers of `a`, ascending. A day's boundaries come nearly in order (each
 * span's start and end, the spans by start), so an insertion sort moves few of them; past
 * 8 moves a number (long spans over many short ones) the typed array's own sort takes over.
 */
function sortNearlySorted(a: Float64Array, n: number): void {
  let moves = 0;
  for (let i = 1; i < n; i++) {
    const v = a[i] as number;
    let j = i - 1;
    while (j >= 0 && (a[j] as number) > v) {
      a[j + 1] = a[j] as number;
      j--;
    }
    a[j + 1] = v;
    moves += i - 1 - j;
    if (moves > 8 * n) {
      a.subarray(0, n).sort();
      return;
    }
  }
}

/** Joins consecutive pieces with one label across gaps of at most `gapMs` that no blocked time touches. */
function groupsOf(pieces: readonly Piece[], blocked: readonly Span[], gapMs: number): Piece[][] {
  const groups: Piece[][] = [];
  let b = 0;
  for (const piece of pieces) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (group !== undefined && last !== undefined && last.label.key === piece.label.key && piece.start - last.end <= gapMs) {
      while (b < blocked.length && (blocked[b] as Span).end <= last.end) b++;
      const block = blocked[b];
      if (block === undefined || block.start >= piece.start) {
        group.push(piece);
        continue;
      }
    }
    groups.push([piece]);
  }
  return groups;
}

/**
 * What each group's pieces saw: the ms of every row over them. A span seen over a piece is one
 * that overlaps it (piecesOf); one sweep of the spans, oldest first, over the pieces in order,
 * keeping those not ended.
 */
function sourcesOf(groups: readonly (readonly Piece[])[], byStart: readonly WorkSpan[]): Map<SourceRow, number>[] {
  const open: WorkSpan[] = [];
  let next = 0;
  return groups.map((group) => {
    const ms = new Map<SourceRow, number>();
    for (const piece of group) {
      while (next < byStart.length && (byStart[next] as WorkSpan).start < piece.end) open.push(byStart[next++] as WorkSpan);
      let kept = 0;
      for (const w of open) {
        // Ended before this piece, so before every later one.
        if (w.end <= piece.start) continue;
        open[kept++] = w;
        ms.set(w.source, (ms.get(w.source) ?? 0) + Math.min(w.end, piece.end) - Math.max(w.start, piece.start));
      }
      open.length = kept;
    }
    return ms;
  });
}

/** A group of pieces as a suggestion: its label (the best of its pieces) and what was seen (`seen`), most seconds first. */
function suggestionOf(day: DayKey, group: readonly Piece[], seen: ReadonlyMap<SourceRow, number>): Suggestion {
  const start = (group[0] as Piece).start;
  const end = (group[group.length - 1] as Piece).end;
  let label = (group[0] as Piece).label;
  for (const p of group) if (p.label.rank < label.rank) label = p.label;
  const rows: { key: string; source: SuggestionSource }[] = [];
  for (const [{ key, row }, ms] of seen) {
    const seconds = wholeSeconds(ms);
    if (seconds > 0) rows.push({ key, source: { ...row, seconds } });
  }
  rows.sort((a, b) => b.source.seconds - a.source.seconds || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    id: suggestionId(day, start, end, label.key),
    start: toIso(start),
    end: toIso(end),
    seconds: wholeSeconds(end - start),
    activityID: label.activityID,
    activityName: label.activityName,
    sources: rows.map((r) => r.source),
    ruleID: label.ruleID,
  };
}
