/**
 * The reasons the app sends as codes beside its English (docs/i18n.md "What the app sends as
 * codes"): a credential store's error (`Problem.because`) in `tock`'s `error:` line and an
 * editor's last refusal (`lastRefusal.because`) in `tock editors` are said from the catalog in
 * every language; in English the app's line stays byte for byte, and a code the CLI does not
 * know (a newer app) falls back to it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdminError, type EditorsStatus, type SyncDeviceStatus, type SyncStatus } from '@tock/admin';
import type { ProblemReason, ProblemReasonCode } from '@tock/protocol';
import { formatEditorsStatus } from '../src/editors-command.ts';
import { loadCliMessages } from '../src/i18n/index.ts';
import { errorLine } from '../src/main.ts';
import { deviceProblemWords, isDeviceReason, reasonWords } from '../src/problem-words.ts';
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
};

const LOCKED = 'the Secret Service (GNOME Keyring / KWallet) could not read the token (the collection is locked); unlock it and try again, or …';

describe('the reasons the app sends as codes, in the CLI', () => {
  it('every code is said in every language, and en-XA marks it', async () => {
    for (const locale of ['de', 'fr', 'es', 'ja', 'en-XA'] as const) {
      const t = await loadCliMessages(locale);
      for (const reason of Object.values(EACH)) {
        const said = reasonWords(t, reason, 'ENGLISH');
        assert.notEqual(said, 'ENGLISH', `${locale} ${reason.code}`);
        if (locale === 'en-XA') assert.match(said, /^\[.*~+\]$/su, reason.code);
      }
    }
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
    const each: NonNullable<SyncDeviceStatus['problemReason']>[] = [
      { code: 'device_not_folder', values: { folder: 'tock-sync-v2/eeee', kind: 'symlink' } },
      { code: 'device_file_missing', values: {} },
      { code: 'device_file_not_json', values: {} },
      { code: 'device_file_shape', values: {} },
      { code: 'device_file_other_id', values: { claimed: 'aaaa', deviceID: 'eeee' } },
      { code: 'device_segment_not_file', values: { segment: '00000001.jsonl', kind: 'fifo' } },
      { code: 'device_line_held', values: { segment: '00000001.jsonl', line: 2, reason: 'this block is on invoice 2026-001; void the invoice to change it' } },
    ];
    for (const locale of ['de', 'fr', 'es', 'ja', 'en-XA'] as const) {
      const t = await loadCliMessages(locale);
      for (const reason of each) {
        assert.ok(isDeviceReason(reason), reason.code);
        if (!isDeviceReason(reason)) continue;
        const said = deviceProblemWords(t, reason, 'ENGLISH');
        assert.notEqual(said, 'ENGLISH', `${locale} ${reason.code}`);
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
});
