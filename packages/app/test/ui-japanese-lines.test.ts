/**
 * Japanese wraps by its own rules in the window (docs/ui.md "Languages"): a small kana (ィ, ッ),
 * a long-vowel mark (ー) or a closing bracket never starts a line — Chromium's default broke
 * `アクティビティ` as `アクティビテ|ィ` in the Clients screen's intro at 390 px. The window in
 * Japanese (the setting `language`), every line of the Clients intro read where it starts. The
 * form's example tax rate is the language's country's, from the catalog.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setLedgerSetting } from '@tock/core';
import { windowSuite } from './ui-support/harness.ts';

/** What may not start a line in Japanese (JIS X 4051's line-start prohibitions, the common ones). */
const NO_LINE_START = /^[ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー、。，．）」』】〕〉》・：；！？ゝゞヽヾ々]/u;

describe('Japanese lines in the window', () => {
  const suite = windowSuite({
    browser: { width: 390, height: 844 },
    seed: (app) => {
      setLedgerSetting(app.app.services.store.settings, 'language', '"ja"');
    },
  });

  it('never start with a small kana, a long-vowel mark or closing punctuation', async () => {
    const { page, app } = suite;
    page.setDefaultTimeout(15_000);
    await page.goto(`${app.launchUrl()}#/clients`);
    await page.locator('main h1').filter({ hasText: 'クライアント' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
    // Every line of every paragraph on the screen: the first character of each line box.
    const starts = await page.evaluate(() => {
      const found: string[] = [];
      for (const p of document.querySelectorAll('main p, main label, main h1, main h2')) {
        const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
        let lastTop = Number.NEGATIVE_INFINITY;
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (let i = 0; i < text.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            if (rect === undefined) continue;
            if (rect.top > lastTop + rect.height / 2) {
              if (lastTop !== Number.NEGATIVE_INFINITY) found.push(text.slice(i, i + 6));
              lastTop = rect.top;
            }
          }
        }
      }
      return found;
    });
    assert.ok(starts.length > 0, 'the screen has wrapped lines to read');
    assert.deepEqual(starts.filter((s) => NO_LINE_START.test(s)), []);
  });

  it('the Clients form’s example tax rate is Japan’s (10 %), not Germany’s 19 %', async () => {
    const { page } = suite;
    assert.equal(await page.getByLabel('消費税率 %（任意。省略時は事業者の税率）').getAttribute('placeholder'), '10');
  });

  it('writes a full-width colon after a capture source’s name', async () => {
    const { page, app } = suite;
    await page.goto(`${app.launchUrl()}#/settings/capture`);
    await page.locator('main h1').filter({ hasText: 'キャプチャ' }).waitFor();
    const first = (await page.getByTestId('capture-sources').locator('li').first().textContent())?.trim() ?? '';
    assert.match(first, /^sway（IPC）：ここでは動作しません — /u);
  });
});
