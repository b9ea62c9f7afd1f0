/**
 * A reason the app sends as a code beside its English (docs/i18n.md "What the app sends as
 * codes"): the credential store's errors (a `Problem`'s `because`) and the editors' door's last
 * refusal (`lastRefusal.because`), said from the catalog's `problem.reason.*`. In English, and
 * for a code or values the catalog cannot say (an older or newer app), the app's line stays.
 */
import { isProblem, type ProblemReason, type ProblemReasonCode } from '@tock/protocol';
import type { SyncDeviceStatus, SyncReason } from '@tock/admin';
import { wordRule } from '@tock/i18n/rules/words';
import type { CliKey, CliMessages } from './i18n/index.ts';
import { syncProblemWords } from './rule-words.ts';

/** Every reason code has its words: a new code in @tock/protocol fails `tsc` here until it has a key. */
const REASON_KEYS: Readonly<Record<ProblemReasonCode, CliKey>> = {
  credential_no_session: 'problem.reason.credential_no_session',
  credential_os_failed: 'problem.reason.credential_os_failed',
  credential_store_setting: 'problem.reason.credential_store_setting',
  editor_key_missing: 'problem.reason.editor_key_missing',
  editor_key_wrong: 'problem.reason.editor_key_wrong',
  editor_locked_out: 'problem.reason.editor_locked_out',
  editor_host: 'problem.reason.editor_host',
  editor_web_page: 'problem.reason.editor_web_page',
  editor_not_json: 'problem.reason.editor_not_json',
  editor_body_shape: 'problem.reason.editor_body_shape',
  editor_too_many: 'problem.reason.editor_too_many',
  editor_too_large: 'problem.reason.editor_too_large',
  editor_heartbeat: 'problem.reason.editor_heartbeat',
  editor_license_locked: 'problem.reason.editor_license_locked',
  editor_no_endpoint: 'problem.reason.editor_no_endpoint',
  editor_method: 'problem.reason.editor_method',
  editor_failed: 'problem.reason.editor_failed',
  editor_unavailable: 'problem.reason.editor_unavailable',
  editor_no_key: 'problem.reason.editor_no_key',
  editor_config_unwritable: 'problem.reason.editor_config_unwritable',
  sync_give_dir: 'problem.reason.sync_give_dir',
  sync_dir_relative: 'problem.reason.sync_dir_relative',
  sync_dir_missing: 'problem.reason.sync_dir_missing',
  sync_dir_not_folder: 'problem.reason.sync_dir_not_folder',
  sync_dir_not_writable: 'problem.reason.sync_dir_not_writable',
  sync_device_name: 'problem.reason.sync_device_name',
  sync_key_shape: 'problem.reason.sync_key_shape',
  sync_key_random: 'problem.reason.sync_key_random',
  sync_folder_has_key: 'problem.reason.sync_folder_has_key',
  sync_key_not_folders: 'problem.reason.sync_key_not_folders',
  sync_key_unkept: 'problem.reason.sync_key_unkept',
  sync_dir_unwritable: 'problem.reason.sync_dir_unwritable',
  sync_off: 'problem.reason.sync_off',
  sync_one_timer: 'problem.reason.sync_one_timer',
  sync_folder_file: 'problem.reason.sync_folder_file',
  heartbeat_not_object: 'problem.reason.heartbeat_not_object',
  heartbeat_entity_required: 'problem.reason.heartbeat_entity_required',
  heartbeat_entity_long: 'problem.reason.heartbeat_entity_long',
  heartbeat_entity_control: 'problem.reason.heartbeat_entity_control',
  heartbeat_time_required: 'problem.reason.heartbeat_time_required',
  heartbeat_time_range: 'problem.reason.heartbeat_time_range',
  heartbeat_time_future: 'problem.reason.heartbeat_time_future',
  heartbeat_time_retention: 'problem.reason.heartbeat_time_retention',
  heartbeat_type: 'problem.reason.heartbeat_type',
  heartbeat_domain: 'problem.reason.heartbeat_domain',
  import_refused: 'problem.import.import_refused',
  import_date: 'problem.import.import_date',
  import_time: 'problem.import.import_time',
  import_calendar: 'problem.import.import_calendar',
  import_no_such_time: 'problem.import.import_no_such_time',
  import_csv_quote: 'problem.import.import_csv_quote',
  import_csv_fields: 'problem.import.import_csv_fields',
  import_csv_other: 'problem.import.import_csv_other',
  import_toggl_header: 'problem.import.import_toggl_header',
  import_toggl_no_header: 'problem.import.import_toggl_no_header',
  import_time_range: 'problem.import.import_time_range',
  import_name_rule: 'problem.import.import_name_rule',
  import_note_long: 'problem.import.import_note_long',
  import_ends_before: 'problem.import.import_ends_before',
  import_block_long: 'problem.import.import_block_long',
  import_field_rule: 'problem.import.import_field_rule',
  import_invoiced: 'problem.import.import_invoiced',
  import_activity_unknown: 'problem.import.import_activity_unknown',
  import_timew_time: 'problem.import.import_timew_time',
  import_string_list: 'problem.import.import_string_list',
  import_timew_interval: 'problem.import.import_timew_interval',
  import_annotation: 'problem.import.import_annotation',
  import_watson_frame: 'problem.import.import_watson_frame',
  import_watson_seconds: 'problem.import.import_watson_seconds',
  import_watson_project: 'problem.import.import_watson_project',
  import_iso_time: 'problem.import.import_iso_time',
  import_id: 'problem.import.import_id',
  import_not_tock: 'problem.import.import_not_tock',
  import_version: 'problem.import.import_version',
  import_list: 'problem.import.import_list',
  import_object: 'problem.import.import_object',
  import_name_text: 'problem.import.import_name_text',
  import_flag: 'problem.import.import_flag',
  import_color: 'problem.import.import_color',
  import_session_ends_before: 'problem.import.import_session_ends_before',
  import_breaks_list: 'problem.import.import_breaks_list',
  import_break_inside: 'problem.import.import_break_inside',
  import_note_text: 'problem.import.import_note_text',
  import_entry_ends_before: 'problem.import.import_entry_ends_before',
  import_entry_long: 'problem.import.import_entry_long',
  import_json_invalid: 'problem.import.import_json_invalid',
  import_json_bracket: 'problem.import.import_json_bracket',
  import_json_unbalanced: 'problem.import.import_json_unbalanced',
  import_item_long: 'problem.import.import_item_long',
  import_json_truncated: 'problem.import.import_json_truncated',
  import_unreadable: 'problem.import.import_unreadable',
  import_not_regular: 'problem.import.import_not_regular',
  import_tz: 'problem.import.import_tz',
  import_too_large: 'problem.import.import_too_large',
  import_empty: 'problem.import.import_empty',
  import_over_limit: 'problem.import.import_over_limit',
  import_unknown_format: 'problem.import.import_unknown_format',
  import_not_array: 'problem.import.import_not_array',
  import_not_object: 'problem.import.import_not_object',
  import_no_format: 'problem.import.import_no_format',
  import_json_trailing: 'problem.import.import_json_trailing',
  import_json_start: 'problem.import.import_json_start',
  import_json_member: 'problem.import.import_json_member',
};

/** `reason` in `t`'s language, or `english` in English and for a reason the catalog cannot say. */
export function reasonWords(t: CliMessages, reason: ProblemReason | null | undefined, english: string): string {
  if (t.locale === 'en') return english;
  return sayReason(t, reason, 0) ?? english;
}

/** A reason's words: its `inner` reason's fill `{reason}`, the field rule it broke `{rule}`; undefined for anything the catalog cannot say. */
function sayReason(t: CliMessages, reason: ProblemReason | null | undefined, depth: number): string | undefined {
  if (reason === null || reason === undefined || typeof reason.code !== 'string' || !Object.hasOwn(REASON_KEYS, reason.code) || depth > 2) return undefined;
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
  try {
    return t(REASON_KEYS[reason.code], values);
  } catch {
    // A value the message needs is missing (an older app): its English says it.
    return undefined;
  }
}

/** A problem's line by its reason's code, when it carries one the catalog can say; undefined otherwise. */
export function problemReasonLine(t: CliMessages, error: unknown): string | undefined {
  if (!isProblem(error) || error.because === undefined || t.locale === 'en') return undefined;
  const said = reasonWords(t, error.because, '');
  return said === '' ? undefined : said;
}

/** Another device's problem whose words are in the `problems` catalogs (@tock/sync's `SyncDeviceReason`). */
type SyncDeviceReason = Exclude<NonNullable<SyncDeviceStatus['problemReason']>, SyncReason>;
type SyncDeviceReasonCode = SyncDeviceReason['code'];

/** Every device reason code of @tock/sync has its words (`problem.device.*`): a new one fails `tsc` here. */
const DEVICE_KEYS: Readonly<Record<SyncDeviceReasonCode, CliKey>> = {
  device_not_folder: 'problem.device.device_not_folder',
  device_file_missing: 'problem.device.device_file_missing',
  device_file_not_regular: 'problem.device.device_file_not_regular',
  device_file_too_large: 'problem.device.device_file_too_large',
  device_file_not_json: 'problem.device.device_file_not_json',
  device_file_shape: 'problem.device.device_file_shape',
  device_file_other_id: 'problem.device.device_file_other_id',
  device_segment_not_file: 'problem.device.device_segment_not_file',
  device_segment_too_large: 'problem.device.device_segment_too_large',
  device_segment_unreadable: 'problem.device.device_segment_unreadable',
  device_segment_missing: 'problem.device.device_segment_missing',
  device_segment_shorter: 'problem.device.device_segment_shorter',
  device_line_too_long: 'problem.device.device_line_too_long',
  device_line_held: 'problem.device.device_line_held',
  sync_key_unreadable: 'problem.device.sync_key_unreadable',
  sync_key_missing: 'problem.device.sync_key_missing',
  sync_folder_writable: 'problem.device.sync_folder_writable',
  sync_restored: 'problem.device.sync_restored',
};

/** The reason inside a refused or held line (@tock/sync's `SyncLineReason`). */
type SyncLineReason = NonNullable<SyncDeviceStatus['problemLine']>;

/** Every line reason code of @tock/sync has its words (`problem.line.*`): a new one fails `tsc` here. */
const LINE_KEYS: Readonly<Record<SyncLineReason['code'], CliKey>> = {
  line_not_signed: 'problem.line.line_not_signed',
  line_wrong_mac: 'problem.line.line_wrong_mac',
  line_not_json: 'problem.line.line_not_json',
  line_not_object: 'problem.line.line_not_object',
  line_newer: 'problem.line.line_newer',
  line_version: 'problem.line.line_version',
  line_hlc: 'problem.line.line_hlc',
  line_hlc_device: 'problem.line.line_hlc_device',
  line_hlc_counter: 'problem.line.line_hlc_counter',
  line_hlc_time: 'problem.line.line_hlc_time',
  line_op_text: 'problem.line.line_op_text',
  line_op_unknown: 'problem.line.line_op_unknown',
  line_id: 'problem.line.line_id',
  line_set: 'problem.line.line_set',
  line_set_field: 'problem.line.line_set_field',
  line_set_empty: 'problem.line.line_set_empty',
  line_ended_before: 'problem.line.line_ended_before',
  line_entry_long: 'problem.line.line_entry_long',
  line_field_time: 'problem.line.line_field_time',
  line_field_uuid: 'problem.line.line_field_uuid',
  line_field_bool: 'problem.line.line_field_bool',
  line_field_color: 'problem.line.line_field_color',
  line_field_day: 'problem.line.line_field_day',
  line_field_invoice_number: 'problem.line.line_field_invoice_number',
  line_field_document: 'problem.line.line_field_document',
  line_field_language: 'problem.line.line_field_language',
  line_field_text: 'problem.line.line_field_text',
  line_field_rule: 'problem.line.line_field_rule',
  line_field_tags: 'problem.line.line_field_tags',
  line_too_long: 'problem.line.line_too_long',
  line_invoiced: 'problem.line.line_invoiced',
};

/** A line's reason in `t`'s language (a field rule it broke worded by `wordRule`), or undefined for a code or values the catalog cannot say. */
export function lineReasonWords(t: CliMessages, line: SyncLineReason | null | undefined): string | undefined {
  if (line === null || line === undefined || typeof line.code !== 'string' || !Object.hasOwn(LINE_KEYS, line.code)) return undefined;
  const values: Record<string, string | number> = { ...line.values };
  if (line.rule !== undefined) {
    const rule = wordRule(t, line.rule);
    if (rule === undefined) return undefined;
    values.rule = rule;
  }
  try {
    return t(LINE_KEYS[line.code], values);
  } catch {
    return undefined;
  }
}

/**
 * Another device's problem as `tock sync status` prints it: by its code (the sync catalog's or
 * `problem.device.*`), the reason inside a refused or held line worded by its own code
 * (`problemLine`); in English, and for what the catalog cannot say, the app's line.
 */
export function deviceStatusWords(t: CliMessages, d: Pick<SyncDeviceStatus, 'problem' | 'problemReason' | 'problemLine'>): string | null {
  if (d.problem === null) return null;
  if (t.locale === 'en') return d.problem;
  const reason = d.problemReason;
  const inner = lineReasonWords(t, d.problemLine);
  const said = inner !== undefined && reason !== null && (reason.code === 'device_line_refused' || reason.code === 'device_line_held') ? { ...reason, values: { ...reason.values, reason: inner } } : reason;
  return isDeviceReason(said) ? deviceProblemWords(t, said, d.problem) : syncProblemWords(t, said as SyncReason | null, d.problem);
}

/** A reason of `DEVICE_KEYS`' codes (the others are the sync catalog's, rule-words.ts). */
export function isDeviceReason(reason: { code: string } | null | undefined): reason is SyncDeviceReason {
  return reason !== null && reason !== undefined && typeof reason.code === 'string' && Object.hasOwn(DEVICE_KEYS, reason.code);
}

/** Another device's problem of {@link DEVICE_KEYS}' codes in `t`'s language, or `english` (in English, or values the catalog cannot say). */
export function deviceProblemWords(t: CliMessages, reason: SyncDeviceReason, english: string): string {
  if (t.locale === 'en') return english;
  try {
    return t(DEVICE_KEYS[reason.code], { ...reason.values });
  } catch {
    return english;
  }
}
