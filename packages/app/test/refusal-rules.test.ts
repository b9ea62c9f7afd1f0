/**
 * The app's last refusals said in English only now carry their rule beside the unchanged
 * English (docs/i18n.md "What the app sends"): the window's import and capture settings, the
 * fields the CLI checks first (an invoice's format, a report's period, capture's forget), an
 * app that cannot start. Each is refused where the app refuses it, its English pinned, and
 * its rule worded in German from the rules catalog.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createMessages } from '@tock/i18n';
import { rules as de } from '@tock/i18n/rules/de';
import { rules as en } from '@tock/i18n/rules/en';
import { rules as es } from '@tock/i18n/rules/es';
import { rules as fr } from '@tock/i18n/rules/fr';
import { rules as ja } from '@tock/i18n/rules/ja';
import { wordRule } from '@tock/i18n/rules/words';
import { StoreFileError } from '@tock/core/store-file';
import { isProblem, ruleMessage, type FieldProblem, type FieldRule } from '@tock/protocol';
import { cannotOpenStore } from '../src/app.ts';
import { homePaths } from '../src/home.ts';
import { checkListenerPort } from '../src/listener-control.ts';
import { readInvoiceFormat } from '../src/invoices/render.ts';
import { reportForAdmin } from '../src/reports.ts';
import { captureUseCases } from '../src/use-cases/capture.ts';
import { captureRoutes } from '../src/ui/capture-routes.ts';
import { dataRoutes, type DataRouteDeps } from '../src/ui/data-routes.ts';
import type { DataUseCases } from '../src/use-cases/data.ts';
import { receiveUpload } from '../src/ui/upload.ts';
import { readJsonBody, standardRefusals } from '../src/door-kit/index.ts';
import type { Capture } from '@tock/desktop';
import { createTracker, openStore } from '@tock/core';
import { importForAdmin } from '../src/imports.ts';

const german = createMessages({ en, de, fr, es, ja }, 'de');

/** The problem `refuse` throws (sync or async). */
async function problemOf(refuse: () => unknown): Promise<{ code: string; message: string; details: FieldProblem[] }> {
  try {
    await refuse();
  } catch (error) {
    if (isProblem(error)) return { code: error.code, message: error.message, details: error.details ?? [] };
    throw error;
  }
  assert.fail('not refused');
}

/** A refused field's rule (or a line said whole) worded in German. */
function inGerman(detail: FieldProblem | undefined): string | undefined {
  const rule = detail?.line ?? (detail?.rule === undefined ? undefined : (detail as FieldRule));
  return rule === undefined ? undefined : wordRule(german, rule);
}

describe('the app’s last English refusals carry their rule', () => {
  it('an empty upload: its whole line by fileEmpty, the field’s short English kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tock-upload-'));
    try {
      const req = Object.assign(Readable.from([]), { headers: { 'content-type': 'application/octet-stream' } }) as unknown as IncomingMessage;
      const refused = await problemOf(() => receiveUpload(req, dir));
      assert.equal(refused.message, 'the file is empty: choose a Tock, Toggl, Timewarrior or Watson export');
      assert.deepEqual(refused.details, [{ field: 'file', message: 'the file is empty', line: { rule: 'fileEmpty' } }]);
      assert.equal(ruleMessage({ rule: 'fileEmpty' }), refused.message);
      assert.equal(inGerman(refused.details[0]), 'die Datei ist leer: wählen Sie einen Export aus Tock, Toggl, Timewarrior oder Watson');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an import without a file: chooseImportFile', async () => {
    const imported = dataRoutes({} as DataRouteDeps, {} as DataUseCases).find((r) => r.key === 'POST /api/import');
    assert.ok(imported);
    const refused = await problemOf(() => imported.run({ query: {} } as never));
    assert.equal(refused.message, 'choose a file to import');
    assert.deepEqual(refused.details, [{ field: 'file', message: 'choose a file to import', line: { rule: 'chooseImportFile' } }]);
    assert.equal(inGerman(refused.details[0]), 'wählen Sie eine Datei zum Importieren');
  });

  it('a window request whose body is not a JSON object: the whole line by bodyNotObject', async () => {
    const req = Object.assign(Readable.from([Buffer.from('[1]')]), { headers: { 'content-type': 'application/json' } }) as unknown as IncomingMessage;
    const refused = await problemOf(() => readJsonBody(req, { limit: 1024, refusals: standardRefusals(1024) }));
    assert.equal(refused.message, 'the request body must be a JSON object');
    assert.deepEqual(refused.details, [{ field: 'body', message: 'must be a JSON object', line: { rule: 'bodyNotObject' } }]);
    assert.equal(ruleMessage({ rule: 'bodyNotObject' }), refused.message);
    assert.ok(inGerman(refused.details[0]));
  });

  it('two capture settings at once: oneCaptureSetting', async () => {
    const patch = captureRoutes({} as Capture).find((r) => r.key === 'PATCH /api/capture/settings');
    assert.ok(patch);
    const refused = await problemOf(() => patch.run({ body: { keepDays: 7, enabled: true } } as never));
    assert.equal(refused.message, 'give one capture setting to change');
    assert.deepEqual(refused.details, [{ field: 'key', message: 'give one capture setting to change', line: { rule: 'oneCaptureSetting' } }]);
    assert.equal(inGerman(refused.details[0]), 'geben Sie genau eine Einstellung der Aufzeichnung an, die geändert werden soll');
  });

  it('an invoice format, a report period and capture’s forget backwards: by their field rule', async () => {
    const format = await problemOf(() => readInvoiceFormat('docx'));
    assert.equal(format.message, 'format: must be pdf, html or csv, not "docx"');
    assert.equal(format.details[0]?.rule, 'invoiceFormat');
    assert.equal(inGerman(format.details[0]), 'muss pdf, html oder csv sein, nicht "docx"');

    const forget = await problemOf(() => captureUseCases({} as Capture).forget({ from: '2026-11-21', to: '2026-11-20' }));
    assert.equal(forget.message, 'to: 2026-11-20 is before 2026-11-21');
    assert.equal(forget.details[0]?.rule, 'dayBefore');
    assert.equal(inGerman(forget.details[0]), '2026-11-20 liegt vor 2026-11-21');

    const store = openStore(':memory:');
    try {
      const period = await problemOf(() => reportForAdmin(store, 0, { period: 'fortnight' }));
      assert.match(period.message, /^period: must be one of /);
      assert.equal(period.details[0]?.rule, 'oneOf');
      assert.match(inGerman(period.details[0]) ?? '', /^muss einer dieser Werte sein: /);
      const both = await problemOf(() => reportForAdmin(store, 0, { period: 'week', from: '2026-11-01' }));
      assert.equal(both.message, 'period: give a named range or from/to, not both');
      assert.equal(inGerman(both.details[0]), 'geben Sie einen benannten Zeitraum oder from/to an, nicht beides');
    } finally {
      store.close();
    }
  });

  it('a listener port out of range: the whole line by portRange, the field’s English kept', async () => {
    const refused = await problemOf(() => checkListenerPort(80));
    assert.equal(refused.message, 'port must be a whole number from 1024 to 65535, not 80');
    assert.equal(refused.details[0]?.message, 'must be a whole number from 1024 to 65535, not 80');
    assert.equal(ruleMessage(refused.details[0]?.line ?? { rule: 'required' }), refused.message);
    assert.equal(inGerman(refused.details[0]), 'der Port muss eine ganze Zahl von 1024 bis 65535 sein, nicht 80');
  });

  it('a store that cannot be opened: its rule, the store’s and the system’s words inside, the English as before', () => {
    const paths = homePaths('/home/ada/.tock');
    const restore = `restore a backup with \`tock restore FILE\` (backups are in ${paths.backups})`;
    const newer = cannotOpenStore(new StoreFileError('newer', { rule: 'storeNewer', values: { path: paths.database, version: 99, known: 12 } }), paths);
    assert.equal(ruleMessage(newer), `${paths.database} was written by a newer Tock (schema version 99; this Tock knows up to 12): update Tock, or ${restore}`);
    const bad = cannotOpenStore(new StoreFileError('truncated', { rule: 'storeTruncated', values: { path: paths.database, size: 1, expected: 2 } }), paths);
    assert.equal(ruleMessage(bad), `${paths.database} is truncated (1 of 2 bytes); ${restore}, or move it away to start with an empty store`);
    // What is wrong with the file travels inside, by its own rule, and is said in its place.
    assert.deepEqual(bad.item, { rule: 'storeTruncated', values: { path: paths.database, size: 1, expected: 2 } });
    assert.equal(
      wordRule(german, bad),
      `${paths.database} ist abgeschnitten (1 von 2 Byte); stellen Sie eine Sicherung mit \`tock restore FILE\` wieder her (die Sicherungen liegen in ${paths.backups}) oder verschieben Sie die Datei, um mit einem leeren Datenspeicher zu beginnen`,
    );
    const io = cannotOpenStore(new Error('disk I/O error'), paths);
    assert.equal(ruleMessage(io), `cannot open ${paths.database} (disk I/O error); free the disk or fix its permissions, or ${restore}`);
    assert.equal(
      wordRule(german, io),
      `${paths.database} kann nicht geöffnet werden (disk I/O error); schaffen Sie Platz auf dem Datenträger, korrigieren Sie die Berechtigungen oder stellen Sie eine Sicherung mit \`tock restore FILE\` wieder her (die Sicherungen liegen in ${paths.backups})`,
    );
  });

  it('the calendar totals’ day and the admin import’s own checks: by their rule, the English as before', async () => {
    const store = openStore(':memory:');
    try {
      const tracker = createTracker({ store, clock: () => Date.UTC(2026, 10, 20), timeZone: 'UTC' });
      const shape = await problemOf(() => tracker.dailyTotals('2026-11', '2026-11-20'));
      assert.deepEqual(shape.details, [{ field: 'day', message: '"2026-11" is not a day; use YYYY-MM-DD', rule: 'dayKeyShape', values: { day: '2026-11' } }]);
      assert.equal(inGerman(shape.details[0]), '„2026-11“ ist kein Tag; verwenden Sie JJJJ-MM-TT');
      const calendar = await problemOf(() => tracker.dailyTotals('2026-02-30', '2026-03-01'));
      assert.equal(calendar.details[0]?.message, '"2026-02-30" is not a day of the calendar');
      assert.equal(calendar.details[0]?.rule, 'notCalendarDay');
      assert.equal(inGerman(calendar.details[0]), '„2026-02-30“ gibt es im Kalender nicht');
      const cases: [Record<string, unknown>, string, string][] = [
        [{}, 'give the file to import: tock import FILE', 'geben Sie die zu importierende Datei an: tock import FILE'],
        [{ path: '/tmp/a.csv', format: 'docx' }, '--format takes tock, toggl, timewarrior, watson, not "docx"', '--format akzeptiert tock, toggl, timewarrior oder watson, nicht „docx“'],
        [{ path: '/tmp/a.csv', tz: 3 }, '--tz takes an IANA zone name such as Europe/Berlin', '--tz erwartet den IANA-Namen einer Zeitzone wie Europe/Berlin'],
      ];
      for (const [input, english, words] of cases) {
        const refused = await problemOf(() => importForAdmin(store, 0, input));
        assert.equal(refused.message, english);
        assert.equal(ruleMessage(refused.details[0]?.line ?? { rule: 'required' }), english);
        assert.equal(inGerman(refused.details[0]), words);
      }
    } finally {
      store.close();
    }
  });
});
