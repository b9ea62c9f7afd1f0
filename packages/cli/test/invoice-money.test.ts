/**
 * Money you can trust, end to end against an app started in this process (docs/cli.md
 * "tock invoice", "tock report"): a day billed in EUR and USD shows `190.00 EUR + 240.00 USD`
 * in `tock report`, never a dash; a client's tax rate, reverse charge, VAT ID and language from
 * `tock clients edit`; an invoice whose PDF, read back with `pdftotext -layout` (Debian's
 * poppler-utils), says line by line what a client expects — decimal hours × rate = amount,
 * net, VAT, total, due date, both VAT IDs, the client's name once — and whose HTML and CSV carry
 * the same lines and totals; `--show-worked`; and the `warning:` of an overlapping period.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setActivityLedger } from '@tock/core';
import { startApp, type RunningApp } from '@tock/app/start';
import { tockAt } from './real-app.ts';

/** The app's and the command's pinned instant: a test of invoices never depends on today's date. */
const NOW = Date.parse('2026-11-18T12:00:00.000Z');

/** A local day `days` before NOW's, in the run's zone, and 14:00 local time on it (blocks of a few hours stay inside the day in any zone). */
function dayBefore(days: number): { day: string; endedAt: string } {
  const today = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(NOW));
  const day = plusDays(today, -days);
  return { day, endedAt: new Date(`${day}T14:00:00`).toISOString() };
}

/** The day `days` after `day` (YYYY-MM-DD). */
function plusDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe('money you can trust, through tock', () => {
  let app: RunningApp;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const tock = (...argv: string[]) => tockAt(() => new Date(NOW), env, ...argv);
  const ok = async (...argv: string[]): Promise<{ out: string; err: string }> => {
    const run = await tock(...argv);
    assert.equal(run.status, 0, `tock ${argv.join(' ')}: ${run.err}`);
    return run;
  };
  const billedDay = dayBefore(3);
  const issued = dayBefore(0).day;
  /** business.paymentDays is 14. */
  const due = plusDays(issued, 14);

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'tock-cli-money-'));
    env = { PATH: process.env.PATH, HOME: home, TOCK_HOME: home, TOCK_CREDENTIAL_STORE: 'file', ...(process.env.TZ ? { TZ: process.env.TZ } : {}) };
    app = await startApp({ home, env, clock: () => NOW, desktop: { timers: false, notifier: { name: 'none', notify: async () => {} }, idleSources: () => [] } });
    await ok('clients', 'add', 'Berlin Studio', '--rate', '95', '--currency', 'EUR', '--address', 'Torstraße 1\n10119 Berlin', '--tax-id', 'DE811907980');
    await ok('clients', 'add', 'Boston Labs', '--rate', '120', '--currency', 'USD');
    await ok('clients', 'add', 'Paris Atelier', '--rate', '80', '--currency', 'EUR');
    await ok('settings', 'set', 'business', JSON.stringify({ name: 'Ana Lima Design', address: 'Rua das Flores 12\nLisboa', taxID: 'PT123456789', paymentTerms: 'IBAN PT50 0002', taxRate: 19, paymentDays: 14 }));
    const t = app.services.tracker;
    // One day: two hours for each client, in two currencies.
    t.logEntry({ name: 'Design', createIfMissing: true, durationMinutes: 120, endedAt: billedDay.endedAt, note: 'landing page' });
    t.logEntry({ name: 'API', createIfMissing: true, durationMinutes: 120, endedAt: new Date(Date.parse(billedDay.endedAt) + 3 * 3_600_000).toISOString() });
    // Another day for Berlin: 1:33 worked, billed 1.55 h.
    t.logEntry({ name: 'Design', durationMinutes: 93, endedAt: dayBefore(2).endedAt, note: 'review' });
    t.logEntry({ name: 'Mockups', createIfMissing: true, durationMinutes: 45, endedAt: dayBefore(2).endedAt });
    setActivityLedger(app.services.store, 'Design', { client: 'Berlin Studio', billable: true });
    setActivityLedger(app.services.store, 'API', { client: 'Boston Labs', billable: true });
    setActivityLedger(app.services.store, 'Mockups', { client: 'Paris Atelier', billable: true });
  });

  after(async () => {
    await app.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('shows a day billed in EUR and USD as 190.00 EUR + 240.00 USD, in the row and the total, never a dash', async () => {
    const { out } = await ok('report', '--from', billedDay.day, '--to', billedDay.day, '--by', 'day');
    const row = out.split('\n').find((l) => l.startsWith(billedDay.day) && !l.includes('by day'));
    assert.ok(row !== undefined, out);
    assert.match(row, /190\.00 EUR \+ 240\.00 USD$/);
    assert.match(out.split('\n').find((l) => l.startsWith('Total')) ?? '', /190\.00 EUR \+ 240\.00 USD$/);
    const json = JSON.parse((await ok('report', '--from', billedDay.day, '--to', billedDay.day, '--by', 'day', '--json')).out) as { rows: unknown[] };
    assert.deepEqual(json.rows, [
      {
        date: billedDay.day,
        seconds: 4 * 3600,
        billedSeconds: 4 * 3600,
        amount: null,
        currency: null,
        amounts: [
          { currency: 'EUR', amount: '190.00' },
          { currency: 'USD', amount: '240.00' },
        ],
      },
    ]);
  });

  it("keeps a client's tax rate, reverse charge, VAT ID and language, and refuses a bad one naming its flag", async () => {
    const paris = (await ok('clients', 'edit', 'Paris Atelier', '--reverse-charge', '--language', 'fr', '--tax-id', 'FR40303265045')).out;
    assert.match(paris, /^Changed client Paris Atelier \(80\.00 EUR\/h, reverse charge, VAT ID FR40303265045, language fr\)/);
    const bad = await tock('clients', 'edit', 'Paris Atelier', '--language', 'it');
    assert.equal(bad.status, 1);
    assert.match(bad.err, /^error: --language it: must be a BCP 47 language tag of en, de, fr, es, ja/);
    const rate = await tock('clients', 'edit', 'Boston Labs', '--tax-rate', '150');
    assert.match(rate.err, /^error: --tax-rate 150: must be a percentage from 0 to 100/);
    const both = await tock('clients', 'edit', 'Boston Labs', '--tax-rate', '5', '--reverse-charge');
    assert.match(both.err, /^error: --reverse-charge bills no tax/);
    const list = JSON.parse((await ok('clients', 'list', '--json')).out) as { name: string; taxRate: number | null; reverseCharge: boolean; language: string | null }[];
    assert.deepEqual(
      list.map((c) => [c.name, c.taxRate, c.reverseCharge, c.language]),
      [
        ['Berlin Studio', null, false, null],
        ['Boston Labs', null, false, null],
        ['Paris Atelier', null, true, 'fr'],
      ],
    );
  });

  it('writes a PDF that reads line by line as an invoice a client accepts; HTML and CSV carry the same lines and totals', async () => {
    const from = dayBefore(5).day;
    const to = dayBefore(1).day;
    const pdf = join(home, 'berlin.pdf');
    const run = await ok('invoice', '--client', 'Berlin Studio', '--from', from, '--to', to, '--output', pdf);
    assert.equal(run.err, '', 'no warning for a first invoice');
    // 2 h × 95.00 = 190.00; 1.55 h × 95.00 = 147.25; net 337.25, VAT 19 % 64.08, total 401.33.
    assert.match(run.out, /^Invoice INV-2026-001 for Berlin Studio: 2 lines, 401\.33 EUR — written to /);
    const lines = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().replace(/\s{2,}/g, ' | '))
      .filter((l) => l !== '');
    const expected: RegExp[] = [
      /^Ana Lima Design$/,
      /^Rua das Flores 12$/,
      /^INVOICE$/,
      /^Lisboa \| Number INV-2026-001$/,
      new RegExp(`^VAT ID: PT123456789 \\| Invoice date ${issued}$`),
      new RegExp(`^Period of supply ${from} – ${to}$`),
      new RegExp(`^Due date ${due}$`),
      /^BILL TO$/,
      /^Berlin Studio$/,
      /^Torstraße 1$/,
      /^10119 Berlin$/,
      /^VAT ID: DE811907980$/,
      /^Date \| Activity \| Note \| Tags \| Hours \| Rate \| Amount$/,
      new RegExp(`^${billedDay.day} \\| Design \\| landing page \\| 2\\.00 \\| 95\\.00 EUR/h \\| 190\\.00 EUR$`),
      new RegExp(`^${dayBefore(2).day} \\| Design \\| review \\| 1\\.55 \\| 95\\.00 EUR/h \\| 147\\.25 EUR$`),
      /^Hours \| 3\.55$/,
      /^Net EUR \| 337\.25 EUR$/,
      /^VAT 19% \| 64\.08 EUR$/,
      /^Total EUR \| 401\.33 EUR$/,
      /^Payment terms$/,
      /^IBAN PT50 0002$/,
      /^INV-2026-001 · Ana Lima Design \| Page 1 of 1$/,
    ];
    assert.equal(lines.length, expected.length, lines.join('\n'));
    for (const [i, pattern] of expected.entries()) assert.match(lines[i] as string, pattern, `line ${i + 1}:\n${lines.join('\n')}`);
    assert.equal(lines.filter((l) => l.includes('Berlin Studio')).length, 1, "the client's name once");
    assert.ok(!lines.some((l) => /Worked|\d:\d\d/.test(l)), 'no worked time without --show-worked');

    const html = readFileSync((await ok('invoice', '--reissue', 'INV-2026-001', '--output', join(home, 'berlin.html'))).out.split(' written to ')[1]?.trim() ?? '', 'utf8');
    for (const cell of ['<td class="num">2.00</td>', '<td class="num">95.00 EUR/h</td>', '<td class="num">190.00 EUR</td>', '<td class="num">1.55</td>', '<td class="num">147.25 EUR</td>', '<td>Net EUR</td><td class="num">337.25 EUR</td>', '<td>VAT 19%</td><td class="num">64.08 EUR</td>', '<td>Total EUR</td><td class="num">401.33 EUR</td>', `Due date</span> ${due}`, 'DE811907980']) {
      assert.ok(html.includes(cell), `${cell} in the HTML`);
    }
    assert.equal(html.split('Berlin Studio').length - 1, 1, "the client's name once in the HTML");
    const csv = readFileSync((await ok('invoice', '--reissue', 'INV-2026-001', '--format', 'csv', '--output', join(home, 'berlin.csv'))).out.split(' written to ')[1]?.trim() ?? '', 'utf8');
    assert.deepEqual(csv.trimEnd().split('\r\n').slice(1), [
      `INV-2026-001,${billedDay.day},Design,landing page,,7200,7200,2.00,95.00,EUR,190.00`,
      `INV-2026-001,${dayBefore(2).day},Design,review,,5580,5580,1.55,95.00,EUR,147.25`,
      'INV-2026-001,,Net,,,,12780,,,EUR,337.25',
      'INV-2026-001,,VAT,,,,,,19,EUR,64.08',
      'INV-2026-001,,Total,,,,12780,,,EUR,401.33',
    ]);
  });

  it('warns on a period that overlaps an earlier invoice of the client and issues only what is on none; --show-worked shows worked time', async () => {
    const from = dayBefore(5).day;
    app.services.tracker.logEntry({ name: 'Design', durationMinutes: 20, endedAt: dayBefore(1).endedAt, note: 'late fix' });
    const pdf = join(home, 'second.pdf');
    const run = await ok('invoice', '--client', 'Berlin Studio', '--from', from, '--to', plusDays(dayBefore(1).day, 0), '--output', pdf, '--show-worked');
    assert.match(run.err, new RegExp(`^warning: the period overlaps an earlier invoice of this client: INV-2026-001 \\(${from} to ${dayBefore(1).day}\\); only blocks on no invoice are on this one\\n?$`));
    assert.match(run.out, /^Invoice INV-2026-002 for Berlin Studio: 1 line, /);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    assert.match(text, /Date\s+Activity\s+Note\s+Tags\s+Worked\s+Hours\s+Rate\s+Amount/);
    // 20 minutes: worked 0:20, 0.33 h × 95.00 = 31.35.
    assert.match(text, /late fix\s+0:20\s+0\.33\s+95\.00 EUR\/h\s+31\.35 EUR/);
    assert.ok(!text.includes('landing page'), 'only the block on no invoice');
  });

  it('issues an invoice to a client whose name is not Latin-1 (東京), in yen and Japanese dates', async () => {
    await ok('clients', 'add', '東京 Studio', '--rate', '9000', '--currency', 'JPY', '--language', 'ja');
    app.services.tracker.logEntry({ name: 'Localisation', createIfMissing: true, durationMinutes: 90, endedAt: dayBefore(2).endedAt });
    setActivityLedger(app.services.store, 'Localisation', { client: '東京 Studio', billable: true });
    const html = join(home, 'tokyo.html');
    const run = await ok('invoice', '--client', '東京 Studio', '--from', dayBefore(5).day, '--to', dayBefore(1).day, '--output', html);
    // 1.50 h × 9,000 JPY = 13,500 JPY, VAT 19 % 2,565: 16,065 JPY.
    assert.match(run.out, /^Invoice INV-2026-\d{3} for 東京 Studio: 1 line, 16065 JPY — written to /);
    const page = readFileSync(html, 'utf8');
    assert.ok(page.includes('<td class="num">13,500 JPY</td>') && page.includes(`<td class="num">${dayBefore(2).day.replace(/-/g, '/')}</td>`) === false, 'the date is in the first column');
    assert.ok(page.includes(`<td>${dayBefore(2).day.replace(/-/g, '/')}</td>`), 'a Japanese numeric date');
    assert.ok(page.includes('<td>合計 JPY</td><td class="num">16,065 JPY</td>'), page);
  });

  it('writes a reverse-charge invoice in French numbers and dates, with the note and no VAT line', async () => {
    const pdf = join(home, 'paris.pdf');
    await ok('invoice', '--client', 'Paris Atelier', '--from', dayBefore(5).day, '--to', dayBefore(1).day, '--output', pdf);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    const [y, m, d] = dayBefore(2).day.split('-');
    assert.match(text, new RegExp(`${d}/${m}/${y}\\s+Mockups\\s+0,75\\s+80,00 EUR/h\\s+60,00 EUR`));
    const [dy, dm, dd] = due.split('-');
    assert.match(text, new RegExp(`Date d’échéance\\s+${dd}/${dm}/${dy}`));
    assert.match(text, /Total EUR\s+60,00 EUR/);
    assert.match(text, /Autoliquidation/);
    assert.ok(!/TVA \d/.test(text), 'no VAT line');
  });
});
