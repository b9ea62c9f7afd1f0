/**
 * The window speaks the person's language (docs/ui.md "Languages"), in real Chromium against
 * a real app: it follows the app's setting `language` (`system` read from the app's `LC_ALL`,
 * `LC_MESSAGES`, `LANG`), sets `<html lang>`, and a change of the setting redraws it in the
 * new language without a reload.
 */
// The app's locale variables (the app reads its own process's): German, the browser's English.
process.env.LC_ALL = 'de_DE.UTF-8';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ensureWindowBuilt, launchBrowser, rawRequest, startTestApp, type TestApp, type TestBrowser, windowSession } from './ui-support/harness.ts';

let t: TestApp;
let b: TestBrowser;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp();
  b = await launchBrowser({ locale: 'en-US' });
});
after(async () => {
  await b?.close();
  await t?.stop();
});

/** Sets the app's setting `language` through the window API, as Settings does (the value as JSON text). */
async function setLanguage(value: string): Promise<void> {
  const session = await windowSession(t);
  const body = JSON.stringify({ value: JSON.stringify(value) });
  const res = await rawRequest(t.port, 'PUT', '/api/settings/ledger/language', { host: `127.0.0.1:${t.port}`, origin: t.origin, 'content-type': 'application/json', ...session }, body);
  assert.equal(res.status, 200, res.body);
}

async function open(page: Page): Promise<void> {
  page.setDefaultTimeout(15_000);
  await page.goto(t.launchUrl());
  await page.locator('main h1').waitFor();
}

describe('the window’s language', () => {
  it('follows the app’s system language, not the browser’s, and sets <html lang>', async () => {
    const { page } = b;
    await open(page);
    const nav = page.getByRole('navigation', { name: 'Bildschirme' });
    await nav.getByRole('link', { name: 'Heute' }).waitFor();
    await nav.getByRole('link', { name: 'Tätigkeiten' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await page.title(), 'Heute · Tock');
  });

  it('redraws in the language chosen in the setting, without a reload', async () => {
    const { page } = b;
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });
    await setLanguage('fr');
    await page.getByRole('navigation', { name: 'Écrans' }).getByRole('link', { name: 'Aujourd’hui' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    await setLanguage('ja');
    await page.getByRole('navigation', { name: '画面' }).getByRole('link', { name: '今日' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
    assert.equal(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere), true, 'the page was not reloaded');
    await setLanguage('en');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Today' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  });
});
