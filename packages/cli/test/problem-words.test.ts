/**
 * The reasons the app sends as codes beside its English (docs/i18n.md "What the app sends as
 * codes"): a credential store's error (`Problem.because`) in `tock`'s `error:` line and an
 * editor's last refusal (`lastRefusal.because`) in `tock editors` are said from the catalog in
 * every language; in English the app's line stays byte for byte, and a code the CLI does not
 * know (a newer app) falls back to it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdminError, type EditorsStatus, type SyncDeviceStatus, type SyncReason, type SyncStatus } from '@tock/admin';
import type { ProblemReason, ProblemReasonCode } from '@tock/protocol';
import { formatEditorsStatus } from '../src/editors-command.ts';
import { createMessages } from '@tock/i18n';
import { en } from '../src/i18n/en/index.ts';
import { type CliMessages, loadCliMessages } from '../src/i18n/index.ts';
import { errorLine } from '../src/main.ts';
import { deviceProblemWords, isDeviceReason, lineReasonWords, reasonWords } from '../src/problem-words.ts';
import { formatSyncStatus } from '../src/sync-command.ts';

/** One reason of each code, with the values the app sends. */
const EACH: Readonly<Record<ProblemReasonCode, ProblemReason>> = {
  credential_no_session: { code: 'credential_no_session' },
  credential_os_failed: { code: 'credential_os_failed', values: { store: 'Secret Service (GNOME Keyring / KWallet)', action: 'read', secret: 'token', error: 'the collection is locked' } },
  credential_store_setting: { code: 'credential_store_setting', values: { value: 'vault' } },
  editor_key_missing: { code: 'editor_key_missing', values: { command: 'tock editors setup' } },
  editor_key_wrong: { code: 'editor_key_wrong', values: { command: 'tock editors key' } },
  editor_locked_out: { code: 'editor_locked_out', values: { seconds: 30 } },
  editor_host: { code: 'editor_host', values: { port: '48123' } },
  editor_web_page: { code: 'editor_web_page' },
  editor_not_json: { code: 'editor_not_json', values: { what: 'type' } },
  editor_body_shape: { code: 'editor_body_shape', values: { shape: 'array' } },
  editor_too_many: { code: 'editor_too_many', values: { max: 1000 } },
  editor_too_large: { code: 'editor_too_large', values: { mib: 5 } },
  editor_heartbeat: { code: 'editor_heartbeat', values: { error: 'time: is required' } },
  editor_license_locked: { code: 'editor_license_locked' },
  editor_no_endpoint: { code: 'editor_no_endpoint', values: { method: 'GET', path: '/wakatime/api/v1/users/current/projects' } },
  editor_method: { code: 'editor_method', values: { path: '/wakatime/api/v1/users/current/heartbeats', allowed: 'POST' } },
  editor_failed: { code: 'editor_failed' },
  editor_unavailable: { code: 'editor_unavailable', values: { path: '/wakatime/api/v1/users/current/heartbeats' } },
  editor_no_key: { code: 'editor_no_key', values: { command: 'tock editors enable' } },
  editor_config_unwritable: { code: 'editor_config_unwritable', values: { file: '/home/ada/.wakatime.cfg', error: 'EACCES', command: 'tock editors key' } },
  sync_give_dir: { code: 'sync_give_dir', values: { command: 'tock sync enable DIR [--name NAME] [--key KEY]' } },
  sync_dir_relative: { code: 'sync_dir_relative', values: { dir: 'sync' } },
  sync_dir_missing: { code: 'sync_dir_missing', values: { dir: '/home/ada/Sync' } },
  sync_dir_not_folder: { code: 'sync_dir_not_folder', values: { dir: '/home/ada/Sync' } },
  sync_dir_not_writable: { code: 'sync_dir_not_writable', values: { dir: '/home/ada/Sync' } },
  sync_device_name: { code: 'sync_device_name', values: { max: 100 } },
  sync_key_shape: { code: 'sync_key_shape', values: { command: 'tock sync key' } },
  sync_key_random: { code: 'sync_key_random' },
  sync_folder_has_key: { code: 'sync_folder_has_key', values: { dir: '/home/ada/Sync', command: 'tock sync enable /home/ada/Sync --key KEY', keyCommand: 'tock sync key' } },
  sync_key_not_folders: { code: 'sync_key_not_folders', values: { file: 'tock-sync-v2/folder.json', keyCommand: 'tock sync key' } },
  sync_key_unkept: { code: 'sync_key_unkept', values: { error: 'EACCES' } },
  sync_dir_unwritable: { code: 'sync_dir_unwritable', values: { dir: '/home/ada/Sync', error: 'EROFS' } },
  sync_off: { code: 'sync_off', values: { command: 'tock sync enable DIR' } },
  sync_one_timer: { code: 'sync_one_timer', values: { command: 'tock sync one-timer on|off' } },
  sync_folder_file: { code: 'sync_folder_file', values: { dir: '/home/ada/Sync', what: 'not_file', file: 'tock-sync-v2/folder.json', kind: 'fifo' } },
  heartbeat_not_object: { code: 'heartbeat_not_object' },
  heartbeat_entity_required: { code: 'heartbeat_entity_required' },
  heartbeat_entity_long: { code: 'heartbeat_entity_long', values: { max: 2048 } },
  heartbeat_entity_control: { code: 'heartbeat_entity_control' },
  heartbeat_time_required: { code: 'heartbeat_time_required' },
  heartbeat_time_range: { code: 'heartbeat_time_range' },
  heartbeat_time_future: { code: 'heartbeat_time_future', values: { minutes: 10 } },
  heartbeat_time_retention: { code: 'heartbeat_time_retention' },
  heartbeat_type: { code: 'heartbeat_type', values: { options: 'file, app, domain, url' } },
  heartbeat_domain: { code: 'heartbeat_domain' },
  import_refused: { code: 'import_refused', values: { file: 'toggl.csv', placeKind: 'line', n: 12, place: 'line 12' }, inner: { code: 'import_ends_before', values: { end: '2026-04-05 09:00:00 UTC', start: '2026-04-05 10:00:00 UTC' } } },
  import_date: { code: 'import_date', values: { what: 'start', date: '2026-13-01' } },
  import_time: { code: 'import_time', values: { what: 'end', time: '25:00' } },
  import_calendar: { code: 'import_calendar', values: { what: 'start', date: '2026-02-30', time: '10:00:00' } },
  import_no_such_time: { code: 'import_no_such_time', values: { what: 'start', date: '2026-03-29', time: '02:30:00', zone: 'Europe/Berlin' } },
  import_csv_quote: { code: 'import_csv_quote' },
  import_csv_fields: { code: 'import_csv_fields' },
  import_csv_other: { code: 'import_csv_other', values: { error: 'invalid opening quote' } },
  import_toggl_header: { code: 'import_toggl_header', values: { missing: '"Start date"' } },
  import_toggl_no_header: { code: 'import_toggl_no_header' },
  import_time_range: { code: 'import_time_range', values: { what: 'field', field: 'createdAt', time: '2300-01-01 00:00:00 UTC' } },
  import_name_rule: { code: 'import_name_rule', values: { got: '""' }, rule: { rule: 'notEmpty' } },
  import_note_long: { code: 'import_note_long', values: { max: 2000 } },
  import_ends_before: { code: 'import_ends_before', values: { end: '2026-04-05 09:00:00 UTC', start: '2026-04-05 10:00:00 UTC' } },
  import_block_long: { code: 'import_block_long', values: { hours: 25.5, max: 24 } },
  import_field_rule: { code: 'import_field_rule', values: { field: 'rate' }, rule: { rule: 'rate', values: { decimals: 4, sent: 'lots' } } },
  import_invoiced: { code: 'import_invoiced', values: { number: 'INV-2026-001' } },
  import_activity_unknown: { code: 'import_activity_unknown', values: { id: 'a9' } },
  import_timew_time: { code: 'import_timew_time', values: { field: 'start', sent: '"yesterday"' } },
  import_string_list: { code: 'import_string_list', values: { field: 'tags' } },
  import_timew_interval: { code: 'import_timew_interval' },
  import_annotation: { code: 'import_annotation' },
  import_watson_frame: { code: 'import_watson_frame' },
  import_watson_seconds: { code: 'import_watson_seconds', values: { what: 'stop' } },
  import_watson_project: { code: 'import_watson_project' },
  import_iso_time: { code: 'import_iso_time', values: { field: 'start' } },
  import_id: { code: 'import_id', values: { field: 'id' } },
  import_not_tock: { code: 'import_not_tock', values: { sent: '"other"' } },
  import_version: { code: 'import_version', values: { sent: '2' } },
  import_list: { code: 'import_list' },
  import_object: { code: 'import_object' },
  import_name_text: { code: 'import_name_text' },
  import_flag: { code: 'import_flag', values: { field: 'billable', orNull: 'yes' } },
  import_color: { code: 'import_color', values: { max: 11 } },
  import_session_ends_before: { code: 'import_session_ends_before', values: { end: '2026-04-05 09:00:00 UTC', start: '2026-04-05 10:00:00 UTC' } },
  import_breaks_list: { code: 'import_breaks_list' },
  import_break_inside: { code: 'import_break_inside' },
  import_note_text: { code: 'import_note_text' },
  import_entry_ends_before: { code: 'import_entry_ends_before', values: { end: '2026-04-05 09:00:00 UTC', start: '2026-04-05 10:00:00 UTC' } },
  import_entry_long: { code: 'import_entry_long', values: { max: 24 } },
  import_json_invalid: { code: 'import_json_invalid', values: { error: 'Unexpected token } in JSON at position 4' } },
  import_json_bracket: { code: 'import_json_bracket' },
  import_json_unbalanced: { code: 'import_json_unbalanced' },
  import_item_long: { code: 'import_item_long', values: { max: 65536 } },
  import_json_truncated: { code: 'import_json_truncated' },
  import_unreadable: { code: 'import_unreadable', values: { why: 'denied', error: 'permission denied' } },
  import_not_regular: { code: 'import_not_regular', values: { kind: 'fifo', link: 'yes' } },
  import_tz: { code: 'import_tz', values: { zone: 'Nowhere/Land' } },
  import_too_large: { code: 'import_too_large', values: { mib: 300.5, limitMib: 256 } },
  import_empty: { code: 'import_empty' },
  import_over_limit: { code: 'import_over_limit', values: { limitMib: 256 } },
  import_unknown_format: { code: 'import_unknown_format' },
  import_not_array: { code: 'import_not_array', values: { format: 'watson' } },
  import_not_object: { code: 'import_not_object' },
  import_no_format: { code: 'import_no_format' },
  import_json_trailing: { code: 'import_json_trailing' },
  import_json_start: { code: 'import_json_start' },
  import_json_member: { code: 'import_json_member' },
};

/** English's catalog behind a locale that is not English: what a worder says when a language's words were English. */
const ENGLISH_WORDS = createMessages({ en, de: en, fr: en, es: en, ja: en }, 'de') as CliMessages;

type DeviceReason = Exclude<NonNullable<SyncDeviceStatus['problemReason']>, SyncReason>;
type LineReason = NonNullable<SyncDeviceStatus['problemLine']>;

/** One device problem of each code @tock/sync words in the problems catalogs, with the values it sends. */
const EACH_DEVICE: Readonly<Record<DeviceReason['code'], DeviceReason>> = {
  device_not_folder: { code: 'device_not_folder', values: { folder: 'tock-sync-v2/eeee', kind: 'symlink' } },
  device_file_missing: { code: 'device_file_missing', values: {} },
  device_file_not_regular: { code: 'device_file_not_regular', values: { kind: 'fifo' } },
  device_file_too_large: { code: 'device_file_too_large', values: { kib: 5, limitKib: 4 } },
  device_file_not_json: { code: 'device_file_not_json', values: {} },
  device_file_shape: { code: 'device_file_shape', values: {} },
  device_file_other_id: { code: 'device_file_other_id', values: { claimed: 'aaaa', deviceID: 'eeee' } },
  device_segment_not_file: { code: 'device_segment_not_file', values: { segment: '00000001.jsonl', kind: 'fifo' } },
  device_segment_too_large: { code: 'device_segment_too_large', values: { segment: '00000001.jsonl', kib: 4097, limitKib: 4096 } },
  device_segment_unreadable: { code: 'device_segment_unreadable', values: { segment: '00000001.jsonl', error: 'EIO: i/o error, read' } },
  device_segment_missing: { code: 'device_segment_missing', values: { segment: '00000001.jsonl', next: '00000002.jsonl' } },
  device_segment_shorter: { code: 'device_segment_shorter', values: { segment: '00000001.jsonl', size: 120, offset: 340, line: 3 } },
  device_line_too_long: { code: 'device_line_too_long', values: { segment: '00000001.jsonl', line: 4, kib: 256 } },
  device_line_held: { code: 'device_line_held', values: { segment: '00000001.jsonl', line: 2, reason: 'this block is on invoice 2026-001; void the invoice to change it' } },
  sync_key_unreadable: { code: 'sync_key_unreadable', values: { error: 'the collection is locked' } },
  sync_key_missing: { code: 'sync_key_missing', values: { command: 'tock sync enable DIR --key KEY', keyCommand: 'tock sync key' } },
  sync_folder_writable: { code: 'sync_folder_writable', values: { path: '/srv/sync', who: 'others', command: 'chmod o-w /srv/sync' } },
  sync_restored: { code: 'sync_restored', values: { command: 'tock sync enable DIR --key KEY' } },
};

/** One line reason of each code, with the values (and field rule) @tock/sync sends. */
const EACH_LINE: Readonly<Record<LineReason['code'], LineReason>> = {
  line_not_signed: { code: 'line_not_signed', values: {} },
  line_wrong_mac: { code: 'line_wrong_mac', values: {} },
  line_not_json: { code: 'line_not_json', values: {} },
  line_not_object: { code: 'line_not_object', values: {} },
  line_newer: { code: 'line_newer', values: { v: 2 } },
  line_version: { code: 'line_version', values: { v: 1 } },
  line_hlc: { code: 'line_hlc', values: {} },
  line_hlc_device: { code: 'line_hlc_device', values: { device: 'aaaa' } },
  line_hlc_counter: { code: 'line_hlc_counter', values: { counter: 1_000_000, max: 999_999 } },
  line_hlc_time: { code: 'line_hlc_time', values: {} },
  line_op_text: { code: 'line_op_text', values: {} },
  line_op_unknown: { code: 'line_op_unknown', values: { op: 'session.explode' } },
  line_id: { code: 'line_id', values: {} },
  line_set: { code: 'line_set', values: {} },
  line_set_field: { code: 'line_set_field', values: { field: 'colour', kind: 'activity' } },
  line_set_empty: { code: 'line_set_empty', values: {} },
  line_ended_before: { code: 'line_ended_before', values: {} },
  line_entry_long: { code: 'line_entry_long', values: { hours: 24 } },
  line_field_time: { code: 'line_field_time', values: { field: 'endedAt', orNull: 'yes' } },
  line_field_uuid: { code: 'line_field_uuid', values: { field: 'clientID', orNull: 'yes' } },
  line_field_bool: { code: 'line_field_bool', values: { field: 'billable' } },
  line_field_color: { code: 'line_field_color', values: { field: 'color', max: 11, orNull: 'yes' } },
  line_field_day: { code: 'line_field_day', values: { field: 'from' } },
  line_field_invoice_number: { code: 'line_field_invoice_number', values: { field: 'number' } },
  line_field_document: { code: 'line_field_document', values: { field: 'document' } },
  line_field_language: { code: 'line_field_language', values: { field: 'language', languages: 'en, de, fr, es, ja', sent: '"xx"', orNull: 'yes' } },
  line_field_text: { code: 'line_field_text', values: { field: 'note', orNull: 'yes' } },
  line_field_rule: { code: 'line_field_rule', values: { field: 'note', orNull: 'no' }, rule: { rule: 'atMostChars', values: { max: 2000 } } },
  line_field_tags: { code: 'line_field_tags', values: { field: 'tags' }, rule: { rule: 'tagName', values: { tag: '""' }, item: { rule: 'notEmpty' } } },
  line_too_long: { code: 'line_too_long', values: { kib: 256 } },
  line_invoiced: { code: 'line_invoiced', values: { number: 'INV-2026-001' } },
};

const LOCKED = 'the Secret Service (GNOME Keyring / KWallet) could not read the token (the collection is locked); unlock it and try again, or …';

describe('the reasons the app sends as codes, in the CLI', () => {
  it('every code is said in every language, and en-XA marks it', async () => {
    for (const locale of ['de', 'fr', 'es', 'ja', 'en-XA'] as const) {
      const t = await loadCliMessages(locale);
      for (const reason of Object.values(EACH)) {
        const said = reasonWords(t, reason, 'ENGLISH');
        assert.notEqual(said, 'ENGLISH', `${locale} ${reason.code}`);
        // Worded from the language's own catalog, not English's words.
        if (locale !== 'en-XA') assert.notEqual(said, reasonWords(ENGLISH_WORDS, reason, 'ENGLISH'), `${locale} ${reason.code}`);
        if (locale === 'en-XA') assert.match(said, /^\[.*~+\]$/su, reason.code);
      }
    }
  });

  it('tock sync enable into a folder whose folder.json is wrong: each kind of wrong in German', async () => {
    const german = await loadCliMessages('de');
    const folderFile = (what: string, values: Record<string, string | number>): string =>
      reasonWords(german, { code: 'sync_folder_file', values: { dir: '/srv/sync', what, file: 'tock-sync-v2/folder.json', ...values } }, 'ENGLISH');
    assert.equal(folderFile('not_json', {}), '/srv/sync: tock-sync-v2/folder.json ist kein JSON; entfernen Sie sie nur, wenn dort kein Gerät synchronisiert, und führen Sie dann tock sync enable erneut aus');
    assert.match(folderFile('not_file', { kind: 'symlink' }), /ist ein symbolischer Link, keine reguläre Datei/);
    assert.match(folderFile('unreadable', { size: '4 KiB' }), /kann nicht gelesen werden oder ist größer als 4 KiB;/);
    assert.equal(folderFile('newer', { format: 3 }), '/srv/sync: tock-sync-v2/folder.json hat das Format 3, geschrieben von einer neueren Tock-Version; aktualisieren Sie Tock auf diesem Gerät');
    assert.match(folderFile('shape', { shape: '{"format":2}' }), /ist nicht \{"format":2\};/);
  });

  it('a credential store error in the error line: by its code, English as it came', async () => {
    const problem = new AdminError(LOCKED, { code: 'credential_store_failed', because: EACH.credential_os_failed });
    assert.equal(errorLine(problem, await loadCliMessages('en')), LOCKED);
    const german = errorLine(problem, await loadCliMessages('de'));
    assert.match(german, /^Secret Service \(GNOME Keyring \/ KWallet\) konnte das Token nicht lesen \(the collection is locked\)\. Entsperren Sie/);
    assert.match(errorLine(problem, await loadCliMessages('en-XA')), /~+\]$/);
    // A code this CLI does not know (a newer app): its English.
    const newer = new AdminError(LOCKED, { code: 'credential_store_failed', because: { code: 'credential_vault_sealed' as ProblemReasonCode } });
    assert.equal(errorLine(newer, await loadCliMessages('de')), LOCKED);
  });

  it('a refused line of an imported file in the error line: the place, the reason and the rule it broke by their codes', async () => {
    const english = 'toggl.csv, line 12: "rate" must be a decimal number such as 85.00 (digits, an optional point and at most 4 decimals), not "lots"; nothing was imported';
    const because: ProblemReason = {
      code: 'import_refused',
      values: { file: 'toggl.csv', placeKind: 'line', n: 12, place: 'line 12' },
      inner: { code: 'import_field_rule', values: { field: 'rate' }, rule: { rule: 'rate', values: { decimals: 4, sent: 'lots' } } },
    };
    const problem = new AdminError(english, { code: 'import_refused', because });
    assert.equal(errorLine(problem, await loadCliMessages('en')), english);
    const german = errorLine(problem, await loadCliMessages('de'));
    assert.match(german, /^toggl\.csv, Zeile 12: „rate“ muss eine Dezimalzahl .*„lots“; es wurde nichts importiert$/);
    assert.doesNotMatch(german, /must be|nothing was imported/);
    assert.match(errorLine(problem, await loadCliMessages('ja')), /^toggl\.csv の 12 行目：「rate」：/);
    // A JSON path is shown as it is; an inner code this CLI does not know keeps the whole line English.
    const path = new AdminError('x', { code: 'import_refused', because: { ...because, values: { file: 'e.json', placeKind: 'path', n: 0, place: 'sessions[4]' }, inner: EACH.import_break_inside } });
    assert.match(errorLine(path, await loadCliMessages('fr')), /^e\.json, sessions\[4\] : la pause doit se situer dans sa session ; rien n’a été importé$/);
    const newer = new AdminError(english, { code: 'import_refused', because: { ...because, inner: { code: 'import_from_the_future' as ProblemReasonCode } } });
    assert.equal(errorLine(newer, await loadCliMessages('de')), english);
  });

  it('an editor’s last refusal in tock editors: by its code, English as it came', async () => {
    const status: EditorsStatus = {
      enabled: true,
      apiUrl: 'http://127.0.0.1:48123/wakatime/api/v1',
      listenerOn: true,
      editors: [{ editor: 'vim', userAgent: 'wakatime/v1.90 vim', lastHeartbeat: null, lastRefusal: { at: '2026-03-02T09:00:00.000Z', reason: 'the editor key is wrong; `tock editors key` prints the right one', because: EACH.editor_key_wrong } }],
    } as EditorsStatus;
    const now = new Date('2026-03-02T09:30:00.000Z');
    assert.match(formatEditorsStatus(await loadCliMessages('en'), status, now), /: the editor key is wrong; `tock editors key` prints the right one$/m);
    assert.match(formatEditorsStatus(await loadCliMessages('de'), status, now), /Der Editor-Schlüssel ist falsch; `tock editors key` gibt den richtigen aus$/m);
    const pseudo = formatEditorsStatus(await loadCliMessages('en-XA'), status, now).split('\n').at(-1) ?? '';
    assert.doesNotMatch(pseudo, /the editor key is wrong/);
    assert.match(pseudo, /~+\]\]?$/);
  });

  it('another device’s problems by their code: every code in every language, and tock sync status', async () => {
    for (const locale of ['de', 'fr', 'es', 'ja', 'en-XA'] as const) {
      const t = await loadCliMessages(locale);
      for (const reason of Object.values(EACH_DEVICE)) {
        assert.ok(isDeviceReason(reason), reason.code);
        const said = deviceProblemWords(t, reason, 'ENGLISH');
        assert.notEqual(said, 'ENGLISH', `${locale} ${reason.code}`);
        // Worded from the language's own catalog, not English's words.
        if (locale !== 'en-XA') assert.notEqual(said, deviceProblemWords(ENGLISH_WORDS, reason, 'ENGLISH'), `${locale} ${reason.code}`);
        if (locale === 'en-XA') assert.match(said, /^\[.*~+\]$/su, reason.code);
      }
    }
    const english = 'device.json is not JSON';
    const device: SyncDeviceStatus = { deviceID: 'eeee', name: 'tablet', lastChange: null, lastAppliedAt: null, applied: 0, behind: 0, aheadMs: null, problem: english, problemReason: { code: 'device_file_not_json', values: {} } };
    const status = { enabled: true, dir: '/tmp/sync', device: { deviceID: 'dddd', name: 'laptop', createdAt: '2026-03-02T09:00:00.000Z', logLines: 3 }, problem: null, problemReason: null, offReason: null, oneTimer: true, devices: [device] } as unknown as SyncStatus;
    assert.match(formatSyncStatus(await loadCliMessages('en'), status), /device\.json is not JSON/);
    const german = formatSyncStatus(await loadCliMessages('de'), status);
    assert.match(german, /device\.json ist kein JSON/);
    assert.doesNotMatch(german, /is not JSON/);
  });

  it('the reason inside a refused or held line by its code: every code in every language, and tock sync status', async () => {
    for (const locale of ['de', 'fr', 'es', 'ja', 'en-XA'] as const) {
      const t = await loadCliMessages(locale);
      for (const line of Object.values(EACH_LINE)) {
        const said = lineReasonWords(t, line);
        assert.ok(said !== undefined && said !== '', `${locale} ${line.code}`);
        if (locale !== 'en-XA') assert.notEqual(said, lineReasonWords(ENGLISH_WORDS, line), `${locale} ${line.code}`);
        if (locale === 'en-XA') assert.match(said, /^\[.*~+\]$/su, line.code);
      }
    }
    const german = await loadCliMessages('de');
    // The field rule it broke is the rules catalog's words.
    assert.equal(lineReasonWords(german, EACH_LINE.line_field_rule), 'Feld „note“ darf höchstens 2.000 Zeichen lang sein');
    // A code this CLI does not know (a newer app): no words, so the English line stays.
    assert.equal(lineReasonWords(german, { code: 'line_from_the_future' as LineReason['code'], values: {} }), undefined);

    const refused = 'a.jsonl line 3: field "note" must be at most 2000 characters; applying its log stops there';
    const held = '00000001.jsonl line 2: this block is on invoice INV-2026-001; void the invoice to change it; its changes from there on wait until that invoice is voided';
    const device = (problem: string, problemReason: SyncDeviceStatus['problemReason'], problemLine: LineReason): SyncDeviceStatus => ({
      deviceID: 'eeee',
      name: 'tablet',
      lastChange: null,
      lastAppliedAt: null,
      applied: 0,
      behind: 1,
      aheadMs: null,
      problem,
      problemReason,
      problemLine,
    });
    const status = {
      enabled: true,
      dir: '/tmp/sync',
      device: { deviceID: 'dddd', name: 'laptop', createdAt: '2026-03-02T09:00:00.000Z', logLines: 3 },
      problem: null,
      problemReason: null,
      offReason: null,
      oneTimer: true,
      devices: [
        device(refused, { code: 'device_line_refused', values: { segment: 'a.jsonl', line: 3, reason: 'field "note" must be at most 2000 characters' } }, EACH_LINE.line_field_rule),
        device(held, { code: 'device_line_held', values: { segment: '00000001.jsonl', line: 2, reason: 'this block is on invoice INV-2026-001; void the invoice to change it' } }, EACH_LINE.line_invoiced),
      ],
    } as unknown as SyncStatus;
    const inEnglish = formatSyncStatus(await loadCliMessages('en'), status);
    assert.ok(inEnglish.includes(refused) && inEnglish.includes(held), inEnglish);
    const inGerman = formatSyncStatus(german, status);
    assert.match(inGerman, /a\.jsonl Zeile 3: Feld „note“ darf höchstens 2\.000 Zeichen lang sein; das Anwenden seines Protokolls hält dort an/);
    assert.match(inGerman, /00000001\.jsonl Zeile 2: dieser Block steht auf Rechnung INV-2026-001; stornieren Sie die Rechnung, um ihn zu ändern; seine Änderungen ab dort warten/);
    assert.doesNotMatch(inGerman, /must be at most|void the invoice/);

    // Sync off after a restore: the reason by its code.
    const off = { enabled: false, dir: null, device: null, problem: null, problemReason: null, offReason: 'this store was restored from a backup, …', offBecause: EACH_DEVICE.sync_restored, oneTimer: true, devices: [] } as unknown as SyncStatus;
    assert.equal(formatSyncStatus(await loadCliMessages('en'), off), 'sync: off: this store was restored from a backup, …');
    assert.match(formatSyncStatus(german, off), /Sicherung wiederhergestellt/);
  });
});
