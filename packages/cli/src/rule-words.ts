/**
 * A refused field's rule in the person's language (docs/i18n.md "What the app sends"): the app
 * sends each rule's code and values (`rule`, `values`, `item`: @tock/protocol's `fieldRule`)
 * beside its English `message`; `tock` says the rule from its catalog by that code. In English,
 * and for a detail without a code the CLI knows, the app's own line stays, byte for byte.
 */
import type { SyncReason, SyncReasonCode } from '@tock/admin';
import { isProblem, type FieldProblem, type FieldRule, type FieldRuleCode, type ProblemCode } from '@tock/protocol';
import { type RuleKey, wordRule } from '@tock/i18n/rules/words';
import type { CliKey, CliMessages } from './i18n/index.ts';
import { CliError } from './io.ts';

/** Every rule code has its words: a new rule code in @tock/protocol fails `tsc` here until it has a key. */
const EVERY_RULE_WORDED: `rule.${FieldRuleCode}` extends RuleKey ? true : never = true;
void EVERY_RULE_WORDED;

/**
 * Every problem code, by the CLI's words for it (never by reading the app's text): in another
 * language the words stand in for the app's English line. `null`: the code's line says what only
 * the app knows (a field's rule, a reason, a file, the system's words) and is worded by the
 * `rule` or `because` codes it carries where it has them, or the code never reaches `tock` as a
 * problem (the listener's signed wire: the client's failures are worded by their kind). A new
 * code in @tock/protocol fails `tsc` here until it is decided.
 */
export const PROBLEM_KEYS: Readonly<Record<ProblemCode, CliKey | null>> = {
  validation_failed: null,
  invalid_json: 'problem.code.invalid_json',
  missing_auth: null,
  clock_drift: null,
  bad_signature: null,
  forbidden_host: null,
  browser_request: null,
  route_not_found: null,
  activity_not_found: null,
  suggestion_not_found: 'problem.code.suggestion_not_found',
  method_not_allowed: null,
  request_timeout: null,
  nonce_reused: null,
  idempotency_conflict: null,
  invoiced: 'problem.code.invoiced',
  payload_too_large: null,
  unsupported_media_type: 'problem.code.unsupported_media_type',
  license_locked: 'error.licenseLocked',
  locked_out: null,
  too_many_streams: null,
  headers_too_large: null,
  internal_error: 'problem.code.internal_error',
  not_wired: null,
  storage_full: 'error.storageFull',
  refused: null,
  not_running: null,
  already_running: null,
  port_in_use: null,
  start_failed: null,
  store_unreadable: null,
  backup_failed: null,
  import_refused: null,
  export_failed: null,
  license_invalid: null,
  credential_store_failed: null,
  sync_refused: null,
  sync_op_invalid: null,
  desktop_unavailable: null,
  nothing_to_continue: 'problem.code.nothing_to_continue',
  idle_question_not_found: 'problem.code.idle_question_not_found',
  session_not_found: 'problem.code.session_not_found',
  entry_not_found: 'problem.code.entry_not_found',
  break_not_found: 'problem.code.break_not_found',
  prompt_not_found: 'problem.code.prompt_not_found',
  rule_not_found: 'problem.code.rule_not_found',
  no_token: 'problem.code.no_token',
  upload_failed: 'problem.code.upload_failed',
  service_failed: null,
  usage: null,
};

/** The codes `tock` says in its own words in English too (they point at a `tock` command). */
const OWN_WORDS_IN_ENGLISH: ReadonlySet<ProblemCode> = new Set(['license_locked', 'storage_full']);

/** A problem's line by its code in `t`'s language (see {@link PROBLEM_KEYS}); undefined to say the app's line. */
export function problemLine(t: CliMessages, error: unknown): string | undefined {
  if (!isProblem(error)) return undefined;
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

/** Every sync problem's key: a new code in @tock/sync fails `tsc` here until it has words. */
const SYNC_REASON_KEYS: Readonly<Record<SyncReasonCode, CliKey>> = {
  folder_gone: 'sync.reason.folder_gone',
  folder_read_only: 'sync.reason.folder_read_only',
  folder_unusable: 'sync.reason.folder_unusable',
  folder_newer: 'sync.reason.folder_newer',
  folder_other_key: 'sync.reason.folder_other_key',
  format_dir_not_folder: 'sync.reason.format_dir_not_folder',
  folder_file_not_file: 'sync.reason.folder_file_not_file',
  folder_file_unreadable: 'sync.reason.folder_file_unreadable',
  folder_file_not_json: 'sync.reason.folder_file_not_json',
  folder_file_newer: 'sync.reason.folder_file_newer',
  folder_file_shape: 'sync.reason.folder_file_shape',
  format_one: 'sync.reason.format_one',
  device_same_name: 'sync.reason.device_same_name',
  device_truncated: 'sync.reason.device_truncated',
  device_line_refused: 'sync.reason.device_line_refused',
  device_clock_ahead: 'sync.reason.device_clock_ahead',
};

/**
 * The sync folder's problem in `t`'s language, by the code and values the app sends
 * (`problemReason`); its English line (`english`) in English, without a code, or for a code
 * or values the catalog cannot say.
 */
export function syncProblemWords(t: CliMessages, reason: SyncReason | null | undefined, english: string): string {
  if (t.locale === 'en' || reason === null || reason === undefined || typeof reason.code !== 'string' || !Object.hasOwn(SYNC_REASON_KEYS, reason.code)) return english;
  try {
    return t(SYNC_REASON_KEYS[reason.code], reason.values);
  } catch {
    return english;
  }
}
