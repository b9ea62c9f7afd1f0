/**
 * The one problem type of Tock (docs/architecture.md "One problem type"): every refusal the
 * domain, the app, the sync folder, the desktop or the CLI reports to a person is a
 * {@link Problem} — a code from one closed list, one line of message, and optionally the
 * field it is about. Each door maps it once: the listener into its error envelope (wire codes
 * only; see errors.ts), the admin socket into its answer, the window's API into its JSON, the
 * CLI into one `error: …` line and its exit status. No door reads a message's text.
 *
 * ```
 * Error
 * └── Problem                 code, message, field?, details?
 *     ├── StoreFileError      + problem (what is wrong with tock.db)   @tock/core
 *     ├── ImportProblem       + place, reason                          @tock/core
 *     └── OpError             + newer (a line of a newer sync format)  @tock/core
 * ```
 */
import { ERROR_STATUS, type ErrorCode, type FieldProblem, type FieldRule } from './errors.ts';

/**
 * The codes that never travel on the listener's wire, each with the status the window's API
 * answers it with. The admin socket and the CLI carry the code and the message; the listener
 * answers any of them as a 500 (a use case of its own refuses with a wire code).
 */
export const APP_PROBLEM_STATUS = {
  /** A command that cannot be done as things are; the message says what to do. */
  refused: 400,
  /** No app answers on the admin socket of this home. */
  not_running: 503,
  /** Another app already runs with this home. */
  already_running: 409,
  /** The port the listener should bind is taken. */
  port_in_use: 409,
  /** The app could not start (home, store); the message says what to do. */
  start_failed: 500,
  /** tock.db is not a store this build can open (`StoreFileError`). */
  store_unreadable: 500,
  /** A backup or restore that could not be done. */
  backup_failed: 400,
  /** An import refused, naming the place in the file (`ImportProblem`). */
  import_refused: 400,
  /** An export that cannot go on. */
  export_failed: 400,
  /** A license key or public key that is refused. */
  license_invalid: 400,
  /** The OS keyring or the token file failed. */
  credential_store_failed: 400,
  /** `tock sync enable` and the other sync commands refused. */
  sync_refused: 400,
  /** A line of a sync segment that cannot be applied (`OpError`). */
  sync_op_invalid: 400,
  /** A desktop helper (idle source, notifier) answered something we do not understand. */
  desktop_unavailable: 503,
  /** "Continue the last activity" when nothing was ever tracked. */
  nothing_to_continue: 409,
  /** The idle question was answered already (in another window). */
  idle_question_not_found: 404,
  session_not_found: 404,
  entry_not_found: 404,
  break_not_found: 404,
  prompt_not_found: 404,
  rule_not_found: 404,
  /** No token yet: the listener was never turned on. */
  no_token: 404,
  /** A window upload that did not arrive whole. */
  upload_failed: 400,
  /** `tock service` or `tock install-cli` could not do a step. */
  service_failed: 400,
  /** A CLI invocation refused before it reached the app (arguments, environment). */
  usage: 400,
} as const;

/** A code that only the app's own doors (admin socket, window, CLI) carry. */
export type AppProblemCode = keyof typeof APP_PROBLEM_STATUS;

/** Every problem code: the listener's wire codes and the app's own. */
export type ProblemCode = ErrorCode | AppProblemCode;

/** The status of every problem code (the wire codes' from {@link ERROR_STATUS}). */
export const PROBLEM_STATUS: Readonly<Record<ProblemCode, number>> = { ...ERROR_STATUS, ...APP_PROBLEM_STATUS };

const PROBLEM_BRAND = Symbol.for('tock.problem');

/**
 * Why a problem happened, by a code and the values its words take, for a door that says it in
 * the person's language (docs/i18n.md "What the app sends as codes"); its English stays the
 * problem's message. The credential store's and the editors' door's reasons, and core's checks
 * of one heartbeat (`heartbeat_*`).
 */
export type ProblemReasonCode =
  | 'credential_no_session'
  | 'credential_os_failed'
  | 'credential_store_setting'
  | 'editor_key_missing'
  | 'editor_key_wrong'
  | 'editor_locked_out'
  | 'editor_host'
  | 'editor_web_page'
  | 'editor_not_json'
  | 'editor_body_shape'
  | 'editor_too_many'
  | 'editor_too_large'
  | 'editor_heartbeat'
  | 'editor_license_locked'
  | 'editor_no_endpoint'
  | 'editor_method'
  | 'editor_failed'
  | 'editor_unavailable'
  | 'editor_no_key'
  | 'editor_config_unwritable'
  | 'sync_give_dir'
  | 'sync_dir_relative'
  | 'sync_dir_missing'
  | 'sync_dir_not_folder'
  | 'sync_dir_not_writable'
  | 'sync_device_name'
  | 'sync_key_shape'
  | 'sync_key_random'
  | 'sync_folder_has_key'
  | 'sync_key_not_folders'
  | 'sync_key_unkept'
  | 'sync_dir_unwritable'
  | 'sync_off'
  | 'sync_one_timer'
  | 'sync_folder_file'
  | 'heartbeat_not_object'
  | 'heartbeat_entity_required'
  | 'heartbeat_entity_long'
  | 'heartbeat_entity_control'
  | 'heartbeat_time_required'
  | 'heartbeat_time_range'
  | 'heartbeat_time_future'
  | 'heartbeat_time_retention'
  | 'heartbeat_type'
  | 'heartbeat_domain'
  | ImportReasonCode;

/**
 * Why an import was refused at a place in the file: `import_refused` `{file, placeKind, n,
 * place}` wraps the reason (`inner`), one of these by its code (a field rule it broke in `rule`).
 */
export type ImportReasonCode =
  | 'import_refused'
  | 'import_date'
  | 'import_time'
  | 'import_calendar'
  | 'import_no_such_time'
  | 'import_csv_quote'
  | 'import_csv_fields'
  | 'import_csv_other'
  | 'import_toggl_header'
  | 'import_toggl_no_header'
  | 'import_time_range'
  | 'import_name_rule'
  | 'import_note_long'
  | 'import_ends_before'
  | 'import_block_long'
  | 'import_field_rule'
  | 'import_invoiced'
  | 'import_activity_unknown'
  | 'import_timew_time'
  | 'import_string_list'
  | 'import_timew_interval'
  | 'import_annotation'
  | 'import_watson_frame'
  | 'import_watson_seconds'
  | 'import_watson_project'
  | 'import_iso_time'
  | 'import_id'
  | 'import_not_tock'
  | 'import_version'
  | 'import_list'
  | 'import_object'
  | 'import_name_text'
  | 'import_flag'
  | 'import_color'
  | 'import_session_ends_before'
  | 'import_breaks_list'
  | 'import_break_inside'
  | 'import_note_text'
  | 'import_entry_ends_before'
  | 'import_entry_long'
  | 'import_json_invalid'
  | 'import_json_bracket'
  | 'import_json_unbalanced'
  | 'import_item_long'
  | 'import_json_truncated'
  | 'import_unreadable'
  | 'import_not_regular'
  | 'import_tz'
  | 'import_too_large'
  | 'import_empty'
  | 'import_over_limit'
  | 'import_unknown_format'
  | 'import_not_array'
  | 'import_not_object'
  | 'import_no_format'
  | 'import_json_trailing'
  | 'import_json_start'
  | 'import_json_member';

/**
 * Why a line of a sync log is refused, by code (docs/sync.md, docs/i18n.md): the line's shape
 * (`line_*`) and a field's value (`line_field_*`; `line_field_rule` and `line_field_tags` carry
 * the field rule it broke). Core's `OpReasonCode`; @tock/sync's `SyncLineReasonCode` adds its own.
 */
export type LineReasonCode =
  | 'line_not_signed'
  | 'line_wrong_mac'
  | 'line_not_json'
  | 'line_not_object'
  | 'line_newer'
  | 'line_version'
  | 'line_hlc'
  | 'line_hlc_device'
  | 'line_hlc_counter'
  | 'line_hlc_time'
  | 'line_op_text'
  | 'line_op_unknown'
  | 'line_id'
  | 'line_set'
  | 'line_set_field'
  | 'line_set_empty'
  | 'line_ended_before'
  | 'line_entry_long'
  | 'line_field_time'
  | 'line_field_uuid'
  | 'line_field_bool'
  | 'line_field_color'
  | 'line_field_day'
  | 'line_field_invoice_number'
  | 'line_field_document'
  | 'line_field_language'
  | 'line_field_text'
  | 'line_field_rule'
  | 'line_field_tags';

/** A reason by its code and values (an action, a store's name, the system's own words). */
export interface ProblemReason {
  code: ProblemReasonCode;
  values?: Readonly<Record<string, string | number>>;
  /** The reason inside, by its own code (its words fill the `reason` value): an import's refusal at a place. */
  inner?: ProblemReason;
  /** The field rule it broke, by its code (its words fill the `rule` value). */
  rule?: FieldRule;
}

/** What a {@link Problem} can say beyond its code and message. */
export interface ProblemOptions {
  /** Why, by its code and values, beside the English message. */
  because?: ProblemReason;
  /** The one input the problem is about (`name`, `port`, `workingHours.from`), for the window to mark. */
  field?: string;
  /** Every field that broke its rule, as the listener's `validation_failed` carries them. */
  details?: FieldProblem[];
  cause?: unknown;
}

/**
 * A refusal meant for a person: a code from {@link PROBLEM_STATUS}, a message of one line that
 * says what happened and what to do, and optionally the field it is about. Never holds the
 * token or a signature.
 */
export class Problem extends Error {
  override name = 'Problem';
  /** Marks a problem across copies of @tock/protocol (see {@link isProblem}). */
  readonly [PROBLEM_BRAND] = true;
  readonly code: ProblemCode;
  readonly field: string | undefined;
  readonly details: FieldProblem[] | undefined;
  /** Why, by its code and values (docs/i18n.md), beside the English message. */
  readonly because: ProblemReason | undefined;

  constructor(code: ProblemCode, message: string, options: ProblemOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.because = options.because;
    this.field = options.field ?? options.details?.[0]?.field;
  }

  /** The status its code is answered with over HTTP (the listener's, or the window's). */
  get status(): number {
    return PROBLEM_STATUS[this.code];
  }
}

/** True for a code of the listener's wire contract (docs/protocol.md "Errors"). */
export function isWireCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

/**
 * True for a {@link Problem} — with `code` given, for one of that code — also one made by a
 * second copy of @tock/protocol (a bundle): by its brand and a known code, never by its message.
 */
export function isProblem(error: unknown, code?: ProblemCode): error is Problem {
  if (!(error instanceof Problem)) {
    if (typeof error !== 'object' || error === null) return false;
    const candidate = error as { [PROBLEM_BRAND]?: unknown; code?: unknown; message?: unknown };
    if (candidate[PROBLEM_BRAND] !== true || typeof candidate.code !== 'string' || !Object.hasOwn(PROBLEM_STATUS, candidate.code)) return false;
    if (typeof candidate.message !== 'string') return false;
  }
  return code === undefined || (error as Problem).code === code;
}

/** Shorthand for a 400 `validation_failed` problem about one or more fields. */
export function validationProblem(details: FieldProblem[]): Problem {
  const first = details[0];
  const message = first ? `${first.field}: ${first.message}` : 'the request is not valid';
  return new Problem('validation_failed', message, { details });
}
