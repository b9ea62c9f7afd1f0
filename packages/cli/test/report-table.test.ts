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
});
