/**
 * Settings › Capture's words where no desktop source works (Wayland without a supported
 * compositor, no display): the line says what still works, by the names the navigation gives
 * those screens in each language, so a person can find them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { de, en, es, fr, ja } from './testing.ts';

test('with no desktop source, Settings › Capture points at Integrations and Calendar by their names in the navigation', () => {
  for (const [language, c] of Object.entries({ en, de, es, fr, ja })) {
    const line = c['cap.stateNone'];
    assert.ok(line.includes(`${c['nav.settings']} › ${c['screen.integrations']}`), `${language}: ${line}`);
    assert.ok(line.includes(`${c['nav.settings']} › ${c['screen.calendar']}`), `${language}: ${line}`);
  }
});
