/**
 * The Activities screen in a real Chromium against a real app: every activity with its
 * color, renaming in place with the app agreeing, the new name reaching every open window
 * (Today's current activity, the sidebar, timelines, History) without a reload, the app's
 * refusal of a taken or empty name shown next to the field, Escape, and the keyboard.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Problem } from '@tock/protocol';
import { blur, openWindow, tabTo, type TestBrowser, windowSuite } from './ui-support/harness.ts';

const ui = windowSuite({
  seed: ({ app }) => {
    const { tracker } = app.services;
    for (const name of ['Review', 'Planning', 'Café chat', 'Support']) tracker.createActivity(name);
    tracker.startActivity({ name: 'Write docs', createIfMissing: true });
  },
});

const tracker = () => ui.services.tracker;
const idOf = (name: string): string => {
  const found = tracker().listActivities().find((a) => a.activityName === name);
  if (!found) throw new Error(`no activity named ${name}`);
  return found.activityID;
};
const names = (): string[] => tracker().listActivities().map((a) => a.activityName);

/** What the app itself says about `name` for that activity (it refuses before changing anything). */
function appRefusal(activityID: string, name: string): string {
  try {
    tracker().renameActivity(activityID, name);
  } catch (error) {
    assert.ok(error instanceof Problem);
    return error.details?.find((d) => d.field === 'name')?.message ?? error.message;
  }
  throw new Error(`the app accepted "${name}"`);
}

/** Waits until the focused element is the Rename button of `name`. */
async function focusIsOnRename(page: TestBrowser['page'], name: string): Promise<void> {
  await page.waitForFunction((want) => {
    const el = document.activeElement;
    return el?.tagName === 'BUTTON' && el.textContent === want;
  }, `Rename ${name}`);
}

describe('Activities', () => {
  it('lists every activity with its own color, and renames one in place; the app agrees', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/activities');
    const rows = page.getByTestId('activity-row');
    await rows.filter({ hasText: 'Write docs' }).waitFor();
    const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
    assert.deepEqual(await rows.locator('.activity-name').allTextContents(), [...names()].sort(collator.compare));
    const colors = await rows.locator('.swatch').evaluateAll((els) => els.map((el) => /\bc[0-7]\b/.exec(el.className)?.[0]));
    assert.equal(new Set(colors).size, 5, `five activities, five colors: ${colors.join(' ')}`);
    assert.equal(await page.getByTestId('activities-count').textContent(), '5 activities');

    const id = idOf('Support');
    const row = rows.filter({ hasText: 'Support' });
    await row.getByRole('button', { name: 'Rename Support' }).click();
    const field = page.getByRole('textbox', { name: 'New name for Support' });
    assert.equal(await field.inputValue(), 'Support');
    assert.equal(await field.evaluate((el) => el === document.activeElement), true, 'the field takes the focus');
    await field.fill('Customer support');
    await page.getByRole('button', { name: 'Save' }).click();

    await rows.filter({ hasText: 'Customer support' }).getByRole('button', { name: 'Rename Customer support' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Renamed “Support” to “Customer support”.' }).waitFor();
    await focusIsOnRename(page, 'Customer support');
    assert.equal(tracker().listActivities().find((a) => a.activityID === id)?.activityName, 'Customer support');
    assert.equal(names().includes('Support'), false);
  });

  it('shows the running activity’s new name in every open window without a reload', async () => {
    const today = ui.page;
    await openWindow(today, ui.app);
    await today.getByTestId('current-activity').filter({ hasText: 'Write docs' }).waitFor();
    await today.locator('[data-testid=timeline] g.bar[data-activity="Write docs"]').waitFor();
    // A reload would drop this mark.
    await today.evaluate(() => Object.assign(window, { tockNotReloaded: true }));

    const other = await ui.browser.context.newPage();
    try {
      await openWindow(other, ui.app, '/activities');
      const row = other.getByTestId('activity-row').filter({ hasText: 'Write docs' });
      await row.getByRole('button', { name: 'Rename Write docs' }).click();
      await other.getByRole('textbox', { name: 'New name for Write docs' }).fill('Documentation');
      await other.keyboard.press('Enter');
      await other.getByTestId('activity-row').filter({ hasText: 'Documentation' }).waitFor();
      assert.equal(tracker().getStatus().currentActivity?.activityName, 'Documentation');
      await other.locator('.now-pill-name').filter({ hasText: /^Documentation$/ }).waitFor();

      await today.getByTestId('current-activity').filter({ hasText: /^Documentation$/ }).waitFor();
      await today.locator('.now-pill-name').filter({ hasText: /^Documentation$/ }).waitFor();
      await today.locator('[data-testid=timeline] g.bar[data-activity="Documentation"]').waitFor();
      await today.getByLabel('Blocks of the day').getByText('Documentation', { exact: true }).waitFor();
      assert.equal(await today.locator('[data-testid=timeline] g.bar[data-activity="Write docs"]').count(), 0);
      await today.getByRole('link', { name: 'History' }).click();
      await today.getByTestId('history-row').filter({ hasText: 'Documentation' }).first().waitFor();
      assert.equal(await today.evaluate(() => (window as unknown as { tockNotReloaded?: boolean }).tockNotReloaded), true, 'no reload');
    } finally {
      await other.close();
    }
  });

  it('refuses a taken or an empty name with the app’s own line next to the field, and changes nothing', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/activities');
    const id = idOf('Review');
    const before = tracker().listActivities();
    await page.getByRole('button', { name: 'Rename Review' }).click();
    const field = page.getByRole('textbox', { name: 'New name for Review' });
    const error = page.locator(`[id="activity-${id}-error"]`);

    for (const [taken, why] of [
      ['documentation', 'taken, whatever the case'],
      ['', 'empty'],
      ['   ', 'blank'],
    ] as const) {
      const expected = appRefusal(id, taken);
      await field.fill(taken);
      await error.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Save' }).click();
      await error.filter({ hasText: expected }).waitFor();
      const shown = (await error.textContent()) ?? '';
      assert.equal(shown, `${expected.charAt(0).toUpperCase()}${expected.slice(1)}.`, `${why}: the app's words, as a sentence`);
      assert.equal(shown.split('\n').length, 1, `${why}: one line`);
      assert.equal(await field.getAttribute('aria-invalid'), 'true', why);
      assert.equal(await field.getAttribute('aria-describedby'), `activity-${id}-error`, why);
      assert.equal(await field.evaluate((el) => el === document.activeElement), true, `${why}: the focus stays in the field`);
      assert.deepEqual(tracker().listActivities(), before, `${why}: nothing changed`);
    }
    assert.match(appRefusal(id, 'documentation'), /already exists/);

    // Typing clears the complaint; a free name is taken.
    await field.fill('Code review');
    assert.equal(await error.count(), 0);
    assert.equal(await field.getAttribute('aria-invalid'), null);
    await field.press('Enter');
    await page.getByTestId('activity-row').filter({ hasText: 'Code review' }).waitFor();
    assert.equal(tracker().listActivities().find((a) => a.activityID === id)?.activityName, 'Code review');
  });

  it('cancels with Escape: the name stays and the focus returns to Rename', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/activities');
    const before = tracker().listActivities();
    await page.getByRole('button', { name: 'Rename Code review' }).click();
    const field = page.getByRole('textbox', { name: 'New name for Code review' });
    await field.fill('Something else');
    await field.press('Escape');
    await field.waitFor({ state: 'detached' });
    await focusIsOnRename(page, 'Code review');
    assert.equal(await page.getByTestId('activity-row').filter({ hasText: 'Something else' }).count(), 0);
    assert.deepEqual(tracker().listActivities(), before);

    // Cancel does the same, and reopening starts from the saved name.
    await page.getByRole('button', { name: 'Rename Code review' }).click();
    await field.fill('Something else');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await focusIsOnRename(page, 'Code review');
    await page.getByRole('button', { name: 'Rename Code review' }).click();
    assert.equal(await field.inputValue(), 'Code review');
    await field.press('Escape');
    assert.deepEqual(tracker().listActivities(), before);
  });

  it('filters ignoring case and accents, and is used by keyboard alone with visible focus', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    await blur(page);
    await tabTo(page, 'nav a[href="#/activities"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Activities');

    await tabTo(page, '#activities-filter');
    await page.keyboard.type('CAFE');
    await page.getByTestId('activities-count').filter({ hasText: '1 of 5 activities' }).waitFor();
    assert.deepEqual(await page.getByTestId('activity-row').locator('.activity-name').allTextContents(), ['Café chat']);

    await page.getByRole('searchbox', { name: 'Filter' }).fill('plan');
    await page.getByTestId('activities-count').filter({ hasText: '1 of 5 activities' }).waitFor();
    await tabTo(page, 'button', { text: 'Rename Planning' });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return el?.tagName === 'INPUT' && el.value === 'Planning' && el.selectionStart === 0 && el.selectionEnd === el.value.length;
    });
    // The name is selected: typing replaces it.
    await page.keyboard.type('Sprint planning');
    await page.keyboard.press('Enter');
    await focusIsOnRename(page, 'Sprint planning');
    assert.ok(names().includes('Sprint planning'));

    // A new name the filter hides: the focus goes back to the filter, not to the top of the page.
    await page.getByRole('searchbox', { name: 'Filter' }).fill('sprint');
    await tabTo(page, 'button', { text: 'Rename Sprint planning' });
    await page.keyboard.press('Enter');
    await page.keyboard.type('Roadmap');
    await page.keyboard.press('Enter');
    await page.getByText('No activity matches “sprint”.').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'activities-filter');
    assert.ok(names().includes('Roadmap'));
  });
});
