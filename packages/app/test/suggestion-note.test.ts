/**
 * The note of an accepted suggestion's entry (docs/desktop.md "Suggestions", docs/decisions.md
 * "An accepted suggestion's note is `from capture` in every language"): the same words whatever
 * the person's language, since the entry is what `POST /suggestions/accept` answers and machine
 * output never changes with the language. A real app in process on an injected clock, its
 * suggestions from window spans and a rule.
 */
process.env.TZ = 'UTC';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordSpan, setLedgerSetting } from '@tock/core';
import { startTestApp, type TestApp } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T12:00:00.000Z');
const at = (hhmm: string): number => Date.parse(`2026-11-18T${hhmm}:00.000Z`);

describe('an accepted suggestion’s note', () => {
  let app: TestApp;
  before(async () => {
    // The system's language is French: the setting `system` (the default) reads it.
    app = await startTestApp({ LANG: 'fr_FR.UTF-8', LC_ALL: '', LC_MESSAGES: '' }, { clock: () => now, capture: { focusSources: () => [], timers: false } });
    const { store, suggestions } = app.app.services;
    suggestions.addRule({ match: { app: 'firefox' }, activity: 'Research' });
    // Three stretches of one day, apart: three suggestions to accept one at a time.
    for (const [from, to] of [
      ['08:00', '08:30'],
      ['09:00', '09:30'],
      ['10:00', '10:30'],
    ] as const) {
      recordSpan(store, { startMs: at(from), endMs: at(to), source: 'window', app: 'firefox', title: null });
    }
  });
  after(() => app?.stop());

  const acceptFirst = () => {
    const { suggestions } = app.app.services;
    const first = suggestions.day('2026-11-18').suggestions[0];
    assert.ok(first, 'a suggestion is left to accept');
    return suggestions.accept({ id: first.id });
  };
  const storedNotes = (): (string | null)[] =>
    app.app.services.tracker
      .listBlocks(0, now)
      .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
      .map((b) => b.note ?? null);

  it('is `from capture` in German, in Japanese and in the system’s French', () => {
    const settings = app.app.services.store.settings;
    setLedgerSetting(settings, 'language', '"de"');
    assert.equal(acceptFirst().note, 'from capture');
    setLedgerSetting(settings, 'language', '"ja"');
    assert.equal(acceptFirst().note, 'from capture');
    setLedgerSetting(settings, 'language', 'null');
    assert.equal(acceptFirst().note, 'from capture', '"system" reads LANG, French here');
    assert.deepEqual(storedNotes(), ['from capture', 'from capture', 'from capture']);
  });
});
