/**
 * Every problem code the app sends is decided in the window (api.ts `PROBLEM_KEYS`): words of
 * its own in each language, or the app's line (its rule or reason codes worded where it has
 * them). A code with words is never said in English outside English (docs/i18n.md).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createMessages, type Catalog } from '@tock/i18n';
import { updateDesktopSettings } from '@tock/desktop/settings';
import { isProblem, PROBLEM_STATUS, ruleLine, type FieldProblem, type FieldRule, type ProblemCode } from '@tock/protocol';
import { ApiError, PROBLEM_KEYS } from '../src/api.ts';
import { setWindowLanguage, windowMessages } from '../src/i18n/index.ts';
import { de, en, es, fr, ja } from './testing.ts';

/** The codes whose line the app words itself (a field's rule, a reason, a file) or that never reach the window. */
const SAID_BY_THEIR_LINE: readonly ProblemCode[] = [
  'validation_failed',
  'missing_auth',
  'clock_drift',
  'bad_signature',
  'forbidden_host',
  'browser_request',
  'route_not_found',
  'method_not_allowed',
  'request_timeout',
  'nonce_reused',
  'idempotency_conflict',
  'locked_out',
  'too_many_streams',
  'headers_too_large',
  'not_wired',
  'refused',
  'not_running',
  'already_running',
  'port_in_use',
  'start_failed',
  'store_unreadable',
  'backup_failed',
  'import_refused',
  'export_failed',
  'license_invalid',
  'credential_store_failed',
  'sync_refused',
  'sync_op_invalid',
  'desktop_unavailable',
  'service_failed',
  'usage',
];

describe('the window’s words for each problem code', () => {
  it('decides every code of @tock/protocol: words, or the app’s line for the few listed', () => {
    assert.deepEqual(Object.keys(PROBLEM_KEYS).sort(), Object.keys(PROBLEM_STATUS).sort());
    const byLine = Object.entries(PROBLEM_KEYS)
      .filter(([, key]) => key === null)
      .map(([code]) => code);
    assert.deepEqual(byLine.sort(), [...SAID_BY_THEIR_LINE].sort());
  });

  it('says each worded code in every language, never in English, and in en-XA from the catalog', () => {
    const catalogs: Record<string, Catalog<typeof en>> = { de, fr, es, ja };
    for (const [code, key] of Object.entries(PROBLEM_KEYS)) {
      if (key === null) continue;
      for (const [language, catalog] of Object.entries(catalogs)) {
        assert.ok(catalog[key], `${language} ${code}`);
        assert.notEqual(catalog[key], en[key], `${language} ${code} is English`);
      }
      assert.match(createMessages({ en, de, fr, es, ja }, 'en-XA')(key), /^\[.*~+\]$/su, code);
    }
  });

  it('words rule_not_found (a capture rule removed meanwhile)', () => {
    assert.equal(PROBLEM_KEYS.rule_not_found, 'problem.code.rule_not_found');
    assert.equal(createMessages({ en, de, fr, es, ja }, 'de')('problem.code.rule_not_found'), 'diese Regel gibt es nicht (mehr); vielleicht wurde sie schon entfernt');
  });
});

/** The window in `language`, once its catalog has loaded (the loader is a dynamic import). */
async function speak(language: string): Promise<void> {
  setWindowLanguage(language);
  while (windowMessages().locale !== language) await new Promise((resolve) => setImmediate(resolve));
}

/** The details of the `validation_failed` that Settings › Desktop's `patch` is refused with. */
function desktopRefusal(patch: Record<string, unknown>): FieldProblem[] {
  try {
    updateDesktopSettings({ idleThresholdMinutes: 10, reminderEnabled: false, reminderAfterMinutes: 15, workingHours: { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5] }, tray: true, clockFormat: '24h' }, patch);
  } catch (error) {
    if (isProblem(error, 'validation_failed') && error.details !== undefined) return error.details;
    throw error;
  }
  assert.fail('not refused');
}

describe('the window words the app’s refusals by their rule, not the English', () => {
  before(() => {
    // The language switch marks the page's `lang`; node has no page.
    (globalThis as { document?: unknown }).document ??= { documentElement: { lang: 'en' } };
  });

  it('says each refusal of Settings › Desktop in German and en-XA, the English as the app wrote it', async () => {
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ idleThresholdMinutes: 999 }, 'Must be a whole number of minutes from 0 to 240.', 'Muss eine ganze Zahl an Minuten von 0 bis 240 sein.'],
      [{ tray: 'yes' }, 'Must be true or false.', 'Muss true oder false sein.'],
      [{ clockFormat: 'am/pm' }, 'Must be 24h, 12h or system.', 'Muss 24h, 12h oder system sein.'],
      [{ workingHours: null }, 'Must give from, to and days.', 'Muss from, to und days angeben.'],
      [{ workingHours: { from: '25:00' } }, '"25:00" is not a time like 09:00.', '„25:00“ ist keine Uhrzeit wie 09:00.'],
      [
        { workingHours: { from: '17:00', to: '17:00' } },
        'Must not begin and end at the same time (17:00–17:00); for hours over midnight give an end before the start, like 18:00–09:00.',
        'Darf nicht zur selben Zeit beginnen und enden (17:00–17:00); für Arbeitszeiten über Mitternacht geben Sie ein Ende vor dem Beginn an, etwa 18:00–09:00.',
      ],
      [{ workingHours: { days: [7] } }, 'Days must be weekday numbers, 0 (Sunday) to 6 (Saturday).', 'Days müssen Wochentagsnummern sein, 0 (Sonntag) bis 6 (Samstag).'],
    ];
    for (const [patch, english, german] of refusals) {
      const details = desktopRefusal(patch);
      const field = details[0]?.field ?? '';
      await speak('en');
      assert.equal(new ApiError(400, 'validation_failed', `${field}: x`, details).about(field), english);
      await speak('de');
      assert.equal(new ApiError(400, 'validation_failed', `${field}: x`, details).about(field), german);
      await speak('en-XA');
      assert.match(new ApiError(400, 'validation_failed', `${field}: x`, details).about(field) ?? '', /^\[.*~+\]/su, JSON.stringify(patch));
    }
    await speak('en');
  });

  it('says a refusal the app says whole (its line) in German and en-XA, whatever its code', async () => {
    const [message, { details }] = ruleLine('key', { rule: 'licenseNotKey' });
    await speak('en');
    assert.equal(new ApiError(400, 'license_invalid', message, details).message, 'That is not a Tock license key (expected two base64url parts joined by "."); paste the whole key.');
    await speak('de');
    assert.equal(
      new ApiError(400, 'license_invalid', message, details).message,
      'Das ist kein Tock-Lizenzschlüssel (erwartet werden zwei base64url-Teile, durch „.“ verbunden); fügen Sie den ganzen Schlüssel ein.',
    );
    const [calendar, calendarOptions] = ruleLine('path', { rule: 'calendarMissing', values: { path: '/home/ada/team.ics' } });
    assert.equal(new ApiError(400, 'refused', calendar, calendarOptions.details).message, '/home/ada/team.ics: keine solche Datei und kein solcher Ordner.');
    // A block on an invoice: the code's own words would lose the invoice's number; its line keeps it.
    const [invoiced, invoicedOptions] = ruleLine('block', { rule: 'blockInvoiced', values: { number: 'INV-2026-001' } });
    assert.equal(new ApiError(409, 'invoiced', invoiced, invoicedOptions.details).message, 'Dieser Block steht auf Rechnung INV-2026-001; stornieren Sie die Rechnung, um ihn zu ändern.');
    await speak('en-XA');
    assert.match(new ApiError(400, 'refused', calendar, calendarOptions.details).message, /^\[.*~+\]/su);
    await speak('en');
  });

  it('says the import, capture, invoice, start and export lines by their rule, at their field, never in English', async () => {
    const cases: [code: string, field: string, rule: FieldRule, english: string, german: string][] = [
      ['validation_failed', 'file', { rule: 'chooseImportFile' }, 'Choose a file to import.', 'Wählen Sie eine Datei zum Importieren.'],
      ['validation_failed', 'key', { rule: 'oneCaptureSetting' }, 'Give one capture setting to change.', 'Geben Sie genau eine Einstellung der Aufzeichnung an, die geändert werden soll.'],
      ['validation_failed', 'range', { rule: 'invoiceBlocksChanged' }, 'The blocks changed while the invoice was made; make it again.', 'Die Blöcke haben sich geändert, während die Rechnung erstellt wurde; erstellen Sie sie erneut.'],
      [
        'export_failed',
        'store',
        { rule: 'exportTimeOutside', values: { kind: 'entry', id: 'e1' } },
        'The store holds a time outside the years 1970–2199 (entry e1), from an import or a sync before Tock refused such times; Tock cannot export it: restore a backup from before it came in, or remove that row.',
        'Der Datenspeicher enthält eine Zeit außerhalb der Jahre 1970–2199 (Eintrag e1) aus einem Import oder einer Synchronisierung, bevor Tock solche Zeiten ablehnte; Tock kann sie nicht exportieren: stellen Sie eine Sicherung von vor ihrem Eintreffen wieder her oder entfernen Sie diese Zeile.',
      ],
      [
        'start_failed',
        'home',
        { rule: 'homeUnwritable', values: { dir: '/home/ada/.tock', error: 'EACCES' } },
        'Cannot create the Tock home /home/ada/.tock (EACCES); set TOCK_HOME to a writable directory.',
        'Das Tock-Verzeichnis /home/ada/.tock kann nicht angelegt werden (EACCES); setzen Sie TOCK_HOME auf ein beschreibbares Verzeichnis.',
      ],
    ];
    for (const [code, field, rule, english, german] of cases) {
      const [message, { details }] = ruleLine(field, rule);
      await speak('en');
      assert.equal(new ApiError(400, code, message, details).message, english);
      await speak('de');
      const refused = new ApiError(400, code, message, details);
      assert.equal(refused.message, german);
      // The form's field shows it too (the invoice form's From/To at `range`), in German.
      assert.equal(refused.about(field), german);
      await speak('en-XA');
      assert.match(new ApiError(400, code, message, details).message, /^\[.*~+\]/su, rule.rule);
    }
    // An empty upload: the whole line by its rule, the field's short English beside it.
    await speak('de');
    const empty = new ApiError(400, 'validation_failed', 'the file is empty: choose a Tock, Toggl, Timewarrior or Watson export', [{ field: 'file', message: 'the file is empty', line: { rule: 'fileEmpty' } }]);
    assert.equal(empty.message, 'Die Datei ist leer: wählen Sie einen Export aus Tock, Toggl, Timewarrior oder Watson.');
    await speak('en');
  });

  it('names the activity a merge or a delete did not find, before the code’s own words', async () => {
    const [message, { details }] = ruleLine('from', { rule: 'noActivityNamed', values: { name: 'Plan' } });
    await speak('en');
    assert.equal(new ApiError(404, 'activity_not_found', message, details).message, 'No activity named "Plan"; search for the right name (`tock search`).');
    await speak('de');
    assert.equal(new ApiError(404, 'activity_not_found', message, details).message, 'Keine Tätigkeit namens „Plan“; suchen Sie den richtigen Namen (`tock search`).');
    // Without the line (an older app, or the listener's answer), the code's own words.
    assert.equal(new ApiError(404, 'activity_not_found', message).message, windowMessages()('problem.activity_not_found'));
    await speak('en');
  });
});
