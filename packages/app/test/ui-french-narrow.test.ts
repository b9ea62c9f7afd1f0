/**
 * French (and Spanish) run long: at 390 px the History week's pager broke inside each of its
 * buttons (`‹ Précé|dente`, `Cette | semaine`); each button's words now stay on one line and
 * the buttons wrap instead. A block's breaks say they are left out of the total without an
 * agreement to get wrong (`Pause …, non comptées` for one break).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setLedgerSetting } from '@tock/core';
import { windowSuite } from './ui-support/harness.ts';

describe('French at 390 px: the History week', () => {
  const suite = windowSuite({
    browser: { width: 390, height: 844 },
    seed: (app) => {
      setLedgerSetting(app.app.services.store.settings, 'language', '"fr"');
      const { tracker } = app.app.services;
      tracker.logEntry({ name: 'Conception', createIfMissing: true, durationMinutes: 45, endedAt: new Date(Date.now() - 3 * 3_600_000).toISOString() });
      tracker.startActivity({ name: 'Réunion équipe', createIfMissing: true });
      tracker.startBreak();
      tracker.resumeBreak();
    },
  });

  it('keeps each pager button on one line, and says a break is left out of the total', async () => {
    const { page, app } = suite;
    page.setDefaultTimeout(15_000);
    await page.goto(`${app.launchUrl()}#/history`);
    await page.locator('main h1').filter({ hasText: 'Historique' }).waitFor();
    const pager = page.getByRole('group', { name: 'Choisir la semaine' });
    await pager.waitFor();
    // The lines of text in each button: one top per line box.
    const lines = await pager.evaluate((group) =>
      [...group.querySelectorAll('button')].map((button) => {
        const range = document.createRange();
        range.selectNodeContents(button);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        return `${button.textContent?.trim()}: ${tops.size}`;
      }),
    );
    assert.deepEqual(lines, ['‹ Semaine précédentePrécédente: 1', 'Cette semaine: 1', 'Semaine suivanteSuivante ›: 1']);
    // The break began and ended at the suite's start: noon, plus however long the run has gone on (scripts/pinned-clock.sh).
    await page.getByTestId('break-list').filter({ hasText: /^Pause \d\d:\d\d–\d\d:\d\d \(0\u00a0min\), hors total$/ }).waitFor();
  });

  it('spaces the colon after a capture source’s name, as French does', async () => {
    const { page, app } = suite;
    await page.goto(`${app.launchUrl()}#/settings/capture`);
    await page.locator('main h1').filter({ hasText: 'Capture' }).waitFor();
    const first = (await page.getByTestId('capture-sources').locator('li').first().textContent())?.trim() ?? '';
    assert.match(first, /^sway \(IPC\)\u00a0: ne fonctionne pas ici — /u);
  });

  it('agrees in French: a report’s tracked time and hours, the note that is optional', async () => {
    const { page, app } = suite;
    await page.goto(`${app.launchUrl()}#/reports`);
    await page.locator('main h1').filter({ hasText: 'Rapports' }).waitFor();
    // Never `0,75 heures` (below two, French says heure): hours as `h`, the time `de suivi`.
    const kind = page.locator('.report-total .muted');
    await kind.waitFor();
    assert.equal((await kind.textContent())?.trim(), 'de suivi · 0,75\u00a0h');
    await page.goto(`${app.launchUrl()}#/history`);
    await page.locator('main h1').filter({ hasText: 'Historique' }).waitFor();
    // Today says `Note (facultative)`; History's form says it alike.
    assert.equal((await page.locator('label', { hasText: /^Note/u }).first().textContent())?.replace(/\s+/gu, ' ').trim(), 'Note (facultative)');
  });
});
