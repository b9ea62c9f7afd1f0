/**
 * The window and invoiced blocks (docs/ui.md "Invoices"), in real Chromium: History marks a
 * block on an invoice with a lock and the number, and refuses to delete it with the one line,
 * shown at the row; on Invoices, *Void…* (a button beside the downloads) first says what voiding means, then voids: the row says
 * VOID, the lock goes, and the block can be deleted.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addClient, draftInvoice, issueInvoice, listInvoices, setActivityLedger } from '@tock/core';
import { openWindow, seriousAxeViolations, windowSuite } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z'); // Wednesday, 16:00 in Berlin
const ui = windowSuite({
  app: { clock: () => now },
  seed: ({ app }) => {
    const store = app.services.store;
    store.transaction(() => addClient(store, { name: 'Acme', rate: '90', currency: 'EUR' }, now, () => crypto.randomUUID()));
    app.services.tracker.logEntry({ name: 'Docs', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-18T09:00:00.000Z' });
    store.transaction(() => setActivityLedger(store, 'Docs', { client: 'Acme', billable: true }));
    const input = { client: 'Acme', from: '2026-11-01', to: '2026-11-18' };
    store.transaction(() => issueInvoice(store, draftInvoice(store, input, now, 'Europe/Berlin'), input, now, 'Europe/Berlin', () => crypto.randomUUID()));
  },
});

describe('invoiced blocks in the window', () => {
  it('locks an invoiced block in History, refuses its delete with the line, and frees it once its invoice is voided', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: 'Docs' });
    await row.getByTestId('invoice-badge').filter({ hasText: 'INV-2026-001' }).waitFor();
    await row.getByRole('button', { name: /^Delete/ }).click();
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('this block is on invoice INV-2026-001; void the invoice to change it').waitFor();
    assert.equal(ui.services.tracker.listBlocks(0, now).length, 1, 'nothing deleted');

    await openWindow(page, ui.app, '/invoices');
    const invoice = page.getByTestId('invoice-row').filter({ hasText: 'INV-2026-001' });
    // Void… is a button as wide as its word: on the invoice's line beside the downloads, and on a
    // phone under them — never a bar stretched over the row.
    // Its period once, with its year: `Nov 1 – 18, 2026`.
    await invoice.getByText('Nov 1 – 18, 2026 · 1 h · 90.00 EUR').waitFor();
    const voidButton = invoice.getByRole('button', { name: 'Void… INV-2026-001' });
    const csv = invoice.getByRole('button', { name: /^CSV/ });
    for (const width of [1200, 390]) {
      await page.setViewportSize({ width, height: 860 });
      const [box, csvBox, rowBox] = await Promise.all([voidButton.boundingBox(), csv.boundingBox(), invoice.boundingBox()]);
      assert.ok(box && csvBox && rowBox);
      assert.ok(box.width < 120, `${width} px: Void… is ${box.width} px wide in a row of ${rowBox.width}`);
      if (width === 1200) assert.ok(Math.abs(box.y + box.height / 2 - (csvBox.y + csvBox.height / 2)) < 2, `on the line of the downloads: ${JSON.stringify([box, csvBox])}`);
    }
    await page.setViewportSize({ width: 1200, height: 860 });
    await invoice.getByRole('button', { name: 'Void… INV-2026-001' }).click();
    await invoice.getByRole('alert').filter({ hasText: 'Voiding INV-2026-001 keeps its number, which is never given again, and marks it VOID' }).waitFor();
    assert.equal(listInvoices(ui.services.store)[0]?.state, 'issued', 'nothing voided by the first press');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await invoice.getByRole('button', { name: 'Void INV-2026-001' }).click();
    await invoice.getByTestId('invoice-void').waitFor();
    assert.equal(listInvoices(ui.services.store)[0]?.state, 'void');

    await openWindow(page, ui.app, '/history');
    const freed = page.getByTestId('history-row').filter({ hasText: 'Docs' });
    await freed.waitFor();
    assert.equal(await freed.getByTestId('invoice-badge').count(), 0, 'the lock went with the void');
  });
});
