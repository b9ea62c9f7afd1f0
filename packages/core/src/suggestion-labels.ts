/**
 * The labels of a day's suggestions (docs/desktop.md "Suggestions"), for suggestions.ts: each
 * capture span gets the first rule whose every given glob matches it, else (an editor span with
 * a project, a meeting with a summary) the activity of that name when one exists, else none —
 * and the row it shows among a suggestion's `sources`. Pure, like suggestions.ts.
 */

import type { ActivityRef, SuggestionSource } from '@tock/protocol';
import type { TimedSpan } from './capture.ts';
import { compileGlob, globOverLimits, type CompiledGlob } from './glob.ts';
import { nameKey } from './names.ts';
import { RULE_FIELDS, type CaptureSpan, type RuleField, type SuggestionRule } from './shapes/capture.ts';

/** A label: the activity (an ID when it exists), the rule that gave it. */
export interface Label {
  /** `nameKey` of the activity name, '' when unlabelled: what an id is made of. */
  key: string;
  activityID: string | null;
  activityName: string | null;
  ruleID: string | null;
  /** Lower wins when spans overlap: the rule's position, then editor projects, then none. */
  rank: number;
}

const UNLABELLED: Label = { key: '', activityID: null, activityName: null, ruleID: null, rank: Number.MAX_SAFE_INTEGER };

/**
 * What a span shows among a suggestion's `sources`: one object for all the spans that show the
 * same, so a suggestion's seconds are summed by it, not by a string made for each span.
 */
export interface SourceRow {
  /** The fields joined: orders rows of equal seconds. */
  key: string;
  row: Omit<SuggestionSource, 'seconds'>;
}

/** A span's label and the row it shows (one answer for spans alike). */
export interface Labelled {
  label: Label;
  source: SourceRow;
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

/** Rule lists compiled before: only frozen lists whose rules and matches are frozen (day-suggestions.ts keeps its rules so while nothing is written). */
const compiledLists = new WeakMap<readonly SuggestionRule[], CompiledRule[]>();

/** {@link compileRules}, once for a list that cannot change. */
function compiledRules(rules: readonly SuggestionRule[]): CompiledRule[] {
  const frozen = Object.isFrozen(rules) && rules.every((r) => Object.isFrozen(r) && Object.isFrozen(r.match));
  if (!frozen) return compileRules(rules);
  const known = compiledLists.get(rules);
  if (known !== undefined) return known;
  const made = compileRules(rules);
  compiledLists.set(rules, made);
  return made;
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
 * The names the labels look up among the activities: every rule's activity, and the projects of
 * editor spans and the summaries of meetings. The caller reads these few activities by name,
 * not every activity the person has (docs/data.md "What a screen reads").
 */
export function labelNames(rules: readonly SuggestionRule[], spans: readonly TimedSpan[]): Set<string> {
  const names = new Set(rules.map((r) => r.activity));
  for (const { span } of spans) {
    if (span.source === 'editor' && span.project !== null) names.add(span.project);
    else if (span.source === 'calendar' && span.title !== null) names.add(span.title);
  }
  return names;
}

/** The fields of two spans that can tell their labels or rows apart are the same (`also`: fields only rules look at). */
function alike(a: CaptureSpan, b: CaptureSpan, also: readonly RuleField[]): boolean {
  if (a.source !== b.source || a.app !== b.app || a.title !== b.title || a.project !== b.project || a.branch !== b.branch) return false;
  for (const f of also) if (a[f] !== b[f]) return false;
  return true;
}

/**
 * Labels spans: rules first (first match wins), then an editor span's project when an activity
 * of that name exists; and gives the row each shows in `sources` (its title only when `titles`
 * is on, or for a meeting). Spans alike share one answer (a day repeats its applications): the
 * one given to the last span of the same source when every field that counts is the same, else
 * the one kept under those fields joined.
 */
export function labeller(rules: readonly SuggestionRule[], activities: readonly ActivityRef[], titles: boolean): (span: CaptureSpan) => Labelled {
  const compiled = compiledRules(rules);
  const byName = new Map<string, ActivityRef>();
  for (const a of activities) byName.set(nameKey(a.activityName), a);
  // The row's fields and the source count always; language and entity only when a rule tests them.
  const also = (['language', 'entity'] as const).filter((f) => compiled.some((r) => r.tests.some(([field]) => field === f)));
  const seen = new Map<string, Labelled>();
  const rows = new Map<string, SourceRow>();
  const last = new Map<CaptureSpan['source'], { span: CaptureSpan; labelled: Labelled }>();
  const labelOf = (span: CaptureSpan): Label => {
    const rule = firstMatch(compiled, span);
    if (rule !== undefined) {
      const key = nameKey(rule.rule.activity);
      const existing = byName.get(key);
      return {
        key,
        activityID: existing?.activityID ?? null,
        activityName: existing?.activityName ?? rule.rule.activity,
        ruleID: rule.rule.id,
        rank: rule.index,
      };
    }
    if ((span.source === 'editor' && span.project !== null) || (span.source === 'calendar' && span.title !== null)) {
      // A meeting is labelled like its summary, an editor span like its project (docs/calendar.md).
      const existing = byName.get(nameKey((span.source === 'calendar' ? span.title : span.project) as string));
      if (existing !== undefined) {
        const key = nameKey(existing.activityName);
        return { key, activityID: existing.activityID, activityName: existing.activityName, ruleID: null, rank: compiled.length };
      }
    }
    return UNLABELLED;
  };
  const rowOf = (s: CaptureSpan): SourceRow => {
    // A meeting's summary is the person's own calendar: shown whether titles is on or not.
    const row = { source: s.source as SuggestionSource['source'], app: s.app, title: titles || s.source === 'calendar' ? s.title : null, project: s.project, branch: s.branch };
    const key = `${row.source}\u0000${row.app}\u0000${row.title}\u0000${row.project}\u0000${row.branch}`;
    const known = rows.get(key);
    if (known !== undefined) return known;
    const made = { key, row };
    rows.set(key, made);
    return made;
  };
  return (span) => {
    const previous = last.get(span.source);
    if (previous !== undefined && alike(previous.span, span, also)) return previous.labelled;
    let cacheKey = `${span.source}\u0000${span.app}\u0000${span.title}\u0000${span.project}\u0000${span.branch}`;
    for (const f of also) cacheKey += `\u0000${span[f]}`;
    let labelled = seen.get(cacheKey);
    if (labelled === undefined) {
      labelled = { label: labelOf(span), source: rowOf(span) };
      seen.set(cacheKey, labelled);
    }
    last.set(span.source, { span, labelled });
    return labelled;
  };
}
