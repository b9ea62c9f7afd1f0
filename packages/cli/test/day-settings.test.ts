/**
 * `tock settings set dayStartsAt`, `weekStart` (docs/data.md "Days and weeks") and `language`
 * (docs/i18n.md "Choosing the language") against a real app: a good value is kept and printed
 * back as JSON, a bad one refused in one line and nothing changed, `null` back to the default.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRealApp, tock, type RealApp } from './real-app.ts';

describe('the day and the week, set with tock settings', () => {
  let app: RealApp;
  let own: NodeJS.ProcessEnv;

  before(async () => {
    app = await startRealApp();
    own = app.adminEnv;
  });
  after(() => app?.stop());

  it('dayStartsAt "00:00" to "06:00": kept, a later time refused in one line, null removes it', async () => {
    assert.equal((await tock(own, 'settings', 'get', 'dayStartsAt')).out, 'null');
    assert.equal((await tock(own, 'settings', 'set', 'dayStartsAt', '"04:00"')).out, '"04:00"');
    const refused = await tock(own, 'settings', 'set', 'dayStartsAt', '"07:00"');
    assert.equal(refused.status, 1);
    assert.match(refused.err, /dayStartsAt.*must be a time from "00:00" to "06:00", such as "04:00"/);
    assert.equal(refused.err.trim().split('\n').length, 1, refused.err);
    assert.equal((await tock(own, 'settings', 'get', 'dayStartsAt')).out, '"04:00"', 'the refused value changed nothing');
    assert.equal((await tock(own, 'settings', 'set', 'dayStartsAt', 'null')).out, 'null');
    assert.equal((await tock(own, 'settings', 'get', 'dayStartsAt')).out, 'null');
  });

  it('weekStart "locale", "mon", "sun", "sat": kept, anything else refused', async () => {
    for (const value of ['"sun"', '"sat"', '"mon"', '"locale"']) assert.equal((await tock(own, 'settings', 'set', 'weekStart', value)).out, value);
    const refused = await tock(own, 'settings', 'set', 'weekStart', '"monday"');
    assert.equal(refused.status, 1);
    assert.match(refused.err, /weekStart.*must be one of "locale", "mon", "sun", "sat"/);
    assert.equal((await tock(own, 'settings', 'get', 'weekStart')).out, '"locale"');
  });

  it('language \'"de"\': kept, the CLI then speaks it, a language Tock lacks refused in one line in it, null back to the system', async () => {
    const english = { ...own, LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
    assert.equal((await tock(english, 'settings', 'set', 'language', '"de"')).out, '"de"');
    assert.equal((await tock(english, 'settings', 'get', 'language')).out, '"de"');
    const refused = await tock(english, 'settings', 'set', 'language', '"pt"');
    assert.equal(refused.status, 1);
    assert.equal(refused.err.trim(), 'error: language: muss einer dieser Werte sein: "system", "en", "de", "fr", "es" oder "ja"', 'in German, whatever LANG says');
    assert.equal((await tock(english, 'settings', 'get', 'language')).out, '"de"', 'the refused value changed nothing');
    assert.equal((await tock(english, 'settings', 'set', 'language', 'null')).out, 'null');
    const back = await tock(english, 'settings', 'set', 'language', '"pt"');
    assert.match(back.err, /^error: language: must be one of "system", "en", "de", "fr", "es", "ja"$/m, 'the system’s English again');
  });
});
