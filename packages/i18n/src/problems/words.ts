/**
 * Saying a reason the app sends as a code (docs/i18n.md "What the app sends as codes"), the same
 * for the CLI and the window: the key of a code is its catalog key, `problem.reason.<code>` or
 * `problem.import.<code>` for @tock/protocol's `ProblemReason`, `problem.device.<code>` and
 * `problem.line.<code>` for @tock/sync's device and line reasons (the `problems` catalogs,
 * ./en.ts), `sync.reason.<code>` for the sync folder's (the `rules` catalogs). Each package's
 * formatter is passed in, as to {@link wordRule}. Structural types only: @tock/i18n imports no
 * other package; the CLI and the window check at build time that every code of @tock/protocol
 * and @tock/sync has its key ({@link ReasonKeyCode} and its siblings), and that every problem
 * code is decided ({@link PROBLEM_CODE_KEYS}).
 */
import type { Messages } from '../messages.ts';
import { rules } from '../rules/en.ts';
import { type RuleKey, type WordedRule, wordRule } from '../rules/words.ts';
import { problems } from './en.ts';

/** One key of the `problems` catalogs. */
export type ProblemKey = Extract<keyof typeof problems, string>;

/** The codes of the keys in `Key` that start with `Prefix`. */
type CodeOf<Key extends string, Prefix extends string> = Prefix extends string ? (Key extends `${Prefix}${infer Code}` ? Code : never) : never;

/** The reason codes the `problems` catalogs word (`problem.reason.*`, `problem.import.*`). */
export type ReasonKeyCode = CodeOf<ProblemKey, 'problem.reason.' | 'problem.import.'>;
/** Another device's problem codes the `problems` catalogs word (`problem.device.*`). */
export type DeviceReasonKeyCode = CodeOf<ProblemKey, 'problem.device.'>;
/** The codes of the reason inside a refused or held line (`problem.line.*`). */
export type LineReasonKeyCode = CodeOf<ProblemKey, 'problem.line.'>;
/** A calendar file's problem codes the `problems` catalogs word (`problem.calendar.*`: core's `CalendarProblem`). */
export type CalendarProblemKeyCode = CodeOf<ProblemKey, 'problem.calendar.'>;
/** The sync folder's problem codes the `rules` catalogs word (`sync.reason.*`). */
export type SyncReasonKeyCode = CodeOf<RuleKey, 'sync.reason.'>;

/** A reason as the app sends it: its code, values, the reason inside (its words fill `{reason}`) and the field rule it broke (`{rule}`). */
export interface WordedReason {
  readonly code: string;
  readonly values?: Readonly<Record<string, string | number>>;
  readonly inner?: WordedReason;
  readonly rule?: WordedRule;
}

/** The keys of `catalog` that start with one of `prefixes`, by their code (the rest of the key). */
function keysByCode<Key extends string, Prefix extends string>(catalog: Readonly<Record<Key, string>>, prefixes: readonly Prefix[]): Readonly<Record<CodeOf<Key, Prefix>, Key>> {
  const keys: Record<string, string> = {};
  for (const key of Object.keys(catalog)) {
    const prefix = prefixes.find((p) => key.startsWith(p));
    if (prefix !== undefined) keys[key.slice(prefix.length)] = key;
  }
  return keys as Record<CodeOf<Key, Prefix>, Key>;
}

const REASON_KEYS = keysByCode(problems, ['problem.reason.', 'problem.import.']);
const DEVICE_KEYS = keysByCode(problems, ['problem.device.']);
const LINE_KEYS = keysByCode(problems, ['problem.line.']);
const SYNC_KEYS = keysByCode(rules, ['sync.reason.']);
const CALENDAR_KEYS = keysByCode(problems, ['problem.calendar.']);

/** `t(key, values)`, or undefined when a value the message needs is missing (an older app: its English says it). */
function say<Key extends string>(t: Messages<Key>, key: Key, values: Readonly<Record<string, string | number>> | undefined): string | undefined {
  try {
    return t(key, values);
  } catch {
    return undefined;
  }
}

/** True when `reason` has a string code that `keys` has. */
function known(keys: object, reason: { code?: unknown } | null | undefined): reason is { code: string } {
  return reason !== null && reason !== undefined && typeof reason.code === 'string' && Object.hasOwn(keys, reason.code);
}

/** A reason in `t`'s language (its `inner` reason and the field `rule` it broke worded too), or undefined for anything the catalog cannot say. */
export function wordProblemReason(t: Messages<ProblemKey | RuleKey>, reason: WordedReason | null | undefined): string | undefined {
  return sayReason(t, reason, 0);
}

/** A reason's words at `depth` inside another (three at the most). */
function sayReason(t: Messages<ProblemKey | RuleKey>, reason: WordedReason | null | undefined, depth: number): string | undefined {
  if (!known(REASON_KEYS, reason) || depth > 2) return undefined;
  const values: Record<string, string | number> = { ...reason.values };
  if (reason.inner !== undefined) {
    const inner = sayReason(t, reason.inner, depth + 1);
    if (inner === undefined) return undefined;
    values.reason = inner;
  }
  if (reason.rule !== undefined) {
    const rule = wordRule(t, reason.rule);
    if (rule === undefined) return undefined;
    values.rule = rule;
  }
  return say(t, REASON_KEYS[reason.code as ReasonKeyCode], values);
}

/** The reason inside a refused or held line in `t`'s language (a field rule it broke by {@link wordRule}), or undefined for what the catalog cannot say. */
export function wordLineReason(t: Messages<ProblemKey | RuleKey>, line: { readonly code: string; readonly values?: Readonly<Record<string, string | number>>; readonly rule?: WordedRule } | null | undefined): string | undefined {
  if (!known(LINE_KEYS, line)) return undefined;
  const values: Record<string, string | number> = { ...line.values };
  if (line.rule !== undefined) {
    const rule = wordRule(t, line.rule);
    if (rule === undefined) return undefined;
    values.rule = rule;
  }
  return say(t, LINE_KEYS[line.code as LineReasonKeyCode], values);
}

/** True for another device's problem of the `problem.device.*` codes (the others are the sync folder's, `sync.reason.*`). */
export function isDeviceReason(reason: { code: string } | null | undefined): reason is { code: DeviceReasonKeyCode; values: Readonly<Record<string, string | number>> } {
  return known(DEVICE_KEYS, reason);
}

/** Another device's problem of the `problem.device.*` codes in `t`'s language; undefined for any other code or for values the catalog cannot say. */
export function wordDeviceReason(t: Messages<ProblemKey>, reason: { readonly code: string; readonly values?: Readonly<Record<string, string | number>> } | null | undefined): string | undefined {
  return known(DEVICE_KEYS, reason) ? say(t, DEVICE_KEYS[reason.code as DeviceReasonKeyCode], { ...reason.values }) : undefined;
}

/**
 * A calendar file's problem (`tock calendar list`, Settings › Calendar: the app's `reasons`, core's
 * `CalendarProblem` with the file as `path`) in `t`'s language, the path first; undefined for
 * another code or values the catalog cannot say (the app's English line says it).
 */
export function wordCalendarProblem(t: Messages<ProblemKey>, reason: { readonly code: string; readonly values?: Readonly<Record<string, string | number>> } | null | undefined): string | undefined {
  return known(CALENDAR_KEYS, reason) ? say(t, CALENDAR_KEYS[reason.code as CalendarProblemKeyCode], { ...reason.values }) : undefined;
}

/** The sync folder's problem in `t`'s language by its code (`sync.reason.*`); undefined for another code or values the catalog cannot say. */
export function wordSyncReason(t: Messages<RuleKey>, reason: { readonly code: string; readonly values?: Readonly<Record<string, string | number>> } | null | undefined): string | undefined {
  return known(SYNC_KEYS, reason) ? say(t, SYNC_KEYS[reason.code as SyncReasonKeyCode], reason.values) : undefined;
}

/**
 * A device problem's reason with the reason inside a refused or held line (`device_line_refused`,
 * `device_line_held`) worded by its own code ({@link wordLineReason}) as its `reason` value,
 * ready for the problem's worder; the reason as it came otherwise.
 */
export function withLineWords<R extends { code: string; values?: Readonly<Record<string, string | number>> }>(t: Messages<ProblemKey | RuleKey>, reason: R | null, line: Parameters<typeof wordLineReason>[1]): R | null {
  if (reason === null || (reason.code !== 'device_line_refused' && reason.code !== 'device_line_held')) return reason;
  const inner = wordLineReason(t, line);
  return inner === undefined ? reason : { ...reason, values: { ...reason.values, reason: inner } };
}

/**
 * The problem codes the CLI and the window word alike, by their key in the shared catalogs;
 * `null`: the code's line says what only the app knows (a field's rule, a reason, a file, the
 * system's words) and is worded by the `rule` or `because` codes it carries, or the code never
 * reaches either as a problem (the listener's signed wire). Each package spreads it into its
 * `Record<ProblemCode, …>` and sets its own entries in one line beside it: the window words a
 * few codes in its own sentences, and `license_locked` and `storage_full`, left out here, each
 * package says in its own words (the CLI's name a `tock` command). A new code fails `tsc` in both
 * until it is decided here or there.
 */
export const PROBLEM_CODE_KEYS = {
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
  locked_out: null,
  too_many_streams: null,
  headers_too_large: null,
  internal_error: 'problem.code.internal_error',
  not_wired: null,
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
} as const satisfies Readonly<Record<string, RuleKey | null>>;
