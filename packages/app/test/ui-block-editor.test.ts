/**
 * History's block editor, real Chromium against a real app in Europe/Berlin on a pinned clock
 * (docs/ui.md "History"): *Billable* back to following the activity's default, tags as chips
 * (a comma or Enter adds one, a tag in quotes keeps its comma), and the
 * session's breaks on the day after a session over midnight.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import { setActivityLedger, setBlockBillable, tagBlock } from '@tock/core';
import { until } from '@tock/test-support';
import { openWindow, screenshot, seriousAxeViolations, windowSuite } from './ui-support/harness.ts';

const now = Date.parse('2026-11-18T15:00:00.000Z'); // Wednesday, 16:00 in Berlin
const ui = windowSuite({ app: { clock: () => now }, keepShortSessions: true });

/**
 * Waits until `read()` gives `expected` (what the window shows after a render): the tests' one
 * wait, with its generous deadline — a machine under load may take seconds to render.
 */
async function shows<T>(read: () => Promise<T>, expected: T): Promise<void> {
  let last: T | undefined;
  try {
    await until(`the window to show ${JSON.stringify(expected)}`, async () => {
      last = await read();
      return isDeepStrictEqual(last, expected);
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; it showed ${JSON.stringify(last)}`);
  }
}

const blockOf = (id: string) => ui.services.tracker.listBlocks(0, now + 1).find((bl) => bl.id === id)!;

describe('Billable in History’s editor', () => {
  it('a block with its own flag goes back to following its activity’s default, and back to its own', async () => {
    const { page } = ui;
    const { store, tracker } = ui.services;
    // Monday 10:00–11:00 in Berlin, of an activity billable by default, with its own "not billable".
    const { entryID } = tracker.logEntry({ name: 'Consulting', createIfMissing: true, durationMinutes: 60, endedAt: '2026-11-16T10:00:00.000Z' });
    store.transaction(() => {
      setActivityLedger(store, 'Consulting', { billable: true });
      setBlockBillable(store, entryID, false);
    });
    assert.deepEqual([blockOf(entryID).billable, blockOf(entryID).ownBillable], [false, false]);

    await openWindow(page, ui.app, '/history');
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

describe('Tags in History’s editor', () => {
  it('a comma or Enter adds a chip, quotes keep a comma in a tag, Backspace and the remove button take one off; what is still typed is saved', async () => {
    const { page } = ui;
    const { store, tracker } = ui.services;
    // Tuesday 12:00–12:30 in Berlin, tagged review.
    const { entryID } = tracker.logEntry({ name: 'Calls', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-17T11:30:00.000Z' });
    store.transaction(() => tagBlock(store, entryID, ['review']));

    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: '12:00–12:30' });
    await row.getByRole('button', { name: 'Edit entry of Calls' }).click();
    const field = row.getByLabel('Tags');
    const chips = async () => (await row.getByTestId('tag-chip').allTextContents()).map((c) => c.replace(/×Remove the tag .*$/, ''));
    await shows(chips, ['review']);

    // From the keyboard: a typed comma ends a tag, a quoted one keeps its comma until Enter.
    await field.focus();
    await page.keyboard.type('urgent,');
    await shows(chips, ['review', 'urgent']);
    await shows(() => field.inputValue(), '');
    await page.keyboard.type('"Smith, Jones"');
    await shows(chips, ['review', 'urgent']);
    await page.keyboard.press('Enter');
    await shows(chips, ['review', 'urgent', 'Smith, Jones']);
    assert.equal(blockOf(entryID).tags.length, 1, 'Enter with text adds a tag, it does not save');
    await row.getByRole('status').filter({ hasText: 'Added Smith, Jones.' }).waitFor();

    // Pasted, commas separate; a tag there already (case ignored) is not added again.
    await field.fill('x, URGENT, y');
    await shows(chips, ['review', 'urgent', 'Smith, Jones', 'x']);
    await shows(() => field.inputValue(), 'y');
    await field.press('Enter');
    await shows(chips, ['review', 'urgent', 'Smith, Jones', 'x', 'y']);
    await field.press('Backspace');
    await shows(chips, ['review', 'urgent', 'Smith, Jones', 'x']);
    await row.getByRole('button', { name: 'Remove the tag x' }).click();
    await shows(chips, ['review', 'urgent', 'Smith, Jones']);
    await shows(() => field.evaluate((el) => el === document.activeElement), true); // the focus goes back to the field
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'history-tag-chips-light');

    // What is still typed counts; Enter in the empty field saves.
    await page.keyboard.type('later');
    await row.getByRole('button', { name: 'Save', exact: true }).click();
    await row.getByTestId('tag-badge').filter({ hasText: 'later' }).waitFor();
    assert.deepEqual(blockOf(entryID).tags, ['review', 'urgent', 'Smith, Jones', 'later']);
    await row.getByRole('button', { name: 'Edit entry of Calls' }).click();
    await field.press('Backspace');
    await field.press('Enter');
    await row.getByTestId('tag-badge').filter({ hasText: 'later' }).waitFor({ state: 'detached' });
    assert.deepEqual(blockOf(entryID).tags, ['review', 'urgent', 'Smith, Jones']);
    tracker.deleteEntry(entryID);
  });
});

describe('Breaks of a session over midnight', () => {
  it('adds a break on its second day by choosing the day, or by a start before the session’s; edits one there', async () => {
    const { page } = ui;
    const { tracker } = ui.services;
    // Monday 22:00 to Tuesday 02:00 in Berlin.
    tracker.startActivity({ name: 'Night', createIfMissing: true });
    tracker.stopActivity();
    const sessionID = tracker.listBlocks(0, now + 1).find((bl) => bl.activity.activityName === 'Night')!.id;
    tracker.updateSession(sessionID, { startedAt: '2026-11-16T21:00:00.000Z', endedAt: '2026-11-17T01:00:00.000Z' });
    const breaks = () => blockOf(sessionID).breaks.map((br) => [br.startedAt, br.endedAt]);

    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ has: page.getByRole('button', { name: 'Edit session of Night' }) }).first();
    await row.getByRole('button', { name: 'Edit session of Night' }).click();
    const editor = row.getByTestId('breaks-editor');
    const add = editor.getByRole('form', { name: 'Add a break' });
    const day = add.getByLabel('Break on');
    assert.deepEqual(await day.locator('option').allTextContents(), ['Monday, November 16', 'Tuesday, November 17']);
    assert.equal(await day.inputValue(), '2026-11-16');

    // From the keyboard: the day, then the times.
    await day.focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await day.inputValue(), '2026-11-17');
    await page.keyboard.press('Tab');
    await page.keyboard.type('00:30');
    await page.keyboard.press('Tab');
    await page.keyboard.type('00:45');
    await page.keyboard.press('Enter');
    await editor.getByTestId('break-row').filter({ hasText: '00:30–00:45' }).waitFor();
    assert.deepEqual(breaks(), [['2026-11-16T23:30:00.000Z', '2026-11-16T23:45:00.000Z']]);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'history-break-after-midnight-light');

    // On the first day, 01:00 is before the session starts: it is the next day's.
    await day.selectOption('2026-11-16');
    await add.getByLabel('Break from').fill('01:00');
    await add.getByLabel('Break to').fill('01:10');
    await add.getByRole('button', { name: 'Add a break' }).click();
    await editor.getByTestId('break-row').filter({ hasText: '01:00–01:10' }).waitFor();
    assert.deepEqual(breaks(), [
      ['2026-11-16T23:30:00.000Z', '2026-11-16T23:45:00.000Z'],
      ['2026-11-17T00:00:00.000Z', '2026-11-17T00:10:00.000Z'],
    ]);

    // An edit keeps the break's day; one across midnight (23:50–00:10) starts on the first.
    await editor.getByRole('button', { name: 'Edit the break 00:30–00:45 of the session of Night' }).click();
    const edit = editor.getByRole('form', { name: 'Edit the break 00:30–00:45' });
    assert.equal(await edit.getByLabel('Break on').inputValue(), '2026-11-17');
    await edit.getByLabel('Break on').selectOption('2026-11-16');
    await edit.getByLabel('Break from').fill('23:50');
    await edit.getByLabel('Break to').fill('00:10');
    await edit.getByRole('button', { name: 'Save break' }).click();
    await editor.getByTestId('break-row').filter({ hasText: '23:50–00:10' }).waitFor();
    assert.deepEqual(breaks(), [
      ['2026-11-16T22:50:00.000Z', '2026-11-16T23:10:00.000Z'],
      ['2026-11-17T00:00:00.000Z', '2026-11-17T00:10:00.000Z'],
    ]);
  });

  it('a session within one day offers no day choice', async () => {
    const { page } = ui;
    const { tracker } = ui.services;
    tracker.startActivity({ name: 'Day', createIfMissing: true });
    tracker.stopActivity();
    const sessionID = tracker.listBlocks(0, now + 1).find((bl) => bl.activity.activityName === 'Day')!.id;
    tracker.updateSession(sessionID, { startedAt: '2026-11-17T08:00:00.000Z', endedAt: '2026-11-17T09:00:00.000Z' });
    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ has: page.getByRole('button', { name: 'Edit session of Day' }) });
    await row.getByRole('button', { name: 'Edit session of Day' }).click();
    await row.getByRole('form', { name: 'Add a break' }).getByLabel('Break from').waitFor();
    assert.equal(await row.getByLabel('Break on').count(), 0);
  });
});
