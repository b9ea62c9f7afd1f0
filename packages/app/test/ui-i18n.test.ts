/**
 * The window speaks the person's language (docs/ui.md "Languages"), in real Chromium against
 * a real app: it follows the app's setting `language` (`system` read from the app's `LC_ALL`,
 * `LC_MESSAGES`, `LANG`), sets `<html lang>`, and a change of the setting redraws it in the
 * new language without a reload. In the pseudo-locale `en-XA` every word of English a
 * translated screen shows (text, aria-label, title, placeholder) carries the accents — proof
 * it comes from a catalog; the data (activities and notes in Cyrillic and Japanese, so they
 * hold no Latin letters) and what `Intl` writes (English day and month names, for `en-XA`
 * formats as English) are the only other words. In every language and en-XA, at 390 and
 * 1280 px, no screen scrolls sideways or clips its text; a screenshot of each goes to
 * `test-output/screenshots/i18n-<language>-<width>-<screen>.png`. English, the window's own
 * language, is walked at these sizes by ui-layout.test.ts (the same clip check, its sideways
 * checks and screenshots `layout-*.png`), so each screen, size and language is taken once. The
 * error and empty states are walked in ui-i18n-states.test.ts.
 */
// The app's locale variables (the app reads its own process's): German, the browser's English.
process.env.LC_ALL = 'de_DE.UTF-8';

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getLedgerSetting } from '@tock/core';
import { catalogProblems, LANGUAGE_SETTINGS } from '@tock/i18n';
import { until } from '@tock/test-support';
import { de, en, es, fr, ja } from '@tock/window/testing';
import type { Page } from 'playwright-core';
import { ensureWindowBuilt, launchBrowser, rawRequest, screenshot, startTestApp, type TestApp, type TestBrowser, windowSession } from './ui-support/harness.ts';
import { allowedWords, clippedTexts, SCREENS, show, sidewaysScroll, unaccentedWords } from './ui-support/i18n-walk.ts';

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

  it('Settings › Desktop offers the setting’s list — system and the five languages, each in itself — and a choice saves it', async () => {
    const { page } = b;
    const settings = t.app.services.store.settings;
    await setLanguage('en');
    await open(page);
    await show(page, '/settings/desktop');
    const select = page.getByLabel('Tock speaks');
    const options = await select.locator('option').evaluateAll((all) => all.map((o) => [(o as HTMLOptionElement).value, o.textContent, o.getAttribute('lang')]));
    assert.deepEqual(options, [
      ['system', 'As the system is set (LC_ALL, LC_MESSAGES or LANG)', null],
      ['en', 'English', 'en'],
      ['de', 'Deutsch', 'de'],
      ['fr', 'Français', 'fr'],
      ['es', 'Español', 'es'],
      ['ja', '日本語', 'ja'],
    ]);
    assert.deepEqual(
      options.map(([value]) => value),
      [...LANGUAGE_SETTINGS],
      'the values the app accepts',
    );
    await select.selectOption('ja');
    await page.getByRole('navigation', { name: '画面' }).waitFor();
    assert.equal(getLedgerSetting(settings, 'language'), 'ja');
    await page.locator('#language-select').selectOption('system');
    // "system" is no setting at all: the app's LC_ALL (German) speaks.
    await page.getByRole('navigation', { name: 'Bildschirme' }).waitFor();
    assert.equal(getLedgerSetting(settings, 'language'), null);
    await setLanguage('en');
  });
});

describe('the window’s catalogs', () => {
  it('have every key of English, each with the same arguments, in ICU MessageFormat', () => {
    assert.deepEqual(catalogProblems({ en, de, fr, es, ja }), []);
  });
});

describe('the pseudo-locale en-XA', () => {
  it('every word on the translated screens comes from a catalog', async () => {
    // A tab of its own in the file's browser: its answers are rewritten, the shared tab's are not.
    const page = await b.context.newPage();
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
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
      for (const screen of SCREENS) {
        await show(page, screen);
        // Open what a screen opens on demand: the week's first block editor on History…
        if (screen === '/history') await page.getByTestId('history-row').first().getByRole('button', { name: /Éðíţ/ }).click();
        // …and an activity's billing on Activities.
        if (screen === '/activities') {
          await page.getByRole('button', { name: /Ɓíļļíñĝ/ }).first().click();
          await page.getByTestId('billing-form').waitFor();
        }
        assert.deepEqual(await unaccentedWords(page, allowed), [], `${screen} shows text that is not from a catalog`);
      }
      // Plurals and the pseudo marks: the running session's two breaks.
      await show(page, '/today');
      assert.ok((await page.getByTestId('today-block').first().textContent())?.includes('[2 ƀŕéáķš'), 'the badge says 2 breaks through the catalog');
    } finally {
      await page.close();
    }
  });
});

describe('every language at 390 and 1280 px', () => {
  // English is ui-layout.test.ts's walk at these sizes.
  it('no screen scrolls sideways or clips its text, in any language or en-XA, at 390 or 1280 px; screenshots of each', async () => {
    const page = await b.context.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      // en-XA is no setting: the snapshot is made to say it, as in the walk above.
      let pseudo = false;
      await page.route('**/api/state', async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { result: { language: string } };
        if (pseudo) json.result.language = 'en-XA';
        await route.fulfill({ response, json });
      });
      await open(page);
      // Every screen the sidebar links to is walked: a new screen joins SCREENS or fails here.
      const linked = await page.locator('nav a[href^="#/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      assert.deepEqual([...new Set(linked)].sort(), SCREENS.map((screen) => `#${screen}`).sort());
      const problems: string[] = [];
      for (const language of ['de', 'ja', 'fr', 'es', 'en-XA'] as const) {
        pseudo = language === 'en-XA';
        // For en-XA a change of the setting makes the window ask for the snapshot again, which says en-XA.
        await setLanguage(pseudo ? 'fr' : language);
        await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
          for (const screen of SCREENS) {
            await show(page, screen);
            const wide = await sidewaysScroll(page);
            if (wide !== null) problems.push(`${language} ${width} px ${screen}: scrolls sideways (${wide})`);
            for (const clipped of await clippedTexts(page)) problems.push(`${language} ${width} px ${screen}: clips ${clipped}`);
            await screenshot(page, `i18n-${language}-${width}-${screen.slice(1).replace('/', '-')}`);
          }
        }
      }
      pseudo = false;
      await setLanguage('en');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
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
    // The two settings are saved one after the other: wait for the second.
    await until('the week start to be no setting again', () => getLedgerSetting(settings, 'weekStart') === null);
    assert.equal(getLedgerSetting(settings, 'dayStartsAt'), null);
    assert.equal(getLedgerSetting(settings, 'weekStart'), null);
    await setLanguage('en');
  });
});
