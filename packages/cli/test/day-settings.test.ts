/**
 * `tock settings set dayStartsAt` and `weekStart` against a real app (docs/data.md "Days and
 * weeks"): a good value is kept and printed back as JSON, a bad one refused in one line and
 * nothing changed, `null` back to the default.
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
});
