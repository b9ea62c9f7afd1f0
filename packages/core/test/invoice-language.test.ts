/**
 * An invoice's language (docs/i18n.md "Invoices"): the client's, else the person's setting
 * `language`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addClient, draftInvoice, setActivityLedger, setLedgerSetting } from '../src/index.ts';
import { fixture, sequentialIds } from './support.ts';

test("an invoice is in the client's language, else in the person's setting language", (t) => {
  const f = fixture(t, { now: '2026-11-30T12:00:00.000Z' });
  const next = sequentialIds();
  const newId = (): string => `c0000000-0000-4000-8000-${next().slice(-12)}`;
  addClient(f.store, { name: 'Lyon', rate: '85', currency: 'EUR', language: 'fr' }, 0, newId);
  addClient(f.store, { name: 'Berlin', rate: '85', currency: 'EUR' }, 0, newId);
  for (const [name, client] of [
    ['Site', 'Lyon'],
    ['Web', 'Berlin'],
  ] as const) {
    f.tracker.logEntry({ name, createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-03T11:00:00Z' });
    setActivityLedger(f.store, name, { client, billable: true });
  }
  const range = { from: '2026-11-01', to: '2026-11-30' };
  setLedgerSetting(f.store.settings, 'language', '"de"');
  assert.equal(draftInvoice(f.store, { client: 'Lyon', ...range }, f.clock(), 'UTC').document.language, 'fr');
  assert.equal(draftInvoice(f.store, { client: 'Berlin', ...range }, f.clock(), 'UTC').document.language, 'de');
  setLedgerSetting(f.store.settings, 'language', '"ja"');
  assert.equal(draftInvoice(f.store, { client: 'Berlin', ...range }, f.clock(), 'UTC').document.language, 'ja');
  // "system" is the language of the environment handed in (the app's), not the process's.
  setLedgerSetting(f.store.settings, 'language', '"system"');
  assert.equal(draftInvoice(f.store, { client: 'Berlin', ...range }, f.clock(), 'UTC', { LANG: 'es_ES.UTF-8' }).document.language, 'es');
  assert.equal(draftInvoice(f.store, { client: 'Berlin', ...range }, f.clock(), 'UTC', { LC_ALL: 'fr_FR.UTF-8', LANG: 'es_ES.UTF-8' }).document.language, 'fr');
});
