/**
 * The window follows the person's week and day (docs/data.md "Days and weeks") in a real
 * Chromium against a real app (Europe/Berlin, the app's clock fixed on Tuesday 24 November 2026,
 * 05:00): with weekStart "sun" History's week runs Sunday 22 to Saturday 28; with dayStartsAt
 * "04:00" a block 01:30–02:30 is Monday's, in History and out of Today's total.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openWindow, windowSuite } from './ui-support/harness.ts';

const now = Date.parse('2026-11-24T04:00:00.000Z'); // 05:00 in Berlin
const ui = windowSuite({
  app: { clock: () => now },
  seed: ({ app }) => {
    const { tracker, store } = app.services;
    tracker.logEntry({ name: 'Night', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-24T01:30:00.000Z' }); // 01:30–02:30
    tracker.logEntry({ name: 'Morning', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-24T03:50:00.000Z' }); // 04:20–04:50
    store.settings.set('weekStart', 'sun');
    store.settings.set('dayStartsAt', '04:00');
  },
});

/** The heading of the History day group that lists `activity`. */
async function dayOf(activity: string): Promise<string> {
  const { page } = ui;
  const group = page.locator('.day-group', { has: page.getByTestId('history-row').filter({ hasText: activity }) });
  return (await group.locator('h4 > span').first().textContent()) ?? '';
}

describe('the window with weekStart "sun" and dayStartsAt "04:00"', () => {
  it('History: the week starts on Sunday 22; the 02:30 block is on Monday, the 04:20 one on Tuesday', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    const heading = page.locator('#week-heading');
    await heading.filter({ hasText: /22.*28/ }).waitFor();
    assert.match(await dayOf('Night'), /Monday.*23|23.*Monday/);
    assert.match(await dayOf('Morning'), /Tuesday.*24|24.*Tuesday/);
  });

  it('Today: the total counts from 04:00, so the night block is not in it', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/today');
    await page.getByTestId('today-total').filter({ hasText: /^30 min$/ }).waitFor();
    await page.locator('[data-testid=timeline] g.bar.entry[data-activity="Morning"]').waitFor();
    assert.equal(await page.locator('[data-testid=timeline] g.bar.entry[data-activity="Night"]').count(), 0);
  });

  it('back to Monday and midnight: the week starts on Monday 23 and both blocks are Tuesday\'s', async () => {
    const { page } = ui;
    ui.services.store.settings.set('weekStart', 'mon');
    ui.services.store.settings.set('dayStartsAt', '00:00');
    await openWindow(page, ui.app, '/history');
    await page.locator('#week-heading').filter({ hasText: /23.*29/ }).waitFor();
    assert.match(await dayOf('Night'), /Tuesday/);
    await openWindow(page, ui.app, '/today');
    await page.getByTestId('today-total').filter({ hasText: /^1 h 30 min$/ }).waitFor();
  });
});
