/**
 * The shared worders of the reasons the app sends as codes (src/problems/words.ts): a code's key
 * is its catalog key, a reason's `inner` reason and field `rule` fill `{reason}` and `{rule}`, and
 * anything the catalogs cannot say (an unknown code, a missing value) is undefined, so that each
 * package keeps the app's English line. The CLI's and the window's tests check the same through
 * their own catalogs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMessages } from '@tock/i18n';
import { problems as problemsDe } from '@tock/i18n/problems/de';
import { problems } from '@tock/i18n/problems/en';
import { problems as problemsEs } from '@tock/i18n/problems/es';
import { problems as problemsFr } from '@tock/i18n/problems/fr';
import { problems as problemsJa } from '@tock/i18n/problems/ja';
import { rules as rulesDe } from '@tock/i18n/rules/de';
import { rules } from '@tock/i18n/rules/en';
import { rules as rulesEs } from '@tock/i18n/rules/es';
import { rules as rulesFr } from '@tock/i18n/rules/fr';
import { rules as rulesJa } from '@tock/i18n/rules/ja';
import { type CalendarProblemKeyCode, isDeviceReason, PROBLEM_CODE_KEYS, withLineWords, wordCalendarProblem, wordDeviceReason, wordLineReason, wordProblemReason, wordSyncReason, type ProblemKey } from '@tock/i18n/problems/words';
import type { RuleKey } from '@tock/i18n/rules/words';

const de = createMessages(
  { en: { ...rules, ...problems }, de: { ...rulesDe, ...problemsDe }, fr: { ...rulesFr, ...problemsFr }, es: { ...rulesEs, ...problemsEs }, ja: { ...rulesJa, ...problemsJa } },
  'de',
);

/** A formatter that says the key it was asked for, to see which key a code takes. */
const keyOf = Object.assign((key: ProblemKey | RuleKey) => key, { locale: 'de' as const });

/** The codes of the shared catalogs' keys that start with `prefix`. */
function codes(catalog: object, prefix: string): string[] {
  return Object.keys(catalog)
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length));
}

describe('the shared words of a reason’s code', () => {
  it('takes each code’s key from the catalogs: problem.reason.*, problem.import.*, problem.line.*, problem.device.*, sync.reason.*', () => {
    for (const prefix of ['problem.reason.', 'problem.import.']) {
      for (const code of codes(problems, prefix)) assert.equal(wordProblemReason(keyOf, { code }), `${prefix}${code}`);
    }
    for (const code of codes(problems, 'problem.line.')) assert.equal(wordLineReason(keyOf, { code }), `problem.line.${code}`);
    for (const code of codes(problems, 'problem.device.')) assert.equal(wordDeviceReason(keyOf, { code }), `problem.device.${code}`);
    for (const code of codes(rules, 'sync.reason.')) assert.equal(wordSyncReason(keyOf, { code }), `sync.reason.${code}`);
    // A family's worder says only its own codes.
    assert.equal(wordProblemReason(keyOf, { code: 'line_not_json' }), undefined);
    assert.equal(wordDeviceReason(keyOf, { code: 'device_line_refused' }), undefined);
    assert.equal(wordSyncReason(keyOf, { code: 'device_line_held' }), undefined);
  });

  it('fills a reason’s inner reason as {reason} and the field rule it broke as {rule}', () => {
    const values = { placeKind: 'line', file: 'a.csv', n: 3 };
    assert.equal(
      wordProblemReason(de, { code: 'import_refused', values, inner: { code: 'import_csv_fields' } }),
      de('problem.import.import_refused', { ...values, reason: de('problem.import.import_csv_fields') }),
    );
    const line = { code: 'line_field_rule', values: { field: 'name', orNull: 'no' }, rule: { rule: 'required' } };
    assert.equal(wordLineReason(de, line), de('problem.line.line_field_rule', { field: 'name', orNull: 'no', rule: de('rule.required') }));
  });

  it('says nothing for what the catalogs cannot say: an unknown code, inner reason or rule, a missing value, a reason nested too deep', () => {
    assert.equal(wordProblemReason(de, { code: 'from_a_newer_app' }), undefined);
    assert.equal(wordProblemReason(de, null), undefined);
    assert.equal(wordProblemReason(de, { code: 'import_refused', values: { placeKind: 'line', file: 'a.csv', n: 3 }, inner: { code: 'from_a_newer_app' } }), undefined);
    assert.equal(wordProblemReason(de, { code: 'import_field_rule', values: { field: 'name' }, rule: { rule: 'from_a_newer_app' } }), undefined);
    assert.equal(wordProblemReason(de, { code: 'editor_too_many' }), undefined, 'its {max} is missing');
    assert.equal(wordLineReason(de, { code: 'line_field_rule', values: { field: 'name', orNull: 'no' }, rule: { rule: 'from_a_newer_app' } }), undefined);
    assert.equal(wordDeviceReason(de, { code: 'device_file_too_large', values: {} }), undefined);
    assert.equal(wordSyncReason(de, { code: 'folder_file_not_json' }), undefined);
    type Nested = { code: string; values?: Record<string, string | number>; inner?: Nested };
    const nested = (depth: number): Nested => (depth === 0 ? { code: 'import_csv_fields' } : { code: 'import_refused', values: { placeKind: 'none', file: 'a.json', n: 0 }, inner: nested(depth - 1) });
    assert.notEqual(wordProblemReason(de, nested(2)), undefined, 'three reasons deep');
    assert.equal(wordProblemReason(de, nested(3)), undefined, 'four reasons deep');
  });

  it('tells another device’s reasons from the sync folder’s, and words a refused or held line inside its device reason', () => {
    assert.equal(isDeviceReason({ code: 'device_line_held' }), true);
    assert.equal(isDeviceReason({ code: 'device_line_refused' }), false);
    assert.equal(isDeviceReason(null), false);
    const line = { code: 'line_not_json', values: {} };
    const held = { code: 'device_line_held', values: { segment: '0001.log', line: 4 } };
    const worded = withLineWords(de, held, line);
    assert.deepEqual(worded, { ...held, values: { ...held.values, reason: de('problem.line.line_not_json') } });
    assert.equal(wordDeviceReason(de, worded), de('problem.device.device_line_held', { segment: '0001.log', line: 4, reason: de('problem.line.line_not_json') }));
    const refused = { code: 'device_line_refused', values: { segment: '0001.log', line: 4 } };
    assert.deepEqual(withLineWords(de, refused, line), { ...refused, values: { ...refused.values, reason: de('problem.line.line_not_json') } });
    const other = { code: 'device_truncated', values: { segment: '0001.log', next: '0002.log' } };
    assert.equal(withLineWords(de, other, line), other);
    assert.equal(withLineWords(de, held, { code: 'from_a_newer_app', values: {} }), held);
  });

  it('keys the problem codes both packages word alike to problem.code.<code>, and leaves each package’s own to it', () => {
    for (const [code, key] of Object.entries(PROBLEM_CODE_KEYS)) {
      if (key === null) continue;
      assert.equal(key, `problem.code.${code}`);
      assert.ok(Object.hasOwn(rules, key), key);
    }
    assert.equal(Object.hasOwn(PROBLEM_CODE_KEYS, 'license_locked'), false);
    assert.equal(Object.hasOwn(PROBLEM_CODE_KEYS, 'storage_full'), false);
  });
  it('words a calendar file’s problem by its code (problem.calendar.<code>), the file first; another code or missing values are undefined', () => {
    const missing = { code: 'calendar_file_missing', values: { path: '/k/work.ics' } };
    assert.equal(wordCalendarProblem(de, missing), '/k/work.ics fehlt: Legen Sie die Datei zurück oder entfernen Sie diesen Kalender');
    const unended = { code: 'calendar_unended', values: { component: 'VEVENT', path: '/k/work.ics' } };
    assert.equal(wordCalendarProblem(de, unended), '/k/work.ics: Ein VEVENT endet nicht (END:VEVENT fehlt) und wird ausgelassen');
    const large = { code: 'calendar_file_too_large', values: { kib: 10241, limitKib: 10240, size: 10_486_784, limit: 10_485_760, path: '/k/big.ics' } };
    assert.equal(wordCalendarProblem(de, large), '/k/big.ics ist 10.241 KiB groß, mehr als die 10.240 KiB, die eine Kalenderdatei haben darf; sie wird nicht gelesen');
    assert.equal(wordCalendarProblem(de, { code: 'calendar_from_a_newer_app', values: { path: '/k/work.ics' } }), undefined);
    assert.equal(wordCalendarProblem(de, { code: 'calendar_unended', values: { path: '/k/work.ics' } }), undefined, 'a value missing');
    assert.equal(wordCalendarProblem(keyOf, missing), 'problem.calendar.calendar_file_missing');
  });
  it('words every calendar problem code in every language and en-XA, each unlike English, the file named', () => {
    const path = '/k/work.ics';
    const sizes = { kib: 10_241, limitKib: 10_240, size: 10_486_784, limit: 10_485_760 };
    // Typed by the catalogs' codes: a new problem.calendar.* key needs its values here.
    const each: Record<CalendarProblemKeyCode, Record<string, string | number>> = {
      calendar_unended: { component: 'VEVENT' },
      calendar_component_too_long: { component: 'VEVENT', max: 10_000 },
      calendar_event_unreadable: { error: 'E' },
      calendar_zone_unreadable: { error: 'E' },
      calendar_zones_cut: { max: 1_000 },
      calendar_zone_unknown: { zone: 'Mars/Olympus' },
      calendar_repeats_too_often: { summary: 'Ping', every: 'minute' },
      calendar_occurrences_cut: { summary: 'Ping', max: 10_000 },
      calendar_recurrence_runaway: { tries: 2_000 },
      calendar_recurrence_failed: { error: 'E' },
      calendar_not_ical: {},
      calendar_file_missing: {},
      calendar_file_too_large: sizes,
      calendar_total_too_large: sizes,
      calendar_not_regular: { kind: 'fifo' },
      calendar_unreadable: { error: 'EACCES' },
    };
    const catalogs = { en: problems, de: problemsDe, fr: problemsFr, es: problemsEs, ja: problemsJa };
    const english = createMessages(catalogs, 'en');
    for (const locale of ['de', 'fr', 'es', 'ja', 'en-XA'] as const) {
      const t = createMessages(catalogs, locale);
      for (const [code, values] of Object.entries(each)) {
        const reason = { code, values: { ...values, path } };
        const said = wordCalendarProblem(t, reason);
        assert.ok(said?.includes(path), `${locale} ${code}: ${said}`);
        assert.notEqual(said, wordCalendarProblem(english, reason), `${locale} ${code}`);
      }
    }
  });
});
