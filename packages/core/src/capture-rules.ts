/**
 * The rules that label captured spans for suggestions (docs/desktop.md "Suggestions"): an
 * ordered list, the first matching rule wins. Kept as one JSON value under the
 * `suggestionRules` setting with the next id to give (`r1`, `r2`, …, never reused), each rule
 * checked as it is added. Rules apply to every day's suggestions, old days too; they never
 * change a block.
 */

import { ruleProblem, validationProblem, type FieldProblem } from '@tock/protocol';
import { GLOB_LIMITS, globRule } from './glob.ts';
import { cleanName, codePointLength } from './names.ts';
import type { SettingsStore } from './store.ts';
import { RULE_FIELDS, type RuleField, type RuleMatch, type SuggestionRule } from './shapes/capture.ts';

/** At most this many rules, each glob at most this many characters (a pattern's limit, glob.ts `GLOB_LIMITS`). */
export const RULE_LIMITS = { count: 500, globLength: GLOB_LIMITS.length } as const;

const SETTING = 'suggestionRules';

interface StoredRules {
  next: number;
  rules: SuggestionRule[];
}

function readStored(settings: SettingsStore): StoredRules {
  const stored = settings.get<Partial<StoredRules>>(SETTING);
  const rules = Array.isArray(stored?.rules) ? stored.rules.filter(isRule) : [];
  const next = typeof stored?.next === 'number' && Number.isInteger(stored.next) && stored.next > 0 ? stored.next : rules.length + 1;
  return { next, rules };
}

function isRule(value: unknown): value is SuggestionRule {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<SuggestionRule>;
  return (
    typeof r.id === 'string' &&
    typeof r.activity === 'string' &&
    typeof r.match === 'object' &&
    r.match !== null &&
    Object.entries(r.match).every(([k, v]) => (RULE_FIELDS as readonly string[]).includes(k) && typeof v === 'string')
  );
}

/** The rules, in order. */
export function listRules(settings: SettingsStore): SuggestionRule[] {
  return readStored(settings).rules;
}

/** What `tock rules add` and the window give: the globs of `match` (absent or empty: not matched) and the activity. */
export interface NewRule {
  match: Partial<Record<string, unknown>>;
  activity: unknown;
  /** Its position from 1 (default: last). */
  at?: number | undefined;
}

/**
 * Checks a rule's match and activity: at least one glob, each 1–256 characters without control
 * characters and with at most 16 `*` (glob.ts `GLOB_LIMITS`), only the span fields; the
 * activity a name by the activity name rules. Every wrong field is reported at once. A rule
 * stored before the `*` limit and over it stays listed but labels nothing until it is edited.
 */
export function checkRule(input: Pick<NewRule, 'match' | 'activity'>): Omit<SuggestionRule, 'id'> {
  const problems: FieldProblem[] = [];
  const match: RuleMatch = {};
  const given = typeof input.match === 'object' && input.match !== null ? input.match : {};
  for (const [field, value] of Object.entries(given)) {
    if (value === undefined || value === null || value === '') continue;
    if (!(RULE_FIELDS as readonly string[]).includes(field)) {
      problems.push(ruleProblem(field, { rule: 'notSpanField', values: { fields: RULE_FIELDS.join(', ') } }));
    } else if (typeof value !== 'string' || codePointLength(value) > RULE_LIMITS.globLength || /\p{Cc}/u.test(value)) {
      problems.push(ruleProblem(field, { rule: 'globText', values: { max: RULE_LIMITS.globLength } }));
    } else {
      const over = globRule(value);
      if (over !== null) problems.push(ruleProblem(field, over));
      else match[field as RuleField] = value;
    }
  }
  if (problems.length === 0 && Object.keys(match).length === 0) {
    problems.push(ruleProblem('match', { rule: 'matchOne', values: { fields: RULE_FIELDS.join(', ') } }));
  }
  let activity = '';
  try {
    activity = cleanName(input.activity, 'activity');
  } catch (error) {
    const details = (error as { details?: FieldProblem[] }).details;
    problems.push(...(details ?? [ruleProblem('activity', { rule: 'activityName' })]));
  }
  if (problems.length > 0) throw validationProblem(problems);
  return { match, activity };
}

/** Adds a rule at position `at` (from 1; default last) and returns it with its new id. */
export function addRule(settings: SettingsStore, input: NewRule): SuggestionRule {
  const checked = checkRule(input);
  const stored = readStored(settings);
  if (stored.rules.length >= RULE_LIMITS.count) {
    throw validationProblem([ruleProblem('rules', { rule: 'rulesAtMost', values: { max: RULE_LIMITS.count } })]);
  }
  const at = input.at ?? stored.rules.length + 1;
  if (!Number.isInteger(at) || at < 1 || at > stored.rules.length + 1) {
    throw validationProblem([ruleProblem('at', { rule: 'position', values: { max: stored.rules.length + 1 } })]);
  }
  const rule: SuggestionRule = { id: `r${stored.next}`, ...checked };
  stored.rules.splice(at - 1, 0, rule);
  settings.set(SETTING, { next: stored.next + 1, rules: stored.rules });
  return rule;
}

/** Changes a rule's match or activity in place, or moves it to position `at`. Throws `not_found`-like validation when there is none with that id. */
export function editRule(settings: SettingsStore, id: string, input: Partial<NewRule>): SuggestionRule {
  const stored = readStored(settings);
  const index = stored.rules.findIndex((r) => r.id === id);
  if (index < 0) throw validationProblem([ruleProblem('id', { rule: 'noRuleId', values: { id } })]);
  const old = stored.rules[index] as SuggestionRule;
  const checked = checkRule({ match: input.match ?? old.match, activity: input.activity ?? old.activity });
  const rule: SuggestionRule = { id, ...checked };
  stored.rules.splice(index, 1);
  const at = input.at ?? index + 1;
  if (!Number.isInteger(at) || at < 1 || at > stored.rules.length + 1) {
    throw validationProblem([ruleProblem('at', { rule: 'position', values: { max: stored.rules.length + 1 } })]);
  }
  stored.rules.splice(at - 1, 0, rule);
  settings.set(SETTING, stored);
  return rule;
}

/** Removes a rule; false when there was none with that id. */
export function removeRule(settings: SettingsStore, id: string): boolean {
  const stored = readStored(settings);
  const rules = stored.rules.filter((r) => r.id !== id);
  if (rules.length === stored.rules.length) return false;
  settings.set(SETTING, { next: stored.next, rules });
  return true;
}
