/**
 * Overlapping blocks as the window shows them (docs/ui.md "Overlaps"): which blocks share
 * worked time with another (sessions without their breaks, and entries — the time the app
 * counts once, docs/product.md), and the edits that end an overlap by trimming one of two blocks.
 * Pure: the screens send the edits through the window's API.
 */
import { coveredLength, spanWithout, unionOfSpans, type Span } from '@tock/core/blocks';
import { request } from './api.ts';
import type { Block } from './types.ts';

/** Shorter overlaps are not shown: a block ending at 10:00:30 and one starting at 10:00 are not "overlapping" to a person. */
export const OVERLAP_SHOWN_MS = 60_000;

/** Where a block lies, outside its breaks: a running one up to `now`. */
export function outerSpan(block: Block, now: number): Span {
  const start = Date.parse(block.startedAt);
  return { start, end: block.endedAt === null ? Math.max(start, now) : Date.parse(block.endedAt) };
}

/** The time a block worked: its span without its breaks. */
export function workedSpans(block: Block, now: number): Span[] {
  const cuts = block.breaks.map((b) => ({ start: Date.parse(b.startedAt), end: b.endedAt === null ? now : Date.parse(b.endedAt) }));
  return spanWithout(outerSpan(block, now), cuts);
}

/** Milliseconds of worked time two blocks share. */
export function sharedMs(a: Block, b: Block, now: number): number {
  const x = workedSpans(a, now);
  const y = workedSpans(b, now);
  return coveredLength(x) + coveredLength(y) - coveredLength([...x, ...y]);
}

/** For each block, the other blocks it shares a minute or more of worked time with. */
export function overlapsOf(blocks: readonly Block[], now: number): Map<string, Block[]> {
  const sorted = [...blocks].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const found = new Map<string, Block[]>();
  const add = (a: Block, b: Block): void => {
    found.set(a.id, [...(found.get(a.id) ?? []), b]);
  };
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i] as Block;
    const aEnd = outerSpan(a, now).end;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j] as Block;
      if (Date.parse(b.startedAt) >= aEnd) break;
      if (sharedMs(a, b, now) >= OVERLAP_SHOWN_MS) {
        add(a, b);
        add(b, a);
      }
    }
  }
  return found;
}

/** The worked time of all `blocks` together, each instant once (what the app counts as the total). */
export function coveredSeconds(blocks: readonly Block[], now: number, within?: Span): number {
  let spans = unionOfSpans(blocks.flatMap((b) => workedSpans(b, now)));
  if (within) spans = spans.map((s) => ({ start: Math.max(s.start, within.start), end: Math.min(s.end, within.end) })).filter((s) => s.end > s.start);
  return Math.floor(coveredLength(spans) / 1000);
}

/** A block's new span after a trim; `null` fields are left as they are. */
export interface Trim {
  block: Block;
  start: number;
  end: number | null;
}

/**
 * `block` trimmed so that it no longer overlaps `keep`'s span: its end moved back to where
 * `keep` starts, or its start moved on to where `keep` ends. Null when that is impossible
 * without splitting it in two (it holds `keep` inside) or without leaving less than a minute
 * (`keep` holds it), or would stop a running session.
 */
export function trimAgainst(block: Block, keep: Block, now: number): Trim | null {
  const b = outerSpan(block, now);
  const k = outerSpan(keep, now);
  const running = block.endedAt === null;
  // It starts first and runs into `keep`: end it where `keep` starts.
  if (b.start < k.start && b.end > k.start && b.end <= k.end && !running) {
    return k.start - b.start >= 60_000 ? { block, start: b.start, end: k.start } : null;
  }
  // It starts inside `keep` and runs past it: start it where `keep` ends.
  if (b.start >= k.start && b.start < k.end && (b.end > k.end || running)) {
    if (keep.endedAt === null) return null;
    return running || b.end - k.end >= 60_000 ? { block, start: k.end, end: running ? null : b.end } : null;
  }
  return null;
}

/** Applies `trim` through the window API's edit of the block (entries are whole minutes ending at their end). */
export function trimRequest(trim: Trim): Promise<Block> {
  const { block, start, end } = trim;
  const params = { id: block.id };
  if (block.kind === 'session') {
    return request('PATCH /api/sessions/:id', { params, body: { startedAt: new Date(start).toISOString(), ...(end === null ? {} : { endedAt: new Date(end).toISOString() }) } });
  }
  const endMs = end ?? start;
  return request('PATCH /api/entries/:id', { params, body: { durationMinutes: Math.floor((endMs - start) / 60_000), endedAt: new Date(endMs).toISOString() } });
}
