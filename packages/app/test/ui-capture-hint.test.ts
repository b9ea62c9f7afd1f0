/**
 * Today's hint that Tock can suggest forgotten time (docs/ui.md "Today"), in a real Chromium
 * against a real app: shown on a new store with a link to Settings › Capture; gone while windows
 * are recorded, editors are on or a calendar is added; hidden from the keyboard for good in this
 * browser (docs/decisions.md "A new user's first day") and shown again in
 * another; in German; it fits at 390 and 1280 px, light and dark, and axe finds nothing serious.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setLedgerSetting } from '@tock/core';
import { tempDirs } from '@tock/test-support';
import type { Page } from 'playwright-core';
import { blur, countRequests, launchBrowser, openWindow, screenshot, seriousAxeViolations, showScreen, tabTo, windowApi, windowSuite } from './ui-support/harness.ts';

const tempDir = tempDirs();
// No desktop probed: a focus source that works and records nothing, so turning windows on changes only the setting.
const ui = windowSuite({ app: { capture: { focusSources: () => [{ id: 'x11', name: 'the test’s X11', check: async () => null, follow: async () => ({ stop: () => {} }) }], timers: false } } });

const HINT = /Tock can suggest the time you forgot to track from what you did on this computer: turn on capture in Settings › Capture\./;
const hint = (page: Page) => page.getByTestId('capture-hint');
const HIDDEN_KEY = 'tock.today.captureHint.hidden';

/** Opens Today with this browser's memory of the hint cleared, and waits for the app's answer about the sources. */
async function todayAfresh(page: Page, lastPath: string): Promise<void> {
  await openWindow(page, ui.app, '/today');
  await page.evaluate((key) => localStorage.removeItem(key), HIDDEN_KEY);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === lastPath);
  await showScreen(page, ui.app, '/history');
  await showScreen(page, ui.app, '/today');
  await answered;
  // The answer is drawn in the next frames.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

describe('Today: the hint that suggestions exist', () => {
  it('shows on a new store, one line with a link that opens Settings › Capture', async () => {
    const { page } = ui;
    await page.setViewportSize({ width: 1280, height: 800 });
    await openWindow(page, ui.app, '/today');
    await hint(page).waitFor();
    assert.match((await hint(page).locator('p').textContent()) ?? '', HINT);
    const link = hint(page).getByRole('link', { name: 'Settings › Capture' });
    assert.equal(await link.getAttribute('href'), '#/settings/capture');
    await link.click();
    await page.locator('main h1').filter({ hasText: 'Capture' }).waitFor();
  });

  it('goes while windows are recorded and comes back when they are not; absent with editors on or a calendar', async () => {
    const { page } = ui;
    const api = await windowApi(ui.app);
    await openWindow(page, ui.app, '/today');
    await hint(page).waitFor();
    // Live: capture's event redraws it.
    assert.equal((await api('PATCH', '/api/capture/settings', { windows: true })).status, 200);
    await hint(page).waitFor({ state: 'detached' });
    assert.equal((await api('PATCH', '/api/capture/settings', { windows: false })).status, 200);
    await hint(page).waitFor();

    assert.equal((await api('POST', '/api/editors/enable')).status, 200);
    await todayAfresh(page, '/api/editors');
    assert.equal(await hint(page).count(), 0, 'editors on: no hint');
    assert.equal((await api('POST', '/api/editors/disable')).status, 200);

    const calendar = join(tempDir('tock-ui-capture-hint-'), 'work.ics');
    writeFileSync(calendar, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:a', 'DTSTART:20260105T091500Z', 'DTEND:20260105T093000Z', 'SUMMARY:Standup', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
    assert.equal((await api('POST', '/api/calendars', { path: calendar })).status, 200);
    await todayAfresh(page, '/api/calendars');
    assert.equal(await hint(page).count(), 0, 'a calendar: no hint');
    assert.equal((await api('POST', '/api/calendars/remove', { calendar })).status, 200);
    await todayAfresh(page, '/api/calendars');
    await hint(page).waitFor();
  });

  it('is hidden from the keyboard, stays hidden after a reload without asking the app, and shows again in another browser', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/today');
    await page.evaluate((key) => localStorage.removeItem(key), HIDDEN_KEY);
    await openWindow(page, ui.app, '/today');
    await hint(page).waitFor();
    await blur(page);
    await tabTo(page, '[data-testid=capture-hint] button', { text: 'Hide this hint', max: 80 });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-describedby')), 'capture-hint-text', 'the button is described by the hint it hides');
    await page.keyboard.press('Enter');
    await hint(page).waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'timeline-heading', 'the focus goes to the timeline’s heading, not to the page');
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), HIDDEN_KEY), '1');

    const reads = countRequests(page, '/api/capture');
    await openWindow(page, ui.app, '/today');
    await page.getByTestId('today-total').waitFor();
    assert.equal(await hint(page).count(), 0, 'hidden after a reload');
    assert.equal(reads.count, 0, 'a hidden hint asks the app nothing');
    reads.stop();

    const other = await launchBrowser();
    try {
      await openWindow(other.page, ui.app, '/today');
      await hint(other.page).waitFor();
    } finally {
      await other.close();
    }
  });

  it('fits at 390 and 1280 px, light and dark, in English and German; axe finds nothing serious', async () => {
    const { page } = ui;
    for (const language of ['en', 'de'] as const) {
      setLedgerSetting(ui.services.store.settings, 'language', `"${language}"`);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 844 });
          // Opened as openWindow does, waiting for any heading: openWindow knows Today's English one only.
          await page.goto(`${ui.app.launchUrl()}#/today`);
          await page.evaluate((key) => localStorage.removeItem(key), HIDDEN_KEY);
          await page.goto(`${ui.app.launchUrl()}#/today`);
          await hint(page).waitFor();
          if (language === 'de') assert.match((await hint(page).textContent()) ?? '', /Einstellungen › Aufzeichnung.*Hinweis ausblenden/);
          const fit = await page.evaluate(() => {
            const box = (document.querySelector('[data-testid=capture-hint]') as HTMLElement).getBoundingClientRect();
            const button = (document.querySelector('[data-testid=capture-hint] button') as HTMLElement).getBoundingClientRect();
            return { sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth, right: box.right, buttonRight: button.right, width: window.innerWidth };
          });
          assert.equal(fit.sideways, 0, `no sideways scroll at ${width} px (${language}, ${scheme})`);
          assert.ok(fit.right <= fit.width && fit.buttonRight <= fit.width, `inside the window at ${width} px (${language}, ${scheme}): ${JSON.stringify(fit)}`);
          assert.deepEqual(await seriousAxeViolations(page), [], `axe at ${width} px (${language}, ${scheme})`);
          await screenshot(page, `today-capture-hint-${language}-${width}-${scheme}`);
        }
      }
    }
    setLedgerSetting(ui.services.store.settings, 'language', 'null');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
