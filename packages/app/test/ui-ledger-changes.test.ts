/**
 * The window's money follows the ledger wherever it changes (the feed's `ledger`): a client's
 * rate edited from the CLI (`tock clients edit`), a ledger setting set from the CLI (`tock
 * settings set rounding`), a client edited on another device and applied by sync — each shows
 * in an open Reports screen, and a client's rate in an activity's billing panel, without a
 * reload; so does the window's language. A setting the ledger does not read (the desktop's idle threshold, the admin socket's
 * `POST /desktop`) sends no `ledger`: the screen's clients are not read again for it. The
 * window's own edit is told once (its route's and the store's notices are one). Real Chromium
 * against a real app on a pinned clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callAdmin } from '@tock/admin';
import { addClient, editClient, listClients, setActivityLedger } from '@tock/core';
import { tempDirs, until } from '@tock/test-support';
import type { Page } from 'playwright-core';
import { homePaths } from '../src/home.ts';
import { onOneFolder } from './support/sync-apps.ts';
import { countRequests, openWindow, startTestApp, windowApi, windowSuite } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z'); // a Wednesday
const tempDir = tempDirs();

const ui = windowSuite({
  app: { clock: () => now },
  seed: ({ app }) => {
    const { store, tracker } = app.services;
    tracker.logEntry({ name: 'Docs', createIfMissing: true, durationMinutes: 45, endedAt: '2026-11-18T10:00:00.000Z' });
    store.transaction(() => addClient(store, { name: 'Acme', rate: '90', currency: 'EUR' }, now, () => crypto.randomUUID()));
    store.transaction(() => setActivityLedger(store, 'Docs', { client: 'Acme', billable: true }));
  },
});

/** The report's total row by client: its last cell is the amount. */
async function totalAmount(page: Page): Promise<string> {
  const cells = await page.locator('[data-testid="report-table"] tfoot tr td').allTextContents();
  return (cells.at(-1) ?? '').trim();
}

/** Waits until the report's total amount reads `amount`. */
async function amountShown(page: Page, amount: string): Promise<void> {
  await page.locator('[data-testid="report-table"] tfoot tr td').last().filter({ hasText: new RegExp(`^${amount.replace('.', '\\.')}$`) }).waitFor();
}


async function openReportByClient(page: Page): Promise<void> {
  await openWindow(page, ui.app, '/reports');
  await page.getByRole('radio', { name: 'Client', exact: true }).check();
  await page.getByTestId('report-row').first().filter({ hasText: 'Acme' }).waitFor();
}

describe('the ledger changed outside the window', () => {
  it('shows a client’s rate edited from the CLI and a rounding set from the CLI; a desktop setting sends no ledger', async () => {
    const { page } = ui;
    const socket = homePaths(ui.app.home).adminSocket;
    await openReportByClient(page);
    // 45 min at 90.00 EUR an hour.
    await amountShown(page, '67.50 EUR');
    const reads = countRequests(page, '/api/clients');
    try {
      await callAdmin(socket, 'POST /clients/edit', { client: 'Acme', rate: '120' });
      await amountShown(page, '90.00 EUR');
      assert.equal(reads.count, 1, `reads of the clients after a rate edited from the CLI: ${reads.count}`);
      await callAdmin(socket, 'POST /settings/set', { key: 'rounding', value: { mode: 'up', minutes: 60, per: 'block' } });
      // Billed: the 45 min rounded up to 1 h.
      await amountShown(page, '120.00 EUR');
      assert.equal(reads.count, 2, `reads of the clients after a rounding set from the CLI: ${reads.count}`);
      // Not the ledger's: nothing to reload. The feed keeps its order, so once the next
      // client edit shows, a `ledger` of the desktop setting would have been heard before it.
      await callAdmin(socket, 'POST /desktop', { idleThresholdMinutes: 7 });
      await callAdmin(socket, 'POST /clients/edit', { client: 'Acme', rate: '80' });
      await amountShown(page, '80.00 EUR');
      assert.equal(reads.count, 3, `reads of the clients after a desktop setting and a rate edited: ${reads.count}`);
      assert.equal(await totalAmount(page), '80.00 EUR');
    } finally {
      reads.stop();
    }
  });

  it('shows a client’s rate edited from the CLI in an open billing panel of its activity', async () => {
    const { page } = ui;
    const socket = homePaths(ui.app.home).adminSocket;
    await openWindow(page, ui.app, '/activities');
    await page.getByRole('button', { name: 'Billing of Docs', exact: true }).click();
    const rate = page.getByTestId('billing-form').getByLabel('Rate');
    const current = listClients(ui.services.store).find((c) => c.name === 'Acme')?.rate;
    await until('the client’s rate shown', async () => (await rate.getAttribute('placeholder')) === `${current} EUR (the client’s)`);
    await callAdmin(socket, 'POST /clients/edit', { client: 'Acme', rate: '99.5' });
    await until('the rate edited from the CLI shown', async () => (await rate.getAttribute('placeholder')) === '99.50 EUR (the client’s)');
  });

  it('tells the window’s own client edit and ledger setting once each, not twice', async () => {
    const { page } = ui;
    const acme = listClients(ui.services.store).find((c) => c.name === 'Acme');
    assert.ok(acme);
    ui.services.store.settings.delete('rounding');
    await openReportByClient(page);
    const api = await windowApi(ui.app);
    const reads = countRequests(page, '/api/clients');
    try {
      assert.equal((await api('PATCH', `/api/clients/${acme.id}`, { rate: '60' })).status, 200);
      await amountShown(page, '45.00 EUR');
      assert.equal((await api('PUT', '/api/settings/ledger/rounding', { value: { mode: 'up', minutes: 30, per: 'block' } })).status, 200);
      // 45 min rounded up to 1 h at 60.00.
      await amountShown(page, '60.00 EUR');
      assert.equal(reads.count, 2, `reads of the clients after the window's own rate and rounding: ${reads.count}`);
    } finally {
      reads.stop();
    }
  });

  describe('with another device', () => {
    it('shows a client’s rate edited on another device once sync applies it, where only the ledger reloads', async () => {
      const { page } = ui;
      const other = await startTestApp({}, { clock: () => now });
      try {
        const round = onOneFolder(ui.app.app, other.app, tempDir('tock-ui-ledger-changes-'));
        await round();
        // Clients reads them on `ledger` alone: sync's `blocks` (which reloads Reports and a
        // billing panel as well) does not show it.
        await openWindow(page, ui.app, '/clients');
        const acme = listClients(ui.services.store).find((c) => c.name === 'Acme');
        assert.ok(acme?.rate && acme.rate !== '150.00');
        await page.getByTestId('client-row').getByText(`${acme.rate} EUR an hour`).waitFor();
        const desk = other.app.services.store;
        desk.transaction(() => editClient(desk, 'Acme', { rate: '150' }));
        await round();
        await page.getByTestId('client-row').getByText('150.00 EUR an hour').waitFor();
      } finally {
        await other.stop();
      }
    });
  });

  it('redraws an open window in the language set from the CLI (`tock settings set language de`)', async () => {
    const { page } = ui;
    const socket = homePaths(ui.app.home).adminSocket;
    await openWindow(page, ui.app, '/reports');
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    try {
      await callAdmin(socket, 'POST /settings/set', { key: 'language', value: '"de"' });
      await page.getByRole('heading', { level: 1, name: 'Berichte' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    } finally {
      await callAdmin(socket, 'POST /settings/set', { key: 'language', value: null });
    }
  });
});
