/**
 * The window's words for the reasons the app sends as codes (docs/i18n.md "What the app sends
 * as codes"): an import's refused line (Settings › Data), the WakaTime door's refusals (Settings
 * › Integrations), another device's problems and the reason inside a refused or held sync line
 * (Settings › Sync) — in German from the German catalog, in English as the app sent them.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ProblemReason } from '@tock/protocol';
import type { SyncDeviceReason, SyncLineReason } from '@tock/sync/status';
import { setWindowLanguage, windowMessages } from '../src/i18n/index.ts';
import { deviceReasonText, lineReasonText, reasonText, withLineWords } from '../src/problem-words.ts';

/** The window in `language`, once its catalog has loaded (the loader is a dynamic import). */
async function speak(language: string): Promise<void> {
  setWindowLanguage(language);
  while (windowMessages().locale !== language) await new Promise((resolve) => setImmediate(resolve));
}

describe('the window’s words for the reasons by code', () => {
  before(() => {
    // The language switch marks the page's `lang`; node has no page.
    (globalThis as { document?: unknown }).document ??= { documentElement: { lang: 'en' } };
  });

  it('an import’s refused line: the place, the reason and the field rule it broke', async () => {
    const because: ProblemReason = {
      code: 'import_refused',
      values: { file: 'toggl.csv', placeKind: 'line', n: 12, place: 'line 12' },
      inner: { code: 'import_name_rule', values: { got: '""' }, rule: { rule: 'notEmpty' } },
    };
    await speak('en');
    assert.equal(reasonText(because), undefined, 'English: the app’s line as it came');
    await speak('de');
    assert.equal(reasonText(because), 'toggl.csv, Zeile 12: Der Name der Aktivität darf nicht leer sein (erhalten: ""); es wurde nichts importiert');
    // An inner code this window does not know (a newer app): no words, the app's English line stays.
    assert.equal(reasonText({ ...because, inner: { code: 'import_from_the_future' as ProblemReason['code'] } }), undefined);
  });

  it('the WakaTime door’s 404, 405, 423, 500 and 503 in German', async () => {
    await speak('de');
    assert.equal(reasonText({ code: 'editor_method', values: { path: '/wakatime/api/v1/users/current/heartbeats', allowed: 'POST' } }), '/wakatime/api/v1/users/current/heartbeats nimmt nur POST an');
    for (const reason of [
      { code: 'editor_no_endpoint', values: { method: 'GET', path: '/wakatime/api/v2' } },
      { code: 'editor_license_locked' },
      { code: 'editor_failed' },
      { code: 'editor_unavailable', values: { path: '/wakatime/api/v1' } },
    ] as ProblemReason[]) {
      const said = reasonText(reason);
      assert.ok(said !== undefined && !/not available|no endpoint|failed to handle|license/i.test(said), `${reason.code}: ${said}`);
    }
  });

  it('another device’s refused read and the reason inside a refused or held line', async () => {
    await speak('de');
    const tooLarge: SyncDeviceReason = { code: 'device_segment_too_large', values: { segment: '00000001.jsonl', kib: 5120, limitKib: 4096 } };
    assert.equal(deviceReasonText(tooLarge), 'Segment 00000001.jsonl ist 5.120 KiB groß, mehr als die erlaubten 4.096 KiB; es wird nicht gelesen, und das Anwenden seines Protokolls hält dort an');
    const line: SyncLineReason = { code: 'line_invoiced', values: { number: 'INV-2026-001' } };
    assert.equal(lineReasonText(line), 'dieser Block steht auf Rechnung INV-2026-001; stornieren Sie die Rechnung, um ihn zu ändern');
    const held: SyncDeviceReason = { code: 'device_line_held', values: { segment: '00000001.jsonl', line: 2, reason: 'this block is on invoice INV-2026-001; void the invoice to change it' } };
    assert.equal(
      deviceReasonText(withLineWords(held, line)),
      '00000001.jsonl Zeile 2: dieser Block steht auf Rechnung INV-2026-001; stornieren Sie die Rechnung, um ihn zu ändern; seine Änderungen ab dort warten, bis diese Rechnung storniert ist',
    );
    const rule: SyncLineReason = { code: 'line_field_rule', values: { field: 'note', orNull: 'no' }, rule: { rule: 'atMostChars', values: { max: 2000 } } };
    assert.equal(lineReasonText(rule), 'Feld „note“ darf höchstens 2.000 Zeichen lang sein');
    await speak('en');
    assert.equal(lineReasonText(line), undefined);
    assert.equal(withLineWords(held, line), held, 'English: the app’s line as it came');
  });
});
