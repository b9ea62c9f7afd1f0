/**
 * The ledger in the window (issue 28 items 3–5), real Chromium against a real app in
 * Europe/Berlin on a pinned clock: clients added, refused (a rate `abc`, a currency `EURO`: the
 * app's line under the field, nothing added), edited and removed; an activity's client, rate,
 * billable default and budget (a budget `-1` refused, then a bar of used/budget); Settings ›
 * Business with the details, rounding and targets; Today's target and what is left; Reports of
 * one client or of the time without one. Axe on each.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { buildReport, getLedgerSetting, listClients, listInvoices, reportCsv, tagBlock } from '@tock/core';
import { blur, openWindow, rawRequest, screenshot, seriousAxeViolations, tabTo, type TestBrowser, windowSession, windowSuite } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z'); // Wednesday, 16:00 in Berlin
const ui = windowSuite({
  app: { clock: () => now },
  keepShortSessions: true,
  seed: ({ app }) => {
    app.services.tracker.logEntry({ name: 'Docs', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-18T09:00:00.000Z' });
  },
});

const store = () => ui.services.store;

describe('Clients', () => {
  it('refuses a bad rate and currency at their fields and adds nothing, then adds, edits and removes', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/clients');
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
    const { page } = ui;
    await openWindow(page, ui.app, '/activities');
    await page.getByRole('button', { name: 'Billing of Docs' }).click();
    const form = page.getByTestId('billing-form');
    assert.equal(await form.getByLabel('Billable').isChecked(), false, 'not billable until said');
    await form.getByLabel('Client').selectOption({ label: 'Acme' });
    // A client for an activity that had none ticks Billable in the form, before anything is saved.
    assert.equal(await form.getByLabel('Billable').isChecked(), true, 'choosing a client ticks Billable');
    assert.equal(await form.getByLabel('Rate per hour').getAttribute('placeholder'), '90.00 EUR (the client’s)', 'the client’s rate with its currency');
    await form.getByLabel('Budget (hours)').fill('-1');
    await form.getByRole('button', { name: 'Save billing' }).click();
    await form.locator('[id$=-budget-error]').waitFor();
    const ledger = () => ui.services.store.statement("SELECT client_id, billable, budget_hours FROM activities WHERE name = 'Docs'").get() as Record<string, unknown>;
    assert.deepEqual({ ...ledger() }, { client_id: null, billable: 0, budget_hours: null }, 'nothing changed');

    // 20 min of Docs inside its 30 min (09:30–10:00): core's count takes the shared time once.
    const inside = ui.services.tracker.logEntry({ name: 'Docs', durationMinutes: 20, endedAt: '2026-11-18T08:55:00.000Z' });
    await form.getByLabel('Budget (hours)').fill('2');
    await form.getByRole('button', { name: 'Save billing' }).click();
    await page.getByTestId('budget').getByText('30 min of 2 h used (25 %)').waitFor();
    assert.equal(ledger().budget_hours, 2);
    assert.equal(ledger().billable, 1);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'activity-billing-light');
    ui.services.tracker.deleteEntry(inside.entryID);
  });
});

describe('Settings › Business', () => {
  it('saves the details, the rounding and the targets; Today shows the day’s target and what is left', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/business');
    await page.getByLabel('Name').fill('Jo Example');
    await page.getByLabel('VAT ID', { exact: true }).fill('DE123');
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

    await openWindow(page, ui.app, '/today');
    await page.getByTestId('day-target').filter({ hasText: 'Target 8 h · 7 h 30 min left' }).waitFor();
  });
});

describe('A block’s tags and billable flag (window API)', () => {
  it('sets the whole tag list and the flag; a tag with a control character is refused and nothing changes', async () => {
    const { page } = ui;
    const id = ui.services.tracker.listBlocks(0, now + 1)[0]!.id;
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
    const block = ui.services.tracker.listBlocks(0, now + 1)[0]!;
    assert.deepEqual([block.tags, block.billable], [['review', 'urgent'], false], 'nothing changed');
    const fewer = await patch({ tags: ['urgent'] });
    assert.deepEqual(fewer.body.result?.tags, ['urgent']);
  });
});


describe('Reports with the ledger, and the week’s balance', () => {
  it('groups by client and by tag, filters billable time, shows billed time and amounts that add up; History shows the balance', async () => {
    const { page } = ui;
    const { tracker } = ui.services;
    // Tuesday: 45 min of Docs (Acme at 90.00 EUR, billable by default) tagged review; Wednesday: 20 min without a client.
    tracker.logEntry({ name: 'Docs', durationMinutes: 45, endedAt: '2026-11-17T10:00:00.000Z' });
    tracker.logEntry({ name: 'Internal', createIfMissing: true, durationMinutes: 20, endedAt: '2026-11-18T11:00:00.000Z' });
    const tuesday = tracker.listBlocks(0, now + 1).find((bl) => bl.startedAt.startsWith('2026-11-17'))!;
    tagBlock(store(), tuesday.id, ['review']);

    await openWindow(page, ui.app, '/reports');
    await page.getByRole('radio', { name: 'Client', exact: true }).check();
    const expected = buildReport(store(), { from: '2026-11-16', to: '2026-11-22', by: 'client' }, now, 'Europe/Berlin');
    assert.deepEqual(
      expected.rows.map((r) => [(r as { clientName: string | null }).clientName, r.seconds, r.billedSeconds, r.amount]),
      [['Acme', 75 * 60, 45 * 60, '67.50'], [null, 20 * 60, 0, null]],
    );
    await page.locator('[data-testid="report-table"] th', { hasText: 'Billed' }).waitFor();
    await page.getByTestId('report-row').first().filter({ hasText: 'Acme' }).waitFor();
    const rows = await tableCells(page, 'tbody');
    assert.deepEqual(rows[0], ['Acme', '1 h 15 min', '1.25', '79 %', '45 min', '67.50 EUR']);
    assert.deepEqual(rows[1], ['No client', '20 min', '0.33', '21 %', '0 min', '–']);
    assert.deepEqual(await tableCells(page, 'tfoot'), [['Total', '1 h 35 min', '1.58', '100 %', '45 min', '67.50 EUR']]);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'reports-by-client-light');

    await page.getByRole('radio', { name: 'Billable', exact: true }).check();
    await page.getByTestId('report-total').filter({ hasText: /^45 min$/ }).waitFor();
    assert.deepEqual(await tableCells(page, 'tbody'), [['Acme', '45 min', '0.75', '100 %', '45 min', '67.50 EUR']]);

    await page.getByRole('radio', { name: 'Not billable', exact: true }).check();
    await page.getByTestId('report-total').filter({ hasText: /^50 min$/ }).waitFor();
    await page.getByRole('radio', { name: 'All', exact: true }).check();
    await page.getByRole('radio', { name: 'Tag', exact: true }).check();
    await page.getByTestId('report-row').filter({ hasText: 'review' }).waitFor();
    assert.deepEqual(await tableCells(page, 'tbody'), [
      ['review', '45 min', '0.75', '47 %', '45 min', '67.50 EUR'],
      ['urgent', '30 min', '0.50', '32 %', '0 min', '–'],
      ['No tag', '20 min', '0.33', '21 %', '0 min', '–'],
    ]);
    // The rows add up to the total as shown (no overlap here: each block carries one tag at most).
    assert.deepEqual((await tableCells(page, 'tfoot'))[0]?.slice(0, 3), ['Total', '1 h 35 min', '1.58']);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'reports-by-tag-light');

    // Targets 8 h Monday to Friday; Monday to Wednesday so far is 24 h, 1 h 35 min worked.
    await openWindow(page, ui.app, '/history');
    await page.getByTestId('week-balance').filter({ hasText: 'Balance −22 h 25 min · target 24 h so far' }).waitFor();
    await screenshot(page, 'history-balance-light');
  });
});

describe('Reports of one client', () => {
  it('the client picker keeps one client’s time, or the time without a client, and the report CSV follows', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/reports');
    await page.getByTestId('report-total').filter({ hasText: /^1 h 35 min$/ }).waitFor();
    const acme = listClients(store()).find((c) => c.name === 'Acme')!;
    const week = { from: '2026-11-16', to: '2026-11-22' };
    const picker = page.getByLabel('For client');
    assert.deepEqual(await picker.locator('option').allTextContents(), ['All clients', 'Acme', 'No client']);

    await picker.selectOption({ label: 'Acme' });
    await page.getByTestId('report-total').filter({ hasText: /^1 h 15 min$/ }).waitFor();
    const onlyAcme = buildReport(store(), { ...week, client: acme.id }, now, 'Europe/Berlin');
    assert.equal(onlyAcme.totalSeconds, 75 * 60);
    assert.deepEqual(await tableCells(page, 'tbody'), [['Docs', '1 h 15 min', '1.25', '100 %', '45 min', '67.50 EUR']]);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-report').click()]);
    assert.equal(readFileSync(await file.path(), 'utf8'), reportCsv(onlyAcme, 'activity'));
    assert.deepEqual(await seriousAxeViolations(page), []);

    await picker.selectOption({ label: 'No client' });
    await page.getByTestId('report-total').filter({ hasText: /^20 min$/ }).waitFor();
    assert.deepEqual((await tableCells(page, 'tbody')).map((r) => r.slice(0, 2)), [['Internal', '20 min']]);
    assert.equal(buildReport(store(), { ...week, client: 'none' }, now, 'Europe/Berlin').totalSeconds, 20 * 60);

    // By client, the one client's row; every client again gives the whole week.
    await picker.selectOption({ label: 'Acme' });
    await page.getByRole('radio', { name: 'Client', exact: true }).check();
    await page.getByTestId('report-row').filter({ hasText: 'Acme' }).waitFor();
    assert.deepEqual((await tableCells(page, 'tbody')).map((r) => r[0]), ['Acme']);
    await picker.selectOption({ label: 'All clients' });
    await page.getByTestId('report-total').filter({ hasText: /^1 h 35 min$/ }).waitFor();
    await page.getByTestId('report-row').filter({ hasText: 'No client' }).waitFor();
    await screenshot(page, 'reports-client-picker-light');
  });

  it('a client that is not there is refused with one line naming the field', async () => {
    const session = await windowSession(ui.app);
    const host = { host: `127.0.0.1:${ui.app.port}` };
    const answer = await rawRequest(ui.app.port, 'GET', '/api/report?period=week&client=00000000-0000-4000-8000-000000000000', { ...host, ...session });
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.body).details, [{ field: 'client', message: 'no client has this ID (removed?); choose one of the clients listed', rule: 'clientRemoved' }]);
  });
});

describe('Tags and billable in History’s editor', () => {
  it('a tag with a control character is refused under Tags with nothing changed; then tags and billable are saved and shown', async () => {
    const { page } = ui;
    const tuesday = () => ui.services.tracker.listBlocks(0, now + 1).find((bl) => bl.startedAt.startsWith('2026-11-17'))!;
    assert.deepEqual([tuesday().tags, tuesday().billable], [['review'], true]);
    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: '10:15–11:00' });
    await row.getByTestId('tag-badge').filter({ hasText: 'review' }).waitFor();
    await row.getByTestId('billable-badge').waitFor();
    await row.getByRole('button', { name: 'Edit entry of Docs' }).click();
    const tags = row.getByLabel('Tags');
    assert.deepEqual(await row.getByTestId('tag-chip').allTextContents(), ['review×Remove the tag review']);
    assert.equal(await tags.inputValue(), '');
    await tags.fill('review, bad\u0007tag');
    await row.getByLabel('Billable', { exact: true }).selectOption('no');
    await row.getByLabel('From').fill('10:00');
    await row.getByRole('button', { name: 'Save', exact: true }).click();
    await row.locator('[id$=-tags-error]').filter({ hasText: /control characters/ }).waitFor();
    assert.equal(await tags.getAttribute('aria-invalid'), 'true');
    assert.deepEqual([tuesday().tags, tuesday().billable, tuesday().startedAt], [['review'], true, '2026-11-17T09:15:00.000Z'], 'nothing changed');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'history-tags-refused-light');

    await tags.fill('review, client call');
    await row.getByRole('button', { name: 'Save', exact: true }).click();
    const saved = page.getByTestId('history-row').filter({ hasText: '10:00–11:00' });
    await saved.getByTestId('tag-badge').filter({ hasText: 'client call' }).waitFor();
    assert.equal(await saved.getByTestId('billable-badge').count(), 0);
    assert.deepEqual([tuesday().tags, tuesday().billable, tuesday().startedAt], [['review', 'client call'], false, '2026-11-17T09:00:00.000Z']);
    await screenshot(page, 'history-tags-light');
  });
});

describe('A session’s breaks in History’s editor (issue 31)', () => {
  it('lists the breaks; an edit moves one, a break past the session’s end is refused at its field with nothing changed, one is added and one deleted', async () => {
    const { page } = ui;
    const { tracker } = ui.services;
    // Monday 09:00–12:00 in Berlin, a break 10:00–10:15.
    tracker.startActivity({ name: 'Design', createIfMissing: true });
    tracker.stopActivity();
    const sessionID = tracker.listBlocks(0, now + 1).find((bl) => bl.kind === 'session')!.id;
    tracker.updateSession(sessionID, { startedAt: '2026-11-16T08:00:00.000Z', endedAt: '2026-11-16T11:00:00.000Z' });
    tracker.addBreak(sessionID, { startedAt: '2026-11-16T09:00:00.000Z', endedAt: '2026-11-16T09:15:00.000Z' });
    const breaks = () => tracker.listBlocks(0, now + 1).find((bl) => bl.id === sessionID)!.breaks.map((br) => [br.startedAt.slice(11, 16), br.endedAt?.slice(11, 16)]);

    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: '09:00–12:00' });
    await row.getByRole('button', { name: 'Edit session of Design' }).click();
    const editor = row.getByTestId('breaks-editor');
    await editor.getByTestId('break-row').filter({ hasText: '10:00–10:15' }).waitFor();

    await editor.getByRole('button', { name: 'Edit the break 10:00–10:15 of the session of Design' }).click();
    const editForm = editor.getByRole('form', { name: 'Edit the break 10:00–10:15' });
    await editForm.getByLabel('Break to').fill('10:30');
    await editForm.getByRole('button', { name: 'Save break' }).click();
    await editor.getByTestId('break-row').filter({ hasText: '10:00–10:30' }).waitFor();
    assert.deepEqual(breaks(), [['09:00', '09:30']]);

    // From the keyboard: the Add a break form's fields and button.
    const add = editor.getByRole('form', { name: 'Add a break' });
    await add.getByLabel('Break from').focus();
    await page.keyboard.type('11:50');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12:30');
    await page.keyboard.press('Enter');
    await add.locator('[id$=-to-error]').filter({ hasText: 'must not be after the session ends' }).waitFor();
    assert.equal(await add.getByLabel('Break to').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(breaks(), [['09:00', '09:30']], 'nothing changed');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'history-break-refused-light');

    await add.getByLabel('Break from').fill('11:00');
    await add.getByLabel('Break to').fill('11:10');
    await add.getByRole('button', { name: 'Add a break' }).click();
    await editor.getByTestId('break-row').filter({ hasText: '11:00–11:10' }).waitFor();
    assert.deepEqual(breaks(), [['09:00', '09:30'], ['10:00', '10:10']]);
    await row.getByTestId('break-list').filter({ hasText: 'Breaks 10:00–10:30 (30 min) and 11:00–11:10 (10 min), not counted' }).waitFor();
    await screenshot(page, 'history-breaks-light');

    await editor.getByRole('button', { name: 'Delete the break 10:00–10:30 of the session of Design' }).click();
    await editor.getByTestId('break-row').filter({ hasText: '10:00–10:30' }).waitFor({ state: 'detached' });
    assert.deepEqual(breaks(), [['10:00', '10:10']]);
    await row.locator('.dur').first().filter({ hasText: '2 h 50 min' }).waitFor();
  });
});

describe('Invoices', () => {
  it('previews in a sandboxed frame, refuses a range with nothing to invoice at the range, creates one and downloads it again', async () => {
    const { page } = ui;
    // Acme's billable time in November: an hour of Docs at 90.00 EUR on Monday (the others were made not billable).
    ui.services.tracker.logEntry({ name: 'Docs', durationMinutes: 60, endedAt: '2026-11-16T07:00:00.000Z' });
    await openWindow(page, ui.app, '/invoices');
    const from = page.getByLabel('From', { exact: true });
    await from.fill('2026-10-01');
    await page.getByLabel('To', { exact: true }).fill('2026-10-31');
    // From the keyboard: Enter in a field previews.
    await page.getByLabel('To', { exact: true }).press('Enter');
    await page.locator('#invoice-range-error').filter({ hasText: 'nothing to invoice for Acme from 2026-10-01 to 2026-10-31' }).waitFor();
    // The window points at its own list, never at a command of the CLI (issue 37).
    assert.doesNotMatch((await page.locator('#invoice-range-error').textContent()) ?? '', /\btock\b/);
    assert.match((await page.locator('#invoice-range-error').textContent()) ?? '', /the issued invoices list says which are/);
    assert.equal(await from.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByTestId('invoice-preview').count(), 0);

    await from.fill('2026-11-01');
    await page.getByLabel('To', { exact: true }).fill('2026-11-18');
    await blur(page);
    await tabTo(page, 'button', { text: 'Preview' });
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'INV-2026-001 would have 1 line, 1 h billed, 90.00 EUR' }).waitFor();
    const frame = page.frameLocator('[data-testid="invoice-preview"]');
    await frame.getByText('INVOICE', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('invoice-preview').getAttribute('sandbox'), '');
    // The invoice's own stylesheet applies inside the frame (the window's CSP allows it by hash).
    assert.equal(await frame.locator('th').first().evaluate((th) => getComputedStyle(th).backgroundColor), 'rgb(238, 240, 243)');
    assert.deepEqual(listInvoices(store()), [], 'a preview keeps nothing');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'invoices-preview-light');

    await page.getByRole('button', { name: 'Create INV-2026-001' }).click();
    await page.getByRole('status').filter({ hasText: 'Issued INV-2026-001: 90.00 EUR.' }).waitFor();
    await page.getByTestId('invoice-row').filter({ hasText: 'INV-2026-001' }).waitFor();
    assert.deepEqual(listInvoices(store()).map((i) => [i.number, i.clientName, i.lines]), [['INV-2026-001', 'Acme', 1]]);

    const row = page.getByTestId('invoice-row').filter({ hasText: 'INV-2026-001' });
    const [pdf] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'PDF of INV-2026-001' }).click()]);
    assert.equal(pdf.suggestedFilename(), 'INV-2026-001.pdf');
    assert.equal(readFileSync((await pdf.path()) as string).subarray(0, 5).toString(), '%PDF-');
    const [csv] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'CSV of INV-2026-001' }).click()]);
    assert.match(readFileSync((await csv.path()) as string, 'utf8'), /Docs/);

    // Its block is on the invoice now: the same range has nothing left.
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('#invoice-range-error').filter({ hasText: 'nothing to invoice' }).waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'invoices-light');
  });
});

/** A report table's rows as text cells. */
function tableCells(page: TestBrowser['page'], part: 'tbody' | 'tfoot'): Promise<string[][]> {
  return page.locator(`[data-testid="report-table"] ${part} tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));
}
