/**
 * Settings › Capture's words where no desktop source works (Wayland without a supported
 * compositor, no display): the line says what still works, by the names the navigation gives
 * those screens in each language, so a person can find them. And a suggestion's detail line is
 * one sentence with one full stop, whatever its last word ends with.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMessages } from '@tock/i18n';
import { sentence } from '../src/sentence.ts';
import { de, en, es, fr, ja } from './testing.ts';

test('with no desktop source, Settings › Capture points at Integrations and Calendar by their names in the navigation', () => {
  for (const [language, c] of Object.entries({ en, de, es, fr, ja })) {
    const line = c['cap.stateNone'];
    assert.ok(line.includes(`${c['nav.settings']} › ${c['screen.integrations']}`), `${language}: ${line}`);
    assert.ok(line.includes(`${c['nav.settings']} › ${c['screen.calendar']}`), `${language}: ${line}`);
  }
});

test('a suggestion’s detail ends with one full stop, also where the last duration is abbreviated with one (German `Min.`)', () => {
  const catalogs = { en, de, es, fr, ja };
  for (const language of Object.keys(catalogs) as (keyof typeof catalogs)[]) {
    const t = createMessages(catalogs, language);
    for (const sources of ['Code 1 Std., 20 Min.', 'Code 20 min', 'Code 20 分']) {
      const line = sentence(t('sug.detail', { line: '09:40–11:00 (1 Std., 20 Min.): Docs', sources }));
      assert.doesNotMatch(line, /\.\.|。。|\.。/, `${language}: ${line}`);
      assert.match(line, /[.。]$/, `${language}: ${line}`);
    }
  }
});
