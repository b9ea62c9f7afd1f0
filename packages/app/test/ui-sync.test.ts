/**
 * Settings › Sync in a real Chromium against a real app: turned on with the form (a missing
 * folder refused at its field), this device's line, another device's work arriving while the
 * window is open (Today's total follows without a reload; History marks the block "on desktop"),
 * a device whose log has a bad line shown with its problem, turned off; the folder field as wide
 * as its form from 360 to 1920 px; the window's words for the app's refusals; axe in light and dark;
 * a second device joining from its window with the folder key the first one shows (a missing
 * or wrong key refused at the key field, with nothing changed).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { formatSyncKey } from '@tock/core/sync';
import { segmentText } from './support/sync-folder.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { newTab, openWindow, rawRequest, screenshot, seriousAxeViolations, startTestApp, windowSession, windowSuite } from './ui-support/harness.ts';

const OTHER = 'dddddddd-0000-4000-8000-0000000000ee';
const BROKEN = 'dddddddd-0000-4000-8000-0000000000ff';
const ACTIVITY = 'dddddddd-0000-4000-8000-0000000000aa';

let folder: string;

const ui = windowSuite({
  seed: () => {
    folder = mkdtempSync(join(tmpdir(), 'tock-ui-sync-'));
  },
});
after(() => {
  rmSync(folder, { recursive: true, force: true });
});

function device(id: string, name: string, lines: string[]): void {
  const own = join(folder, 'tock-sync-v2', id);
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'device.json'), JSON.stringify({ deviceID: id, name, createdAt: '2026-11-01T00:00:00.000Z' }));
  // Signed with the folder key the window's "Turn sync on" made (sync format 2).
  writeFileSync(join(own, '.arriving'), segmentText(ui.services.sync.folderKey(), id, lines));
  // As a sync engine delivers it: whole, by rename.
  renameSync(join(own, '.arriving'), join(own, '00000001.jsonl'));
}

describe('Settings › Sync', () => {
  it('turns sync on, shows other devices’ work and problems as they arrive, and turns it off', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/sync');
    const dir = page.getByLabel('Folder', { exact: true });
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
    const own = ui.services.sync.status().device!.logLines;
    assert.equal(
      await page.getByTestId('sync-this-device').textContent(),
      `Sync is on: laptop writes its changes to ${folder}. ${own} ${own === 1 ? 'change made here is' : 'changes made here are'} in the folder for the other devices.`,
    );
    await page.getByText('No other device in the folder yet.').waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);

    // Another device's 25 minutes today arrive while the window is open, and a second window on Today.
    const today = await ui.browser.context.newPage();
    await openWindow(today, ui.app);
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
    assert.equal(ui.services.tracker.getStatus().todaySeconds, 25 * 60);
    await today.getByTestId('today-total').filter({ hasText: '25 min' }).waitFor();
    // History marks the block with the device it was made on, by that device's name.
    await openWindow(today, ui.app, '/history');
    await today.locator('li', { hasText: 'Review' }).filter({ hasText: 'on desktop' }).first().waitFor();
    await today.close();

    await page.getByRole('button', { name: 'Turn sync off' }).click();
    await page.getByRole('button', { name: 'Turn sync on' }).waitFor();
    assert.equal(ui.services.sync.status().enabled, false);
  });

  for (const [width, height] of [
    [360, 800],
    [1920, 1080],
  ] as const) {
    it(`gives the folder the form's whole width at ${width}×${height}`, async () => {
      const sized = await newTab(ui.browser, { width, height });
      try {
        await openWindow(sized, ui.app, '/settings/sync');
        const form = await sized.locator('form.sync-form').boundingBox();
        const field = await sized.locator('#sync-dir').boundingBox();
        const name = await sized.locator('#sync-name').boundingBox();
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
    const dark = await newTab(ui.browser, { colorScheme: 'dark' });
    try {
      await openWindow(dark, ui.app, '/settings/sync');
      await dark.getByRole('button', { name: 'Turn sync on' }).waitFor();
      assert.deepEqual(await seriousAxeViolations(dark), []);
    } finally {
      await dark.close();
    }
  });
});

describe('Settings › Sync: a second device joins with the folder key', () => {
  it('shows the key on the first device; the second is refused without it or with a wrong one, then joins with it pasted', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'tock-ui-sync-key-'));
    const a = await startTestApp();
    const other = await startTestApp();
    try {
      const { page } = ui;
      await ui.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: a.origin });
      await openWindow(page, a, '/settings/sync');
      await page.getByLabel('Folder', { exact: true }).fill(shared);
      await page.getByLabel('This device’s name (optional; the host name otherwise)').fill('laptop');
      await page.getByRole('button', { name: 'Turn sync on' }).click();
      await page.getByTestId('sync-this-device').filter({ hasText: 'Sync is on: laptop' }).waitFor();
      await page.getByRole('button', { name: 'Show the folder key' }).click();
      const shown = page.locator('#sync-key-value');
      await shown.waitFor();
      const key = await shown.inputValue();
      // As `tock sync key` prints it: base32, lower case, groups of 4 joined by `-`.
      assert.equal(key, a.app.services.sync.folderKey());
      assert.match(key, /^[a-z2-7]{4}(-[a-z2-7]{4}){12}$/);
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Folder key copied to the clipboard.').waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
      assert.deepEqual(await seriousAxeViolations(page), []);
      await page.getByRole('button', { name: 'Hide' }).click();
      await page.getByRole('button', { name: 'Show the folder key' }).waitFor();
      assert.equal(await page.locator('#sync-key-value').count(), 0);

      // The key route is guarded as the token's reveal: POST only, same origin, a window session.
      const session = await windowSession(a);
      const own = (extra: Record<string, string> = {}) => ({ host: `127.0.0.1:${a.port}`, ...session, ...extra });
      assert.equal((await rawRequest(a.port, 'GET', '/api/sync/key', own())).status, 405);
      assert.equal((await rawRequest(a.port, 'POST', '/api/sync/key', own())).status, 403);
      assert.equal((await rawRequest(a.port, 'POST', '/api/sync/key', own({ origin: 'https://evil.example' }))).status, 403);
      assert.equal((await rawRequest(a.port, 'POST', '/api/sync/key', { host: `127.0.0.1:${a.port}`, origin: a.origin })).status, 401);
      const revealed = await rawRequest(a.port, 'POST', '/api/sync/key', own({ origin: a.origin }));
      assert.equal(revealed.status, 200);
      assert.equal(JSON.parse(revealed.body).result.key, key);
      assert.equal(revealed.headers['cache-control'], 'no-store');
      for (const path of ['/api/state', '/api/sync']) assert.ok(!(await rawRequest(a.port, 'GET', path, own())).body.includes(key), path);

      // The second device, from its window only.
      const before = readdirSync(join(shared, 'tock-sync-v2')).sort();
      const folderFile = readFileSync(join(shared, 'tock-sync-v2', 'folder.json'), 'utf8');
      const nothingChanged = (): void => {
        assert.equal(other.app.services.sync.status().enabled, false);
        assert.deepEqual(readdirSync(join(shared, 'tock-sync-v2')).sort(), before);
        assert.equal(readFileSync(join(shared, 'tock-sync-v2', 'folder.json'), 'utf8'), folderFile);
      };
      await openWindow(page, other, '/settings/sync');
      await page.getByLabel('Folder', { exact: true }).fill(shared);
      await page.getByLabel('This device’s name (optional; the host name otherwise)').fill('desktop');
      await page.getByRole('button', { name: 'Turn sync on' }).click();
      const keyError = page.locator('#sync-key-error');
      await keyError.filter({ hasText: 'This folder already syncs with a folder key' }).waitFor();
      assert.equal(
        await keyError.textContent(),
        'This folder already syncs with a folder key that another device made: paste it here. On that device, press Show the folder key in Settings › Sync (or run tock sync key).',
      );
      const keyField = page.getByLabel('Folder key (only when another device syncs there already)');
      assert.equal(await keyField.getAttribute('aria-invalid'), 'true');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'sync-key');
      assert.equal(await page.locator('#sync-dir-error').count(), 0);
      nothingChanged();

      // Another folder's key (right form, wrong folder) is refused at the key field, and never shown back.
      const wrong = formatSyncKey(new Uint8Array(32).fill(7));
      await keyField.fill(wrong);
      await page.getByLabel('Folder', { exact: true }).focus();
      await page.getByRole('button', { name: 'Turn sync on' }).click();
      await keyError.filter({ hasText: /key is not this folder/i }).waitFor();
      assert.equal(
        await keyError.textContent(),
        "That key is not this folder's (it does not match tock-sync-v2/folder.json); copy it again from Show the folder key in Settings › Sync on a device that syncs there.",
      );
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'sync-key');
      assert.ok(!(await page.locator('main').textContent())?.includes(wrong.slice(0, 9)));
      nothingChanged();

      // The right key, pasted in lower case with spaces for dashes (read as `tock sync enable --key` reads it).
      await keyField.fill(` ${key.replaceAll('-', ' ')} `);
      await page.getByRole('button', { name: 'Turn sync on' }).click();
      await page.getByTestId('sync-this-device').filter({ hasText: 'Sync is on: desktop' }).waitFor();
      assert.equal(other.app.services.sync.folderKey(), key);
      assert.equal(readFileSync(join(shared, 'tock-sync-v2', 'folder.json'), 'utf8'), folderFile);
      // Each sees the other.
      await page.getByTestId('sync-devices').locator('tr', { hasText: 'laptop' }).filter({ hasText: 'none' }).waitFor();
      await openWindow(page, a, '/settings/sync');
      await page.getByTestId('sync-devices').locator('tr', { hasText: 'desktop' }).filter({ hasText: 'none' }).waitFor();
    } finally {
      await other.stop();
      await a.stop();
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
