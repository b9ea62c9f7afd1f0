/**
 * A tab without a session speaks the browser's language (docs/ui.md "Languages"): it cannot ask
 * the app for its setting (a tab without a session knows nothing of the app), so the line that
 * says how to get a window, and why a launch code was refused, follow `navigator.languages` —
 * German in a German browser, the pseudo-locale's marks in an `en-XA` one — by the refusal's
 * code, never the app's English line. The app's own page for an address it refuses (no script,
 * no session) is in the person's setting `language`. The words inside a code sample (a shell
 * comment in Settings › Integrations), which the en-XA walks pass over as code, are the catalog's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setLedgerSetting } from '@tock/core';
import { DESKTOP_CATALOGS } from '@tock/desktop/i18n/index';
import { catalogProblems, type Language } from '@tock/i18n';
import { de, en, es, fr, ja } from '@tock/window/testing';
import { PAGE_CATALOGS } from '../src/ui/i18n/index.ts';
import { ensureWindowBuilt, launchBrowser, rawRequest, startTestApp, type TestApp } from './ui-support/harness.ts';

/** A message in `en-XA`: accented, padded with `~` and bracketed (@tock/i18n pseudo.ts). */
const PSEUDO = /~+\]/;

describe('what the screens’ walks do not reach: a tab without a session, the app’s refused page, a code sample', () => {
  let t: TestApp;

  before(async () => {
    ensureWindowBuilt();
    t = await startTestApp();
  });

  after(async () => {
    await t?.stop();
  });

  it('says how to get a window, and why a code was refused, in German and in en-XA', async () => {
    for (const [locale, none, expired] of [
      ['de-DE', /^Dieser Tab hat keine Sitzung eines Tock-Fensters/, /^Diese Tock-Adresse ist abgelaufen/],
      ['en-XA', PSEUDO, PSEUDO],
    ] as const) {
      const b = await launchBrowser({ locale });
      try {
        b.page.setDefaultTimeout(15_000);
        await b.page.goto(`${t.origin}/`);
        const line = b.page.getByTestId('no-session');
        await line.waitFor();
        await b.page.waitForFunction((lang) => document.documentElement.lang === lang, locale.split('-')[0] === 'de' ? 'de' : 'en-XA');
        assert.match((await line.textContent())?.trim() ?? '', none);
        // The app refuses a code by its code beside an English line: the tab says the code.
        await b.page.route('**/launch', (route) => route.fulfill({ status: 410, contentType: 'application/json', body: JSON.stringify({ ok: false, error: 'This Tock address has expired (the app’s English)', code: 'launch_code_expired' }) }));
        // The page's own address is served as the window (the app answers an unknown code's address with a page of its own).
        await b.page.route(`${t.origin}/?k=stale`, async (route) => route.fulfill({ response: await route.fetch({ url: `${t.origin}/` }) }));
        await b.page.goto(`${t.origin}/?k=stale`);
        await b.page.waitForFunction(() => !location.search.includes('k='));
        const refused = b.page.getByTestId('no-session');
        await refused.waitFor();
        await b.page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid="no-session"]')?.textContent ?? ''), expired.source);
        assert.doesNotMatch((await refused.textContent()) ?? '', /the app’s English/);
      } finally {
        await b.close();
      }
    }
  });

  it('every line a tab without a session shows names both ways to a window: `tock open` and the tray’s own Open Tock, in every language', () => {
    const windowCatalogs = { en, de, fr, es, ja };
    const lines = ['app.getWindow', 'app.notAnswering', 'app.launchUsed', 'app.launchExpired', 'app.launchUnknown', 'app.launchForbidden'] as const;
    for (const language of Object.keys(windowCatalogs) as Language[]) {
      const trayItem = DESKTOP_CATALOGS[language]['tray.open'];
      const said = [...lines.map((key) => [key, windowCatalogs[language][key]]), ...Object.entries(PAGE_CATALOGS[language])];
      for (const [key, line] of said) {
        assert.ok(line?.includes('`tock open`'), `${language} ${key} names \`tock open\`: ${line}`);
        assert.ok(line?.includes(trayItem), `${language} ${key} names the tray’s “${trayItem}”: ${line}`);
      }
    }
  });

  it('the page’s catalogs parse as ICU and use English’s arguments in every language', () => {
    assert.deepEqual(catalogProblems(PAGE_CATALOGS), []);
  });

  it('the app’s page for a refused address is in the person’s language, its lang attribute too', async () => {
    setLedgerSetting(t.app.services.store.settings, 'language', '"de"');
    try {
      const headers = { host: `127.0.0.1:${t.port}` };
      const unknown = await rawRequest(t.port, 'GET', '/?k=not-a-code', headers);
      assert.equal(unknown.status, 403);
      assert.match(unknown.body, /<html lang="de">/);
      assert.match(unknown.body, /Diese Tock-Adresse stammt nicht von der laufenden App/);
      // A code redeemed once: its address again is refused as used.
      const code = new URL(t.launchUrl()).searchParams.get('k') as string;
      const redeemed = await rawRequest(t.port, 'POST', '/launch', { ...headers, origin: t.origin, 'content-type': 'application/json' }, JSON.stringify({ code }));
      assert.equal(redeemed.status, 200, redeemed.body);
      const used = await rawRequest(t.port, 'GET', `/?k=${code}`, headers);
      assert.equal(used.status, 410);
      assert.match(used.body, /Diese Tock-Adresse wurde bereits verwendet/);
    } finally {
      setLedgerSetting(t.app.services.store.settings, 'language', 'null');
    }
    const english = await rawRequest(t.port, 'GET', '/?k=not-a-code', { host: `127.0.0.1:${t.port}` });
    assert.match(english.body, /<html lang="en">.*This Tock address is not one the running app made/s);
  });

  it('the comment in Integrations’ shell sample comes from the catalog', async () => {
    const b = await launchBrowser({ locale: 'en-US' });
    try {
      b.page.setDefaultTimeout(15_000);
      await b.page.route('**/api/state', async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { result: { language: string } };
        json.result.language = 'en-XA';
        await route.fulfill({ response, json });
      });
      await b.page.goto(`${t.launchUrl()}#/settings/integrations`);
      await b.page.waitForFunction(() => document.documentElement.lang === 'en-XA');
      const shell = b.page.locator('pre.code code').filter({ hasText: 'tock git-hook install' });
      await shell.waitFor();
      const comment = /# (.*)$/m.exec((await shell.textContent()) ?? '')?.[1] ?? '';
      assert.match(comment, PSEUDO);
    } finally {
      await b.close();
    }
  });
});
