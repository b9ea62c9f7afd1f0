/**
 * Settings › Capture's words where no desktop source works (Wayland without a supported
 * compositor, no display): the line says what still works, by the names the navigation gives
 * those screens in each language, so a person can find them. And a suggestion's detail line is
 * one sentence with one full stop, whatever its last word ends with; and the GNOME extension is
 * offered only where GNOME Shell runs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMessages } from '@tock/i18n';
import { offersGnomeInstall } from '../src/screens/capture/gnome-offer.ts';
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

test('Install Tock’s GNOME Shell extension is offered where GNOME Shell runs without it, not where there is no GNOME session', () => {
  const gnome = (works: boolean, reasonCode?: 'not_set' | 'not_running' | 'gnome_extension' | 'gnome_extension_old') => [
    { id: 'gnome' as const, name: 'GNOME Shell (Tock extension)', works, reason: works ? null : 'why', ...(reasonCode ? { reasonCode } : {}) },
  ];
  assert.equal(offersGnomeInstall(gnome(false, 'gnome_extension')), true, 'the extension does not answer');
  assert.equal(offersGnomeInstall(gnome(true, 'gnome_extension_old')), true, 'an older one in use');
  assert.equal(offersGnomeInstall(gnome(false)), true, 'the system’s own words: offered, as before');
  assert.equal(offersGnomeInstall(gnome(false, 'not_set')), false, 'no session bus (DBUS_SESSION_BUS_ADDRESS is not set)');
  assert.equal(offersGnomeInstall(gnome(false, 'not_running')), false, 'another desktop on the bus');
  assert.equal(offersGnomeInstall(gnome(true)), false, 'it works');
});
