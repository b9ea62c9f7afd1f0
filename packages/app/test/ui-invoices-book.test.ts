/**
 * One book in the window (docs/ui.md "Invoices", docs/sync.md "One book"), in real Chromium: on
 * a device of the sync folder that does not issue invoices, the Invoices screen says which
 * device does, offers no way to create or void one, and still lists the invoices (issued on
 * the book's device and synced here) with their downloads.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { addClient, setActivityLedger } from '@tock/core';
import { NOON, onOneFolder, ZONE } from './support/sync-apps.ts';
import { openWindow, seriousAxeViolations, startTestApp, type TestApp, windowApi, windowSuite } from './ui-support/harness.ts';
import { tempDirs } from '@tock/test-support';

const tempDir = tempDirs();
const DAY = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(NOON);
const NUMBER = `INV-${DAY.slice(0, 4)}-001`;
let laptop: TestApp | undefined;

// The window's app is "desktop"; "laptop" issues the first invoice with sync on, so it keeps the book.
const ui = windowSuite({
  env: { TOCK_LICENSE_PUBLIC_KEY: '' },
  app: { clock: () => NOON },
  seed: async (desktop) => {
    laptop = await startTestApp({ TOCK_LICENSE_PUBLIC_KEY: '' }, { clock: () => NOON });
    const { store, tracker } = laptop.app.services;
    const sync = onOneFolder(laptop.app, desktop.app, tempDir('tock-ui-book-folder-'));
    store.transaction(() => addClient(store, { name: 'Acme', rate: '90', currency: 'EUR' }, NOON, () => crypto.randomUUID()));
    tracker.logEntry({ name: 'Docs', createIfMissing: true, durationMinutes: 60, endedAt: new Date(NOON - 3_600_000).toISOString() });
    store.transaction(() => setActivityLedger(store, 'Docs', { client: 'Acme', billable: true }));
    await sync();
    const issued = await (await windowApi(laptop))('POST', '/api/invoices', { client: 'Acme', from: DAY, to: DAY });
    assert.equal(issued.status, 200, JSON.stringify(issued.json));
    await sync();
  },
});

after(async () => {
  await laptop?.stop();
});

describe('invoices on a device that does not keep the book', () => {
  it('names the book’s device, offers no Create and no Void, and lists the synced invoice', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/invoices');
    await page.getByTestId('invoice-book').filter({ hasText: 'Invoices are issued on “laptop”: create and void them there' }).waitFor();
    const row = page.getByTestId('invoice-row').filter({ hasText: NUMBER });
    await row.waitFor();
    assert.equal(await page.getByRole('button', { name: /^Create/ }).count(), 0, 'no Create');
    assert.equal(await page.getByRole('button', { name: /^Preview/ }).count(), 0, 'no Preview');
    assert.equal(await row.getByRole('button', { name: /^Void/ }).count(), 0, 'no Void');
    assert.equal(await row.getByRole('button', { name: /PDF/ }).count(), 1, 'its downloads stay');
    assert.deepEqual(await seriousAxeViolations(page), []);
  });
});
