/**
 * Today's blocks each have *Edit* (docs/ui.md "Today"), in a real Chromium against a real app:
 * a finished block's note and end time changed from Today's list with History's block editor;
 * the change is in the store and shows in History. No sideways scroll at 390 px with the editor
 * open; screenshots at 390 and 1280 px.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openWindow, screenshot, type TestBrowser, windowSuite } from './ui-support/harness.ts';

const ui = windowSuite();

const tracker = () => ui.services.tracker;
const sideways = (page: TestBrowser['page']): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const hhmm = (ms: number): string => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe('Today: Edit on every block of the day', () => {
  it('edits a finished block’s note and end time from Today; History shows the change', async () => {
    // A finished block today: it ends a minute ago and lasts 20 minutes, or what the day holds.
    const now = Date.now();
    const midnight = new Date(now).setHours(0, 0, 0, 0);
    const end = Math.floor((now - 60_000) / 60_000) * 60_000;
    const minutes = Math.max(2, Math.min(20, Math.floor((end - midnight) / 60_000) - 1));
    tracker().logEntry({ name: 'Review', createIfMissing: true, durationMinutes: minutes, endedAt: new Date(end).toISOString(), note: 'first pass' });
    const newEnd = end - 60_000;

    const { page } = ui;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openWindow(page, ui.app, '/today');
    const row = page.getByTestId('today-block').filter({ hasText: 'Review' });
    await row.filter({ hasText: 'first pass' }).waitFor();
    await row.getByRole('button', { name: /^Edit/ }).click();
    const editor = row.getByTestId('block-editor');
    await editor.waitFor();
    await screenshot(page, 'today-block-edit-1280');
    await editor.getByLabel('Note').fill('second pass, with Ana');
    await editor.getByLabel('To', { exact: true }).fill(hhmm(newEnd));
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await row.filter({ hasText: 'second pass, with Ana' }).waitFor();
    await row.filter({ hasText: hhmm(newEnd) }).waitFor();

    const stored = tracker()
      .listBlocks(0, Date.now() + 3_600_000)
      .filter((x) => x.activity.activityName === 'Review')
      .at(0);
    assert.equal(tracker().listBlocks(0, Date.now() + 3_600_000).length, 1, 'the same block, no new one');
    assert.equal(stored?.note, 'second pass, with Ana');
    assert.equal(Date.parse(stored?.endedAt ?? ''), newEnd, 'the end moved to the minute typed');
    assert.equal(Date.parse(stored?.startedAt ?? ''), end - minutes * 60_000, 'the start stays');

    await openWindow(page, ui.app, '/history');
    const historyRow = page.getByTestId('history-row').filter({ hasText: 'Review' });
    await historyRow.filter({ hasText: 'second pass, with Ana' }).waitFor();
    await historyRow.filter({ hasText: hhmm(newEnd) }).waitFor();
  });

  it('lists the day’s blocks one under another, full width, without bullets, at 390 and 1280 px', async () => {
    // A second block: the list then has two rows to compare.
    const midnight = new Date().setHours(0, 0, 0, 0);
    const end = Math.max(midnight + 3 * 60_000, Math.floor((Date.now() - 40 * 60_000) / 60_000) * 60_000);
    tracker().logEntry({ name: 'Write docs', createIfMissing: true, durationMinutes: 2, endedAt: new Date(end).toISOString() });
    const { page } = ui;
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await openWindow(page, ui.app, '/today');
      await page.getByTestId('today-block').filter({ hasText: 'Write docs' }).waitFor();
      const layout = await page.evaluate(() => {
        const list = document.querySelector('ul.block-list') as HTMLElement;
        const rows = [...list.querySelectorAll(':scope > li')].map((li) => li.getBoundingClientRect());
        return { width: list.getBoundingClientRect().width, rows: rows.map((r) => ({ top: r.top, bottom: r.bottom, width: r.width })), bullets: getComputedStyle(list).listStyleType };
      });
      assert.equal(layout.rows.length, 2, `two blocks at ${width} px`);
      assert.equal(layout.bullets, 'none', `no bullets at ${width} px`);
      for (const row of layout.rows) assert.ok(Math.abs(row.width - layout.width) < 1, `a row as wide as the list at ${width} px: ${JSON.stringify(layout)}`);
      assert.ok((layout.rows[1]?.top ?? 0) >= (layout.rows[0]?.bottom ?? Number.POSITIVE_INFINITY) - 1, `the second row under the first at ${width} px: ${JSON.stringify(layout)}`);
    }
  });

  it('every kind of block has Edit: a session with a break, an entry, the running session', async () => {
    // A session with a break (its note keeps it however short), then one running.
    tracker().startActivity({ name: 'Calls', createIfMissing: true, note: 'with a break' });
    tracker().startBreak();
    tracker().resumeBreak();
    tracker().stopActivity();
    tracker().startActivity({ name: 'Planning', createIfMissing: true });
    const { page } = ui;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openWindow(page, ui.app, '/today');
    const rows = page.getByTestId('today-block');
    await rows.filter({ hasText: 'Planning' }).waitFor();
    const kinds = await rows.evaluateAll((lis) => lis.map((li) => [li.querySelector('.name')?.textContent ?? '', li.querySelectorAll('[data-testid=edit-block]').length]));
    assert.equal(kinds.length, 4, JSON.stringify(kinds));
    assert.deepEqual(
      kinds.filter(([, edits]) => edits !== 1),
      [],
      'one Edit on each row',
    );
    const session = rows.filter({ hasText: 'with a break' });
    await session.getByRole('button', { name: /^Edit/ }).click();
    await session.getByTestId('block-editor').getByLabel('Note').waitFor();
    await session.getByTestId('block-editor').getByRole('button', { name: 'Cancel' }).click();
    const running = rows.filter({ hasText: 'Planning' });
    await running.getByRole('button', { name: /^Edit/ }).click();
    await running.getByTestId('block-editor').getByLabel('Note').waitFor();
    await running.getByTestId('block-editor').getByRole('button', { name: 'Cancel' }).click();
    tracker().stopActivity();
  });

  it('at 390 px the block editor opens in its row without sideways scroll', async () => {
    const { page } = ui;
    await page.setViewportSize({ width: 390, height: 900 });
    await openWindow(page, ui.app, '/today');
    const row = page.getByTestId('today-block').filter({ hasText: 'Review' });
    await row.getByRole('button', { name: /^Edit/ }).click();
    await row.getByTestId('block-editor').waitFor();
    assert.equal(await sideways(page), 0, 'no sideways scroll at 390 px with the editor open');
    await screenshot(page, 'today-block-edit-390');
    await row.getByTestId('block-editor').getByRole('button', { name: 'Cancel' }).click();
    await row.getByTestId('block-editor').waitFor({ state: 'detached' });
  });
});
