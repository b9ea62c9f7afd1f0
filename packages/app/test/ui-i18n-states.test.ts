/**
 * The window's error and empty states in the pseudo-locale `en-XA` (docs/ui.md "Languages"):
 * on a fresh app with nothing tracked every screen's empty state, the listener that cannot
 * take its port, capture sources that do not work here with their reasons, idle sources'
 * needs, a field the app refused (by its rule's code and values), a sync folder problem (by
 * its code), an import refused at an item of its file, an editor's refusal and a credential store's error (by their codes), and a save the app could not make (a full disk, and no answer at all) — every
 * word a person reads there carries the accents, proof it came from a catalog, not from the
 * app's English. The app sends codes and values (a listener's error code, a source's reason code
 * and id); the window words them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SourceReason, type FocusSource } from '@tock/desktop/capture/sources';
import { fieldRule, ruleProblem, validationProblem } from '@tock/protocol';
import type { Page } from 'playwright-core';
import { ensureWindowBuilt, freePort, launchBrowser, startTestApp, type TestApp, type TestBrowser } from './ui-support/harness.ts';
import { allowedWords, PSEUDO, SCREENS, show, unaccentedWords } from './ui-support/i18n-walk.ts';

/** Capture sources that do not work here, each for a reason the app words by its code. */
const SOURCES: FocusSource[] = [
  {
    id: 'x11',
    name: 'X11 (EWMH, xprop)',
    check: async () => 'xprop is not installed (Debian/Ubuntu: x11-utils)',
    diagnose: async () => new SourceReason('not_installed', 'xprop is not installed (Debian/Ubuntu: x11-utils)', { program: 'xprop', package: 'x11-utils' }),
    follow: () => Promise.reject(new Error('not here')),
  },
  {
    id: 'sway',
    name: 'sway (IPC)',
    check: async () => 'not a sway session (SWAYSOCK is not set)',
    diagnose: async () => new SourceReason('not_set', 'not a sway session (SWAYSOCK is not set)', { variable: 'SWAYSOCK' }),
    follow: () => Promise.reject(new Error('not here')),
  },
  {
    id: 'gnome',
    name: 'GNOME Shell (Tock extension)',
    check: async () => 'GNOME Shell is not running on this session bus',
    diagnose: async () => new SourceReason('not_running', 'GNOME Shell is not running on this session bus', { program: 'GNOME Shell' }),
    follow: () => Promise.reject(new Error('not here')),
  },
];

/** Idle sources that cannot answer here: the window says what each would need. */
const IDLE_SOURCES = ['x11', 'mutter', 'logind'].map((id) => ({ id, name: `${id} (the app's name)`, hint: `${id}: what it needs, in the app's English`, idleMs: () => Promise.reject(new Error('not here')) }));

let t: TestApp;
let b: TestBrowser;
let taken: Server;
let allowed: Set<string>;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp({}, { capture: { focusSources: () => SOURCES, timers: false }, desktop: { idleSources: () => IDLE_SOURCES, timers: false } });
  await t.app.services.desktop.probeIdleSources();
  b = await launchBrowser({ locale: 'en-US', width: 390, height: 844 });
  allowed = allowedWords();
  // A port another program holds: the listener cannot take it.
  const port = await freePort();
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
  await t.app.services.listener.enable(port).catch(() => {});
  // The snapshot says en-XA (the setting offers the five languages; the pseudo-locale is for tests).
  await b.page.route('**/api/state', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { result: { language: string } };
    json.result.language = 'en-XA';
    await route.fulfill({ response, json });
  });
  b.page.setDefaultTimeout(15_000);
  await b.page.goto(t.launchUrl());
  await b.page.locator('main h1').waitFor();
  await b.page.waitForFunction(() => document.documentElement.lang === 'en-XA');
});

after(async () => {
  await b?.close();
  await t?.stop();
  await new Promise<void>((resolve) => (taken ? taken.close(() => resolve()) : resolve()));
});

/** Asserts that `page` shows no unaccented English, naming `where`. */
async function allFromCatalogs(page: Page, where: string): Promise<void> {
  assert.deepEqual(await unaccentedWords(page, allowed), [], `${where} shows text that is not from a catalog`);
}

describe('en-XA: the error and empty states', () => {
  it('every screen of an app with nothing tracked, nothing billed and nothing captured', async () => {
    for (const screen of SCREENS) {
      await show(b.page, screen);
      await allFromCatalogs(b.page, screen);
    }
  });

  it('the listener that cannot take its port, worded by its error code', async () => {
    await show(b.page, '/settings/integrations');
    const line = b.page.getByTestId('listener-status');
    await line.filter({ hasText: /ţáķéñ|íñ üšé/ }).waitFor();
    assert.match((await line.textContent()) ?? '', PSEUDO);
    assert.equal(await line.getAttribute('lang'), null, 'the line is the window’s, not the app’s English');
    await allFromCatalogs(b.page, 'Integrations with the listener in error');
  });

  it('capture sources that do not work here, with their reasons; idle sources and what they need', async () => {
    await show(b.page, '/settings/capture');
    const sources = b.page.getByTestId('capture-sources');
    await sources.locator('li').first().waitFor();
    assert.equal(await sources.locator('[lang]').count(), 0, 'no reason is left in the app’s English');
    assert.match((await sources.textContent()) ?? '', /x11-utils/);
    assert.match((await sources.textContent()) ?? '', /SWAYSOCK/);
    await allFromCatalogs(b.page, 'Capture with no source working');
    await show(b.page, '/settings/desktop');
    const hints = b.page.getByTestId('idle-hints');
    assert.equal(await hints.locator('li').count(), 3);
    assert.equal(await hints.locator('[lang]').count(), 0, 'no need is left in the app’s English');
    assert.match((await hints.textContent()) ?? '', /apt install xprintidle/);
    await allFromCatalogs(b.page, 'Desktop with no idle source');
  });

  it('a field the app refuses, worded by its rule’s code and values under the field', async () => {
    const { page } = b;
    await show(page, '/settings/integrations');
    // The answer the window's door gives a port outside its range: the English, and beside it the rule.
    const refused = validationProblem([ruleProblem('port', fieldRule({ type: 'integer', minimum: 1024, maximum: 65535, description: '' }))]);
    await page.route('**/api/listener', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, json: { ok: false, code: refused.code, error: refused.message, details: refused.details } })
        : route.fallback(),
    );
    await page.locator('#listener-port').fill('5000');
    await page.locator('#listener-port').press('Enter');
    const error = page.locator('#listener-port-error');
    await error.filter({ hasText: PSEUDO }).waitFor();
    assert.match((await error.textContent()) ?? '', /1024/);
    await allFromCatalogs(page, 'Integrations with a port the app refused');
    await page.unroute('**/api/listener');
  });

  it('a sync folder problem, worded by its code', async () => {
    const { page } = b;
    const dir = mkdtempSync(join(tmpdir(), 'tock-ui-sync-'));
    try {
      t.app.services.sync.enable(dir, 'Laptop');
      // A folder.json that is not JSON: the app sends its code beside the English line.
      writeFileSync(join(dir, 'tock-sync-v2', 'folder.json'), 'not json');
      await t.app.services.sync.scan();
      assert.equal(t.app.services.sync.status().problemReason?.code, 'folder_file_not_json');
      await show(page, '/settings/sync');
      const problem = page.getByTestId('sync-folder-problem');
      await problem.filter({ hasText: PSEUDO }).waitFor();
      assert.doesNotMatch((await problem.textContent()) ?? '', /is not JSON/);
      // Data the lines carry as they are: the device's name and the file's path.
      const data = new Set([...allowed, 'Laptop', 'tock', 'sync', 'v', 'folder', 'json']);
      assert.deepEqual(await unaccentedWords(page, data), [], 'Sync with a folder problem shows text that is not from a catalog');
    } finally {
      t.app.services.sync.disable();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('another device’s refused line and the reason inside it, worded by their codes', async () => {
    const { page } = b;
    const dir = mkdtempSync(join(tmpdir(), 'tock-ui-sync-line-'));
    const other = 'eeeeeeee-0000-4000-8000-000000000001';
    try {
      t.app.services.sync.enable(dir, 'Laptop');
      // Another device whose first line was written without the folder key.
      const folder = join(dir, 'tock-sync-v2', other);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'device.json'), JSON.stringify({ deviceID: other, name: 'Tablet', createdAt: '2026-11-01T00:00:00.000Z' }));
      writeFileSync(join(folder, '00000001.jsonl'), '{"v":1}\n');
      await t.app.services.sync.scan();
      const device = t.app.services.sync.status().devices.find((d) => d.deviceID === other);
      assert.equal(device?.problemLine?.code, 'line_not_signed');
      await show(page, '/settings/sync');
      const problem = page.getByTestId('sync-devices').locator('tbody td').last();
      await problem.filter({ hasText: PSEUDO }).waitFor();
      assert.doesNotMatch((await problem.textContent()) ?? '', /not a signed line|applying its log/);
      // Data the lines carry as they are: the devices' names and ids, the segment's file name.
      const data = new Set([...allowed, 'Laptop', 'Tablet', 'eeeeeeee', 'jsonl', ...other.split('-')]);
      assert.deepEqual(await unaccentedWords(page, data), [], 'Sync with a refused line shows text that is not from a catalog');
    } finally {
      t.app.services.sync.disable();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an import refused at an item of the file, worded by its codes', async () => {
    const { page } = b;
    await show(page, '/settings/data');
    // A Watson frame whose project is not a string: the app refuses it, its place and reason by code.
    await page.locator('#import-file').setInputFiles({ name: 'frames.json', mimeType: 'application/json', buffer: Buffer.from('[[1767261600, 1767265200, 7]]') });
    await page.locator('#import-format').selectOption('watson');
    await page.locator('#import-file').locator('xpath=ancestor::form').locator('button[type=submit]').click();
    const refused = page.locator('#import-file-error').filter({ hasText: PSEUDO });
    await refused.waitFor();
    assert.doesNotMatch((await refused.textContent()) ?? '', /the project must be a string|nothing was imported/);
    // Data the line carries as it is: the file's name.
    const data = new Set([...allowed, 'frames', 'json']);
    assert.deepEqual(await unaccentedWords(page, data), [], 'Data with an import refused shows text that is not from a catalog');
  });

  it('an editor refused for a wrong key, and a credential store that is locked, worded by their codes', async () => {
    const { page } = b;
    t.app.services.editors.enable();
    // The door's refusal as it tells it (listener/src/wakatime/door.ts): its English and its code.
    t.app.services.editors.heard({
      userAgent: 'wakatime/v1.90.0 (linux) go1.22 vscode/1.96.0 vscode-wakatime/25.0.0',
      accepted: 0,
      refusal: 'the editor key is wrong; `tock editors key` prints the right one',
      refusalReason: { code: 'editor_key_wrong', values: { command: 'tock editors key' } },
    });
    try {
      await show(page, '/settings/integrations');
      const refused = page.getByTestId('editor-heartbeats').locator('tbody td').nth(2);
      await refused.filter({ hasText: PSEUDO }).waitFor();
      assert.doesNotMatch((await refused.textContent()) ?? '', /the editor key is wrong/);
      // The OS store cannot delete the key (locked): the app's answer carries its reason's code.
      await page.route('**/api/editors/disable', (route) =>
        route.fulfill({
          status: 400,
          json: {
            ok: false,
            code: 'credential_store_failed',
            error: 'the Secret Service (GNOME Keyring / KWallet) could not delete the editor key (the collection is locked); unlock it and try again, or …',
            because: { code: 'credential_os_failed', values: { store: 'Secret Service (GNOME Keyring / KWallet)', action: 'delete', secret: 'editor_key', error: 'the collection is locked' } },
          },
        }),
      );
      // The editors' section: its last plain button turns editors off.
      const section = page.getByTestId('editors-message').locator('xpath=..');
      await section.locator('.inline-row button.ghost').last().click();
      const alert = section.locator('[role=alert]').filter({ hasText: PSEUDO });
      await alert.first().waitFor();
      assert.doesNotMatch((await alert.first().textContent()) ?? '', /could not delete/);
      // Data the lines carry as they are: the product's name, the store's own words, the command.
      const data = new Set([...allowed, 'Secret', 'Service', 'GNOME', 'Keyring', 'KWallet', 'the', 'collection', 'is', 'locked', 'tock', 'editors', 'key', 'vscode']);
      assert.deepEqual(await unaccentedWords(page, data), [], 'Integrations with an editor refused and the store locked shows text that is not from a catalog');
      await page.unroute('**/api/editors/disable');
    } finally {
      t.app.services.editors.disable();
    }
  });

  it('a save the app could not make: a full disk, then no answer at all', async () => {
    const { page } = b;
    await show(page, '/settings/desktop');
    await page.route('**/api/desktop/settings', (route) =>
      route.request().method() === 'PATCH' ? route.fulfill({ status: 507, json: { ok: false, code: 'storage_full', error: 'the disk is full' } }) : route.fallback(),
    );
    await page.locator('#idle-threshold').fill('7');
    await page.locator('#idle-threshold').press('Enter');
    const error = page.locator('#idle-threshold-error');
    await error.waitFor();
    assert.match((await error.textContent()) ?? '', PSEUDO);
    await allFromCatalogs(page, 'Desktop after a save refused for a full disk');
    await page.unroute('**/api/desktop/settings');
    await page.route('**/api/desktop/settings', (route) => (route.request().method() === 'PATCH' ? route.abort('connectionrefused') : route.fallback()));
    await page.locator('#idle-threshold').fill('8');
    await page.locator('#idle-threshold').press('Enter');
    await error.filter({ hasText: PSEUDO }).waitFor();
    await allFromCatalogs(page, 'Desktop after a save that got no answer');
    await page.unroute('**/api/desktop/settings');
  });
});
