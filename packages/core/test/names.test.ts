import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanName, codePointLength, nameError, nameKey, searchKey } from '../src/index.ts';
import { fixture, problemOf } from './support.ts';

test('trims a name before storing it', (t) => {
  const { tracker } = fixture(t);
  const started = tracker.startActivity({ name: '  Writing \t', createIfMissing: true });
  assert.equal(started.activityName, 'Writing');
});

test('accepts 200 code points and refuses 201, counting astral characters once', (t) => {
  const { tracker } = fixture(t);
  const astral = '𝄞'; // U+1D11E: two UTF-16 units, one code point
  const ok200 = astral.repeat(200);
  assert.equal(codePointLength(ok200), 200);
  assert.equal(tracker.createActivity(ok200).activityName, ok200);
  const tooLong = 'a' + astral.repeat(200);
  const problem = problemOf(() => tracker.createActivity(tooLong));
  assert.equal(problem.code, 'validation_failed');
  assert.deepEqual(problem.details, [{ field: 'name', message: 'must be at most 200 characters', rule: 'atMostChars', values: { max: 200 } }]);
  assert.equal(problemOf(() => tracker.startActivity({ name: 'b'.repeat(201), createIfMissing: true })).code, 'validation_failed');
  assert.equal(tracker.createActivity('c'.repeat(200)).activityName.length, 200);
});

test('refuses empty, blank and control-character names', (t) => {
  const { tracker } = fixture(t);
  for (const name of ['', '   ', 'tab\there', 'new\nline', 'nul\u0000', 'del\u007f', 'c1\u0085']) {
    const problem = problemOf(() => tracker.startActivity({ name, createIfMissing: true }));
    assert.equal(problem.code, 'validation_failed', JSON.stringify(name));
    assert.equal(problem.details?.[0]?.field, 'name');
  }
  assert.equal(nameError('lone \ud800 surrogate'), 'must be valid Unicode text');
});

test('treats "Café" and "CAFE\\u0301" as the same name (NFC, then case-insensitive)', (t) => {
  const { tracker } = fixture(t);
  const first = tracker.startActivity({ name: 'Café', createIfMissing: true });
  const again = tracker.startActivity({ name: 'CAFE\u0301', createIfMissing: true });
  assert.equal(again.activityID, first.activityID);
  assert.equal(again.activityName, 'Café');
  assert.equal(again.created, false);
  const problem = problemOf(() => tracker.createActivity('cafe\u0301'));
  assert.equal(problem.code, 'validation_failed');
  assert.match(problem.message, /already exists/);
  assert.equal(tracker.listActivities().length, 1);
});

test('keeps "Cafe" and "Café" apart as names but finds both when searching "cafe"', (t) => {
  const { tracker } = fixture(t);
  tracker.createActivity('Cafe');
  tracker.createActivity('Café');
  assert.equal(tracker.listActivities().length, 2);
  assert.equal(tracker.searchActivities('cafe', 10).length, 2);
});

test('stores names in NFC and derives lookup and search keys', () => {
  assert.equal(cleanName(' Cafe\u0301 '), 'Café');
  assert.equal(nameKey('CAFE\u0301'), 'café');
  assert.equal(searchKey('Crème Brûlée'), 'creme brulee');
  assert.equal(searchKey('ÅNGSTRÖM'), 'angstrom');
});

test('looks names up case-insensitively', (t) => {
  const { tracker } = fixture(t);
  const created = tracker.startActivity({ name: 'Deep Work', createIfMissing: true });
  tracker.stopActivity();
  const found = tracker.startActivity({ name: 'deep work' });
  assert.equal(found.activityID, created.activityID);
  assert.equal(found.activityName, 'Deep Work');
});

test('renames an activity, allowing a change of case of its own name', (t) => {
  const { tracker } = fixture(t);
  const a = tracker.createActivity('writing');
  tracker.createActivity('Reading');
  assert.equal(tracker.renameActivity(a.activityID, 'Writing').activityName, 'Writing');
  assert.equal(problemOf(() => tracker.renameActivity(a.activityID, 'READING')).code, 'validation_failed');
  assert.equal(problemOf(() => tracker.renameActivity(a.activityID, ' ')).code, 'validation_failed');
  assert.equal(
    problemOf(() => tracker.renameActivity('00000000-0000-4000-8000-999999999999', 'x')).code,
    'activity_not_found',
  );
  assert.deepEqual(tracker.searchActivities('writ', 5), [{ activityID: a.activityID, activityName: 'Writing' }]);
});
