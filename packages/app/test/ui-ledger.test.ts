/**
 * The ledger in the window (issue 28 items 3–5), real Chromium against a real app in
 * Europe/Berlin on a pinned clock: clients added, refused (a rate `abc`, a currency `EURO`: the
 * app's line under the field, nothing added), edited and removed; an activity's client, rate,
 * billable default and budget (a budget `-1` refused, then a bar of used/budget); Settings ›
 * Business with the details, rounding and targets; Today's target and what is left. Axe on each.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listClients, getLedgerSetting } from '@tock/core';
import { ensureWindowBuilt, launchBrowser, openWindow, screenshot, seriousAxeViolations, startTestApp, type TestApp, type TestBrowser } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z'); // Wednesday, 16:00 in Berlin
let t: TestApp;
let b: TestBrowser;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp({}, { clock: () => now });
  t.app.services.tracker.logEntry({ name: 'Docs', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-18T09:00:00.000Z' });
  b = await launchBrowser();
});
after(async () => {
  await b?.close();
  await t?.stop();
});

const store = () => t.app.services.store;

describe('Clients', () => {
  it('refuses a bad rate and currency at their fields and adds nothing, then adds, edits and removes', async () => {
    const { page } = b;
    await openWindow(page, t, '/clients');
    await page.getByLabel('Name').fill('Acme');
    await page.getByLabel('Rate per hour (optional)').fill('abc');
    await page.getByLabel('Currency (optional)').fill('EURO');
    await page.getByRole('button', { name: 'Add client' }).click();
    await page.locator('#new-client-rate-error').waitFor();
    await page.locator('#new-client-currency-error').waitFor();
    assert.equal(await page.getByLabel('Rate per hour (optional)').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(listClients(store()), [], 'nothing added');
    assert.deepEqual(await seriousAxeViolations(page), []);

    await page.getByLabel('Rate per hour (optional)').fill('85.00');
    await page.getByLabel('Currency (optional)').fill('EUR');
    await page.getByRole('button', { name: 'Add client' }).click();
    await page.getByText('Added Acme.').waitFor();
    await page.getByTestId('client-row').getByText('85.00 EUR an hour').waitFor();

    await page.getByRole('button', { name: 'Edit Acme' }).click();
    const rate = page.locator(`#client-${listClients(store())[0]!.id}-rate`);
    await rate.fill('90');
    await page.getByRole('button', { name: 'Save client' }).click();
    await page.getByTestId('client-row').getByText('90.00 EUR an hour').waitFor();
    assert.equal(listClients(store())[0]!.rate, '90.00');

    await page.getByLabel('Name').fill('Old client');
    await page.getByRole('button', { name: 'Add client' }).click();
    await page.getByRole('button', { name: 'Remove Old client' }).click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByTestId('client-row').filter({ hasText: 'Old client' }).waitFor({ state: 'detached' });
    assert.deepEqual(listClients(store()).map((c) => c.name), ['Acme']);
    await screenshot(page, 'clients-light');
  });
});

describe('An activity’s billing', () => {
  it('sets client, rate, billable and budget; a budget of -1 is refused and nothing changes; the budget shows as a bar', async () => {
    const { page } = b;
    await openWindow(page, t, '/activities');
    await page.getByRole('button', { name: 'Billing of Docs' }).click();
    const form = page.getByTestId('billing-form');
    await form.getByLabel('Client').selectOption({ label: 'Acme' });
    await form.getByLabel('Billable').check();
    await form.getByLabel('Budget (hours)').fill('-1');
    await form.getByRole('button', { name: 'Save billing' }).click();
    await form.locator('[id$=-budget-error]').waitFor();
    const ledger = () => t.app.services.store.statement("SELECT client_id, billable, budget_hours FROM activities WHERE name = 'Docs'").get() as Record<string, unknown>;
    assert.deepEqual({ ...ledger() }, { client_id: null, billable: 0, budget_hours: null }, 'nothing changed');

    await form.getByLabel('Budget (hours)').fill('2');
    await form.getByRole('button', { name: 'Save billing' }).click();
    await page.getByTestId('budget').getByText('30 min of 2 h used (25 %)').waitFor();
    assert.equal(ledger().budget_hours, 2);
    assert.equal(ledger().billable, 1);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'activity-billing-light');
  });
});

describe('Settings › Business', () => {
  it('saves the details, the rounding and the targets; Today shows the day’s target and what is left', async () => {
    const { page } = b;
    await openWindow(page, t, '/settings/business');
    await page.getByLabel('Name').fill('Jo Example');
    await page.getByLabel('Tax ID').fill('DE123');
    await page.getByLabel('Payment terms').fill('14 days');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.locator('#business-heading ~ form').getByText('Saved.').waitFor();
    assert.equal((getLedgerSetting(store().settings, 'business') as { taxID: string }).taxID, 'DE123');

    await page.getByLabel('Round', { exact: true }).selectOption('up');
    await page.getByLabel('Step (minutes)').selectOption('15');
    await page.getByRole('button', { name: 'Save rounding' }).click();
    await page.locator('#rounding-heading ~ form').getByText('Saved.').waitFor();
    assert.deepEqual(getLedgerSetting(store().settings, 'rounding'), { mode: 'up', minutes: 15, per: 'block' });

    await page.getByLabel('Wednesday (hours)').fill('abc');
    await page.getByRole('button', { name: 'Save targets' }).click();
    await page.locator('#targets-error').filter({ hasText: 'Wednesday' }).waitFor();
    assert.equal(getLedgerSetting(store().settings, 'targets'), null, 'nothing saved');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) await page.getByLabel(`${day} (hours)`).fill('8');
    await page.getByRole('button', { name: 'Save targets' }).click();
    await page.locator('#targets-heading ~ form').getByText('Saved.').waitFor();
    assert.deepEqual(getLedgerSetting(store().settings, 'targets'), { mon: 8, tue: 8, wed: 8, thu: 8, fri: 8 });
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'settings-business-light');

    await openWindow(page, t, '/today');
    await page.getByTestId('day-target').filter({ hasText: 'Target 8 h · 7 h 30 min left' }).waitFor();
  });
});

describe('A block’s tags and billable flag (window API)', () => {
  it('sets the whole tag list and the flag; a tag with a control character is refused and nothing changes', async () => {
    const { page } = b;
    const id = t.app.services.tracker.listBlocks(0, now + 1)[0]!.id;
    const patch = (body: unknown) =>
      page.evaluate(
        async ([blockID, json]) => {
          const headers = { 'content-type': 'application/json', 'x-tock-session': sessionStorage.getItem('tock-session') ?? '' };
          const res = await fetch(`/api/blocks/${blockID}/ledger`, { method: 'PATCH', headers, body: json as string });
          return { status: res.status, body: (await res.json()) as { result?: { tags: string[] }; details?: { field: string }[] } };
        },
        [id, JSON.stringify(body)] as const,
      );
    const ok = await patch({ tags: ['review', 'urgent'], billable: false });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.result?.tags, ['review', 'urgent']);
    const bad = await patch({ tags: ['fine', 'bad\u0007tag'], billable: true });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details?.[0]?.field, 'tags');
    const block = t.app.services.tracker.listBlocks(0, now + 1)[0]!;
    assert.deepEqual([block.tags, block.billable], [['review', 'urgent'], false], 'nothing changed');
    const fewer = await patch({ tags: ['urgent'] });
    assert.deepEqual(fewer.body.result?.tags, ['urgent']);
  });
});

