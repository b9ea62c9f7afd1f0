/**
 * A refused field's rule said in the person's language (docs/i18n.md "What the app sends"):
 * `tock` words every rule code @tock/protocol sends from its catalog, by the code and values
 * and never by the English; in English the app's own line stays byte for byte.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addClient, addRule, cleanCurrency, cleanName, cleanRate, cleanTags, cleanTaxRate, draftInvoice, editRule, invoiceByNumber, openStore, readReportQuery, RULE_LIMITS, setCaptureSetting, setLedgerSetting, tagBlock, voidInvoice } from '@tock/core';
import { fieldRule, isProblem, Problem, PROBLEM_STATUS, ruleLine, ruleMessage, ruleProblem, validationProblem, type FieldProblem, type FieldRule, type FieldRuleCode, type ProblemCode } from '@tock/protocol';
import { loadCliMessages } from '../src/i18n/index.ts';
import { errorLine } from '../src/main.ts';
import type { SyncReason, SyncReasonCode } from '@tock/admin';
import { detailWords, FieldRefusal, PROBLEM_KEYS, ruleWords, syncProblemWords } from '../src/rule-words.ts';

/** One rule of each code, with the values the validator sends. */
const EACH: Readonly<Record<FieldRuleCode, FieldRule>> = {
  required: { rule: 'required' },
  notAllowedName: { rule: 'notAllowedName' },
  bodyEmpty: { rule: 'bodyEmpty' },
  bodyNotObject: { rule: 'bodyNotObject' },
  eitherNotBoth: { rule: 'eitherNotBoth', values: { a: 'name', b: 'activityID' } },
  eitherOne: { rule: 'eitherOne', values: { a: 'name', b: 'activityID' } },
  boolean: fieldRule({ type: 'boolean', description: '' }),
  number: fieldRule({ type: 'number', description: '' }),
  numberRange: fieldRule({ type: 'integer', minimum: 1, maximum: 100, description: '' }),
  numberAbove: fieldRule({ type: 'number', exclusiveMinimum: 0, description: '' }),
  numberAboveAtMost: fieldRule({ type: 'number', exclusiveMinimum: 0, maximum: 1440, description: '' }),
  numberAtLeast: fieldRule({ type: 'integer', minimum: 0, description: '' }),
  numberAtMost: fieldRule({ type: 'integer', maximum: 9, description: '' }),
  uuid: fieldRule({ type: 'string', format: 'uuid', description: '' }),
  dateTime: fieldRule({ type: 'string', format: 'date-time', description: '' }),
  date: fieldRule({ type: 'string', format: 'date', description: '' }),
  oneOf: fieldRule({ type: 'string', enum: ['os', 'file'], description: '' }),
  text: fieldRule({ type: 'string', noControlChars: true, description: '' }),
  textAtLeast: fieldRule({ type: 'string', minLength: 1, trim: true, description: '' }),
  textRange: fieldRule({ type: 'string', minLength: 1, maxLength: 200, trim: true, noControlChars: true, description: '' }),
  textAtMost: fieldRule({ type: 'string', maxLength: 2000, description: '' }),
  unicode: { rule: 'unicode' },
  timeInRange: { rule: 'timeInRange' },
  notFuture: { rule: 'notFuture', values: { seconds: 60 } },
  list: fieldRule({ type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 40, trim: true, description: '' }, description: '' }),
  budgetHours: { rule: 'budgetHours', values: { max: 10000, sent: '-1' } },
  string: { rule: 'string' },
  mustBeGiven: { rule: 'mustBeGiven' },
  mustBeText: { rule: 'mustBeText' },
  notEmpty: { rule: 'notEmpty' },
  atMostChars: { rule: 'atMostChars', values: { max: 200 } },
  noControlChars: { rule: 'noControlChars' },
  addressChars: { rule: 'addressChars' },
  tagList: { rule: 'tagList' },
  tagText: { rule: 'tagText', values: { n: 2 } },
  tagName: { rule: 'tagName', values: { tag: '""' }, item: { rule: 'notEmpty' } },
  tagsAtMost: { rule: 'tagsAtMost', values: { max: 20 } },
  rateText: { rule: 'rateText' },
  rate: { rule: 'rate', values: { decimals: 4, sent: 'abc' } },
  currencyCode: { rule: 'currencyCode', values: { sent: 'EURO' } },
  currencyUnknown: { rule: 'currencyUnknown', values: { code: 'XYZ', known: 'AED, ARS' } },
  taxRate: { rule: 'taxRate', values: { decimals: 2, sent: '"101"' } },
  notSpanField: { rule: 'notSpanField', values: { fields: 'source, app, title' } },
  globText: { rule: 'globText', values: { max: 256 } },
  globTooLong: { rule: 'globTooLong', values: { glob: '"aaa…"', length: 300, max: 256 } },
  globStars: { rule: 'globStars', values: { glob: '"*a*"', stars: 17, max: 16 } },
  matchOne: { rule: 'matchOne', values: { fields: 'source, app, title' } },
  excludeJson: { rule: 'excludeJson' },
  excludeList: { rule: 'excludeList', values: { count: 100, length: 256 } },
  onOff: { rule: 'onOff' },
  wholeUnits: { rule: 'wholeUnits', values: { unit: 'minutes', min: 1, max: 120 } },
  notCaptureSetting: { rule: 'notCaptureSetting', values: { keys: 'windows, titles' } },
  rulesAtMost: { rule: 'rulesAtMost', values: { max: 200 } },
  position: { rule: 'position', values: { max: 3 } },
  noRuleId: { rule: 'noRuleId', values: { id: 'r9' } },
  activityName: { rule: 'activityName' },
  mustBeGivenDay: { rule: 'mustBeGivenDay' },
  notBeforeFrom: { rule: 'notBeforeFrom', values: { from: '2026-11-02' } },
  invoiceDays: { rule: 'invoiceDays', values: { days: 400, max: 366 } },
  subField: { rule: 'subField', values: { name: 'taxRate' }, item: { rule: 'taxRate', values: { decimals: 2, sent: '"101"' } } },
  noSuchField: { rule: 'noSuchField', values: { name: 'iban', fields: 'name, address' } },
  businessShape: { rule: 'businessShape' },
  portRange: { rule: 'portRange', values: { min: 1024, max: 65535, sent: '80' } },
  giveLicenseKey: { rule: 'giveLicenseKey' },
  giveInstant: { rule: 'giveInstant', values: { example: '{"at": "2026-11-23T12:00:00Z"}' } },
  backupPath: { rule: 'backupPath' },
  idleChoice: { rule: 'idleChoice', values: { sent: '"maybe"' } },
  giveCaptureSetting: { rule: 'giveCaptureSetting' },
  giveFlagDay: { rule: 'giveFlagDay', values: { flag: '--from' } },
  flagDay: { rule: 'flagDay', values: { flag: '--from', sent: '"x"' } },
  giveCalendarPath: { rule: 'giveCalendarPath' },
  giveCalendar: { rule: 'giveCalendar' },
  dayFormat: { rule: 'dayFormat', values: { sent: '"x"' } },
  giveId: { rule: 'giveId', values: { what: 'rule' } },
  giveWakatimeDir: { rule: 'giveWakatimeDir' },
  roundingShape: { rule: 'roundingShape' },
  noFieldShape: { rule: 'noFieldShape', values: { name: 'step' }, item: { rule: 'roundingShape' } },
  roundingMode: { rule: 'roundingMode' },
  roundingPer: { rule: 'roundingPer' },
  targetsShape: { rule: 'targetsShape' },
  hoursRange: { rule: 'hoursRange', values: { min: 0, max: 24 } },
  workingDays: { rule: 'workingDays', values: { days: 'mon, tue' } },
  notADay: { rule: 'notADay', values: { name: 'weekly', days: 'mon, tue' } },
  dayOrWeek: { rule: 'dayOrWeek' },
  daysWithWeek: { rule: 'daysWithWeek' },
  keepSeconds: { rule: 'keepSeconds', values: { max: 3600 } },
  timeOfDayRange: { rule: 'timeOfDayRange', values: { min: '"00:00"', max: '"06:00"', example: '"04:00"' } },
  settingJson: { rule: 'settingJson', values: { example: '{"mode":"up"}' } },
  notASetting: { rule: 'notASetting', values: { key: 'colour', keys: 'rounding, targets' } },
  reportDays: { rule: 'reportDays', values: { days: 400, max: 366 } },
  clientFilter: { rule: 'clientFilter', values: { none: 'none' } },
  activityExists: { rule: 'activityExists', values: { name: 'Plan' } },
  mustNameActivity: { rule: 'mustNameActivity' },
  mergeIntoItself: { rule: 'mergeIntoItself', values: { name: 'Plan' } },
  activityId: { rule: 'activityId' },
  noRowWithId: { rule: 'noRowWithId', values: { kind: 'break', id: 'b1' } },
  afterField: { rule: 'afterField', values: { other: 'startedAt' } },
  notBeforeField: { rule: 'notBeforeField', values: { other: 'startedAt' } },
  atOrAfter: { rule: 'atOrAfter', values: { other: 'fromMs' } },
  notBeforeSessionStart: { rule: 'notBeforeSessionStart' },
  notAfterSessionEnd: { rule: 'notAfterSessionEnd' },
  overlapsBreak: { rule: 'overlapsBreak', values: { times: '10:00–10:30' } },
  wouldLeaveBreak: { rule: 'wouldLeaveBreak', values: { times: '10:00–10:30' } },
  breakEnded: { rule: 'breakEnded' },
  isoTimeZone: { rule: 'isoTimeZone' },
  stretchWithin: { rule: 'stretchWithin', values: { day: '2026-11-28' } },
  stretchTracked: { rule: 'stretchTracked' },
  suggestionNoLabel: { rule: 'suggestionNoLabel' },
  jsonOrCsv: { rule: 'jsonOrCsv' },
  exportBackwards: { rule: 'exportBackwards', values: { to: '2026-11-01', from: '2026-11-30' } },
  invoiceNumber: { rule: 'invoiceNumber', values: { sent: '"X"' } },
  noInvoice: { rule: 'noInvoice', values: { number: 'INV-2026-009' } },
  mustNameClient: { rule: 'mustNameClient' },
  noClientNamed: { rule: 'noClientNamed', values: { name: 'Acme' } },
  reverseChargeTax: { rule: 'reverseChargeTax' },
  clientExists: { rule: 'clientExists', values: { name: 'Acme' } },
  blockId: { rule: 'blockId' },
  nothingTrackedLast: { rule: 'nothingTrackedLast' },
  noBlockWithId: { rule: 'noBlockWithId', values: { id: 's1' } },
  billableOrNull: { rule: 'billableOrNull' },
  clientRemoved: { rule: 'clientRemoved' },
  voidedAlready: { rule: 'voidedAlready', values: { number: 'INV-2026-001', day: '2026-11-28' } },
  invoiceLanguage: { rule: 'invoiceLanguage', values: { languages: 'en, de, fr, es, ja', sent: '"pt"' } },
  noActivityNamed: { rule: 'noActivityNamed', values: { name: 'Plan' } },
  licensePublicKey: { rule: 'licensePublicKey' },
  licenseNotKey: { rule: 'licenseNotKey' },
  licenseSignature: { rule: 'licenseSignature' },
  licensePayloadJson: { rule: 'licensePayloadJson' },
  licensePayloadFields: { rule: 'licensePayloadFields' },
  licenseExpired: { rule: 'licenseExpired', values: { day: '2026-01-31' } },
  calendarMeJson: { rule: 'calendarMeJson', values: { example: '["ana@example.org"]' } },
  calendarMeList: { rule: 'calendarMeList', values: { max: 50, example: '["ana@example.org"]' } },
  calendarAddress: { rule: 'calendarAddress', values: { path: 'https://example.org/cal.ics' } },
  calendarFullPath: { rule: 'calendarFullPath', values: { path: 'cal.ics' } },
  calendarMissing: { rule: 'calendarMissing', values: { path: '/home/ada/cal.ics' } },
  calendarNotFile: { rule: 'calendarNotFile', values: { path: '/dev/null' } },
  calendarName: { rule: 'calendarName', values: { min: 1, max: 100 } },
  calendarAdded: { rule: 'calendarAdded', values: { path: '/home/ada/cal.ics' } },
  calendarInFolder: { rule: 'calendarInFolder', values: { path: '/home/ada/cal/team.ics', name: 'Work' } },
  calendarNameTaken: { rule: 'calendarNameTaken', values: { name: 'Work' } },
  noCalendar: { rule: 'noCalendar', values: { which: 'Work' } },
  backupAbsolute: { rule: 'backupAbsolute', values: { file: 'tock.db' } },
  restoreAppRunning: { rule: 'restoreAppRunning', values: { home: '/home/ada/.local/share/tock' } },
  appAlreadyRunning: { rule: 'appAlreadyRunning' },
  noTokenYet: { rule: 'noTokenYet' },
  windowStarting: { rule: 'windowStarting' },
  ruleTestDays: { rule: 'ruleTestDays', values: { max: 31 } },
  timeLike: { rule: 'timeLike', values: { sent: '25:00' } },
  clockFormatChoice: { rule: 'clockFormatChoice' },
  workingHoursShape: { rule: 'workingHoursShape' },
  workingHoursEmpty: { rule: 'workingHoursEmpty', values: { from: '09:00', to: '09:00' } },
  weekdayNumbers: { rule: 'weekdayNumbers' },
  backupExists: { rule: 'backupExists', values: { file: '/home/ada/mine.db' } },
  backupWriteFailed: { rule: 'backupWriteFailed', values: { file: '/home/ada/mine.db', error: 'ENOSPC: no space left on device' } },
  backupNotFound: { rule: 'backupNotFound', values: { file: '/home/ada/old.db' } },
  restoreUnreadable: { rule: 'restoreUnreadable', values: { reason: '/home/ada/old.db is not a Tock store' } },
  restoreDamaged: { rule: 'restoreDamaged', values: { file: '/home/ada/old.db', error: 'file is not a database' } },
  restoreFailed: { rule: 'restoreFailed', values: { file: '/home/ada/old.db', error: 'EACCES: permission denied' } },
  nothingTracking: { rule: 'nothingTracking' },
  onBreakAlready: { rule: 'onBreakAlready' },
  notOnBreak: { rule: 'notOnBreak' },
  idleSessionGone: { rule: 'idleSessionGone' },
  activityHasBlocks: { rule: 'activityHasBlocks', values: { name: 'Plan', n: 2 } },
  nothingToInvoice: { rule: 'nothingToInvoice', values: { client: 'Acme', from: '2026-11-01', to: '2026-11-30' } },
  appUnreachable: { rule: 'appUnreachable', values: { reason: 'EPIPE' } },
  appAnswerUnreadable: { rule: 'appAnswerUnreadable' },
  appNoStream: { rule: 'appNoStream' },
  appStoppedSending: { rule: 'appStoppedSending' },
  fileEmpty: { rule: 'fileEmpty' },
  chooseImportFile: { rule: 'chooseImportFile' },
  oneCaptureSetting: { rule: 'oneCaptureSetting' },
  invoiceBlocksChanged: { rule: 'invoiceBlocksChanged' },
  invoiceFormat: { rule: 'invoiceFormat', values: { sent: '"docx"' } },
  dayBefore: { rule: 'dayBefore', values: { to: '2026-11-20', from: '2026-11-21' } },
  periodOrRange: { rule: 'periodOrRange' },
  homeUnwritable: { rule: 'homeUnwritable', values: { dir: '/home/ada/.tock', error: 'EACCES: permission denied' } },
  storeUnopenable: { rule: 'storeUnopenable', values: { database: '/home/ada/.tock/tock.db', error: 'disk I/O error', backups: '/home/ada/.tock/backups' } },
  storeFileNewer: {
    rule: 'storeFileNewer',
    values: { problem: '/home/ada/.tock/tock.db was written by a newer Tock (schema version 99; this Tock knows up to 12): update Tock', backups: '/home/ada/.tock/backups' },
    item: { rule: 'storeNewer', values: { path: '/home/ada/.tock/tock.db', version: 99, known: 12 } },
  },
  storeFileBad: {
    rule: 'storeFileBad',
    values: { problem: '/home/ada/.tock/tock.db is truncated (4096 of 8192 bytes)', backups: '/home/ada/.tock/backups' },
    item: { rule: 'storeTruncated', values: { path: '/home/ada/.tock/tock.db', size: 4096, expected: 8192 } },
  },
  exportTimeOutside: { rule: 'exportTimeOutside', values: { kind: 'entry', id: '0b7e4c1a' } },
  adminNotObject: { rule: 'adminNotObject' },
  bookSyncOff: { rule: 'bookSyncOff' },
  bookNameDevice: { rule: 'bookNameDevice' },
  bookNoDevice: { rule: 'bookNoDevice', values: { name: 'desktop' } },
  bookElsewhere: { rule: 'bookElsewhere', values: { name: 'laptop', me: 'desktop', days: 30 } },
  bookHolderRecent: { rule: 'bookHolderRecent', values: { holder: 'laptop', silent: 1, target: 'desktop', days: 30 } },
  bookTooLarge: { rule: 'bookTooLarge', values: { lines: 1200, kib: 300, max: 256 } },
  blockInvoiced: { rule: 'blockInvoiced', values: { number: 'INV-2026-001' } },
  unknownTimeZone: { rule: 'unknownTimeZone', values: { zone: 'Mars/Olympus' } },
  storeNotFile: { rule: 'storeNotFile', values: { path: '/home/ada/.tock/tock.db' } },
  storeEmpty: { rule: 'storeEmpty', values: { path: '/home/ada/.tock/tock.db' } },
  storeZeroed: { rule: 'storeZeroed', values: { path: '/home/ada/.tock/tock.db' } },
  storeNotSqlite: { rule: 'storeNotSqlite', values: { path: '/home/ada/.tock/tock.db' } },
  storePageSize: { rule: 'storePageSize', values: { path: '/home/ada/.tock/tock.db' } },
  storeTruncated: { rule: 'storeTruncated', values: { path: '/home/ada/.tock/tock.db', size: 4096, expected: 8192 } },
  storeOtherProgram: { rule: 'storeOtherProgram', values: { path: '/home/ada/.tock/tock.db', id: '5a5a5a5a' } },
  storeNewer: { rule: 'storeNewer', values: { path: 'tock.db', version: 99, known: 12 } },
  storeNoTable: { rule: 'storeNoTable', values: { path: '/home/ada/.tock/tock.db', table: 'activities' } },
  storeNoSchemaVersion: { rule: 'storeNoSchemaVersion', values: { path: '/home/ada/.tock/tock.db' } },
  storeSqliteDamaged: { rule: 'storeSqliteDamaged', values: { path: '/home/ada/.tock/tock.db', error: 'database disk image is malformed' } },
  storeIntegrity: { rule: 'storeIntegrity', values: { path: '/tmp/tock-2026-11-20.db', finding: 'Tree 43 page 43: btreeInitPage() returns error code 11' } },
  storeEmptySqlite: { rule: 'storeEmptySqlite', values: { path: '/tmp/tock-2026-11-20.db' } },
  storeObjectForeign: { rule: 'storeObjectForeign', values: { path: '/tmp/tock-2026-11-20.db', type: 'trigger', name: '"steal"' } },
  storeObjectAltered: { rule: 'storeObjectAltered', values: { path: '/tmp/tock-2026-11-20.db', type: 'table', name: '"entries"' } },
  dayKeyShape: { rule: 'dayKeyShape', values: { day: '2026-11' } },
  notCalendarDay: { rule: 'notCalendarDay', values: { day: '2026-02-30' } },
  importGiveFile: { rule: 'importGiveFile' },
  importFormat: { rule: 'importFormat', values: { options: 'tock, toggl, timewarrior, watson', sent: 'docx' } },
  importTzText: { rule: 'importTzText' },
};

/** The first field problem of the `validation_failed` that `refuse` throws. */
function refusal(refuse: () => unknown): FieldProblem {
  try {
    refuse();
  } catch (error) {
    if (isProblem(error, 'validation_failed') && error.details?.[0] !== undefined) return error.details[0];
    throw error;
  }
  assert.fail('no validation_failed');
}

/**
 * Each of core's own checks, refused: its code arrives, its English is the line it always was,
 * and German and en-XA word it from the catalogs.
 */
async function assertWorded(detail: FieldProblem, rule: FieldRuleCode, english: string, german: string): Promise<void> {
  assert.equal(detail.rule, rule);
  assert.equal(detail.message, english);
  assert.equal(detailWords(await loadCliMessages('en'), detail), english);
  assert.equal(detailWords(await loadCliMessages('de'), detail), german);
  assert.match(detailWords(await loadCliMessages('en-XA'), detail), /^\[.*~+\]$/su, rule);
}

describe('a refused field’s rule in the person’s language', () => {
  it('every rule code is said in en-XA from the catalog, and in each language', async () => {
    const pseudo = await loadCliMessages('en-XA');
    for (const [code, rule] of Object.entries(EACH)) {
      const words = ruleWords(pseudo, rule);
      assert.match(words ?? '', /^\[.*~+\]/su, code);
    }
    for (const language of ['de', 'fr', 'es', 'ja'] as const) {
      const t = await loadCliMessages(language);
      for (const [code, rule] of Object.entries(EACH)) {
        const words = ruleWords(t, rule);
        assert.ok(words, `${language} ${code}`);
        // A name, a glob or a code may read alike; the words around it may not.
        assert.notEqual(words, ruleMessage(rule), `${language} ${code} is English`);
      }
    }
  });

  it('says a validation_failed line by its first field’s rule, not the English', async () => {
    const de = await loadCliMessages('de');
    const refused = validationProblem([ruleProblem('durationMinutes', EACH.numberAboveAtMost)]);
    assert.equal(errorLine(refused, de), 'durationMinutes: muss eine Zahl größer als 0 und höchstens 1440 sein');
    const ja = await loadCliMessages('ja');
    assert.equal(errorLine(validationProblem([ruleProblem('name', EACH.required)]), ja), 'name：必須です');
    assert.equal(errorLine(refused, await loadCliMessages('en')), 'durationMinutes: must be a number greater than 0 and at most 1440');
  });

  it('says the flag that gave a refused field with its rule in the language; English as the app wrote it', async () => {
    const detail = ruleProblem('budgetHours', EACH.budgetHours);
    const refusal = new FieldRefusal('--budget -1', detail);
    assert.equal(refusal.message, '--budget -1: must be a number of hours above 0 (at most 10000), not -1');
    assert.equal(errorLine(refusal, await loadCliMessages('en')), refusal.message);
    assert.equal(errorLine(refusal, await loadCliMessages('fr')), '--budget -1 : doit être un nombre d’heures supérieur à 0 (au plus 10000), et non -1');
  });

  it('keeps the app’s English for a detail without a code or with one it does not know', async () => {
    const es = await loadCliMessages('es');
    assert.equal(detailWords(es, { field: 'to', message: '2026-11-20 is before 2026-11-21' }), '2026-11-20 is before 2026-11-21');
    assert.equal(detailWords(es, { field: 'x', message: 'a newer rule', rule: 'fromTheFuture' as FieldRuleCode }), 'a newer rule');
    assert.equal(detailWords(es, { field: 'x', message: 'no values', rule: 'numberRange' }), 'no values');
  });

  it('says each sync folder problem by its code in en-XA and each language; English as the app wrote it', async () => {
    const dir = '/home/ada/Sync';
    const file = 'tock-sync-v2/folder.json';
    const each: Readonly<Record<SyncReasonCode, SyncReason['values']>> = {
      folder_gone: { dir, command: 'tock sync enable' },
      folder_read_only: { dir },
      folder_unusable: { dir, why: 'EIO: i/o error' },
      folder_newer: { folders: 'tock-sync-v3' },
      folder_many_devices: { total: 20000, max: 64, count: 19936 },
      folder_other_key: { file, dir, command: `tock sync enable ${dir} --key KEY` },
      format_dir_not_folder: { folder: 'tock-sync-v2', kind: 'symlink' },
      folder_file_not_file: { file, kind: 'fifo' },
      folder_file_unreadable: { file, size: '4 KiB' },
      folder_file_not_json: { file },
      folder_file_newer: { file, format: 3 },
      folder_file_shape: { file, shape: '{"format":2,"keyCheck":"<64 hex>"}' },
      format_one: { dir, old: 'tock-sync', folder: 'tock-sync-v2', command: `tock sync enable ${dir}`, keyCommand: 'tock sync key' },
      device_same_name: { others: '2f0c…', command: 'tock sync enable DIR --name NAME' },
      device_truncated: { segment: '000001.log', next: '000002.log' },
      device_line_refused: { segment: '000001.log', line: 7, reason: 'not a sync line' },
      device_clock_ahead: { minutes: 200, segment: '000001.log', line: 7 },
    };
    const pseudo = await loadCliMessages('en-XA');
    for (const [code, values] of Object.entries(each)) {
      assert.match(syncProblemWords(pseudo, { code: code as SyncReasonCode, values }, 'ENGLISH'), /^\[.*~+\]$/su, code);
    }
    for (const language of ['de', 'fr', 'es', 'ja'] as const) {
      const t = await loadCliMessages(language);
      for (const [code, values] of Object.entries(each)) assert.notEqual(syncProblemWords(t, { code: code as SyncReasonCode, values }, 'ENGLISH'), 'ENGLISH', `${language} ${code}`);
    }
    const de = await loadCliMessages('de');
    assert.equal(
      syncProblemWords(de, { code: 'folder_file_not_file', values: { file, kind: 'fifo' } }, 'x'),
      'tock-sync-v2/folder.json ist ein FIFO, keine reguläre Datei; sie wird nicht gelesen',
    );
    assert.equal(syncProblemWords(await loadCliMessages('en'), { code: 'folder_gone', values: each.folder_gone }, 'the English line'), 'the English line');
    assert.equal(syncProblemWords(de, null, 'no code'), 'no code');
    assert.equal(
      syncProblemWords(de, { code: 'device_clock_ahead', values: each.device_clock_ahead }, 'x'),
      'seine Uhr geht gegenüber diesem Gerät um 200 Minuten vor: seine Änderungen ab 000001.log Zeile 7 warten, bis die Uhr dieses Geräts höchstens 10 Minuten davon abweicht (oder stellen Sie die Uhr auf jenem Gerät richtig)',
    );
  });

  it('says core’s name checks by their code: activity and client names', async () => {
    await assertWorded(refusal(() => cleanName('   ')), 'notEmpty', 'must not be empty', 'darf nicht leer sein');
    await assertWorded(refusal(() => cleanName('x'.repeat(201))), 'atMostChars', 'must be at most 200 characters', 'darf höchstens 200 Zeichen lang sein');
    await assertWorded(refusal(() => cleanName('a\u202eb')), 'noControlChars', 'must not contain control characters or bidirectional overrides', 'darf keine Steuerzeichen und Richtungsüberschreibungen enthalten');
    await assertWorded(refusal(() => cleanName(7)), 'string', 'must be a string', 'muss eine Zeichenkette sein');
    const store = openStore(':memory:');
    try {
      await assertWorded(refusal(() => addClient(store, { name: 7 }, 0, () => 'c1')), 'mustBeText', 'must be text', 'muss ein Text sein');
      await assertWorded(refusal(() => addClient(store, {}, 0, () => 'c1')), 'mustBeGiven', 'must be given', 'muss angegeben werden');
    } finally {
      store.close();
    }
  });

  it('says core’s money checks by their code: rates and currencies', async () => {
    await assertWorded(refusal(() => cleanRate(85)), 'rateText', 'must be a decimal number such as 85.00, given as text', 'muss eine Dezimalzahl wie 85.00 sein, als Text angegeben');
    await assertWorded(
      refusal(() => cleanRate('abc')),
      'rate',
      'must be a decimal number such as 85.00 (digits, an optional point and at most 4 decimals), not "abc"',
      'muss eine Dezimalzahl wie 85.00 sein (Ziffern, ein optionaler Punkt und höchstens 4 Nachkommastellen), nicht „abc“',
    );
    await assertWorded(refusal(() => cleanCurrency('EURO')), 'currencyCode', 'must be a three-letter ISO 4217 code such as EUR or USD, not "EURO"', 'muss ein dreibuchstabiger ISO-4217-Code wie EUR oder USD sein, nicht „EURO“');
    await assertWorded(
      refusal(() => cleanCurrency('XYZ')),
      'currencyUnknown',
      '"XYZ" is not an ISO 4217 currency Tock knows (AED, ARS, AUD, BGN, BHD, BRL, CAD, CHF, …)',
      '„XYZ“ ist keine ISO-4217-Währung, die Tock kennt (AED, ARS, AUD, BGN, BHD, BRL, CAD, CHF, …)',
    );
  });

  it('says core’s tax rate check by its code', async () => {
    await assertWorded(
      refusal(() => cleanTaxRate('101')),
      'taxRate',
      'must be a percentage from 0 to 100 with at most 2 decimals, such as 19 or 7.7, not "101"',
      'muss ein Prozentsatz von 0 bis 100 mit höchstens 2 Nachkommastellen sein, etwa 19 oder 7.7, nicht "101"',
    );
  });

  it('says core’s address checks by their code', async () => {
    const store = openStore(':memory:');
    try {
      await assertWorded(
        refusal(() => addClient(store, { name: 'ACME', address: 'Main St 1\u0007' }, 0, () => 'c1')),
        'addressChars',
        'must not contain control characters (line breaks are allowed)',
        'darf keine Steuerzeichen enthalten (Zeilenumbrüche sind erlaubt)',
      );
      await assertWorded(refusal(() => addClient(store, { name: 'ACME', address: 'x'.repeat(2001) }, 0, () => 'c1')), 'atMostChars', 'must be at most 2000 characters', 'darf höchstens 2.000 Zeichen lang sein');
    } finally {
      store.close();
    }
  });

  it('says core’s tag checks by their code, a tag’s name rule inside its own', async () => {
    await assertWorded(refusal(() => cleanTags('urgent')), 'tagList', 'must be a list of tag names', 'muss eine Liste von Schlagwörtern sein');
    await assertWorded(refusal(() => cleanTags(['a', 7])), 'tagText', 'tag 2 must be text', 'Schlagwort 2 muss ein Text sein');
    await assertWorded(refusal(() => cleanTags(['a', ' '])), 'tagName', 'tag " " must not be empty', 'Schlagwort " ": darf nicht leer sein');
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    await assertWorded(refusal(() => cleanTags(many)), 'tagsAtMost', 'a block carries at most 20 tags', 'ein Block trägt höchstens 20 Schlagwörter');
  });

  it('says core’s glob checks by their code: capture rules and exclusions', async () => {
    const store = openStore(':memory:');
    try {
      const stars17 = `*${'a*'.repeat(16)}`;
      await assertWorded(
        refusal(() => setCaptureSetting(store.settings, 'exclude', ['*keepass*', stars17])),
        'globStars',
        `the glob "${stars17}" has 17 * wildcards; a pattern has at most 16`,
        `das Muster "${stars17}" hat 17 Platzhalter *; ein Muster hat höchstens 16`,
      );
      await assertWorded(
        refusal(() => setCaptureSetting(store.settings, 'exclude', '[not json')),
        'excludeJson',
        'must be a JSON array of globs or a comma-separated list',
        'muss ein JSON-Array von Mustern oder eine durch Kommas getrennte Liste sein',
      );
      await assertWorded(refusal(() => addRule(store.settings, { match: {}, activity: 'Banking' })), 'matchOne', 'give at least one of source, app, title, project, branch, language, entity', 'geben Sie mindestens eines von source, app, title, project, branch, language, entity an');
      await assertWorded(
        refusal(() => addRule(store.settings, { match: { window: 'x' } as never, activity: 'Banking' })),
        'notSpanField',
        'is not a span field (source, app, title, project, branch, language, entity)',
        'ist kein Feld eines Abschnitts (source, app, title, project, branch, language, entity)',
      );
      await assertWorded(
        refusal(() => addRule(store.settings, { match: { title: 'a\u0007' }, activity: 'Banking' })),
        'globText',
        'must be a glob of 1–256 characters (* and ? are wildcards), no control characters',
        'muss ein Muster aus 1–256 Zeichen sein (* und ? sind Platzhalter), ohne Steuerzeichen',
      );
    } finally {
      store.close();
    }
  });

  it('says core’s capture setting and capture rule refusals by their code: on/off, minutes, position, count', async () => {
    const store = openStore(':memory:');
    try {
      await assertWorded(refusal(() => setCaptureSetting(store.settings, 'windows', 'maybe')), 'onOff', 'must be true or false (on or off)', 'muss true oder false sein (on oder off)');
      await assertWorded(
        refusal(() => setCaptureSetting(store.settings, 'retentionDays', '0')),
        'wholeUnits',
        'must be a whole number of days from 1 to 3650',
        'muss eine ganze Zahl an Tagen von 1 bis 3650 sein',
      );
      await assertWorded(
        refusal(() => setCaptureSetting(store.settings, 'mergeGapMinutes', 'soon')),
        'wholeUnits',
        'must be a whole number of minutes from 0 to 120',
        'muss eine ganze Zahl an Minuten von 0 bis 120 sein',
      );
      await assertWorded(
        refusal(() => setCaptureSetting(store.settings, 'colour', 'on')),
        'notCaptureSetting',
        'is not a capture setting (windows, titles, retentionDays, exclude, editorTimeout, mergeGapMinutes, minMinutes)',
        'ist keine Einstellung der Aufzeichnung (windows, titles, retentionDays, exclude, editorTimeout, mergeGapMinutes, minMinutes)',
      );
      await assertWorded(refusal(() => addRule(store.settings, { match: { app: 'x' }, activity: 'Banking', at: 3 })), 'position', 'must be a position from 1 to 1', 'muss eine Position von 1 bis 1 sein');
      const first = addRule(store.settings, { match: { app: 'x' }, activity: 'Banking' });
      await assertWorded(refusal(() => editRule(store.settings, first.id, { at: 0 })), 'position', 'must be a position from 1 to 1', 'muss eine Position von 1 bis 1 sein');
      await assertWorded(refusal(() => editRule(store.settings, 'r99', {})), 'noRuleId', 'no rule r99 (tock rules list shows them)', 'keine Regel r99 (tock rules list zeigt sie an)');
      for (let i = 1; i < RULE_LIMITS.count; i++) addRule(store.settings, { match: { app: `a${i}` }, activity: 'Banking' });
      await assertWorded(
        refusal(() => addRule(store.settings, { match: { app: 'y' }, activity: 'Banking' })),
        'rulesAtMost',
        `at most ${RULE_LIMITS.count} rules; remove one first`,
        `höchstens ${RULE_LIMITS.count} Regeln; entfernen Sie zuerst eine`,
      );
    } finally {
      store.close();
    }
  });

  it('says an invoice’s missing, reversed or too long range by its code', async () => {
    const store = openStore(':memory:');
    try {
      addClient(store, { name: 'ACME' }, 0, () => 'c1');
      const draft = (input: Record<string, unknown>) => () => draftInvoice(store, { client: 'ACME', ...input }, 0, 'UTC');
      await assertWorded(refusal(draft({ to: '2026-11-30' })), 'mustBeGivenDay', 'must be given (YYYY-MM-DD)', 'muss angegeben werden (JJJJ-MM-TT)');
      await assertWorded(refusal(draft({ from: '2026-11-30', to: '2026-11-01' })), 'notBeforeFrom', 'must not be before the start day (2026-11-30); give the earlier day as the start', 'darf nicht vor dem Starttag (2026-11-30) liegen; geben Sie den früheren Tag als Start an');
      await assertWorded(
        refusal(draft({ from: '2025-01-01', to: '2026-11-30' })),
        'invoiceDays',
        'the range covers 699 days; an invoice covers at most 366',
        'der Zeitraum umfasst 699 Tage; eine Rechnung umfasst höchstens 366',
      );
      await assertWorded(refusal(draft({ from: '2026-11-01', to: '2026-11-30', showWorked: 'yes' })), 'boolean', 'must be true or false', 'muss true oder false sein');
    } finally {
      store.close();
    }
  });

  it('says the business setting’s fields by their code, the field’s own rule inside', async () => {
    const store = openStore(':memory:');
    const business = { name: 'Ada', address: 'Main St 1', taxID: 'DE1', paymentTerms: '14 days' };
    try {
      await assertWorded(
        refusal(() => setLedgerSetting(store.settings, 'business', { ...business, taxRate: '101' })),
        'subField',
        '"taxRate" must be a percentage from 0 to 100 with at most 2 decimals, such as 19 or 7.7, not "101"',
        '„taxRate“ muss ein Prozentsatz von 0 bis 100 mit höchstens 2 Nachkommastellen sein, etwa 19 oder 7.7, nicht "101"',
      );
      await assertWorded(
        refusal(() => setLedgerSetting(store.settings, 'business', { ...business, paymentDays: 400 })),
        'subField',
        '"paymentDays" must be a whole number of days from 0 to 365',
        '„paymentDays“ muss eine ganze Zahl an Tagen von 0 bis 365 sein',
      );
      await assertWorded(refusal(() => setLedgerSetting(store.settings, 'business', { ...business, name: 7 })), 'subField', '"name" must be text', '„name“ muss ein Text sein');
      await assertWorded(
        refusal(() => setLedgerSetting(store.settings, 'business', { ...business, iban: 'x' })),
        'noSuchField',
        'has no field "iban" (name, address, taxID, paymentTerms, currency, taxRate, paymentDays)',
        'hat kein Feld „iban“ (name, address, taxID, paymentTerms, currency, taxRate, paymentDays)',
      );
      await assertWorded(
        refusal(() => setLedgerSetting(store.settings, 'business', '[1]')),
        'businessShape',
        'must be {"name","address","taxID","paymentTerms"} (text each), with "taxRate" (percent) and "paymentDays" if you like',
        'muss ein Objekt mit „name“, „address“, „taxID“ und „paymentTerms“ sein (jeweils Text), auf Wunsch mit „taxRate“ (Prozent) und „paymentDays“',
      );
    } finally {
      store.close();
    }
  });

  it('decides every problem code: words in each language, or the app’s line (its rule or reason codes)', async () => {
    assert.deepEqual(Object.keys(PROBLEM_KEYS).sort(), Object.keys(PROBLEM_STATUS).sort());
    const en = await loadCliMessages('en');
    const pseudo = await loadCliMessages('en-XA');
    for (const [code, key] of Object.entries(PROBLEM_KEYS)) {
      if (key === null) continue;
      const english = new Problem(code as ProblemCode, 'THE APP’S LINE');
      assert.match(errorLine(english, pseudo), /^\[.*~+\]$/su, code);
      for (const language of ['de', 'fr', 'es', 'ja'] as const) {
        const said = errorLine(english, await loadCliMessages(language));
        assert.notEqual(said, 'THE APP’S LINE', `${language} ${code}`);
        assert.notEqual(said, en(key), `${language} ${code} is English`);
      }
    }
    const de = await loadCliMessages('de');
    assert.equal(errorLine(new Problem('rule_not_found', 'no rule r9; it may have been removed already'), de), 'diese Regel gibt es nicht (mehr); vielleicht wurde sie schon entfernt');
    assert.equal(errorLine(new Problem('rule_not_found', 'no rule r9; it may have been removed already'), en), 'no rule r9; it may have been removed already');
    assert.equal(errorLine(new Problem('storage_full', 'SQLITE_FULL'), en), en('error.storageFull'));
    assert.equal(errorLine(new Problem('import_refused', 'line 3: not a CSV row'), de), 'line 3: not a CSV row');
    // A block on an invoice (tock edit, tock tag) and the app's own failure: by their code, the English as the app wrote it.
    const invoiced = new Problem('invoiced', 'this block is on invoice INV-2026-001; void the invoice to change it');
    assert.equal(errorLine(invoiced, de), 'dieser Block steht auf einer Rechnung; stornieren Sie die Rechnung, um ihn zu ändern');
    assert.equal(errorLine(invoiced, en), invoiced.message);
    // As core refuses it, with its rule beside: the invoice's number in every language.
    const onInvoice = new Problem('invoiced', ...ruleLine('block', EACH.blockInvoiced));
    assert.equal(onInvoice.message, invoiced.message);
    assert.equal(errorLine(onInvoice, en), invoiced.message);
    assert.equal(errorLine(onInvoice, de), 'dieser Block steht auf Rechnung INV-2026-001; stornieren Sie die Rechnung, um ihn zu ändern');
    assert.equal(errorLine(onInvoice, await loadCliMessages('ja')), 'このブロックは請求書 INV-2026-001 に載っています。変更するには、その請求書を無効にしてください');
    assert.equal(errorLine(new Problem('internal_error', 'internal error in the app; see its output for details'), de), 'in Tock ist ein Fehler aufgetreten; versuchen Sie es erneut, die Ausgabe der App enthält Einzelheiten');
  });

  it('says the admin contract’s own line for a refused field by its rule, whole, not `<field>: <rule>`', async () => {
    const rule = fieldRule({ type: 'string', format: 'date', description: '' });
    const line: FieldRule = { rule: 'flagDay', values: { flag: '--from', sent: '"x"' } };
    // As the door kit sends it: the route's line as the message, its rule beside the field's own.
    const refused = new Problem('validation_failed', ruleMessage(line), { details: [{ ...ruleProblem('from', rule), line }] });
    assert.equal(refused.message, '--from takes a day as YYYY-MM-DD, not "x"');
    assert.equal(errorLine(refused, await loadCliMessages('en')), '--from takes a day as YYYY-MM-DD, not "x"');
    assert.equal(errorLine(refused, await loadCliMessages('de')), '--from erwartet einen Tag als JJJJ-MM-TT, nicht "x"');
    assert.equal(errorLine(refused, await loadCliMessages('ja')), '--from には YYYY-MM-DD 形式の日付を指定してください。"x" は指定できません');
    const newer = new Problem('validation_failed', 'a newer line', { details: [{ ...ruleProblem('from', rule), line: { rule: 'fromTheFuture' as FieldRuleCode } }] });
    assert.equal(errorLine(newer, await loadCliMessages('de')), 'a newer line');
    assert.equal(
      errorLine(new Problem('validation_failed', ruleMessage(EACH.giveId), { details: [{ field: 'id', message: 'is required', rule: 'required', line: EACH.giveId }] }), await loadCliMessages('fr')),
      'indiquez l’identifiant de la règle',
    );
  });

  it('says the other ledger settings and a report’s range by their code', async () => {
    const store = openStore(':memory:');
    const set = (key: string, value: unknown) => () => setLedgerSetting(store.settings, key, value);
    try {
      await assertWorded(refusal(set('rounding', { mode: 'sideways' })), 'subField', '"mode" must be none, up, down or nearest', '„mode“ muss none, up, down oder nearest sein');
      await assertWorded(refusal(set('rounding', { per: 'week' })), 'subField', '"per" must be block or day', '„per“ muss block oder day sein');
      await assertWorded(refusal(set('rounding', { minutes: 7 })), 'subField', '"minutes" must be one of 1, 5, 6, 10, 15, 30, 60', '„minutes“ muss einer dieser Werte sein: 1, 5, 6, 10, 15, 30 oder 60');
      await assertWorded(
        refusal(set('rounding', { step: 5 })),
        'noFieldShape',
        'has no field "step"; it must be {"mode":"none"|"up"|"down"|"nearest","minutes":N,"per":"block"|"day","minimumMinutes":0-60}',
        'hat kein Feld „step“; es muss ein Objekt mit „mode“ (none, up, down oder nearest), „minutes“, „per“ (block oder day) und „minimumMinutes“ (0 bis 60) sein',
      );
      await assertWorded(
        refusal(set('targets', { weekly: 40 })),
        'notADay',
        '"weekly" is not a day; use mon, tue, wed, thu, fri, sat, sun, or week (hours a week) with days',
        '„weekly“ ist kein Tag; verwenden Sie mon, tue, wed, thu, fri, sat, sun oder week (Stunden pro Woche) mit days',
      );
      await assertWorded(refusal(set('targets', { mon: 25 })), 'subField', '"mon" must be a number of hours from 0 to 24', '„mon“ muss eine Stundenzahl von 0 bis 24 sein');
      await assertWorded(refusal(set('targets', { week: 40, mon: 8 })), 'dayOrWeek', 'give hours per day or "week", not both', 'geben Sie Stunden pro Tag oder „week“ an, nicht beides');
      await assertWorded(
        refusal(set('minSessionSeconds', 7200)),
        'keepSeconds',
        'must be a whole number of seconds from 0 (keep every session) to 3600',
        'muss eine ganze Zahl an Sekunden von 0 (jede Sitzung behalten) bis 3600 sein',
      );
      await assertWorded(refusal(set('dayStartsAt', '"07:00"')), 'timeOfDayRange', 'must be a time from "00:00" to "06:00", such as "04:00"', 'muss eine Uhrzeit von "00:00" bis "06:00" sein, etwa "04:00"');
      await assertWorded(refusal(set('weekStart', '"fri"')), 'oneOf', 'must be one of "locale", "mon", "sun", "sat"', 'muss einer dieser Werte sein: "locale", "mon", "sun" oder "sat"');
      await assertWorded(refusal(set('rounding', '{nope')), 'settingJson', 'must be JSON, such as {"mode":"up","minutes":15,"per":"block"}', 'muss JSON sein, etwa {"mode":"up","minutes":15,"per":"block"}');
      // Each setting its own example: a language that is not JSON is shown a language, not a rounding.
      await assertWorded(refusal(set('language', 'de')), 'settingJson', 'must be JSON, such as "de"', 'muss JSON sein, etwa "de"');
      await assertWorded(refusal(set('dayStartsAt', '04:00')), 'settingJson', 'must be JSON, such as "04:00"', 'muss JSON sein, etwa "04:00"');
      await assertWorded(refusal(set('weekStart', 'mon')), 'settingJson', 'must be JSON, such as "mon"', 'muss JSON sein, etwa "mon"');
      await assertWorded(refusal(set('minSessionSeconds', '1m')), 'settingJson', 'must be JSON, such as 60', 'muss JSON sein, etwa 60');
      await assertWorded(
        refusal(set('targets', '{week:40}')),
        'settingJson',
        'must be JSON, such as {"week":40,"days":["mon","tue","wed","thu","fri"]}',
        'muss JSON sein, etwa {"week":40,"days":["mon","tue","wed","thu","fri"]}',
      );
      assert.match(refusal(set('business', '{name:A}')).message, /^must be JSON, such as \{"name":"Ana Lima",/);
      await assertWorded(
        refusal(set('colour', '1')),
        'notASetting',
        '"colour" is not a setting tock settings knows (rounding, targets, business, minSessionSeconds, language, dayStartsAt, weekStart)',
        '„colour“ ist keine Einstellung, die tock settings kennt (rounding, targets, business, minSessionSeconds, language, dayStartsAt, weekStart)',
      );
      const now = Date.parse('2026-11-28T12:00:00Z');
      await assertWorded(
        refusal(() => readReportQuery({ from: '2025-01-01', to: '2026-11-30' }, now, 'UTC')),
        'reportDays',
        'the range covers 699 days; a report covers at most 366',
        'der Zeitraum umfasst 699 Tage; ein Bericht umfasst höchstens 366',
      );
      await assertWorded(refusal(() => readReportQuery({ from: '2026-11-30', to: '2026-11-01' }, now, 'UTC')), 'notBeforeFrom', 'must not be before the start day (2026-11-30); give the earlier day as the start', 'darf nicht vor dem Starttag (2026-11-30) liegen; geben Sie den früheren Tag als Start an');
      await assertWorded(
        refusal(() => readReportQuery({ client: 7 } as never, now, 'UTC')),
        'clientFilter',
        "must be a client's ID, or none for time without a client",
        'muss die ID eines Kunden sein oder none für Zeit ohne Kunden',
      );
    } finally {
      store.close();
    }
  });

  it('says core’s checks of clients, invoices by number and blocks by their code', async () => {
    const store = openStore(':memory:');
    try {
      addClient(store, { name: 'Acme' }, 0, () => 'c1');
      await assertWorded(refusal(() => addClient(store, { name: 'ACME' }, 0, () => 'c2')), 'clientExists', 'a client named "Acme" already exists; choose another name', 'einen Kunden namens „Acme“ gibt es schon; wählen Sie einen anderen Namen');
      await assertWorded(
        refusal(() => addClient(store, { name: 'Beta', reverseCharge: true, taxRate: '19' }, 0, () => 'c3')),
        'reverseChargeTax',
        'goes with a taxed client; a reverse-charge client is billed no tax',
        'gehört zu einem Kunden mit Steuer; einem Kunden mit Steuerschuldnerschaft des Leistungsempfängers wird keine Steuer berechnet',
      );
      await assertWorded(refusal(() => draftInvoice(store, { client: 'Nobody', from: '2026-11-01', to: '2026-11-30' }, 0, 'UTC')), 'noClientNamed', 'no client named "Nobody" (`tock clients` lists them)', 'kein Kunde namens „Nobody“ (`tock clients` listet sie auf)');
      await assertWorded(refusal(() => invoiceByNumber(store, 'INV-2026-009')), 'noInvoice', 'no invoice INV-2026-009; the issued invoices list has every number', 'keine Rechnung INV-2026-009; die Liste der ausgestellten Rechnungen enthält jede Nummer');
      await assertWorded(
        refusal(() => addClient(store, { name: 'Gamma', language: 'pt' }, 0, () => 'c4')),
        'invoiceLanguage',
        'must be a BCP 47 language tag of en, de, fr, es, ja (such as fr or de-CH), not "pt"',
        'muss ein BCP-47-Sprachcode einer dieser Sprachen sein: en, de, fr, es, ja (etwa fr oder de-CH), nicht "pt"',
      );
      await assertWorded(refusal(() => voidInvoice(store, 'INV-2026-009', '2026-11-20')), 'noInvoice', 'no invoice INV-2026-009; the issued invoices list has every number', 'keine Rechnung INV-2026-009; die Liste der ausgestellten Rechnungen enthält jede Nummer');
      await assertWorded(
        refusal(() => tagBlock(store, 'no-such-block', ['x'])),
        'noBlockWithId',
        'no session or entry with ID "no-such-block"; give an ID as --json prints it, or last',
        'keine Sitzung und kein Eintrag mit der ID „no-such-block“; geben Sie eine ID an, wie --json sie ausgibt, oder last',
      );
      await assertWorded(refusal(() => invoiceByNumber(store, 7)), 'invoiceNumber', 'must be an invoice number such as INV-2026-001, not 7', 'muss eine Rechnungsnummer wie INV-2026-001 sein, nicht 7');
    } finally {
      store.close();
    }
  });
});

describe('the app’s refusals said whole by their rule (ruleLine)', () => {
  it('says what is wrong with a store file by its own rule inside the app’s; its English without one', async () => {
    const bad = EACH.storeFileBad;
    const de = await loadCliMessages('de');
    assert.equal(
      ruleWords(de, bad),
      '/home/ada/.tock/tock.db ist abgeschnitten (4096 von 8192 Byte); stellen Sie eine Sicherung mit `tock restore FILE` wieder her (die Sicherungen liegen in /home/ada/.tock/backups) oder verschieben Sie die Datei, um mit einem leeren Datenspeicher zu beginnen',
    );
    const restore: FieldRule = { rule: 'restoreUnreadable', values: { reason: '/tmp/old.db is not an SQLite database' }, item: EACH.storeNotSqlite };
    assert.equal(ruleWords(de, restore), '/home/ada/.tock/tock.db ist keine SQLite-Datenbank; es wurde nichts wiederhergestellt – wählen Sie eine andere Sicherung');
    // No English of the file's own description in any other language, nor in en-XA.
    for (const language of ['de', 'fr', 'es', 'ja', 'en-XA'] as const) {
      const t = await loadCliMessages(language);
      for (const rule of [EACH.storeFileBad, EACH.storeFileNewer, restore]) {
        assert.doesNotMatch(ruleWords(t, rule) ?? '', /is truncated|was written by a newer|is not an SQLite/, `${language} ${rule.rule}`);
      }
    }
    // An older app sends no item, a newer one a code this catalog lacks: its English stays inside.
    const { item: _, ...older } = bad;
    assert.match(ruleWords(de, older) ?? '', /^\/home\/ada\/\.tock\/tock\.db is truncated \(4096 of 8192 bytes\); stellen Sie/);
    const newer = { ...bad, item: { rule: 'storeFromTheFuture', values: {} } } as unknown as FieldRule;
    assert.match(ruleWords(de, newer) ?? '', /^\/home\/ada\/\.tock\/tock\.db is truncated \(4096 of 8192 bytes\); stellen Sie/);
  });

  it('says an activity that has no such name in the language, the name as a value; English as before', async () => {
    const { activityLedger, deleteActivity, mergeActivities, renameActivityNamed } = await import('@tock/core');
    const store = openStore(':memory:');
    try {
      const tries: Array<() => unknown> = [
        () => mergeActivities(store, 'Nope', 'Other'),
        () => deleteActivity(store, 'Nope'),
        () => renameActivityNamed(store, 'Nope', 'New'),
        () => activityLedger(store, 'Nope'),
      ];
      for (const attempt of tries) {
        let thrown: unknown;
        try {
          attempt();
        } catch (error) {
          thrown = error;
        }
        assert.ok(isProblem(thrown, 'activity_not_found'));
        assert.equal(thrown.message, 'no activity named "Nope"; search for the right name (`tock search`)');
        assert.equal(errorLine(thrown, await loadCliMessages('en')), 'no activity named "Nope"; search for the right name (`tock search`)');
        assert.equal(errorLine(thrown, await loadCliMessages('de')), 'keine Tätigkeit namens „Nope“; suchen Sie den richtigen Namen (`tock search`)');
        assert.equal(errorLine(thrown, await loadCliMessages('ja')), '「Nope」という名前のアクティビティはありません。正しい名前を検索してください（`tock search`）');
        assert.match(errorLine(thrown, await loadCliMessages('en-XA')), /^\[.*Nope.*~+\]$/su);
      }
    } finally {
      store.close();
    }
  });
});
