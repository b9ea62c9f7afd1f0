/**
 * The setting `language`'s `"system"` is read from the app's environment, never the process's
 * (docs/i18n.md "Choosing the language"): the window's snapshot (its language and the week's
 * region), the page for a refused launch code, and an invoice to a client without a language.
 * The app is started under Japanese while the test's own process is not.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { addClient, setActivityLedger } from '@tock/core';
import { resolveLanguage } from '@tock/i18n';
import { startApp } from '../src/app.ts';
import { personDays } from '../src/person-days.ts';
import { snapshot } from '../src/ui/window-views.ts';
import { invoiceUseCases } from '../src/use-cases/invoices.ts';

const NOW = new Date(2026, 10, 24, 15).getTime();

describe('"system" is the app’s environment’s language', () => {
  const home = mkdtempSync(join(tmpdir(), 'tock-system-language-'));
  after(() => rmSync(home, { recursive: true, force: true }));

  it('in the window’s snapshot, the refused launch page and an invoice, whatever the process says', async () => {
    const env = { ...process.env, LANG: 'ja_JP.UTF-8', LC_ALL: '', LC_MESSAGES: '', TOCK_CREDENTIAL_STORE: 'file', TOCK_LICENSE_PUBLIC_KEY: '' };
    // The process's own language is not Japanese: a read of it would show here.
    assert.notEqual(resolveLanguage('system', process.env), 'ja');
    const app = await startApp({ home, clock: () => NOW, env });
    after(() => app.stop());

    const view = snapshot(app.services);
    assert.equal(view.language, 'ja');
    assert.deepEqual({ dayStartsAt: view.dayStartsAt, weekStart: view.weekStart }, personDays(app.services.store.settings, env));

    const refused = await fetch(new URL('/?k=not-a-code', app.uiOrigin));
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /<html lang="ja">/);

    const store = app.services.store;
    addClient(store, { name: 'Berlin', rate: '85', currency: 'EUR' }, 0, () => 'c0000000-0000-4000-8000-000000000001');
    app.services.tracker.logEntry({ name: 'Web', createIfMissing: true, durationMinutes: 60, endedAt: new Date(2026, 10, 23, 11).toISOString() });
    setActivityLedger(store, 'Web', { client: 'Berlin', billable: true });
    const preview = await invoiceUseCases(app.services).previewInvoice({ client: 'Berlin', from: '2026-11-01', to: '2026-11-24', format: 'csv' });
    assert.equal(preview.document.language, 'ja');
  });
});
