/**
 * The CLI's catalogs (docs/i18n.md "The key check"): every language has English's keys, each
 * message parses as ICU with English's arguments and has the plural branches its language's
 * counts take; and the counts 0, 1, 2, 5 and 21 read as each language says them. A process
 * imports English and the one language it is asked for, no other (bench/README.md figure 9b).
 */
import assert from 'node:assert/strict';
import { registerHooks } from 'node:module';
import { describe, it } from 'node:test';
import { catalogProblems, type Language } from '@tock/i18n';

/** Every module this file's process loads from here on, by URL. */
const loadedUrls: string[] = [];
registerHooks({
  load: (url, context, next) => {
    loadedUrls.push(url);
    return next(url, context);
  },
});
const { cliCatalogs, cliMessages, loadCliMessages } = await import('../src/i18n/index.ts');

/** The languages whose CLI catalog modules this process has loaded. */
const loadedLanguages = (): string[] => [...new Set(loadedUrls.flatMap((url) => /\/cli\/src\/i18n\/([a-z]{2})\//.exec(url)?.[1] ?? []))].sort();

const COUNTS = [0, 1, 2, 5, 21];

describe('the CLI’s catalogs', () => {
  // First: the other tests import every language.
  it('are imported on demand: English at start, another language when it is asked for', async () => {
    assert.deepEqual(loadedLanguages(), ['en']);
    assert.equal(cliMessages('en-XA').locale, 'en-XA');
    assert.throws(() => cliMessages('de'), /not loaded/);
    assert.equal((await loadCliMessages('de'))('calendar.events', { count: 2 }), '2 Termine');
    assert.equal(cliMessages('de')('calendar.events', { count: 1 }), '1 Termin');
    assert.deepEqual(loadedLanguages(), ['de', 'en']);
  });

  it('have every key of English, with its arguments and the plurals each language needs', async () => {
    assert.deepEqual(catalogProblems(await cliCatalogs()), []);
    assert.deepEqual(loadedLanguages(), ['de', 'en', 'es', 'fr', 'ja']);
  });

  it('say 0, 1, 2, 5 and 21 by each language’s plural rules', async () => {
    await cliCatalogs();
    const said = (language: Language): string[] => COUNTS.map((count) => cliMessages(language)('calendar.events', { count }));
    assert.deepEqual(said('en'), ['0 events', '1 event', '2 events', '5 events', '21 events']);
    assert.deepEqual(said('de'), ['0 Termine', '1 Termin', '2 Termine', '5 Termine', '21 Termine']);
    // French counts 0 as one.
    assert.deepEqual(said('fr'), ['0 événement', '1 événement', '2 événements', '5 événements', '21 événements']);
    assert.deepEqual(said('es'), ['0 eventos', '1 evento', '2 eventos', '5 eventos', '21 eventos']);
    assert.deepEqual(said('ja'), ['予定 0 件', '予定 1 件', '予定 2 件', '予定 5 件', '予定 21 件']);
    const days = (language: Language): string[] => COUNTS.map((days) => cliMessages(language)('license.trial', { days, ends: 'X' }).split(/[;；。（(]/)[0] as string);
    assert.deepEqual(days('de').map((line) => /\d+ \S+/.exec(line)?.[0]), ['0 Tage', '1 Tag', '2 Tage', '5 Tage', '21 Tage']);
  });
});
