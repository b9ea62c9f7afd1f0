/**
 * The History week's list of a block's breaks (src/screens/history/break-list.ts) in each
 * language: each break from the catalog, Japanese in full-width parentheses, the list in the
 * language's words from `Intl`, English's `and` too. The Japanese week's heading.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { breakList } from '../src/screens/history/break-list.ts';
import { setWindowLanguage, windowLanguageLoaded, windowMessages } from '../src/i18n/index.ts';
import { setAppClock, setClockFormat } from '../src/time.ts';

const BREAKS = [
  { startedAt: '2026-11-23T10:00:00.000Z', endedAt: '2026-11-23T10:30:00.000Z' },
  { startedAt: '2026-11-23T11:00:00.000Z', endedAt: null },
];
const NOW = Date.parse('2026-11-23T11:10:00.000Z');

async function inLanguage(language: string): Promise<string> {
  setWindowLanguage(language);
  await windowLanguageLoaded();
  return breakList(windowMessages(), BREAKS, NOW);
}

describe('the History week in each language', () => {
  it('lists a block’s breaks in the language’s words and punctuation', async () => {
    // The language's switch sets <html lang>: a stand-in for the page.
    (globalThis as { document?: unknown }).document ??= { documentElement: { lang: 'en' } };
    setAppClock('UTC', '2026-11-23T12:00:00.000Z');
    setClockFormat('24h');
    assert.equal(await inLanguage('en'), '10:00–10:30 (30 min) and 11:00–now (10 min)');
    // Intl's short durations keep French's number and unit together (a no-break space, U+00A0).
    assert.equal(await inLanguage('fr'), '10:00–10:30 (30\u00a0min) et 11:00–maintenant (10\u00a0min)');
    assert.equal(await inLanguage('es'), '10:00–10:30 (30 min) y 11:00–ahora (10 min)');
    assert.equal(await inLanguage('ja'), '10:00–10:30（30 分）、11:00–現在（10 分）');
    // The week's heading: no space between the day and its particle.
    assert.equal(windowMessages()('week.heading', { from: '11月23日', to: '11月29日' }), '11月23日～11月29日の週');
    assert.match(await inLanguage('en-XA'), /^\[.*~\] and \[.*~\]$/u);
    setWindowLanguage('en');
  });
});
