/**
 * Settings › Sync in a real Chromium against a real app: turned on with the form (a missing
 * folder refused at its field), this device's line, another device's work arriving while the
 * window is open (Today's total follows without a reload; History marks the block "on desktop"),
 * a device whose log has a bad line shown with its problem, turned off; the folder field as wide
 * as its form from 360 to 1920 px; the window's words for the app's refusals; axe in light and dark.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { segmentText } from './support/sync-folder.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureWindowBuilt, launchBrowser, openWindow, screenshot, seriousAxeViolations, startTestApp, type TestApp, type TestBrowser } from './ui-support/harness.ts';

const OTHER = 'dddddddd-0000-4000-8000-0000000000ee';
const BROKEN = 'dddddddd-0000-4000-8000-0000000000ff';
const ACTIVITY = 'dddddddd-0000-4000-8000-0000000000aa';

let t: TestApp;
let b: TestBrowser;
let folder: string;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp();
  b = await launchBrowser();
  folder = mkdtempSync(join(tmpdir(), 'tock-ui-sync-'));
});
after(async () => {
  await b?.close();
  await t?.stop();
  rmSync(folder, { recursive: true, force: true });
});

function device(id: string, name: string, lines: string[]): void {
  const own = join(folder, 'tock-sync-v2', id);
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'device.json'), JSON.stringify({ deviceID: id, name, createdAt: '2026-11-01T00:00:00.000Z' }));
  // Signed with the folder key the window's "Turn sync on" made (sync format 2).
  writeFileSync(join(own, '.arriving'), segmentText(t.app.services.sync.folderKey(), id, lines));
  // As a sync engine delivers it: whole, by rename.
  renameSync(join(own, '.arriving'), join(own, '00000001.jsonl'));
}

describe('Settings › Sync', () => {
  it('turns sync on, shows other devices’ work and problems as they arrive, and turns it off', async () => {
    const { page } = b;
    await openWindow(page, t, '/settings/sync');
    const dir = page.getByLabel('Folder');
    assert.equal(await dir.getAttribute('placeholder'), '~/Sync/tock');
    await page.getByRole('button', { name: 'Turn sync on' }).click();
    const dirError = page.locator('#sync-dir-error');
    await dirError.waitFor();
    assert.equal(await dirError.textContent(), 'Enter the folder your sync engine shares, a folder such as ~/Sync/tock.');
    await dir.fill(join(folder, 'missing'));
    await page.getByRole('button', { name: 'Turn sync on' }).click();
    await dirError.filter({ hasText: 'does not exist; create it' }).waitFor();
    assert.equal(await dir.getAttribute('aria-invalid'), 'true');
    // The app's refusal, shared with `tock sync enable`, names the window's button instead of the command.
    assert.equal(await dirError.textContent(), `${join(folder, 'missing')} does not exist; create it (or the folder your sync engine shares) and press Turn sync on again.`);
    await dir.fill(folder);
    await page.getByLabel('This device’s name (optional; the host name otherwise)').fill('laptop');
    await page.getByRole('button', { name: 'Turn sync on' }).click();
    await page.getByTestId('sync-this-device').filter({ hasText: 'Sync is on: laptop writes its changes to' }).waitFor();
    // What the log count means to a person, in the words of `tock sync status`.
    const own = t.app.services.sync.status().device!.logLines;
    assert.equal(
      await page.getByTestId('sync-this-device').textContent(),
      `Sync is on: laptop writes its changes to ${folder}. ${own} ${own === 1 ? 'change made here is' : 'changes made here are'} in the folder for the other devices.`,
    );
    await page.getByText('No other device in the folder yet.').waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);

    // Another device's 25 minutes today arrive while the window is open, and a second window on Today.
    const today = await b.context.newPage();
    await openWindow(today, t);
    await today.getByTestId('today-total').filter({ hasText: '0 min' }).waitFor();
    const now = Date.now();
    const start = now - 30 * 60_000;
    device(OTHER, 'desktop', [
      JSON.stringify({ v: 1, hlc: `${start}-0-${OTHER}`, op: 'activity.create', id: ACTIVITY, set: { name: 'Review', createdAt: start } }),
      JSON.stringify({ v: 1, hlc: `${start + 1}-0-${OTHER}`, op: 'entry.create', id: `${ACTIVITY.slice(0, -2)}01`, set: { device: OTHER, activityID: ACTIVITY, startedAt: start, endedAt: start + 25 * 60_000, note: null, createdAt: start } }),
    ]);
    device(BROKEN, 'tablet', ['{oops']);
    const table = page.getByTestId('sync-devices');
    await table.locator('tr', { hasText: 'desktop' }).filter({ hasText: 'none' }).waitFor();
    assert.deepEqual(await table.locator('thead th').allTextContents(), ['Device', 'Last change', 'Its changes applied here', 'Problem']);
    assert.equal(await table.locator('tr', { hasText: 'desktop' }).locator('td').nth(2).textContent(), '2 changes');
    await table.locator('tr', { hasText: 'tablet' }).filter({ hasText: '00000001.jsonl line 1: not a JSON line; applying its log stops there' }).waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'settings-sync');
    assert.equal(t.app.services.tracker.getStatus().todaySeconds, 25 * 60);
    await today.getByTestId('today-total').filter({ hasText: '25 min' }).waitFor();
    // History marks the block with the device it was made on, by that device's name.
    await openWindow(today, t, '/history');
    await today.locator('li', { hasText: 'Review' }).filter({ hasText: 'on desktop' }).first().waitFor();
    await today.close();

    await page.getByRole('button', { name: 'Turn sync off' }).click();
    await page.getByRole('button', { name: 'Turn sync on' }).waitFor();
    assert.equal(t.app.services.sync.status().enabled, false);
  });

  for (const [width, height] of [
    [360, 800],
    [1920, 1080],
  ] as const) {
    it(`gives the folder the form's whole width at ${width}×${height}`, async () => {
      const sized = await launchBrowser({ width, height });
      try {
        await openWindow(sized.page, t, '/settings/sync');
        const form = await sized.page.locator('form.sync-form').boundingBox();
        const field = await sized.page.locator('#sync-dir').boundingBox();
        const name = await sized.page.locator('#sync-name').boundingBox();
        assert.ok(form && field && name);
        assert.equal(Math.round(field.width), Math.round(form.width), `the folder field is ${field.width} px in a ${form.width} px form`);
        assert.equal(Math.round(name.width), Math.round(form.width));
        assert.ok(field.x + field.width <= width, 'and within the window');
      } finally {
        await sized.close();
      }
    });
  }

  it('is readable in the dark theme', async () => {
    const dark = await launchBrowser({ colorScheme: 'dark' });
    try {
      await openWindow(dark.page, t, '/settings/sync');
      await dark.page.getByRole('button', { name: 'Turn sync on' }).waitFor();
      assert.deepEqual(await seriousAxeViolations(dark.page), []);
    } finally {
      await dark.close();
    }
  });
});
