/**
 * `tock invoice` end to end (docs/cli.md "tock invoice") against an app started in this
 * process: the PDF read back with `pdftotext` (Debian's poppler-utils) holds every line, total
 * and both parties' details; a hostile note is escaped in HTML and neutralised in CSV; the blocks
 * on an invoice are never invoiced again; a reissue is byte for byte the first; the list.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setActivityLedger } from '@tock/core';
import type { RunningApp } from '@tock/app/start';
import { loadCliMessages } from '../src/i18n/index.ts';
import { warningsOf } from '../src/invoice-command.ts';
import { dayBefore, type InProcessApp, startInProcessApp } from './in-process-app.ts';

const HOSTILE = '<script>alert(1)</script> =HYPERLINK("http://evil.example")';
const FORMULA = '=HYPERLINK("http://evil.example","api")';

/** The app's and the command's pinned instant: a test of invoices never depends on today's date. */
const NOW = Date.parse('2026-11-18T12:00:00.000Z');

describe('tock invoice against a running app', () => {
  let running: InProcessApp;
  let app: RunningApp;
  let home: string;
  const tock = (...argv: string[]) => running.run(...argv);
  const ok = (...argv: string[]) => running.tock(...argv);
  const from = dayBefore(NOW, 5).day;
  const to = dayBefore(NOW, 1).day;

  before(async () => {
    running = await startInProcessApp({ homePrefix: 'tock-cli-invoice-', now: NOW });
    ({ app, home } = running);
    await ok('clients', 'add', 'ACME Müller GmbH', '--rate', '85', '--currency', 'EUR', '--address', 'Hauptstraße 1\n10115 Berlin');
    await ok('settings', 'set', 'business', JSON.stringify({ name: 'Ana Lima Design', address: 'Rua das Flores 12\nLisboa', taxID: 'PT123456789', paymentTerms: 'Within 30 days to IBAN PT50 0002' }));
    const t = app.services.tracker;
    t.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 90, endedAt: dayBefore(NOW, 4).endedAt, note: 'wireframes' });
    t.logEntry({ name: 'Design', durationMinutes: 45, endedAt: dayBefore(NOW, 3).endedAt, note: HOSTILE });
    t.logEntry({ name: 'Build', createIfMissing: true, durationMinutes: 60, endedAt: dayBefore(NOW, 2).endedAt, note: FORMULA });
    setActivityLedger(app.services.store, 'Design', { client: 'ACME Müller GmbH', billable: true });
    setActivityLedger(app.services.store, 'Build', { client: 'ACME Müller GmbH', billable: true, rate: '100' });
  });

  after(async () => {
    await running?.stop();
  });

  it('writes a PDF whose text holds every line, the totals and both parties; never invoices a block twice; reissues it byte for byte', async () => {
    const pdf = join(home, 'first.pdf');
    const out = await ok('invoice', '--client', 'acme müller gmbh', '--from', from, '--to', to, '--output', pdf);
    const year = new Date(NOW).getFullYear();
    assert.match(out, new RegExp(`^Invoice INV-${year}-001 for ACME Müller GmbH: 3 lines, 291.25 EUR — written to `));
    // A long note wraps in its column, inside a word too: read in drawing order (-raw), compared without white space.
    const squash = (t: string): string => t.replace(/\s+/g, '');
    const text = squash(execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }));
    for (const expected of ['INVOICE', `INV-${year}-001`, 'Ana Lima Design', 'Rua das Flores 12', 'PT123456789', 'Within 30 days to IBAN PT50 0002', 'ACME Müller GmbH', 'Hauptstraße 1', '10115 Berlin', 'wireframes', '<script>alert(1)</script>', '=HYPERLINK("http://evil.example")', FORMULA, '127.50 EUR', '63.75 EUR', '100.00 EUR', 'Total EUR', '291.25 EUR', '1.50', '0.75', '1.00']) {
      assert.ok(text.includes(squash(expected)), `${expected} in:\n${text}`);
    }

    const again = await tock('invoice', '--client', 'ACME Müller GmbH', '--from', from, '--to', to, '--output', join(home, 'again.pdf'));
    assert.equal(again.status, 1);
    assert.match(again.err, /^error: nothing to invoice for ACME Müller GmbH from .* not on an invoice already/);

    app.services.tracker.logEntry({ name: 'Build', durationMinutes: 30, endedAt: dayBefore(NOW, 1).endedAt, note: 'late fix' });
    const second = join(home, 'second.csv');
    await ok('invoice', '--client', 'ACME Müller GmbH', '--from', from, '--to', to, '--output', second);
    const csv = readFileSync(second, 'utf8');
    assert.match(csv, new RegExp(`^invoice,date,activity,note,tags,worked_seconds,billed_seconds,quantity_hours,rate,currency,amount\r\nINV-${year}-002,[0-9-]+,Build,late fix,,1800,1800,0.50,100.00,EUR,50.00\r\n`));
    assert.ok(!csv.includes('wireframes'), 'only the new block');

    const reissued = join(home, 'reissued.pdf');
    const re = JSON.parse(await ok('invoice', '--reissue', `INV-${year}-001`, '--output', reissued, '--json')) as { number: string; file: string };
    assert.equal(re.number, `INV-${year}-001`);
    assert.ok(readFileSync(reissued).equals(readFileSync(pdf)), 'a reissue is the same file');

    const list = await ok('invoice', 'list');
    assert.deepEqual(list.split('\n').map((l) => l.split('  ')[0]), [`INV-${year}-002`, `INV-${year}-001`]);
    assert.match(list, /291\.25 EUR/);
  });

  it('escapes a hostile note in HTML and neutralises it in CSV (a reissue in both formats)', async () => {
    const year = new Date(NOW).getFullYear();
    const html = join(home, 'invoice.html');
    await ok('invoice', '--reissue', `INV-${year}-001`, '--output', html);
    const page = readFileSync(html, 'utf8');
    assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt; =HYPERLINK(&quot;http://evil.example&quot;)'));
    assert.ok(!page.includes('<script'), 'no script element');
    const csv = join(home, 'invoice.txt');
    await ok('invoice', '--reissue', `INV-${year}-001`, '--output', csv, '--format', 'csv');
    // A note that begins with `=` gets a `'`: a spreadsheet shows it and never runs it.
    const cells = readFileSync(csv, 'utf8');
    assert.ok(cells.includes(`"'=HYPERLINK(""http://evil.example"",""api"")"`), cells);
    assert.ok(!/,=/.test(cells) && !/,"=/.test(cells), cells);
    const bad = await tock('invoice', '--reissue', 'INV-1999-001', '--output', join(home, 'x.pdf'));
    assert.match(bad.err, /^error: --reissue: no invoice INV-1999-001/);
  });
});

describe('tock invoice’s warning of overlapping invoices', () => {
  it('lists the earlier invoices in the language’s words: German `und`, Japanese `、`', async () => {
    const overlaps = [
      { number: 'INV-2026-001', from: '2026-10-01', to: '2026-10-31' },
      { number: 'INV-2026-002', from: '2026-11-01', to: '2026-11-15' },
    ];
    const [german] = warningsOf(await loadCliMessages('de'), { overlaps });
    assert.match(german ?? '', /: INV-2026-001 \(01\.10\.2026 bis 31\.10\.2026\) und INV-2026-002 \(01\.11\.2026 bis 15\.11\.2026\); /);
    const [japanese] = warningsOf(await loadCliMessages('ja'), { overlaps });
    assert.match(japanese ?? '', /：INV-2026-001（.+～.+）、INV-2026-002（.+～.+）。/);
    // English keeps the app's own line.
    assert.deepEqual(warningsOf(await loadCliMessages('en'), { overlaps, warnings: ['the app’s line'] }), ['the app’s line']);
  });
});
