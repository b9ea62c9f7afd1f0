/**
 * The setting `language` and its `"system"` resolution (docs/i18n.md "Choosing the language"):
 * `LC_ALL`, then `LC_MESSAGES`, then `LANG`; the first set one decides; a language Tock does
 * not have, `C` or `POSIX` is English.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLanguageSetting, languageOfLocaleName, resolveLanguage, systemLanguage } from '@tock/i18n';

describe('language: system', () => {
  it('reads LANG when nothing else is set (de_DE.UTF-8 and de_AT.UTF-8 are German)', () => {
    assert.equal(systemLanguage({ LANG: 'de_DE.UTF-8' }), 'de');
    assert.equal(systemLanguage({ LANG: 'de_AT.UTF-8' }), 'de');
  });

  it('lets LC_MESSAGES win over LANG, and LC_ALL over both', () => {
    assert.equal(systemLanguage({ LANG: 'de_DE.UTF-8', LC_MESSAGES: 'fr_FR.UTF-8' }), 'fr');
    assert.equal(systemLanguage({ LANG: 'de_DE.UTF-8', LC_MESSAGES: 'fr_FR.UTF-8', LC_ALL: 'ja_JP.UTF-8' }), 'ja');
  });

  it('skips a variable that is set but empty', () => {
    assert.equal(systemLanguage({ LC_ALL: '', LC_MESSAGES: '', LANG: 'es_ES.UTF-8' }), 'es');
  });

  it('falls back to English for C, POSIX, an unsupported language or nothing set', () => {
    assert.equal(systemLanguage({ LANG: 'C.UTF-8' }), 'en');
    assert.equal(systemLanguage({ LC_ALL: 'POSIX', LANG: 'de_DE.UTF-8' }), 'en');
    assert.equal(systemLanguage({ LC_ALL: 'C', LC_MESSAGES: 'de_DE.UTF-8' }), 'en');
    assert.equal(systemLanguage({ LC_MESSAGES: 'pt_BR', LANG: 'de_DE.UTF-8' }), 'en', 'the first set decides, even a language Tock lacks');
    assert.equal(systemLanguage({ LANG: 'pt_BR.UTF-8' }), 'en');
    assert.equal(systemLanguage({}), 'en');
  });

  it('reads locale names with a region, a codeset or a modifier', () => {
    assert.equal(languageOfLocaleName('fr_CA'), 'fr');
    assert.equal(languageOfLocaleName('ja_JP.eucJP'), 'ja');
    assert.equal(languageOfLocaleName('de_DE@euro'), 'de');
    assert.equal(languageOfLocaleName('es'), 'es');
    assert.equal(languageOfLocaleName('english'), null);
  });

  it('uses a set language whatever the environment says', () => {
    assert.equal(resolveLanguage('ja', { LANG: 'de_DE.UTF-8' }), 'ja');
    assert.equal(resolveLanguage('system', { LANG: 'de_DE.UTF-8' }), 'de');
    assert.equal(resolveLanguage(undefined, { LANG: 'de_DE.UTF-8' }), 'de');
  });

  it('accepts only "system" and the five languages as the setting', () => {
    for (const ok of ['system', 'en', 'de', 'fr', 'es', 'ja']) assert.equal(isLanguageSetting(ok), true, ok);
    for (const bad of ['de_DE', 'DE', 'pt', '', null, 1]) assert.equal(isLanguageSetting(bad), false, String(bad));
  });
});
