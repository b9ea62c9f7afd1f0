/**
 * One timer across devices in the window (issue 31), in real Chromium on a clock fixed at
 * Wednesday 18 November 2026 in Europe/Berlin: Settings › Sync's checkbox sets `oneTimer`; Today
 * shows what runs on other devices (their sessions without an end, by the device's name, with
 * the note) beside this device's own timer, which a later start elsewhere stops when one timer is on.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { segmentText } from './support/sync-folder.ts';
import { blur, openWindow, screenshot, seriousAxeViolations, tabTo, windowSuite } from './ui-support/harness.ts';

const OTHER = 'dddddddd-0000-4000-8000-0000000000ee';
const ACTIVITY = 'dddddddd-0000-4000-8000-0000000000aa';
const SESSION = 'dddddddd-0000-4000-8000-0000000000a1';
const SECOND = 'dddddddd-0000-4000-8000-0000000000a2';

let now = Date.parse('2026-11-18T09:00:00.000Z');
let folder: string;

const ui = windowSuite({
  app: { clock: () => now },
  browser: { locale: 'en-US' },
  seed: ({ app }) => {
    folder = mkdtempSync(join(tmpdir(), 'tock-ui-one-timer-'));
    app.services.sync.enable(folder, 'laptop');
  },
});
after(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The other device's log, delivered whole by rename as a sync engine does. */
function deliver(lines: object[]): void {
  const own = join(folder, 'tock-sync-v2', OTHER);
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'device.json'), JSON.stringify({ deviceID: OTHER, name: 'desktop', createdAt: '2026-11-01T00:00:00.000Z' }));
  writeFileSync(join(own, '.arriving'), segmentText(ui.services.sync.folderKey(), OTHER, lines.map((l) => JSON.stringify(l))));
  renameSync(join(own, '.arriving'), join(own, '00000001.jsonl'));
}

describe('one timer across devices', () => {
  it('Settings › Sync turns one timer off and on with a checkbox, by keyboard', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/sync');
    const box = page.getByRole('checkbox', { name: 'One timer across my devices' });
    assert.equal(await box.isChecked(), true, 'on by default');
    await blur(page);
    await tabTo(page, 'input[type="checkbox"]');
    await page.keyboard.press('Space');
    await page.getByText('Off: each device keeps its own timer running').waitFor();
    assert.equal(ui.services.sync.status().oneTimer, false);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'one-timer-settings');
    // A click, then the answer: the box follows the saved setting, so it turns once the app has it
    // (Playwright's check() asserts the new state at once, which a loaded machine may not have yet).
    await box.click();
    await page.getByText('A timer started on another device stops the one running here').waitFor();
    assert.equal(await box.isChecked(), true);
    assert.equal(ui.services.sync.status().oneTimer, true);
  });

  it('Today shows what runs on another device, and a later start there stops the timer here', async () => {
    const { page } = ui;
    // Here: Design since 10:00 (Berlin). There: Review since 10:30, with a note.
    now = Date.parse('2026-11-18T09:00:00.000Z');
    ui.services.tracker.startActivity({ name: 'Design', createIfMissing: true });
    now = Date.parse('2026-11-18T09:45:00.000Z');
    const start = Date.parse('2026-11-18T09:30:00.000Z');
    await openWindow(page, ui.app);
    await page.getByTestId('current-activity').filter({ hasText: 'Design' }).waitFor();
    deliver([
      { v: 1, hlc: `${start - 1}-0-${OTHER}`, op: 'activity.create', id: ACTIVITY, set: { name: 'Review', createdAt: start - 1 } },
      { v: 1, hlc: `${start}-0-${OTHER}`, op: 'session.start', id: SESSION, set: { device: OTHER, activityID: ACTIVITY, startedAt: start, endedAt: null, note: 'Pull request 212' } },
    ]);
    const others = page.getByTestId('other-devices-running');
    await others.locator('li').filter({ hasText: 'since 10:30' }).filter({ hasText: 'Review' }).filter({ hasText: 'on desktop' }).filter({ hasText: 'Pull request 212' }).waitFor();
    assert.equal(await others.locator('.dur').textContent(), '15 min');
    // One timer: the later start there ended Design here at 10:30.
    await page.getByText('Not tracking', { exact: true }).first().waitFor();
    const design = ui.services.tracker.listBlocks(Date.parse('2026-11-18T00:00:00.000Z'), now).find((x) => x.activity.activityName === 'Design');
    assert.equal(design?.endedAt, new Date(start).toISOString());
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'one-timer-today');
  });

  it('with one timer off both run: Today shows its own timer and the other device’s', async () => {
    const { page } = ui;
    ui.services.sync.setOneTimer(false);
    now = Date.parse('2026-11-18T10:00:00.000Z');
    ui.services.tracker.startActivity({ name: 'Design' });
    now = Date.parse('2026-11-18T10:10:00.000Z');
    const start = Date.parse('2026-11-18T10:05:00.000Z');
    deliver([
      { v: 1, hlc: `${start - 1}-0-${OTHER}`, op: 'activity.create', id: ACTIVITY, set: { name: 'Review', createdAt: start - 1 } },
      { v: 1, hlc: `${Date.parse('2026-11-18T09:30:00.000Z')}-0-${OTHER}`, op: 'session.start', id: SESSION, set: { device: OTHER, activityID: ACTIVITY, startedAt: Date.parse('2026-11-18T09:30:00.000Z'), endedAt: null, note: 'Pull request 212' } },
      { v: 1, hlc: `${start}-0-${OTHER}`, op: 'session.stop', id: SESSION, set: { endedAt: start } },
      { v: 1, hlc: `${start + 1}-0-${OTHER}`, op: 'session.start', id: SECOND, set: { device: OTHER, activityID: ACTIVITY, startedAt: start, endedAt: null } },
    ]);
    await openWindow(page, ui.app);
    const others = page.getByTestId('other-devices-running');
    await others.locator('li').filter({ hasText: 'since 11:05' }).waitFor();
    assert.equal(await others.locator('li').count(), 1, 'the stopped session is no longer running there');
    await page.getByTestId('current-activity').filter({ hasText: 'Design' }).waitFor();
    assert.equal(ui.services.tracker.getStatus().currentActivity?.activityName, 'Design');
    // The session's clock here is this device's session (10 min), not the other device's.
    await page.getByTestId('elapsed').filter({ hasText: /^0:1\d:\d\d$/ }).waitFor();
  });
});
