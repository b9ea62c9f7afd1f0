/**
 * The CLI's catalogs (docs/i18n.md "The key check"): every language has English's keys, each
 * message parses as ICU with English's arguments and has the plural branches its language's
 * counts take; and the counts 0, 1, 2, 5 and 21 read as each language says them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogProblems, type Language } from '@tock/i18n';
import { CLI_CATALOGS, cliMessages } from '../src/i18n/index.ts';

const COUNTS = [0, 1, 2, 5, 21];

describe('the CLI’s catalogs', () => {
  it('have every key of English, with its arguments and the plurals each language needs', () => {
    assert.deepEqual(catalogProblems(CLI_CATALOGS), []);
  });

  it('say 0, 1, 2, 5 and 21 by each language’s plural rules', () => {
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
