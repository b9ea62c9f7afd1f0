/**
 * Saying a refused field's rule from its code and values (docs/i18n.md "What the app sends"):
 * the key of a code is `rule.<code>` in the `rules` catalogs (./en.ts), the same for the CLI and
 * the window. Structural types only: @tock/i18n imports no other package; the CLI and the
 * window check at build time that every @tock/protocol rule code has its key ({@link RuleKey}).
 */
import { formatList } from '../formats.ts';
import type { Messages } from '../messages.ts';
import { rules } from './en.ts';

/** One key of the `rules` catalogs. */
export type RuleKey = Extract<keyof typeof rules, string>;

/** A rule as the app sends it: its code, values and, for a list, its items' rule. */
export interface WordedRule {
  readonly rule: string;
  readonly values?: Readonly<Record<string, string | number>>;
  readonly item?: WordedRule;
}

/** The rules that carry a store file's own description, and the value it fills. */
const STORE_FILE_INNER: ReadonlyMap<string, string> = new Map([
  ['storeFileBad', 'problem'],
  ['storeFileNewer', 'problem'],
  ['restoreUnreadable', 'reason'],
]);

/**
 * The rules whose value is a choice among words the app sends joined with `, ` (its English
 * line's list, unchanged on the wire), and that value: said again as a list in the language
 * (`a, b oder c`, `a、b、またはc`; docs/i18n.md "Formats").
 */
const CHOICES: ReadonlyMap<string, string> = new Map([
  ['oneOf', 'options'],
  ['importFormat', 'options'],
]);

/** The same for the first items of a longer list, which the message goes on with `, …`: `currencyUnknown`'s `known`. */
const OPEN_LISTS: ReadonlyMap<string, string> = new Map([['currencyUnknown', 'known']]);

/** The catalog key of a rule code, or undefined for a code the catalogs do not have (a newer app's). */
export function ruleKey(code: unknown): RuleKey | undefined {
  if (typeof code !== 'string') return undefined;
  const key = `rule.${code}`;
  return code !== 'field' && Object.hasOwn(rules, key) ? (key as RuleKey) : undefined;
}

/** A rule in `t`'s language, or undefined for a code (or values) the catalog cannot say. */
export function wordRule(t: Messages<RuleKey>, rule: WordedRule): string | undefined {
  const key = ruleKey(rule.rule);
  if (key === undefined) return undefined;
  const values: Record<string, string | number> = { ...rule.values };
  // A list's rule says its items' rule, a tag's the name rule it broke, a setting's field
  // (`"taxRate"` inside `business`) the rule that field broke, an unknown field the shape: each as `{each}`.
  if (rule.rule === 'list' || rule.rule === 'tagName' || rule.rule === 'subField' || rule.rule === 'noFieldShape') {
    const each = rule.item === undefined ? undefined : wordRule(t, rule.item);
    if (each === undefined) return undefined;
    values.each = each;
  }
  // A store file that cannot be opened or restored says what is wrong with it by its own rule
  // in `item` (@tock/core store-file.ts), in its place; without one (an older app), its English.
  const inner = STORE_FILE_INNER.get(rule.rule);
  if (inner !== undefined && rule.item !== undefined) {
    const words = wordRule(t, rule.item);
    if (words !== undefined) values[inner] = words;
  }
  const choice = CHOICES.get(rule.rule);
  const joined = choice === undefined ? undefined : values[choice];
  if (choice !== undefined && typeof joined === 'string') values[choice] = formatList(t.locale, joined.split(', '), 'disjunction');
  const open = OPEN_LISTS.get(rule.rule);
  const first = open === undefined ? undefined : values[open];
  if (open !== undefined && typeof first === 'string') values[open] = formatList(t.locale, first.split(', '), 'open');
  try {
    return t(key, values);
  } catch {
    // A value the message needs is missing (an older app): its English says it.
    return undefined;
  }
}
