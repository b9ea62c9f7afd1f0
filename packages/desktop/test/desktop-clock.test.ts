/**
 * The clock of a locale, for a `clockFormat` nobody set (docs/decisions.md "The clock follows
 * the locale until set"), and what the desktop settings store: only the fields the person set.
 * End to end (the app under en_US and en_GB, an older whole object): packages/cli/test/clock-format.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localeClockFormat, readDesktopSettings, savedDesktopSettings, storedClockFormatSet } from '../src/settings.ts';

test('the locale clock: en-US 12h; en-GB, de, fr, es, ja, German in the US, no region and the pseudo-locale 24h', () => {
  assert.equal(localeClockFormat('en', 'US'), '12h');
  assert.equal(localeClockFormat('en', 'GB'), '24h');
  for (const [language, region] of [['de', 'DE'], ['fr', 'FR'], ['es', 'ES'], ['ja', 'JP'], ['de', 'US']] as const) {
    assert.equal(localeClockFormat(language, region), '24h', `${language}-${region}`);
  }
  assert.equal(localeClockFormat('en', null), '24h', 'C, C.UTF-8 or a bare language: ISO 8601');
  assert.equal(localeClockFormat('en', 'XA'), '24h');
});

test('the store keeps only what the person set; a whole object from an older app is all set', () => {
  const defaults = readDesktopSettings(undefined);
  const first = savedDesktopSettings(undefined, { ...defaults, tray: false }, { tray: false });
  assert.deepEqual(first, { tray: false });
  assert.equal(storedClockFormatSet(first), false);
  const second = savedDesktopSettings(first, { ...defaults, tray: false, clockFormat: '24h' }, { clockFormat: '24h' });
  assert.deepEqual(second, { tray: false, clockFormat: '24h' });
  assert.equal(storedClockFormatSet(second), true);
  assert.equal(storedClockFormatSet({ ...defaults }), true, 'an older app saved every field: its 24h was as set');
});
