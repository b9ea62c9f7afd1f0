/**
 * The setting `language` (docs/i18n.md "Choosing the language"): `tock settings set language
 * '"de"'` stores a language Tock speaks or `"system"`; anything else is refused with a line
 * naming the accepted values, and changes nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getLedgerSetting, readLanguage, setLedgerSetting } from '@tock/core';
import { fixture, problemOf } from './support.ts';

test('language is "system" until set, then the language set (JSON as typed on the command line)', (t) => {
  const { store } = fixture(t);
  assert.equal(readLanguage(store.settings), 'system');
  assert.equal(getLedgerSetting(store.settings, 'language'), null);
  assert.equal(setLedgerSetting(store.settings, 'language', '"de"'), 'de');
  assert.equal(readLanguage(store.settings), 'de');
  assert.equal(setLedgerSetting(store.settings, 'language', 'null'), null);
  assert.equal(readLanguage(store.settings), 'system');
});

test('a language Tock does not speak is refused, naming the accepted values, and changes nothing', (t) => {
  const { store } = fixture(t);
  setLedgerSetting(store.settings, 'language', '"ja"');
  for (const bad of ['"pt"', '"de_DE"', '"German"', '1', '{"language":"de"}']) {
    const problem = problemOf(() => setLedgerSetting(store.settings, 'language', bad));
    assert.equal(problem.code, 'validation_failed', bad);
    assert.deepEqual(
      problem.details,
      [{ field: 'language', message: 'must be one of "system", "en", "de", "fr", "es", "ja"', rule: 'oneOf', values: { options: '"system", "en", "de", "fr", "es", "ja"' } }],
      bad,
    );
  }
  assert.equal(readLanguage(store.settings), 'ja');
});
