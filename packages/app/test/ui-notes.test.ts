/**
 * Notes on sessions in the window (issue 31), in real Chromium on a clock fixed at Wednesday
 * 18 November 2026 in Europe/Berlin: a note typed with a start is kept with the new session and
 * shown in Today while it runs; History edits a session's note and removes it when emptied.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blur, openWindow, screenshot, seriousAxeViolations, tabTo, todaySettled, windowSuite } from './ui-support/harness.ts';

let now = Date.parse('2026-11-18T08:00:00.000Z');
const ui = windowSuite({
  app: { clock: () => now },
  browser: { locale: 'en-US' },
  seed: ({ app }) => {
    app.services.tracker.createActivity('Design');
  },
});

const running = () => {
  const { tracker } = ui.services;
  return tracker.listBlocks(now - 86_400_000, now + 1).find((x) => x.kind === 'session' && x.endedAt === null);
};

describe('notes on sessions', () => {
  it('a note typed with a start goes with the new session and shows in Today', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    await blur(page);
    await tabTo(page, '#start-activity');
    await page.keyboard.type('Desi');
    await tabTo(page, '#start-note');
    await page.keyboard.type('Mock-ups for the login page');
    // Enter in the note field starts what Enter in the activity field would: the best match.
    await page.keyboard.press('Enter');
    await page.getByTestId('current-activity').filter({ hasText: 'Design' }).waitFor();
    await page.getByTestId('current-note').filter({ hasText: 'Mock-ups for the login page' }).waitFor();
    assert.equal(running()?.activity.activityName, 'Design');
    assert.equal(running()?.note, 'Mock-ups for the login page');
    // The feed can show the session before the start's answer, which empties the field, comes.
    await todaySettled(page);
    assert.equal(await page.locator('#start-note').inputValue(), '', 'the field empties after the start');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'notes-today');
  });

  it('starting the running activity with a note replaces its note; without one keeps it', async () => {
    const { page } = ui;
    await page.locator('#start-activity').fill('Design');
    await page.locator('#start-note').fill('Login page, second round');
    await page.locator('#start-activity').press('Enter');
    await page.getByTestId('current-note').filter({ hasText: 'Login page, second round' }).waitFor();
    assert.equal(running()?.note, 'Login page, second round');
  });

  it('History edits the note of a session and removes it when emptied', async () => {
    const { page } = ui;
    now = Date.parse('2026-11-18T09:00:00.000Z');
    ui.services.tracker.stopActivity();
    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: 'Design' });
    await row.getByText('Login page, second round').waitFor();
    await row.getByRole('button', { name: 'Edit session of Design' }).click();
    const field = row.getByLabel('Note');
    assert.equal(await field.inputValue(), 'Login page, second round');
    await field.fill('Login page: final mock-ups');
    await row.getByRole('button', { name: 'Save' }).click();
    await row.locator('.note').filter({ hasText: 'Login page: final mock-ups' }).waitFor();
    const session = () => ui.services.tracker.listBlocks(Date.parse('2026-11-18T00:00:00.000Z'), now).find((x) => x.kind === 'session');
    assert.equal(session()?.note, 'Login page: final mock-ups');
    assert.equal(session()?.endedAt, '2026-11-18T09:00:00.000Z', 'the times are as they were');
    await screenshot(page, 'notes-history');

    await row.getByRole('button', { name: 'Edit session of Design' }).click();
    await row.getByLabel('Note').fill('');
    await row.getByRole('button', { name: 'Save' }).click();
    await row.locator('.note').waitFor({ state: 'detached' });
    assert.equal(session()?.note, null);
  });
});
