/**
 * Money you can trust in the window (docs/ui.md "Reports", "Invoices"), real Chromium against
 * a real app in Europe/Berlin on a pinned clock: a day billed in EUR and USD shows both amounts
 * on its row and in the total (`190.00 EUR + 240.00 USD` as `tock report` writes it, never a dash, never added together), and
 * the invoice preview of a period that overlaps an earlier invoice of the client carries a
 * notice and holds only the blocks on no invoice; a client's VAT ID, reverse charge and
 * invoice language are edited in the Clients screen, a bad language refused at its field; the
 * business's VAT rate and payment days, and the rounding's minimum, in Settings › Business.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callAdmin } from '@tock/admin';
import { addClient, draftInvoice, getLedgerSetting, issueInvoice, listClients, listInvoices, setActivityLedger } from '@tock/core';
import { homePaths } from '../src/home.ts';
import { openWindow, seriousAxeViolations, type TestBrowser, windowSuite } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z'); // Wednesday, 16:00 in Berlin
const ui = windowSuite({
  app: { clock: () => now },
  seed: ({ app }) => {
    const { store, tracker } = app.services;
    addClient(store, { name: 'Euro GmbH', rate: '95', currency: 'EUR' }, now, () => crypto.randomUUID());
    addClient(store, { name: 'Dollar Inc', rate: '120', currency: 'USD' }, now, () => crypto.randomUUID());
    // Tuesday: two hours for each client.
    tracker.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-17T10:00:00.000Z' });
    tracker.logEntry({ name: 'API', createIfMissing: true, durationMinutes: 120, endedAt: '2026-11-17T13:00:00.000Z' });
    setActivityLedger(store, 'Design', { client: 'Euro GmbH', billable: true });
    setActivityLedger(store, 'API', { client: 'Dollar Inc', billable: true });
  },
});

function tableCells(page: TestBrowser['page'], part: 'tbody' | 'tfoot'): Promise<string[][]> {
  return page.locator(`[data-testid="report-table"] ${part} tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));
}

describe('Every currency, everywhere', () => {
  it('shows a day billed in EUR and USD with both amounts on its row and in the total, never a dash', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/reports');
    await page.getByRole('radio', { name: 'Day', exact: true }).check();
    await page.locator('[data-testid="report-table"] th', { hasText: 'Billed' }).waitFor();
    await page.getByTestId('report-amounts').filter({ hasText: '190.00 EUR + 240.00 USD' }).waitFor();
    const rows = await tableCells(page, 'tbody');
    const billed = rows.filter((r) => r.at(-1) !== '–');
    assert.equal(billed.length, 1, JSON.stringify(rows));
    assert.equal(billed[0]?.at(-1), '190.00 EUR + 240.00 USD');
    assert.equal((await tableCells(page, 'tfoot'))[0]?.at(-1), '190.00 EUR + 240.00 USD');
    assert.deepEqual(await seriousAxeViolations(page), []);
  });
});

describe('An invoice a client accepts', () => {
  it('notes in the preview that the period overlaps an earlier invoice of the client, and previews only blocks on none', async () => {
    const { page } = ui;
    const { store, tracker } = ui.services;
    const first = { client: 'Euro GmbH', from: '2026-11-01', to: '2026-11-17' };
    store.transaction(() => issueInvoice(store, draftInvoice(store, first, now, 'Europe/Berlin'), first, now, 'Europe/Berlin', () => crypto.randomUUID()));
    tracker.logEntry({ name: 'Design', durationMinutes: 30, endedAt: '2026-11-18T10:00:00.000Z' });
    await openWindow(page, ui.app, '/invoices');
    await page.getByLabel('Client', { exact: true }).selectOption({ label: 'Euro GmbH' });
    await page.getByLabel('From', { exact: true }).fill('2026-11-10');
    await page.getByLabel('To', { exact: true }).fill('2026-11-18');
    await page.getByRole('button', { name: 'Preview' }).click();
    // 30 minutes: 0.50 h × 95.00 = 47.50.
    await page.getByRole('status').filter({ hasText: 'INV-2026-002 would have 1 line, 30 min billed, 47.50 EUR' }).waitFor();
    const note = page.getByTestId('invoice-overlap');
    await note.waitFor();
    assert.match((await note.textContent()) ?? '', /overlaps an earlier invoice of this client: INV-2026-001 \(2026-11-01 to 2026-11-17\); only blocks on no invoice are on this one/);
    const frame = page.frameLocator('[data-testid="invoice-preview"]');
    await frame.getByRole('cell', { name: '47.50 EUR', exact: true }).first().waitFor();
    assert.equal(await frame.locator('table').first().locator('tbody tr').count(), 1, 'one line: the half hour on no invoice');
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(listInvoices(store).map((i) => i.number), ['INV-2026-001'], 'a preview keeps nothing');
  });
});

describe("A client's invoice details", () => {
  it('sets VAT ID, reverse charge and language; a language Tock does not write is refused at its field and nothing changes', async () => {
    const { page } = ui;
    const { store } = ui.services;
    const euro = listClients(store).find((c) => c.name === 'Euro GmbH');
    assert.ok(euro);
    await openWindow(page, ui.app, '/clients');
    await page.getByRole('button', { name: 'Edit Euro GmbH' }).click();
    const language = page.locator(`#client-${euro.id}-language`);
    await language.fill('it');
    await page.locator(`#client-${euro.id}-taxID`).fill('DE811907980');
    await page.getByRole('button', { name: 'Save client' }).click();
    await page.locator(`#client-${euro.id}-language-error`).filter({ hasText: 'must be a BCP 47 language tag of en, de, fr, es, ja' }).waitFor();
    assert.equal(await language.getAttribute('aria-invalid'), 'true');
    assert.equal(listClients(store).find((c) => c.id === euro.id)?.taxID, null, 'nothing changed');

    await language.fill('fr');
    // Reverse charge without a VAT ID first: the row says its invoices need one.
    await page.locator(`#client-${euro.id}-taxID`).fill('');
    await page.locator(`#client-${euro.id}-reverseCharge`).check();
    await page.getByRole('button', { name: 'Save client' }).click();
    await page.getByTestId('client-needs-tax-id').filter({ hasText: 'Reverse charge: its invoices must name the client’s VAT ID. Edit to add it.' }).waitFor();
    await page.getByRole('button', { name: 'Edit Euro GmbH' }).click();
    await page.locator(`#client-${euro.id}-taxID`).fill('DE811907980');
    await page.getByRole('button', { name: 'Save client' }).click();
    await page.getByTestId('client-invoice-details').filter({ hasText: 'reverse charge · VAT ID DE811907980 · invoices in French' }).waitFor();
    assert.equal(await page.getByTestId('client-needs-tax-id').count(), 0, 'with its VAT ID the hint goes');
    // The rate and the details are one line with a separator (they ran together: `an hourreverse charge`).
    const row = page.getByTestId('client-row').filter({ hasText: 'Euro GmbH' });
    assert.equal((await row.locator('.row-main .muted').first().textContent())?.trim(), '95.00 EUR an hour · reverse charge · VAT ID DE811907980 · invoices in French');
    // In German the rate is money as the reports write it there, not the English decimal.
    const socket = homePaths(ui.app.home).adminSocket;
    try {
      await callAdmin(socket, 'POST /settings/set', { key: 'language', value: '"de"' });
      await row.getByText('95,00 € pro Stunde · Steuerschuldnerschaft des Leistungsempfängers · USt-IdNr. DE811907980 · Rechnungen auf Französisch').waitFor();
    } finally {
      await callAdmin(socket, 'POST /settings/set', { key: 'language', value: null });
    }
    const saved = listClients(store).find((c) => c.id === euro.id);
    assert.deepEqual([saved?.taxID, saved?.reverseCharge, saved?.taxRate, saved?.language], ['DE811907980', true, null, 'fr']);
    assert.deepEqual(await seriousAxeViolations(page), []);
  });
});

describe('Settings › Business: VAT, due date, minimum billed', () => {
  it('saves a VAT rate and payment days, refuses a VAT rate that is no percentage, and saves a minimum billed time', async () => {
    const { page } = ui;
    const { store } = ui.services;
    await openWindow(page, ui.app, '/settings/business');
    await page.getByLabel('Name').fill('Ana Lima');
    await page.locator('#business-taxRate').fill('nineteen');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.locator('#business-heading ~ form').getByText(/taxRate.*must be a percentage from 0 to 100/).waitFor();
    assert.equal(getLedgerSetting(store.settings, 'business'), null, 'nothing saved');
    await page.locator('#business-taxRate').fill('19');
    await page.locator('#business-paymentDays').fill('14');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.locator('#business-heading ~ form').getByText('Saved.').waitFor();
    assert.deepEqual(getLedgerSetting(store.settings, 'business'), { name: 'Ana Lima', address: '', taxID: '', paymentTerms: '', taxRate: 19, paymentDays: 14 });

    await page.getByLabel('Bill a block at least (minutes)').fill('15');
    await page.getByRole('button', { name: 'Save rounding' }).click();
    await page.locator('#rounding-heading ~ form').getByText('Saved.').waitFor();
    assert.deepEqual(getLedgerSetting(store.settings, 'rounding'), { mode: 'none', minutes: 1, per: 'block', minimumMinutes: 15 });
    assert.deepEqual(await seriousAxeViolations(page), []);
  });
});
