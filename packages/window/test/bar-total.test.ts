/**
 * The totals above the chart bars (src/components/bar-total.ts) in each language: the window's
 * words for a duration (`45 分`, `45 Min.`), not `Intl`'s narrow style (Japanese `45m`,
 * `3h12m`); English keeps the CLI's `3h 12m`. Shown only where every total fits its bar's slot.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { barTotal, barTotals, textWidth } from '../src/components/bar-total.ts';
import { setWindowLanguage, windowLanguageLoaded } from '../src/i18n/index.ts';
import { duration } from '../src/time.ts';

async function inLanguage(language: string): Promise<void> {
  (globalThis as { document?: unknown }).document ??= { documentElement: { lang: 'en' } };
  setWindowLanguage(language);
  await windowLanguageLoaded();
}

describe('the totals above the chart bars', () => {
  it('say a day’s total as the rest of the window does in each language', async () => {
    await inLanguage('ja');
    assert.equal(barTotal(45 * 60), '45 分');
    assert.equal(barTotal(3 * 3600 + 12 * 60 + 59), '3 時間 12 分');
    await inLanguage('de');
    assert.equal(barTotal(45 * 60), '45 Min.');
    for (const language of ['fr', 'es', 'de', 'ja']) {
      await inLanguage(language);
      for (const seconds of [45 * 60, 3 * 3600 + 12 * 60, 8 * 3600]) assert.equal(barTotal(seconds), duration(seconds), `${language} ${seconds}`);
    }
    await inLanguage('en');
    assert.equal(barTotal(3 * 3600 + 36 * 60 + 30), '3h 36m');
  });

  it('are shown only where no two touch, counting wide characters as wide', async () => {
    await inLanguage('ja');
    assert.ok(textWidth('3 時間 12 分') > textWidth('3h 12m') + 20);
    // A phone's week (a slot of about 42 px): 45 分 beside 45 分 fits; beside 3 時間 12 分 it does
    // not, so none is shown; a day without time leaves its neighbours room.
    assert.deepEqual(barTotals([45 * 60, 45 * 60], 42), ['45 分', '45 分']);
    assert.equal(barTotals([45 * 60, 3 * 3600 + 12 * 60], 42), null);
    assert.deepEqual(barTotals([3 * 3600 + 12 * 60, 0, 3 * 3600 + 12 * 60, 0], 42), ['3 時間 12 分', '0 分', '3 時間 12 分', '0 分']);
    assert.deepEqual(barTotals([45 * 60, 3 * 3600 + 12 * 60], 130), ['45 分', '3 時間 12 分']);
    await inLanguage('de');
    assert.equal(barTotals([45 * 60, 45 * 60], 42), null);
    assert.deepEqual(barTotals([45 * 60, 0, 0], 42), ['45 Min.', '0 Min.', '0 Min.']);
    // The last day's total would run well past the chart's right edge.
    assert.equal(barTotals([0, 10 * 3600 + 45 * 60], 42), null);
    assert.deepEqual(barTotals([45 * 60, 45 * 60], 130), ['45 Min.', '45 Min.']);
    await inLanguage('en');
    assert.deepEqual(barTotals([3 * 3600 + 36 * 60, 3 * 3600 + 36 * 60], 42), ['3h 36m', '3h 36m']);
    // Over two weeks of days: no totals, however wide.
    assert.equal(barTotals(Array.from({ length: 15 }, () => 3600), 200), null);
  });
});
