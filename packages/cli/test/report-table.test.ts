/**
 * `tock report`'s table as a pure function of a report: every grouping's column of worked time
 * adds up to its total as shown (docs/cli.md "Reports: tock report"), by client and by tag too,
 * where rows share time as activities do.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Report } from '@tock/core';
import { loadCliMessages } from '../src/i18n/index.ts';
import { reportTable } from '../src/report-command.ts';

const base = { from: '2026-11-29', to: '2026-11-29', timeZone: 'UTC', targetSeconds: null, balanceSeconds: null } as const;
const eur = (amount: string) => ({ amount, currency: 'EUR', amounts: [{ currency: 'EUR', amount }] });
const none = { amount: null, currency: null, amounts: [] };

// ACME 1:30 of design, and 1:10 of support without a client that lay over it: 1:30 in all.
const byClient = {
  ...base,
  totalSeconds: 5400,
  overlapSeconds: 4200,
  rows: [
    { clientID: 'c1', clientName: 'ACME', seconds: 5400, billedSeconds: 5400, ...eur('127.50') },
    { clientID: null, clientName: null, seconds: 4200, billedSeconds: 0, ...none },
  ],
  amounts: [{ currency: 'EUR', amount: '127.50' }],
} as unknown as Report;

// One block of an hour tagged both `ui` and `review`.
const byTag = {
  ...base,
  totalSeconds: 3600,
  overlapSeconds: 3600,
  rows: [
    { tag: 'review', seconds: 3600, billedSeconds: 0, ...none },
    { tag: 'ui', seconds: 3600, billedSeconds: 0, ...none },
  ],
  amounts: [],
} as unknown as Report;

describe('tock report: the table', () => {
  it('by client, time two clients shared is taken off once, so the rows add up to the total', async () => {
    const t = await loadCliMessages('en');
    assert.equal(
      reportTable(t, byClient, 'client'),
      [
        '2026-11-29 (UTC), by client',
        '',
        'Client                                 Worked  Billed      Amount',
        '─────────────────────────────────────────────────────────────────',
        'ACME                                     1:30    1:30  127.50 EUR',
        '(no client)                              1:10    0:00           –',
        '─────────────────────────────────────────────────────────────────',
        'Blocks at the same time, counted once   −1:10                    ',
        'Total                                    1:30    1:30  127.50 EUR',
      ].join('\n'),
    );
  });

  it('by tag, a block with two tags is in both rows and once in the total, in the person\'s language', async () => {
    const t = await loadCliMessages('de');
    assert.equal(
      reportTable(t, byTag, 'tag'),
      [
        '29.11.2026 (UTC), nach Schlagwort',
        '',
        'Schlagwort                                          Zeit',
        '────────────────────────────────────────────────────────',
        'review                                              1:00',
        'ui                                                  1:00',
        '────────────────────────────────────────────────────────',
        'Blöcke mit mehreren Schlagwörtern, einmal gezählt  −1:00',
        'Summe                                               1:00',
      ].join('\n'),
    );
  });

  it('in Japanese, wide characters take two columns: every figure stands under its header', async () => {
    const t = await loadCliMessages('ja');
    const byActivity = {
      ...base,
      totalSeconds: 9000,
      overlapSeconds: 0,
      rows: [
        { activityID: 'a1', activityName: 'Design', seconds: 5400, billedSeconds: 5400, ...eur('127.50') },
        { activityID: 'a2', activityName: '設計レビュー', seconds: 3600, billedSeconds: 3600, ...eur('85.00') },
      ],
      amounts: [{ currency: 'EUR', amount: '212.50' }],
    } as unknown as Report;
    const lines = reportTable(t, byActivity, 'activity').split('\n').slice(2);
    // Each line as many columns wide as the rule, each figure ending at the header's last column.
    const columns = (line: string): number => [...line].reduce((sum, c) => sum + (/[\u3000-\u9FFF\uFF00-\uFF60\uFFE0-\uFFE6]/u.test(c) ? 2 : 1), 0);
    const widths = lines.map(columns);
    assert.deepEqual(widths, widths.map(() => widths[1]), lines.join('\n'));
    assert.equal(lines[0], 'アクティビティ  作業時間  請求時間     金額');
    assert.equal(lines[2], 'Design              1:30      1:30  €127.50');
    assert.equal(lines[3], '設計レビュー        1:00      1:00   €85.00');
  });

  it('by day, each day and its weekday as the locale writes them; English as before', async () => {
    const byDay = {
      ...base,
      from: '2026-11-29',
      to: '2026-11-30',
      totalSeconds: 3600,
      overlapSeconds: 0,
      rows: [
        { date: '2026-11-29', seconds: 1800, billedSeconds: 0, ...none },
        { date: '2026-11-30', seconds: 1800, billedSeconds: 0, ...none },
      ],
      amounts: [],
    } as unknown as Report;
    const firstCells = async (language: 'en' | 'de' | 'fr' | 'es' | 'ja'): Promise<string[]> =>
      reportTable(await loadCliMessages(language), byDay, 'day')
        .split('\n')
        .slice(4, 6)
        .map((line) => line.replace(/ {2,}.*$/u, ''));
    assert.deepEqual(await firstCells('en'), ['2026-11-29 Sun', '2026-11-30 Mon']);
    assert.deepEqual(await firstCells('de'), ['So., 29.11.2026', 'Mo., 30.11.2026']);
    assert.deepEqual(await firstCells('fr'), ['dim. 29 nov. 2026', 'lun. 30 nov. 2026']);
    assert.deepEqual(await firstCells('es'), ['dom, 29 nov 2026', 'lun, 30 nov 2026']);
    assert.deepEqual(await firstCells('ja'), ['2026/11/29(日)', '2026/11/30(月)']);
  });

  it('titles a range of days as the locale writes one; English as before', async () => {
    const week = { ...base, from: '2026-11-23', to: '2026-11-29', totalSeconds: 0, overlapSeconds: 0, rows: [], amounts: [] } as unknown as Report;
    const title = async (language: 'en' | 'de' | 'fr' | 'es' | 'ja'): Promise<string> => reportTable(await loadCliMessages(language), week, 'activity').split('\n')[0] as string;
    assert.equal(await title('en'), '2026-11-23 – 2026-11-29 (UTC), by activity');
    assert.equal(await title('fr'), '23–29 nov. 2026 (UTC), par activité');
    assert.equal(await title('es'), '23–29 nov 2026 (UTC), por actividad');
    assert.equal(await title('de'), '23.–29.11.2026 (UTC), nach Tätigkeit');
    assert.equal(await title('ja'), '2026/11/23～2026/11/29（UTC）、アクティビティ別');
  });
});
