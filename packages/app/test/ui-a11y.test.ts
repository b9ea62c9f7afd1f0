/**
 * Every screen of the window at 390×844 and 1280×800, light and dark, is checked with axe-core
 * in ui-layout.test.ts's walk, which takes each screen at each size and theme once. Here, in
 * light and in dark: the open menu at 390×844, the branch prompt with an open activity
 * search, History's editor, Activities' rename field with a refusal, and the views of the
 * dark-mode review at 390 and 1280 px — axe-core finds no serious or critical violation, every
 * field's edge stands out, and a screenshot is saved to `test-output/screenshots/` for a
 * person to judge. The token is never revealed here, so no screenshot can show it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ensureWindowBuilt, faintFieldEdges, launchBrowser, newTab, openWindow, screenshot, seriousAxeViolations, startTestApp, type TestApp, type TestBrowser } from './ui-support/harness.ts';

let t: TestApp;
/** One Chromium for the file: a tab for each theme, and the tabs without a session. */
let browser: TestBrowser;
const MIN = 60_000;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp();
  const { tracker } = t.app.services;
  // A believable day: logged blocks earlier, one with a note, a running session.
  const now = Date.now();
  tracker.logEntry({ name: 'Planning', createIfMissing: true, durationMinutes: 45, endedAt: new Date(now - 150 * MIN).toISOString(), note: 'Sprint planning with the team' });
  tracker.logEntry({ name: 'Code review', createIfMissing: true, durationMinutes: 50, endedAt: new Date(now - 95 * MIN).toISOString() });
  tracker.logEntry({ name: 'Code review', durationMinutes: 80, endedAt: new Date(now - 26 * 60 * MIN).toISOString() });
  tracker.logEntry({ name: 'Support', createIfMissing: true, durationMinutes: 120, endedAt: new Date(now - 50 * 60 * MIN).toISOString() });
  tracker.createActivity('Login page');
  tracker.startActivity({ name: 'Write docs', createIfMissing: true });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await t?.stop();
});

// One tab a theme; each test sets the window's size it looks at.
for (const scheme of ['light', 'dark'] as const) {
  describe(`the window in ${scheme} mode`, () => {
    let page: Page;
    before(async () => {
      page = await newTab(browser, { colorScheme: scheme });
    });
    after(async () => {
      await page?.close();
    });

    it('the open menu at 390×844: no serious or critical axe violation', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await openWindow(page, t, '/settings/sync');
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      const violations = await seriousAxeViolations(page);
      await screenshot(page, `menu-open-390-${scheme}`);
      assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    });

    it('branch prompt and editing: no serious or critical axe violation', async () => {
      await page.setViewportSize({ width: 1200, height: 860 });
      {
        const prompt = t.app.services.prompts.add({ branch: 'feature/login-page', repo: '/home/ana/code/shop', previousBranch: 'main' });
        await openWindow(page, t);
        await page.getByTestId('branch-prompt').waitFor();
        // An open activity search too.
        await page.getByRole('combobox').first().fill('co');
        await page.getByRole('option').first().waitFor();
        assert.deepEqual(await seriousAxeViolations(page), []);
        await screenshot(page, `prompt-${scheme}`);
        t.app.services.prompts.resolve(prompt.promptID);

        await openWindow(page, t, '/history');
        await page.getByTestId('history-row').first().getByRole('button', { name: /^Edit/ }).click();
        await page.getByRole('button', { name: 'Save' }).waitFor();
        assert.deepEqual(await seriousAxeViolations(page), []);
        await screenshot(page, `history-editing-${scheme}`);

        // Renaming an activity, with the app's refusal next to the field.
        await openWindow(page, t, '/activities');
        await page.getByRole('button', { name: 'Rename Code review' }).click();
        await page.getByRole('textbox', { name: 'New name for Code review' }).fill('planning');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('an activity named "Planning" already exists').waitFor();
        assert.deepEqual(await seriousAxeViolations(page), []);
        await screenshot(page, `activities-renaming-${scheme}`);
        await page.keyboard.press('Escape');
      }
    });

    // The views the dark-mode review looked at (Settings › Calendar with a calendar and a
    // refused path, a tab without a session, Today's *Edit* open) at 390 and 1280 px: axe finds
    // no serious violation and every field's edge stands out 3:1 (its border was 1.3:1).
    for (const width of [390, 1280]) {
      it(`fields and the views of the dark-mode review at ${width} px: Calendar, a tab without a session, Today's Edit`, async () => {
        await page.setViewportSize({ width, height: 900 });
        await openWindow(page, t, '/settings/calendar');
        await page.getByRole('button', { name: 'Add calendar' }).click();
        await page.locator('#calendar-path-error').waitFor();
        assert.deepEqual(await seriousAxeViolations(page), []);
        assert.deepEqual(await faintFieldEdges(page), [], 'Settings › Calendar');
        await screenshot(page, `calendar-${width}-${scheme}`);

        const tab = await newTab(browser, { colorScheme: scheme, width, height: 900 });
        try {
          await tab.goto(`${t.origin}/`);
          await tab.getByTestId('no-session').waitFor();
          assert.deepEqual(await seriousAxeViolations(tab), []);
          await screenshot(tab, `no-session-${width}-${scheme}`);
        } finally {
          await tab.close();
        }

        await openWindow(page, t, '/today');
        const block = page.getByTestId('today-block').filter({ hasText: 'Planning' });
        await block.getByRole('button', { name: /^Edit/ }).click();
        await block.getByTestId('block-editor').waitFor();
        assert.deepEqual(await seriousAxeViolations(page), []);
        assert.deepEqual(await faintFieldEdges(page), [], "Today's Edit");
        await screenshot(page, `today-edit-${width}-${scheme}`);
        await block.getByRole('button', { name: 'Cancel' }).click();

        await openWindow(page, t, '/history');
        await page.getByTestId('history-row').first().waitFor();
        assert.deepEqual(await faintFieldEdges(page), [], 'History');
      });
    }
  });
}
