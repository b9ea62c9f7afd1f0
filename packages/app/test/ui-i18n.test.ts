/**
 * The window speaks the person's language (docs/ui.md "Languages"), in real Chromium against
 * a real app: it follows the app's setting `language` (`system` read from the app's `LC_ALL`,
 * `LC_MESSAGES`, `LANG`), sets `<html lang>`, and a change of the setting redraws it in the
 * new language without a reload. In the pseudo-locale `en-XA` every word of English a
 * translated screen shows (text, aria-label, title, placeholder) carries the accents — proof
 * it comes from a catalog; the data (activities and notes in Cyrillic and Japanese, so they
 * hold no Latin letters) and what `Intl` writes (English day and month names, for `en-XA`
 * formats as English) are the only other words. In German at 390 px no screen scrolls
 * sideways; screenshots in German and Japanese at 390 and 1280 px go to
 * `test-output/screenshots/i18n-*.png`.
 */
// The app's locale variables (the app reads its own process's): German, the browser's English.
process.env.LC_ALL = 'de_DE.UTF-8';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getLedgerSetting } from '@tock/core';
import { catalogProblems } from '@tock/i18n';
import { de, en, es, fr, ja } from '@tock/window/testing';
import type { Page } from 'playwright-core';
import { ensureWindowBuilt, launchBrowser, rawRequest, screenshot, startTestApp, type TestApp, type TestBrowser, windowSession } from './ui-support/harness.ts';

let t: TestApp;
let b: TestBrowser;

before(async () => {
  ensureWindowBuilt();
  t = await startTestApp();
  b = await launchBrowser({ locale: 'en-US' });
  // Data without a Latin letter: any Latin word on a screen is then the window's own text.
  const { tracker } = t.app.services;
  const hour = 3_600_000;
  const now = Date.now();
  tracker.logEntry({ name: '設計', createIfMissing: true, durationMinutes: 45, endedAt: new Date(now - 5 * hour).toISOString(), note: 'заметка' });
  tracker.logEntry({ name: 'Проект', createIfMissing: true, durationMinutes: 30, endedAt: new Date(now - 26 * hour).toISOString() });
  tracker.startActivity({ name: 'Проект', note: 'работа' });
  tracker.startBreak();
  tracker.resumeBreak();
  tracker.startBreak();
  tracker.resumeBreak();
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

/** The screens whose every string comes from the catalogs: all 14 (docs/ui.md "Languages"). */
const TRANSLATED = ['/today', '/history', '/reports', '/activities', '/clients', '/invoices', '/settings/integrations', '/settings/calendar', '/settings/desktop', '/settings/capture', '/settings/business', '/settings/sync', '/settings/data', '/settings/license'];

/** Every screen of the window. */
const SCREENS = [
  '/today',
  '/history',
  '/reports',
  '/activities',
  '/clients',
  '/invoices',
  '/settings/integrations',
  '/settings/desktop',
  '/settings/capture',
  '/settings/calendar',
  '/settings/business',
  '/settings/sync',
  '/settings/data',
  '/settings/license',
];

/** Words `Intl` writes for `en` (which `en-XA` formats in), the app's name, the units of Tock's English durations, and the time zone's name (data: Settings › Data shows it). */
function allowedWords(): Set<string> {
  const words = new Set(['Tock', 'h', 'min', 'm', 'AM', 'PM', ...(Intl.DateTimeFormat().resolvedOptions().timeZone.match(/[A-Za-z]+/g) ?? [])]);
  for (let i = 0; i < 12; i++) {
    const at = Date.UTC(2026, i, 15);
    for (const month of ['long', 'short'] as const) words.add(new Intl.DateTimeFormat('en', { month, timeZone: 'UTC' }).format(at));
  }
  for (let i = 0; i < 7; i++) {
    const at = Date.UTC(2026, 10, 16 + i);
    for (const weekday of ['long', 'short'] as const) words.add(new Intl.DateTimeFormat('en', { weekday, timeZone: 'UTC' }).format(at));
  }
  return words;
}

/** Every piece of text a person can meet on the page: text nodes (outside code, kbd and text marked with its own language) and the attributes read out or shown. */
async function textsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Text in a language of its own (`<option lang="de">Deutsch</option>`) is not the window's.
      if (parent === null || parent.closest('script, style, code, kbd, body [lang]') !== null) continue;
      if ((node.textContent ?? '').trim() !== '') out.push(node.textContent as string);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [data-label]')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'data-label']) {
        const value = el.getAttribute(name);
        if (value) out.push(value);
      }
    }
    out.push(document.title);
    return out;
  });
}

/** Shows `screen` and waits for its heading (in any language). */
async function show(page: Page, screen: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, screen);
  await page.waitForFunction((hash) => location.hash === `#${hash}` && document.querySelector('main h1') !== null, screen);
  // The screen's data loads after its heading: wait until nothing is loading.
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"], .loading') === null);
}

describe('the window’s catalogs', () => {
  it('have every key of English, each with the same arguments, in ICU MessageFormat', () => {
    assert.deepEqual(catalogProblems({ en, de, fr, es, ja }), []);
  });
});

describe('the pseudo-locale en-XA', () => {
  it('every word on the translated screens comes from a catalog', async () => {
    const browser = await launchBrowser({ locale: 'en-US', width: 1280, height: 900 });
    try {
      const { page } = browser;
      // The app's snapshot says en-XA (the setting offers the five languages; the pseudo-locale is for tests).
      await page.route('**/api/state', async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { result: { language: string } };
        json.result.language = 'en-XA';
        await route.fulfill({ response, json });
      });
      await open(page);
      await page.waitForFunction(() => document.documentElement.lang === 'en-XA');
      const allowed = allowedWords();
      for (const screen of TRANSLATED) {
        await show(page, screen);
        // Open what a screen opens on demand: the week's first block editor on History…
        if (screen === '/history') await page.getByTestId('history-row').first().getByRole('button', { name: /Éðíţ/ }).click();
        // …and an activity's billing on Activities.
        if (screen === '/activities') {
          await page.getByRole('button', { name: /Ɓíļļíñĝ/ }).first().click();
          await page.getByTestId('billing-form').waitFor();
        }
        const escaped = new Set<string>();
        for (const text of await textsOf(page)) {
          for (const word of text.match(/[A-Za-z]+/g) ?? []) if (!allowed.has(word)) escaped.add(`${word} (in "${text.trim().slice(0, 80)}")`);
        }
        assert.deepEqual([...escaped], [], `${screen} shows text that is not from a catalog`);
      }
      // Plurals and the pseudo marks: the running session's two breaks.
      await show(page, '/today');
      assert.ok((await page.getByTestId('today-block').first().textContent())?.includes('[2 ƀŕéáķš'), 'the badge says 2 breaks through the catalog');
    } finally {
      await browser.close();
    }
  });
});

describe('German and Japanese at 390 and 1280 px', () => {
  it('no screen scrolls sideways in German at 390 px; screenshots in German and Japanese', async () => {
    const browser = await launchBrowser({ locale: 'en-US', width: 390, height: 844 });
    try {
      const { page } = browser;
      await setLanguage('de');
      await open(page);
      await page.waitForFunction(() => document.documentElement.lang === 'de');
      const wide: string[] = [];
      for (const screen of SCREENS) {
        await show(page, screen);
        const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        if (scroll > client) wide.push(`${screen}: ${scroll} > ${client}`);
      }
      assert.deepEqual(wide, [], 'a screen scrolls sideways in German at 390 px');
      for (const [language, width] of [['de', 390], ['de', 1280], ['ja', 390], ['ja', 1280]] as const) {
        await setLanguage(language);
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
        for (const screen of TRANSLATED) {
          await show(page, screen);
          await screenshot(page, `i18n-${language}-${width}-${screen.slice(1).replace('/', '-')}`);
        }
      }
      await setLanguage('en');
    } finally {
      await browser.close();
    }
  });

  it('plurals follow the language’s rules: 1 Pause, 2 Pausen', async () => {
    const { page } = b;
    await setLanguage('de');
    await show(page, '/today');
    await page.getByTestId('today-block').filter({ hasText: '2 Pausen' }).waitFor();
    await setLanguage('fr');
    await page.getByTestId('today-block').filter({ hasText: '2 pauses' }).waitFor();
    await setLanguage('ja');
    await page.getByTestId('today-block').filter({ hasText: '休憩 2 回' }).waitFor();
    await setLanguage('en');
    await page.getByTestId('today-block').filter({ hasText: '2 breaks' }).waitFor();
  });
});

describe('Settings › Business: when a day and a week start', () => {
  it('saves dayStartsAt and weekStart as the ledger settings, with their labels in German', async () => {
    const { page } = b;
    const settings = t.app.services.store.settings;
    await setLanguage('de');
    await show(page, '/settings/business');
    await page.getByRole('heading', { name: 'Tage und Wochen' }).waitFor();
    await page.getByLabel('Ein Tag beginnt um').selectOption('04:00');
    await page.getByLabel('Eine Woche beginnt am').selectOption({ label: 'Sonntag' });
    await page.getByRole('button', { name: 'Tag und Woche speichern' }).click();
    await page.locator('#days-heading ~ form').getByText('Gespeichert.').waitFor();
    assert.equal(getLedgerSetting(settings, 'dayStartsAt'), '04:00');
    assert.equal(getLedgerSetting(settings, 'weekStart'), 'sun');
    // Back to the defaults: midnight and the language's week are no setting at all.
    await page.getByLabel('Ein Tag beginnt um').selectOption('00:00');
    await page.getByLabel('Eine Woche beginnt am').selectOption('locale');
    await page.getByRole('button', { name: 'Tag und Woche speichern' }).click();
    // The two settings are saved one after the other: wait (up to 5 s) for the second.
    for (let i = 0; i < 500 && getLedgerSetting(settings, 'weekStart') !== null; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(getLedgerSetting(settings, 'dayStartsAt'), null);
    assert.equal(getLedgerSetting(settings, 'weekStart'), null);
    await setLanguage('en');
  });
});
