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
import { compileGlob, globOverLimits, type CompiledGlob } from './glob.ts';
import { toIso } from './instants.ts';
import { nameKey } from './names.ts';
import { RULE_FIELDS, type CaptureSpan, type RuleField, type SuggestionRule } from './shapes/capture.ts';

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
   * those named by {@link labelNames} (every activity does too; the others are not looked at).
   */
  activities: readonly ActivityRef[];
  /** Ids dismissed for good. */
  dismissed?: ReadonlySet<string>;
}

/** A label: the activity (an ID when it exists), the rule that gave it. */
interface Label {
  /** `nameKey` of the activity name, '' when unlabelled: what an id is made of. */
  key: string;
  activityID: string | null;
  activityName: string | null;
  ruleID: string | null;
  /** Lower wins when spans overlap: the rule's position, then editor projects, then none. */
  rank: number;
}

const UNLABELLED: Label = { key: '', activityID: null, activityName: null, ruleID: null, rank: Number.MAX_SAFE_INTEGER };

/** Which source labels an instant when labels tie: the meeting the person was in, then the editor. */
const SOURCE_ORDER: Record<CaptureSpan['source'], number> = { calendar: 0, editor: 1, window: 2, browser: 2, idle: 3, excluded: 3 };

/** A work span (window, editor, browser or calendar) in ms, with its label. */
interface WorkSpan {
  start: number;
  end: number;
  span: CaptureSpan;
  label: Label;
}

/** A stretch of untracked time with one label, and the spans seen over it. */
interface Piece {
  start: number;
  end: number;
  label: Label;
  seen: Set<WorkSpan>;
}

/** A rule made ready to match: its globs compiled once. */
interface CompiledRule {
  rule: SuggestionRule;
  index: number;
  tests: [RuleField, CompiledGlob][];
}

/**
 * The rules' globs compiled once. A rule stored with a glob over the limits (kept from before
 * they were set) matches nothing: it labels no span until it is edited (docs/desktop.md
 * "Suggestions").
 */
function compileRules(rules: readonly SuggestionRule[]): CompiledRule[] {
  return rules.map((rule, index) => ({
    rule,
    index,
    tests: ruleWithinLimits(rule)
      ? RULE_FIELDS.filter((f) => rule.match[f] !== undefined).map((f) => [f, compileGlob(rule.match[f] as string)] as [RuleField, CompiledGlob])
      : [],
  }));
}

/** Whether every glob of `rule` is within the limits (glob.ts `GLOB_LIMITS`). */
export function ruleWithinLimits(rule: Pick<SuggestionRule, 'match'>): boolean {
  return Object.values(rule.match).every((glob) => glob === undefined || globOverLimits(glob) === null);
}

/** The first rule matching `span`, or undefined. A field the span lacks (null) matches no glob. */
function firstMatch(rules: readonly CompiledRule[], span: CaptureSpan): CompiledRule | undefined {
  return rules.find(
    (r) =>
      r.tests.length > 0 &&
      r.tests.every(([field, glob]) => {
        const value = span[field];
        return value !== null && glob.test(value);
      }),
  );
}

/**
 * The names {@link suggestDay}'s labels look up among the activities: every rule's activity, and
 * the projects of editor spans and the summaries of meetings. The caller reads these few
 * activities by name, not every activity the person has (docs/data.md "What a screen reads").
 */
export function labelNames(rules: readonly SuggestionRule[], spans: readonly TimedSpan[]): Set<string> {
  const names = new Set(rules.map((r) => r.activity));
  for (const { span } of spans) {
    if (span.source === 'editor' && span.project !== null) names.add(span.project);
    else if (span.source === 'calendar' && span.title !== null) names.add(span.title);
  }
  return names;
}

/**
 * Labels spans: rules first (first match wins), then an editor span's project when an activity
 * of that name exists. Spans alike share one answer (a day repeats its applications).
 */
function labeller(rules: readonly SuggestionRule[], activities: readonly ActivityRef[]): (span: CaptureSpan) => Label {
  const compiled = compileRules(rules);
  const byName = new Map<string, ActivityRef>();
  for (const a of activities) byName.set(nameKey(a.activityName), a);
  const seen = new Map<string, Label>();
  return (span) => {
    const cacheKey = `${span.source}\u0000${span.app}\u0000${span.title}\u0000${span.project}\u0000${span.branch}\u0000${span.language}\u0000${span.entity}`;
    const cached = seen.get(cacheKey);
    if (cached !== undefined) return cached;
    let label = UNLABELLED;
    const rule = firstMatch(compiled, span);
    if (rule !== undefined) {
      const key = nameKey(rule.rule.activity);
      const existing = byName.get(key);
      label = {
        key,
        activityID: existing?.activityID ?? null,
        activityName: existing?.activityName ?? rule.rule.activity,
        ruleID: rule.rule.id,
        rank: rule.index,
      };
    } else if ((span.source === 'editor' && span.project !== null) || (span.source === 'calendar' && span.title !== null)) {
      // A meeting is labelled like its summary, an editor span like its project (docs/calendar.md).
      const existing = byName.get(nameKey((span.source === 'calendar' ? span.title : span.project) as string));
      if (existing !== undefined) {
        label = { key: nameKey(existing.activityName), activityID: existing.activityID, activityName: existing.activityName, ruleID: null, rank: compiled.length };
      }
    }
    seen.set(cacheKey, label);
    return label;
  };
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
  const label = labeller(input.rules, input.activities);
  const work: WorkSpan[] = [];
  for (const { startMs, endMs, span } of input.spans) {
    if (span.source !== 'window' && span.source !== 'editor' && span.source !== 'browser' && span.source !== 'calendar') continue;
    const start = Math.max(startMs, fromMs);
    const end = Math.min(endMs, toMs);
    if (end > start) work.push({ start, end, span, label: label(span) });
  }
  const pieces = piecesOf(work, blocked);
  return groupsOf(pieces, blocked, input.settings.mergeGapMinutes * 60_000)
    .filter((g) => (g[g.length - 1] as Piece).end - (g[0] as Piece).start >= input.settings.minMinutes * 60_000)
    .map((g) => suggestionOf(input.day, g, input.settings.titles))
    .filter((s) => !(input.dismissed?.has(s.id) ?? false));
}

/**
 * Cuts the untracked time seen by work spans into pieces at every span and block boundary;
 * each piece takes the best label of the spans over it, and pieces side by side with one label
 * are one piece.
 */
function piecesOf(work: readonly WorkSpan[], blocked: readonly Span[]): Piece[] {
  const cuts = new Set<number>();
  for (const w of work) {
    cuts.add(w.start);
    cuts.add(w.end);
  }
  for (const b of blocked) {
    cuts.add(b.start);
    cuts.add(b.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const byStart = [...work].sort((a, b) => a.start - b.start);
  const pieces: Piece[] = [];
  let active: WorkSpan[] = [];
  let next = 0;
  let blockIndex = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i] as number;
    const to = points[i + 1] as number;
    active = active.filter((w) => w.end > from);
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
      for (const w of active) last.seen.add(w);
      if (best.label.rank < last.label.rank) last.label = best.label;
    } else {
      pieces.push({ start: from, end: to, label: best.label, seen: new Set(active) });
    }
  }
  return pieces;
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

/** A group of pieces as a suggestion: its label (the best of its pieces) and what was seen, most seconds first. */
function suggestionOf(day: DayKey, group: readonly Piece[], titles: boolean): Suggestion {
  const start = (group[0] as Piece).start;
  const end = (group[group.length - 1] as Piece).end;
  let label = (group[0] as Piece).label;
  for (const p of group) if (p.label.rank < label.rank) label = p.label;
  const sources = new Map<string, { source: SuggestionSource; ms: number }>();
  for (const piece of group) {
    for (const w of piece.seen) {
      const ms = Math.min(w.end, piece.end) - Math.max(w.start, piece.start);
      if (ms <= 0) continue;
      const s = w.span;
      // A meeting's summary is the person's own calendar: shown whether titles is on or not.
      const row = { source: s.source as SuggestionSource['source'], app: s.app, title: titles || s.source === 'calendar' ? s.title : null, project: s.project, branch: s.branch };
      const key = `${row.source}\u0000${row.app}\u0000${row.title}\u0000${row.project}\u0000${row.branch}`;
      const known = sources.get(key);
      if (known) known.ms += ms;
      else sources.set(key, { source: { ...row, seconds: 0 }, ms });
    }
  }
  const rows = [...sources.entries()]
    .map(([key, { source, ms }]) => ({ key, source: { ...source, seconds: wholeSeconds(ms) } }))
    .filter((r) => r.source.seconds > 0)
    .sort((a, b) => b.source.seconds - a.source.seconds || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.source);
  return {
    id: suggestionId(day, start, end, label.key),
    start: toIso(start),
    end: toIso(end),
    seconds: wholeSeconds(end - start),
    activityID: label.activityID,
    activityName: label.activityName,
    sources: rows,
    ruleID: label.ruleID,
  };
}
