/**
 * The suggestions use cases (docs/desktop.md "Suggestions"): a day's suggestions read from the
 * store ({@link daySuggestions}), accepting one as an entry with the note `from capture`
 * ({@link acceptSuggestion}, {@link acceptAllSuggestions}), dismissing one for good
 * ({@link dismissSuggestion}), and what a rule would label ({@link testRule}). The suggestions
 * themselves are the pure {@link suggestDay}; this file only gathers its inputs — the day's
 * blocks (every device's), the timeline, the rules, the settings, the activities and the
 * dismissals — and writes what the person decided. Callers own the clock and the zone.
 */

import { Problem, ruleProblem, validationProblem, type ActivityRef, type Entry, type FieldProblem, type Suggestion, type SuggestionSource, type Suggestions } from '@tock/protocol';
import { activitiesNamed } from './activities.ts';
import { overlapMs, wholeSeconds } from './blocks.ts';
import { listRules } from './capture-rules.ts';
import { readCaptureSettings } from './capture-settings.ts';
import { timedTimeline, type RecordedSpan, type TimedSpan } from './capture.ts';
import { addDays, localDayKey, startOfLocalDay, type DayKey } from './day.ts';
import { logEntry } from './entries.ts';
import type { NewId } from './ids.ts';
import { readDayStartsAt } from './ledger-settings.ts';
import { parseIsoInstant, toIso } from './instants.ts';
import type { Store } from './store.ts';
import { blocksOverlapping } from './totals.ts';
import { RULE_FIELDS, type RuleTest, type SuggestionRule } from './shapes/capture.ts';
import { compileGlob, type CompiledGlob } from './glob.ts';
import { labelNames, ruleWithinLimits, suggestDay, suggestionDay, trackedSpans, type SuggestionSettings } from './suggestions.ts';

/** The note of an entry made from a suggestion. */
export const FROM_CAPTURE_NOTE = 'from capture';

/** What the suggestions use cases read besides the store. */
export interface SuggestionContext {
  timeZone: string;
  nowMs: number;
  /** Spans not stored yet (the window source's open span), as the timeline takes them. */
  open?: readonly RecordedSpan[];
  /** The meetings of `[fromMs, toMs)` as `calendar` spans (docs/calendar.md): never stored, added to the timeline here. */
  meetings?: (fromMs: number, toMs: number) => readonly TimedSpan[];
}

/** The blocks of `[fromMs, toMs)` as the pure function takes them: sessions whole (breaks are tracked), entries. */
function dayBlocks(store: Store, fromMs: number, toMs: number): { startedAt: string; endedAt: string | null }[] {
  const read = blocksOverlapping(store, fromMs, toMs);
  return [
    ...read.sessions.map((s) => ({ startedAt: toIso(s.start), endedAt: s.end === null ? null : toIso(s.end) })),
    ...read.entries.map((e) => ({ startedAt: toIso(e.start), endedAt: toIso(e.end) })),
  ];
}

function dismissedOn(store: Store, day: DayKey): Set<string> {
  const rows = store.statement('SELECT id FROM dismissed_suggestions WHERE day = ?').all(day) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** A local day's bounds, the end at now when now is earlier. */
function dayBounds(store: Store, day: DayKey, context: SuggestionContext, dayStartsAt = readDayStartsAt(store.settings)): { fromMs: number; toMs: number } {
  const fromMs = startOfLocalDay(day, context.timeZone, dayStartsAt);
  return { fromMs, toMs: Math.min(startOfLocalDay(addDays(day, 1), context.timeZone, dayStartsAt), context.nowMs) };
}

function timelineFor(store: Store, day: DayKey, context: SuggestionContext): TimedSpan[] {
  const spans = timedTimeline(store, { day, timeZone: context.timeZone, nowMs: context.nowMs, open: context.open ?? [] });
  if (context.meetings === undefined) return spans;
  const { fromMs, toMs } = dayBounds(store, day, context);
  return toMs > fromMs ? [...spans, ...context.meetings(fromMs, toMs)] : spans;
}

/** The settings a day's suggestions follow, as read at a store's `generation`. */
interface SuggestionReads {
  generation: number;
  dayStartsAt: number;
  /** Frozen, rules and matches too: suggestion-labels.ts compiles a frozen list once. */
  rules: readonly SuggestionRule[];
  settings: SuggestionSettings;
  /** The activities the last ask's labels named, and those names: the same names read them again only after a write. */
  named?: { names: ReadonlySet<string>; activities: readonly ActivityRef[] };
}

const kept = new WeakMap<Store, SuggestionReads>();

/**
 * The rules, the capture settings and the day's start, read and checked again only after the
 * store was written to (its `generation` moved; docs/decisions.md "Suggestions (issue 27)"):
 * reading and checking 50 rules and the capture settings cost ~0.1 ms of every ask.
 */
function suggestionReads(store: Store): SuggestionReads {
  const known = kept.get(store);
  if (known !== undefined && known.generation === store.generation) return known;
  const capture = readCaptureSettings(store.settings);
  const rules = listRules(store.settings).map((r) => Object.freeze({ ...r, match: Object.freeze({ ...r.match }) }));
  const dayStartsAt = readDayStartsAt(store.settings);
  const reads: SuggestionReads = {
    // Read after the settings: a read that first commits an open group commit moves it.
    generation: store.generation,
    dayStartsAt,
    rules: Object.freeze(rules),
    settings: { mergeGapMinutes: capture.mergeGapMinutes, minMinutes: capture.minMinutes, titles: capture.titles },
  };
  kept.set(store, reads);
  return reads;
}

/** The activities of `names` (activities.ts `activitiesNamed`), kept with `reads` for the same names. */
function namedActivities(store: Store, reads: SuggestionReads, names: ReadonlySet<string>): readonly ActivityRef[] {
  const last = reads.named;
  if (last !== undefined && last.names.size === names.size && [...names].every((name) => last.names.has(name))) return last.activities;
  const activities = activitiesNamed(store, names);
  reads.named = { names, activities };
  return activities;
}

/** `tock suggest`, `GET /suggestions`: a local day's suggestions (default today), dismissed ones left out. */
export function daySuggestions(store: Store, day: DayKey | undefined, context: SuggestionContext): Suggestions {
  const reads = suggestionReads(store);
  const { dayStartsAt, rules, settings } = reads;
  const date = day ?? localDayKey(context.nowMs, context.timeZone, dayStartsAt);
  const { fromMs, toMs } = dayBounds(store, date, context, dayStartsAt);
  const spans = toMs > fromMs ? timelineFor(store, date, context) : [];
  const suggestions = suggestDay({
    day: date,
    fromMs,
    toMs,
    nowMs: context.nowMs,
    blocks: toMs > fromMs ? dayBlocks(store, fromMs, toMs) : [],
    spans,
    rules,
    settings,
    // Only those the day's labels can name: every activity cost 80 ms at 20 000 (docs/data.md).
    activities: namedActivities(store, reads, labelNames(rules, spans)),
    dismissed: dismissedOn(store, date),
  });
  return { date, suggestions };
}

function suggestionNotFound(id: string): Problem {
  return new Problem('suggestion_not_found', `no suggestion ${id}: it was accepted, dismissed or changed (tock suggest lists the current ones)`);
}

/** The current suggestion with `id`, or a `suggestion_not_found` problem. */
function findSuggestion(store: Store, id: string, context: SuggestionContext): Suggestion {
  const day = typeof id === 'string' ? suggestionDay(id) : undefined;
  if (day === undefined) throw suggestionNotFound(String(id));
  const found = daySuggestions(store, day, context).suggestions.find((s) => s.id === id);
  if (found === undefined) throw suggestionNotFound(id);
  return found;
}

/** What accepting a suggestion may change: its activity, and (the window's drag) its edges. */
export interface AcceptSuggestionInput {
  id: string;
  /** The activity (created when new); required for an unlabelled suggestion. */
  activityName?: string | undefined;
  /** New edges, ISO 8601: inside the suggestion's day, not in the future, over no tracked time. */
  start?: string | undefined;
  end?: string | undefined;
}

/**
 * Accepts a suggestion: an entry for its stretch (or the edges given) with the note
 * `from capture`, through the entries use case, in one transaction. The activity is the one
 * given, else the label's (created when a rule names a new one). Throws
 * `suggestion_not_found`, or `validation_failed` for an unlabelled one without an activity or
 * edges that leave the day or cover tracked time.
 */
export function acceptSuggestion(store: Store, input: AcceptSuggestionInput, context: SuggestionContext & { newId: NewId }): Entry {
  return store.transaction(() => {
    const suggestion = findSuggestion(store, input.id, context);
    const day = suggestionDay(suggestion.id) as DayKey;
    let start = parseIsoInstant(suggestion.start) as number;
    let end = parseIsoInstant(suggestion.end) as number;
    if (input.start !== undefined || input.end !== undefined) {
      const problems: FieldProblem[] = [];
      const given = (field: 'start' | 'end', value: string | undefined, fallback: number): number => {
        if (value === undefined) return fallback;
        const ms = typeof value === 'string' ? parseIsoInstant(value) : undefined;
        if (ms === undefined) problems.push(ruleProblem(field, { rule: 'isoTimeZone' }));
        return ms ?? fallback;
      };
      start = given('start', input.start, start);
      end = given('end', input.end, end);
      if (problems.length > 0) throw validationProblem(problems);
      const { fromMs, toMs } = dayBounds(store, day, context);
      if (!(end > start)) throw validationProblem([ruleProblem('end', { rule: 'afterField', values: { other: 'start' } })]);
      if (start < fromMs || end > toMs) throw validationProblem([ruleProblem('start', { rule: 'stretchWithin', values: { day } })]);
      const tracked = trackedSpans(dayBlocks(store, fromMs, toMs), context.nowMs);
      if (tracked.some((t) => overlapMs(start, end, t.start, t.end) > 0)) {
        throw validationProblem([ruleProblem('start', { rule: 'stretchTracked' })]);
      }
    }
    const name = input.activityName ?? (suggestion.activityID === null ? suggestion.activityName : null);
    if (name === null && suggestion.activityID === null) {
      throw validationProblem([ruleProblem('activityName', { rule: 'suggestionNoLabel' })]);
    }
    const activity = name !== null ? { name, createIfMissing: true } : { activityID: suggestion.activityID as string };
    return logEntry(
      store,
      { ...activity, durationMinutes: (end - start) / 60_000, endedAt: toIso(end), note: FROM_CAPTURE_NOTE },
      context.nowMs,
      context.newId,
    );
  });
}

/**
 * `tock suggest accept --all`: accepts every labelled suggestion of the day, in one
 * transaction, until none is left (an activity a rule created can label editor projects
 * that were unlabelled: a second pass takes those). Returns the entries made.
 */
export function acceptAllSuggestions(store: Store, day: DayKey | undefined, context: SuggestionContext & { newId: NewId }): Entry[] {
  const date = day ?? localDayKey(context.nowMs, context.timeZone, readDayStartsAt(store.settings));
  return store.transaction(() => {
    const entries: Entry[] = [];
    for (let pass = 0; pass < 3; pass++) {
      const labelled = daySuggestions(store, date, context).suggestions.filter((s) => s.activityName !== null);
      if (labelled.length === 0) break;
      for (const s of labelled) entries.push(acceptSuggestion(store, { id: s.id }, context));
    }
    return entries;
  });
}

/** Dismisses a current suggestion for good. Throws `suggestion_not_found` when there is none with that id. */
export function dismissSuggestion(store: Store, id: string, context: SuggestionContext): Suggestion {
  return store.transaction(() => {
    const suggestion = findSuggestion(store, id, context);
    store
      .statement('INSERT OR IGNORE INTO dismissed_suggestions (day, id, dismissed_at) VALUES (?, ?, ?)')
      .run(suggestionDay(id) as DayKey, id, context.nowMs);
    return suggestion;
  });
}

/**
 * `tock rules test`, the window's live preview: the captured time a rule would label on each
 * of the `days` days up to today — tracked or not, since rules never change a block. A rule
 * already in the list labels only what no rule before it takes; a rule being written is tried
 * as if it were first.
 */
export function testRule(
  store: Store,
  rule: SuggestionRule | Omit<SuggestionRule, 'id'>,
  days: number,
  context: SuggestionContext,
): RuleTest {
  const rules = listRules(store.settings);
  const ruleID = 'id' in rule ? rule.id : null;
  const index = ruleID === null ? 0 : rules.findIndex((r) => r.id === ruleID);
  // A stored rule over the glob limits labels nothing (suggestions.ts compileRules), here too.
  const globsOf = (r: Pick<SuggestionRule, 'match'>) =>
    ruleWithinLimits(r) ? RULE_FIELDS.filter((f) => r.match[f] !== undefined).map((f) => [f, compileGlob(r.match[f] as string)] as const) : [];
  const before = rules.slice(0, Math.max(0, index)).map(globsOf);
  const own = globsOf(rule);
  const matches = (tests: readonly (readonly [(typeof RULE_FIELDS)[number], CompiledGlob])[], span: TimedSpan['span']): boolean =>
    tests.length > 0 && tests.every(([field, glob]) => span[field] !== null && glob.test(span[field] as string));
  const today = localDayKey(context.nowMs, context.timeZone, readDayStartsAt(store.settings));
  const result: RuleTest = { ruleID, match: rule.match, activity: rule.activity, days: [], seconds: 0, sources: [] };
  const sources = new Map<string, SuggestionSource & { ms: number }>();
  let totalMs = 0;
  for (let day = addDays(today, 1 - days); day <= today; day = addDays(day, 1)) {
    let dayMs = 0;
    for (const { startMs, endMs, span } of timelineFor(store, day, context)) {
      if (span.source !== 'window' && span.source !== 'editor' && span.source !== 'browser' && span.source !== 'calendar') continue;
      if (!matches(own, span) || before.some((tests) => matches(tests, span))) continue;
      const ms = endMs - startMs;
      dayMs += ms;
      const row = { source: span.source, app: span.app, title: span.title, project: span.project, branch: span.branch };
      const key = JSON.stringify(row);
      const known = sources.get(key);
      if (known) known.ms += ms;
      else sources.set(key, { ...row, seconds: 0, ms });
    }
    result.days.push({ date: day, seconds: wholeSeconds(dayMs) });
    totalMs += dayMs;
  }
  result.seconds = wholeSeconds(totalMs);
  result.sources = [...sources.values()]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 20)
    .map(({ ms, ...row }) => ({ ...row, seconds: wholeSeconds(ms) }));
  return result;
}
