/**
 * The window's one list of every activity (`GET /api/activities/all`, 40–60 ms of the app's CPU at
 * 20 000 activities) is read again only when the app says it changed (the feed's `activities`):
 * never after a write that leaves it as shown — a start, a switch, a break, a stop, an entry of
 * an activity used today, from anywhere — and always after one that does not, made from the CLI,
 * from the window itself, by another device's log applied, or by a recency that moves to today.
 * An activity's ledger fields changed from the CLI reach its billing panel (the feed's `ledger`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { callAdmin } from '@tock/admin';
import { activityNamed } from '@tock/core';
import { until } from '@tock/test-support';
import type { Page } from 'playwright-core';
import { homePaths } from '../src/home.ts';
import { onOneFolder } from './support/sync-apps.ts';
import { countRequests, openWindow, startTestApp, windowApi, windowSuite } from './ui-support/harness.ts';

const DAY = 86_400_000;

const ui = windowSuite({
  keepShortSessions: true,
  seed: ({ app }) => {
    const { tracker, store } = app.services;
    tracker.startActivity({ name: 'Alpha', createIfMissing: true });
    tracker.startActivity({ name: 'Beta', createIfMissing: true });
    tracker.stopActivity();
    // Last used three days ago: its row says so until it is used again.
    const old = tracker.createActivity('Old');
    store.db.prepare('UPDATE activities SET last_used_at = ? WHERE id = ?').run(Date.now() - 3 * DAY, old.activityID);
  },
});


const row = (page: Page, name: string) => page.getByTestId('activity-row').filter({ has: page.locator('.activity-name', { hasText: new RegExp(`^${name}$`) }) });

describe('the activity list', () => {
  it('is not read again across writes that leave it as shown, from the app or the window itself', async () => {
    const { page } = ui;
    const { tracker } = ui.services;
    await openWindow(page, ui.app, '/activities');
    await row(page, 'Beta').waitFor();
    const api = await windowApi(ui.app);
    const alpha = tracker.startActivity({ name: 'Alpha' }).activityID;
    await page.locator('.now-pill-name').filter({ hasText: 'Alpha' }).waitFor({ state: 'attached' });
    const reads = countRequests(page, '/api/activities/all');
    try {
      for (let round = 0; round < 3; round++) {
        tracker.startActivity({ name: 'Beta' });
        tracker.startBreak();
        tracker.resumeBreak();
        tracker.logEntry({ name: 'Beta', durationMinutes: 1, endedAt: new Date(Date.now() - 60_000).toISOString() });
        tracker.stopActivity();
        // The window's own: its routes announce `blocks` and flush the bus at once.
        assert.equal((await api('POST', '/api/start', { activityID: alpha })).status, 200);
        await page.locator('.now-pill-name').filter({ hasText: 'Alpha' }).waitFor({ state: 'attached' });
        assert.equal((await api('POST', '/api/stop')).status, 200);
        assert.equal((await api('POST', '/api/start', { activityID: alpha })).status, 200);
      }
      // The feed keeps its order: once this rename shows, every earlier event was heard.
      tracker.renameActivity(activityNamed(ui.services.store, 'Beta').id, 'Beta, renamed');
      await row(page, 'Beta, renamed').waitFor();
      assert.equal(reads.count, 1, `reads of every activity across 27 writes that left the list as shown, and one rename: ${reads.count}`);
    } finally {
      reads.stop();
      tracker.stopActivity();
    }
  });

  it('is read again after each change of it, from the CLI, the window itself or a recency that moves to today, and shows it', async () => {
    const { page } = ui;
    const socket = homePaths(ui.app.home).adminSocket;
    await openWindow(page, ui.app, '/activities');
    await row(page, 'Old').waitFor();
    assert.doesNotMatch((await row(page, 'Old').locator('.activity-used').textContent()) ?? '', /used today/);
    const reads = countRequests(page, '/api/activities/all');
    let changes = 0;
    const shown = async (what: string, visible: () => Promise<void>): Promise<void> => {
      changes++;
      await visible();
      // The read that showed it was the change's one.
      assert.equal(reads.count, changes, `reads after ${what}: ${reads.count}`);
    };
    try {
      // `tock start Gamma`: a new activity.
      await callAdmin(socket, 'POST /activities/start', { name: 'Gamma', createIfMissing: true });
      await shown('a start that made an activity', () => row(page, 'Gamma').waitFor());
      await callAdmin(socket, 'POST /activities/stop');
      await callAdmin(socket, 'POST /activity/rename', { activity: 'Gamma', name: 'Gamma, renamed' });
      await shown('a rename from the CLI', () => row(page, 'Gamma, renamed').waitFor());
      await callAdmin(socket, 'POST /activity/archive', { activity: 'Gamma, renamed', archived: true });
      await shown('an archive from the CLI', () => row(page, 'Gamma, renamed').locator('.badge', { hasText: 'archived' }).waitFor());
      await callAdmin(socket, 'POST /activity/merge', { from: 'Gamma, renamed', into: 'Alpha' });
      await shown('a merge from the CLI', () => row(page, 'Gamma, renamed').waitFor({ state: 'detached' }));
      await row(page, 'Alpha').getByRole('button', { name: 'Archive Alpha', exact: true }).click();
      await shown('an archive from the window', () => row(page, 'Alpha').locator('.badge', { hasText: 'archived' }).waitFor());
      await row(page, 'Alpha').getByRole('button', { name: 'Unarchive Alpha', exact: true }).click();
      await shown('an unarchive from the window', () => row(page, 'Alpha').getByRole('button', { name: 'Archive Alpha', exact: true }).waitFor());
      ui.services.tracker.startActivity({ name: 'Old' });
      await shown('a start of an activity last used three days ago', () => row(page, 'Old').locator('.activity-used', { hasText: 'used today' }).waitFor());
      // `tock activity set --budget`: the billing panel shows it; the list, which does not, is not read.
      await row(page, 'Old').getByRole('button', { name: 'Billing of Old', exact: true }).click();
      const budget = row(page, 'Old').getByLabel('Budget (hours)');
      await budget.waitFor();
      assert.equal(await budget.inputValue(), '');
      await callAdmin(socket, 'POST /activity/set', { activity: 'Old', budgetHours: '5' });
      await until('the budget set from the CLI shown', async () => (await budget.inputValue()) === '5');
      assert.equal(reads.count, changes, `reads after a budget set from the CLI: ${reads.count}`);
    } finally {
      reads.stop();
      ui.services.tracker.stopActivity();
    }
  });

  describe('with another device', () => {
    const folder = mkdtempSync(join(tmpdir(), 'tock-ui-activity-list-'));
    after(() => rmSync(folder, { recursive: true, force: true }));

    it('is read again when its log brings a new or renamed activity, and not for its blocks alone', async () => {
      const { page } = ui;
      const other = await startTestApp();
      try {
        // Its start and stop a moment apart make a block (crumbs are core's tests').
        other.app.services.store.settings.set('minSessionSeconds', 0);
        const round = onOneFolder(ui.app.app, other.app, folder);
        await round();
        await openWindow(page, ui.app, '/activities');
        await row(page, 'Old').waitFor();
        const reads = countRequests(page, '/api/activities/all');
        try {
          const desk = other.app.services.tracker;
          desk.startActivity({ name: 'From the desktop', createIfMissing: true });
          desk.stopActivity();
          await round();
          await row(page, 'From the desktop').waitFor();
          desk.renameActivity(activityNamed(other.app.services.store, 'From the desktop').id, 'From the desktop, renamed');
          await round();
          await row(page, 'From the desktop, renamed').waitFor();
          assert.equal(reads.count, 2, `reads after a new activity and a rename from another device: ${reads.count}`);
          // Its blocks alone (an activity used today): nothing the list shows.
          const here = ui.services.tracker;
          const blocksBefore = here.listBlocks(Date.now() - DAY, Date.now() + DAY).length;
          desk.startActivity({ name: 'From the desktop, renamed' });
          desk.stopActivity();
          await round();
          await until('the other device’s block applied here', () => here.listBlocks(Date.now() - DAY, Date.now() + DAY).length > blocksBefore);
          here.renameActivity(activityNamed(ui.services.store, 'Alpha').id, 'Alpha, renamed');
          await row(page, 'Alpha, renamed').waitFor();
          assert.equal(reads.count, 3, `reads after another device's block and a rename here: ${reads.count}`);
        } finally {
          reads.stop();
        }
      } finally {
        await other.stop();
      }
    });
  });
});
