/**
 * History's block editor, real Chromium against a real app in Europe/Berlin on a pinned clock
 * (docs/ui.md "History"): *Billable* back to following the activity's default, and the
 * session's breaks on the day after a session over midnight.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setActivityLedger, setBlockBillable } from '@tock/core';
import { ensureWindowBuilt, launchBrowser, openWindow, seriousAxeViolations, startTestApp, type TestApp, type TestBrowser } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z'); // Wednesday, 16:00 in Berlin
let t: TestApp;
let b: TestBrowser;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp({}, { clock: () => now });
  b = await launchBrowser();
});
after(async () => {
  await b?.close();
  await t?.stop();
});

const blockOf = (id: string) => t.app.services.tracker.listBlocks(0, now + 1).find((bl) => bl.id === id)!;

describe('Billable in History’s editor', () => {
  it('a block with its own flag goes back to following its activity’s default, and back to its own', async () => {
    const { page } = b;
    const { store, tracker } = t.app.services;
    // Monday 10:00–11:00 in Berlin, of an activity billable by default, with its own "not billable".
    const { entryID } = tracker.logEntry({ name: 'Consulting', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-16T10:00:00.000Z' });
    store.transaction(() => {
      setActivityLedger(store, 'Consulting', { billable: true });
      setBlockBillable(store, entryID, false);
    });
    assert.deepEqual([blockOf(entryID).billable, blockOf(entryID).ownBillable], [false, false]);

    await openWindow(page, t, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: '10:00–11:00' });
    assert.equal(await row.getByTestId('billable-badge').count(), 0);
    await row.getByRole('button', { name: 'Edit entry of Consulting' }).click();
    const billable = row.getByLabel('Billable', { exact: true });
    assert.equal(await billable.inputValue(), 'no');
    await billable.locator('option[value=follow]').filter({ hasText: 'Follow activity (billable)' }).waitFor({ state: 'attached' });
    assert.deepEqual(await seriousAxeViolations(page), []);

    // From the keyboard: the choice, then Enter in a field saves.
    await billable.focus();
    await billable.selectOption('follow');
    await row.getByLabel('Note').press('Enter');
    await row.getByTestId('billable-badge').waitFor();
    assert.deepEqual([blockOf(entryID).billable, blockOf(entryID).ownBillable], [true, undefined], 'it follows the activity');

    // Following, it changes with the activity's default.
    store.transaction(() => setActivityLedger(store, 'Consulting', { billable: false }));
    assert.equal(blockOf(entryID).billable, false);

    await row.getByRole('button', { name: 'Edit entry of Consulting' }).click();
    assert.equal(await billable.inputValue(), 'follow');
    await billable.locator('option[value=follow]').filter({ hasText: 'Follow activity (not billable)' }).waitFor({ state: 'attached' });
    await billable.selectOption('yes');
    await row.getByRole('button', { name: 'Save', exact: true }).click();
    await row.getByTestId('billable-badge').waitFor();
    assert.deepEqual([blockOf(entryID).billable, blockOf(entryID).ownBillable], [true, true]);
    tracker.deleteEntry(entryID);
  });
});
