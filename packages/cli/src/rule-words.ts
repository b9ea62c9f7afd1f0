/**
 * A refused field's rule in the person's language (docs/i18n.md "What the app sends"): the app
 * sends each rule's code and values (`rule`, `values`, `item`: @tock/protocol's `fieldRule`)
 * beside its English `message`; `tock` says the rule from its catalog by that code. In English,
 * and for a detail without a code the CLI knows, the app's own line stays, byte for byte.
 */
import type { SyncReason, SyncReasonCode } from '@tock/admin';
import { isProblem, type FieldProblem, type FieldRule, type FieldRuleCode, type ProblemCode } from '@tock/protocol';
import { type RuleKey, wordRule } from '@tock/i18n/rules/words';
import { PROBLEM_CODE_KEYS, type SyncReasonKeyCode, wordSyncReason } from '@tock/i18n/problems/words';
import type { CliKey, CliMessages } from './i18n/index.ts';
import { CliError } from './io.ts';

/** Every rule code has its words: a new rule code in @tock/protocol fails `tsc` here until it has a key. */
const EVERY_RULE_WORDED: `rule.${FieldRuleCode}` extends RuleKey ? true : never = true;
void EVERY_RULE_WORDED;

/**
 * Every problem code, by the CLI's words for it (never by reading the app's text): in another
 * language the words stand in for the app's English line. The codes the window words alike, or
 * leaves to the app's line (`null`: worded by the `rule` or `because` codes it carries, or it
 * never reaches `tock` as a problem — the client's failures are worded by their kind), are
 * @tock/i18n's {@link PROBLEM_CODE_KEYS}; the CLI's own words are the two that name a `tock`
 * command. A new code in @tock/protocol fails `tsc` here until it is decided.
 */
export const PROBLEM_KEYS: Readonly<Record<ProblemCode, CliKey | null>> = { ...PROBLEM_CODE_KEYS, license_locked: 'error.licenseLocked', storage_full: 'error.storageFull' };

/** The codes `tock` says in its own words in English too (they point at a `tock` command). */
const OWN_WORDS_IN_ENGLISH: ReadonlySet<ProblemCode> = new Set(['license_locked', 'storage_full']);

/** A problem's line by its code in `t`'s language (see {@link PROBLEM_KEYS}); undefined to say the app's line. */
export function problemLine(t: CliMessages, error: unknown): string | undefined {
  // A refusal said whole by its rule names what the code's words cannot (the invoice's number): validationLine says it.
  if (!isProblem(error) || error.details?.[0]?.line !== undefined) return undefined;
  const key = PROBLEM_KEYS[error.code];
  if (key === null || key === undefined || (t.locale === 'en' && !OWN_WORDS_IN_ENGLISH.has(error.code))) return undefined;
  return t(key);
}

/** A rule in `t`'s language (@tock/i18n's shared `rules` wording), or undefined for a code (or values) the catalog cannot say. */
export function ruleWords(t: CliMessages, rule: FieldRule): string | undefined {
  return wordRule(t, rule);
}

/** A detail's rule in `t`'s language; the app's English `message` in English or without a known code. */
export function detailWords(t: CliMessages, detail: FieldProblem): string {
  if (t.locale === 'en' || detail.rule === undefined) return detail.message;
  return ruleWords(t, detail as FieldRule) ?? detail.message;
}

/**
 * `<field>: <rule>` in `t`'s language for a `validation_failed` whose first field has a rule
 * code; a refusal the app says whole (the route's own line, or any problem's `ruleLine`: an
 * activity by name, a license key, a calendar) by the `line` of its first detail; else undefined.
 */
export function validationLine(t: CliMessages, error: unknown): string | undefined {
  if (t.locale === 'en' || !isProblem(error)) return undefined;
  const first = error.details?.[0];
  // A whole line; its English for a code the catalog lacks.
  if (first?.line !== undefined) return ruleWords(t, first.line);
  if (error.code !== 'validation_failed' || first?.rule === undefined) return undefined;
  const words = ruleWords(t, first as FieldRule);
  return words === undefined ? undefined : t('rule.field', { field: first.field, rule: words });
}

/**
 * The app's refusal of a field, said as the flag (and value) that gave it: `--budget -1: <rule>`,
 * the rule in the person's language when the app sent its code. Its `message` is the English line.
 */
export class FieldRefusal extends CliError {
  readonly shown: string;
  readonly detail: FieldProblem;

  constructor(shown: string, detail: FieldProblem) {
    super(`${shown}: ${detail.message}`);
    this.shown = shown;
    this.detail = detail;
  }

  /** The line in `t`'s language. */
  line(t: CliMessages): string {
    return t.locale === 'en' ? this.message : t('rule.field', { field: this.shown, rule: detailWords(t, this.detail) });
  }
}

/**
 * A refusal of the tracking port over the admin socket (tracking-port.ts): the line the
 * listener's client says (`Tock refused the request: tags: …`), and the app's problem beside it,
 * so that in another language a field's rule is said by its code, as every other command's is.
 */
export class PortRefusal extends CliError {
  readonly problem: unknown;

  constructor(line: string, problem: unknown) {
    super(line);
    this.problem = problem;
  }

  /** `<field>: <rule>` in `t`'s language for a field refused by its rule; else the client's line. */
  line(t: CliMessages): string {
    // A refusal said whole (an activity by name) keeps the client's words for its kind.
    const whole = isProblem(this.problem) && this.problem.details?.[0]?.line !== undefined;
    return (whole ? undefined : validationLine(t, this.problem)) ?? this.message;
  }
}

/** Every sync problem has its words (`sync.reason.*`): a new code in @tock/sync fails `tsc` here until it has a key. */
const EVERY_SYNC_PROBLEM_WORDED: SyncReasonCode extends SyncReasonKeyCode ? true : never = true;
void EVERY_SYNC_PROBLEM_WORDED;

/**
 * The sync folder's problem in `t`'s language, by the code and values the app sends
 * (`problemReason`); its English line (`english`) in English, without a code, or for a code
 * or values the catalog cannot say.
 */
export function syncProblemWords(t: CliMessages, reason: SyncReason | null | undefined, english: string): string {
  if (t.locale === 'en') return english;
  return wordSyncReason(t, reason) ?? english;
}
