/**
 * The first hour in the window, in a real Chromium against a real app (docs/ui.md "Today",
 * "Activities"): the running session's activity, start and note changed in place on Today;
 * *Continue* right after *Stop* resumes that session rather than leaving a crumb; Activities
 * archives and brings back, merges after a confirmation and deletes only an activity without
 * time (the app's refusal word for word); Settings › Business takes the week's hours and its
 * working days, and Today shows the day's share. Screenshots at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getLedgerSetting, setActivityArchived, setLedgerSetting } from '@tock/core';
import { openWindow, screenshot, seriousAxeViolations, type TestBrowser, windowSuite } from './ui-support/harness.ts';

const ui = windowSuite();

const tracker = () => ui.services.tracker;
const sessions = () => tracker().listBlocks(0, Date.now() + 3_600_000).filter((x) => x.kind === 'session');

/** The width of the page's content beyond the viewport (0: no sideways scroll). */
const sideways = (page: TestBrowser['page']): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('Today on a new store', () => {
  it('says to type what you are working on, since there is nothing to pick yet', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/today');
    await page.getByText('Type what you are working on below to start the clock.').waitFor();
    assert.equal(await page.getByText('Pick an activity below to start the clock.').count(), 0);
  });
});

describe('Today: the running session edited in place, and Continue', () => {
  it('changes the running session’s activity, start and note in place; it keeps running', async () => {
    tracker().createActivity('Planning');
    const started = tracker().startActivity({ name: 'Writing', createIfMissing: true, note: 'first draft' });
    const { page } = ui;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openWindow(page, ui.app, '/today');
    await page.getByTestId('current-note').filter({ hasText: 'first draft' }).waitFor();
    await page.getByTestId('edit-running').click();
    const editor = page.getByTestId('running-editor');
    await editor.waitFor();
    await screenshot(page, 'today-running-edit-1280');
    await editor.getByLabel('Activity').selectOption({ label: 'Planning' });
    await editor.getByLabel('Note').fill('outline for Ana');
    // Ten minutes earlier than it started, on the window's clock.
    const earlier = new Date(Date.parse(started.startedAt) - 10 * 60_000);
    const hhmm = `${String(earlier.getHours()).padStart(2, '0')}:${String(earlier.getMinutes()).padStart(2, '0')}`;
    await editor.getByLabel(/^From|^Start/).first().fill(hhmm);
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('current-note').filter({ hasText: 'outline for Ana' }).waitFor();
    await page.getByTestId('current-activity').filter({ hasText: 'Planning' }).waitFor();
    const [running] = sessions().filter((s) => s.endedAt === null);
    assert.equal(running?.activity.activityName, 'Planning');
    assert.equal(running?.note, 'outline for Ana');
    assert.equal(Math.floor(Date.parse(running?.startedAt ?? '') / 60_000), Math.floor(earlier.getTime() / 60_000), 'the start moved to the minute typed');
    assert.equal(sessions().length, 1, 'the same session: no switch, no new one');
    assert.equal(tracker().getStatus().isTracking, true);
  });

  it('Stop then Continue resumes that session: no 0-minute crumb', async () => {
    const { page } = ui;
    const before = sessions();
    assert.equal(before.length, 1);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('button', { name: /^Continue “Planning”/ }).click();
    await page.getByTestId('current-activity').filter({ hasText: 'Planning' }).waitFor();
    const after = sessions();
    assert.deepEqual(
      after.map((s) => [s.id, s.startedAt, s.endedAt]),
      [[before[0]?.id, before[0]?.startedAt, null]],
      'the same session runs again from its own start',
    );
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByTestId('edit-running').click();
    await page.getByTestId('running-editor').waitFor();
    assert.equal(await sideways(page), 0, 'no sideways scroll at 390 px with the editor open');
    await screenshot(page, 'today-running-edit-390');
    await page.getByTestId('running-editor').getByRole('button', { name: 'Cancel' }).click();
    tracker().stopActivity();
  });
});

describe('Activities: archive, merge and delete', () => {
  it('archives and brings back; archived ones leave search and stay listed', async () => {
    tracker().logEntry({ name: 'Old client', durationMinutes: 30, createIfMissing: true });
    const { page } = ui;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openWindow(page, ui.app, '/activities');
    const row = page.getByTestId('activity-row').filter({ hasText: 'Old client' });
    await row.getByRole('button', { name: 'Archive Old client' }).click();
    await page.getByRole('status').filter({ hasText: 'Archived “Old client”: out of pickers, search and the tray, still in reports and history.' }).waitFor();
    await row.locator('.badge', { hasText: 'archived' }).waitFor();
    assert.equal(tracker().listActivities().find((a) => a.activityName === 'Old client')?.archived, true);
    assert.deepEqual(tracker().searchActivities('old', 10), []);
    // Out of the pickers: the block editor's choice of activity (Today's Edit, History's) leaves it out.
    tracker().startActivity({ name: 'Planning' });
    await openWindow(page, ui.app, '/today');
    await page.getByTestId('edit-running').click();
    const choice = page.getByTestId('running-editor').getByLabel('Activity');
    await choice.waitFor();
    const offered = await choice.locator('option').allTextContents();
    assert.ok(offered.includes('Planning') && !offered.includes('Old client'), `offered: ${offered.join(', ')}`);
    tracker().stopActivity();
    await openWindow(page, ui.app, '/activities');
    await row.getByRole('button', { name: 'Unarchive Old client' }).click();
    await row.getByRole('button', { name: 'Archive Old client' }).waitFor();
    assert.deepEqual(tracker().searchActivities('old', 10).map((a) => a.activityName), ['Old client']);
  });

  it('delete of an activity with time shows the app’s refusal; merge asks first, then moves every block', async () => {
    const { page } = ui;
    const row = page.getByTestId('activity-row').filter({ hasText: 'Old client' });
    await row.getByRole('button', { name: 'Delete… Old client' }).click();
    await row.getByTestId('activity-delete').getByRole('button', { name: 'Delete Old client' }).click();
    await row.getByText('"Old client" has 1 block, so it cannot be deleted; merge it into another activity (tock activity merge) or archive it (tock activity archive)').waitFor();
    await row.getByTestId('activity-delete').getByRole('button', { name: 'Cancel' }).click();

    // An archived activity is out of this picker too: unarchive it to merge into it.
    tracker().createActivity('Shelved');
    setActivityArchived(ui.services.store, 'Shelved', true);
    await openWindow(page, ui.app, '/activities');
    await row.getByRole('button', { name: 'Merge… Old client' }).click();
    const confirm = row.getByTestId('activity-merge');
    const targets = await confirm.getByLabel('Merge “Old client” into').locator('option').allTextContents();
    assert.ok(targets.includes('Writing') && !targets.includes('Shelved'), `offered: ${targets.join(', ')}`);
    await confirm.getByLabel('Merge “Old client” into').selectOption({ label: 'Writing' });
    await confirm.getByText('Every block of “Old client” moves to “Writing”, then “Old client” is removed. This cannot be undone.').waitFor();
    assert.equal(tracker().listActivities().some((a) => a.activityName === 'Old client'), true, 'nothing happens before the confirmation');
    await screenshot(page, 'activities-merge-1280');
    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, 'activities-merge-390');
    assert.equal(await sideways(page), 0, 'no sideways scroll at 390 px with the confirmation open');
    await confirm.getByRole('button', { name: 'Merge Old client' }).click();
    await page.getByRole('status').filter({ hasText: 'Merged “Old client” into “Writing”: 1 block moved.' }).waitFor();
    assert.equal(tracker().listActivities().some((a) => a.activityName === 'Old client'), false);
    assert.equal(tracker().listBlocks(0, Date.now() + 1).filter((x) => x.activity.activityName === 'Writing').length, 1);

    tracker().createActivity('Unused');
    await openWindow(page, ui.app, '/activities');
    const unused = page.getByTestId('activity-row').filter({ hasText: 'Unused' });
    await unused.getByRole('button', { name: 'Delete… Unused' }).click();
    await unused.getByTestId('activity-delete').getByRole('button', { name: 'Delete Unused' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted “Unused”.' }).waitFor();
    assert.equal(tracker().listActivities().some((a) => a.activityName === 'Unused'), false);
  });
});

describe('Targets: the week’s hours', () => {
  it('saves hours a week; Today shows them ÷ 5 on a working day; day and week hours together are refused', async () => {
    const { page } = ui;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openWindow(page, ui.app, '/settings/business');
    await page.getByLabel('Monday (hours)').fill('8');
    await page.getByLabel('Or hours a week').fill('37.5');
    await page.getByRole('button', { name: 'Save targets' }).click();
    await page.locator('#targets-error').filter({ hasText: 'Give hours for each day or for the week, not both.' }).waitFor();
    assert.equal(getLedgerSetting(ui.services.store.settings, 'targets'), null, 'nothing saved');
    await page.getByLabel('Monday (hours)').fill('');
    await page.getByRole('button', { name: 'Save targets' }).click();
    await page.locator('#targets-heading ~ form').getByText('Saved.').waitFor();
    assert.deepEqual(getLedgerSetting(ui.services.store.settings, 'targets'), { week: 37.5 });
    await openWindow(page, ui.app, '/today');
    const weekday = new Date().getDay();
    if (weekday >= 1 && weekday <= 5) await page.getByTestId('day-target').filter({ hasText: /^Target 7 h 30 min · / }).waitFor();
    else assert.equal(await page.getByTestId('day-target').count(), 0);
  });

  it('the working days, in the order of the person’s week, are saved with the week’s hours and Today shows them ÷ that many; none checked is refused', async () => {
    const { page } = ui;
    const settings = ui.services.store.settings;
    setLedgerSetting(settings, 'weekStart', '"sat"');
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      await openWindow(page, ui.app, '/settings/business');
      const group = page.getByRole('group', { name: 'Working days' });
      const NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
      const boxes = group.getByRole('checkbox');
      await boxes.first().waitFor();
      const order = await boxes.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      assert.deepEqual(order, ['sat', 'sun', 'mon', 'tue', 'wed', 'thu', 'fri'], 'the week starts on Saturday, as set');
      const checked = async (): Promise<string[]> => (await boxes.evaluateAll((inputs) => inputs.filter((i) => (i as HTMLInputElement).checked).map((i) => (i as HTMLInputElement).value))).sort();
      assert.deepEqual(await checked(), ['fri', 'mon', 'thu', 'tue', 'wed'], 'Monday to Friday when none are stored');

      // Today and the three days after it: Today's target is 30 h ÷ 4 whatever day the test runs.
      const today = new Date().getDay();
      const chosen = [0, 1, 2, 3].map((i) => (today + i) % 7);
      for (const name of NAMES) await group.getByRole('checkbox', { name, exact: true }).setChecked(chosen.includes(NAMES.indexOf(name)));
      await page.getByLabel('Or hours a week').fill('30');
      await screenshot(page, 'business-working-days-1280');
      await page.getByRole('button', { name: 'Save targets' }).click();
      await page.locator('#targets-heading ~ form').getByText('Saved.').waitFor();
      const KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
      const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].filter((k) => chosen.includes(KEYS.indexOf(k)));
      assert.deepEqual(getLedgerSetting(settings, 'targets'), { week: 30, days });
      await openWindow(page, ui.app, '/today');
      await page.getByTestId('day-target').filter({ hasText: /^Target 7 h 30 min · / }).waitFor();

      await openWindow(page, ui.app, '/settings/business');
      await page.setViewportSize({ width: 390, height: 900 });
      assert.deepEqual(await checked(), [...days].sort(), 'the stored days are checked');
      for (const name of NAMES) await group.getByRole('checkbox', { name, exact: true }).uncheck();
      await page.getByRole('button', { name: 'Save targets' }).click();
      await page.locator('#targets-error').filter({ hasText: 'Check at least one working day for the week’s hours.' }).waitFor();
      assert.equal(await group.getAttribute('aria-describedby'), 'targets-error');
      assert.deepEqual(getLedgerSetting(settings, 'targets'), { week: 30, days }, 'nothing saved');
      assert.equal(await sideways(page), 0, 'no sideways scroll at 390 px');
      assert.deepEqual(await seriousAxeViolations(page), [], 'axe: the boxes, their legend and the error');
      await screenshot(page, 'business-working-days-390');
    } finally {
      setLedgerSetting(settings, 'weekStart', 'null');
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});

describe('History: an empty week', () => {
  it('says it once, under the sessions and entries, not again under the chart', async () => {
    const { page } = ui;
    await page.setViewportSize({ width: 390, height: 900 });
    await openWindow(page, ui.app, '/history');
    // The week before this one: nothing was tracked in it here.
    await page.getByRole('button', { name: /Previous week/ }).click();
    await page.getByText('Nothing tracked in this week.').waitFor();
    assert.equal(await page.locator('main').getByText(/^Nothing tracked/).count(), 1);
  });
});
