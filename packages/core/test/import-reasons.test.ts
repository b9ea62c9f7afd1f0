/**
 * A refused place of an imported file carries its reason by code beside the English
 * (docs/i18n.md "What the app sends as codes"): `because` on the `ImportProblem`, the place by
 * kind (`placeValues`), a field rule it broke in `rule`. The English is the line it always was.
 */

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { ImportProblem, importFile } from '../src/index.ts';
import { fixture } from './support.ts';

const TOGGL_HEADER = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)';

/** The refusal of importing `text`. */
async function refusal(t: TestContext, text: string, format?: 'tock' | 'toggl' | 'timewarrior' | 'watson'): Promise<ImportProblem> {
  const { store, dir, clock } = fixture(t);
  const path = join(dir, 'bad');
  writeFileSync(path, text);
  try {
    await importFile(store, { path, format, timeZone: 'UTC', now: clock() });
  } catch (error) {
    assert.ok(error instanceof ImportProblem, String(error));
    return error;
  }
  assert.fail('the import was not refused');
}

test('a Toggl row that ends before it starts: its line, and the reason by code', async (t) => {
  const row = 'Ada,ada@example.com,,Design,,,No,2026-01-04,11:00:00,2026-01-04,10:00:00,01:00:00,,0.00';
  const error = await refusal(t, `${TOGGL_HEADER}\n${row}\n`);
  assert.equal(error.message, 'line 2: the block ends (2026-01-04 10:00:00 UTC) before it starts (2026-01-04 11:00:00 UTC)');
  assert.deepEqual(error.placeValues(), { placeKind: 'line', n: 2, place: 'line 2' });
  assert.deepEqual(error.because, { code: 'import_ends_before', values: { end: '2026-01-04 10:00:00 UTC', start: '2026-01-04 11:00:00 UTC' } });
});

test('a Tock export with a bad rate and an empty name: the field rule each broke', async (t) => {
  const head = '{"format":"tock-export","version":1,"activities":[';
  const rate = await refusal(t, `${head}{"id":"a1","name":"Design","createdAt":"2026-01-01T00:00:00.000Z","rate":"lots"}]}`);
  assert.equal(rate.place, 'activities[0]');
  assert.deepEqual(rate.placeValues(), { placeKind: 'path', n: 0, place: 'activities[0]' });
  assert.deepEqual(rate.because, { code: 'import_field_rule', values: { field: 'rate' }, rule: { rule: 'rate', values: { decimals: 4, sent: 'lots' } } });
  assert.match(rate.reason, /^"rate" must be a decimal number such as 85\.00 /);
  const name = await refusal(t, `${head}{"id":"a1","name":"  ","createdAt":"2026-01-01T00:00:00.000Z"}]}`);
  assert.equal(name.reason, 'the activity name must not be empty (got "  ")');
  assert.deepEqual(name.because, { code: 'import_name_rule', values: { got: '"  "' }, rule: { rule: 'notEmpty' } });
});

test('a Watson frame and a Timewarrior interval: index N and the reason by code; text from the file made safe', async (t) => {
  const watson = await refusal(t, '[[1767261600, 1767265200, 7]]', 'watson');
  assert.deepEqual(watson.placeValues(), { placeKind: 'index', n: 0, place: 'index 0' });
  assert.deepEqual(watson.because, { code: 'import_watson_project' });
  const timew = await refusal(t, '[{"start":"yesterday\\u001b[31m"}]', 'timewarrior');
  assert.equal(timew.because?.code, 'import_timew_time');
  assert.equal(timew.because?.values?.sent, '"yesterday\\u001b[31m"', 'the escape as JSON writes it, no ESC byte');
});

test('a refusal of the whole file: no place, the reason by code', async (t) => {
  const empty = await refusal(t, '');
  assert.equal(empty.message, 'it is empty');
  assert.deepEqual(empty.placeValues(), { placeKind: 'none', n: 0, place: '' });
  assert.deepEqual(empty.because, { code: 'import_empty' });
  const unknown = await refusal(t, 'hello');
  assert.deepEqual(unknown.placeValues(), { placeKind: 'none', n: 0, place: 'the file' });
  assert.deepEqual(unknown.because, { code: 'import_unknown_format' });
  const array = await refusal(t, '[1]', 'tock');
  assert.deepEqual(array.because, { code: 'import_not_object' });
});
