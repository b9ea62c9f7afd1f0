/**
 * The Reports screen in a real Chromium against a real app (Europe/Berlin, the app's clock
 * fixed on Wednesday 18 November 2026): the named ranges (this and last year too) and custom days, by activity and by
 * day, the charts, the table with its total, the two CSV downloads compared with what core
 * computes (one source of truth), refusals next to the field, the keyboard, axe in both themes.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { callAdmin } from '@tock/admin';
import { buildReport, exportChunks, openExportSource, reportCsv, type ExportRequest } from '@tock/core';
import type { Page } from 'playwright-core';
import { homePaths } from '../src/home.ts';
import { newTab, openWindow, rawRequest, screenshot, seriousAxeViolations, tabTo, windowSession, windowSuite } from './ui-support/harness.ts';

let now = Date.parse('2026-11-16T07:00:00.000Z');
const ui = windowSuite({
  app: { clock: () => now },
  seed: ({ app }) => {
    const { tracker } = app.services;
    const at = (iso: string): void => {
      now = Date.parse(iso);
    };
    // October: one entry, for "Last month" and custom ranges.
    tracker.logEntry({ name: 'Invoices, "Q4"', createIfMissing: true, durationMinutes: 120, endedAt: '2026-10-05T12:00:00.000Z' });
    // Monday 16: a session with a quarter-hour break, and an hour logged.
    at('2026-11-16T08:00:00.000Z');
    tracker.startActivity({ name: 'Client A — design', createIfMissing: true });
    at('2026-11-16T09:00:00.000Z');
    tracker.startBreak();
    at('2026-11-16T09:15:00.000Z');
    tracker.resumeBreak();
    at('2026-11-16T10:30:00.000Z');
    tracker.stopActivity();
    at('2026-11-16T15:00:00.000Z');
    tracker.logEntry({ name: 'Invoices, "Q4"', durationMinutes: 60, endedAt: '2026-11-16T14:00:00.000Z', note: 'sent, "finally"' });
    // Tuesday 23:30 → Wednesday 00:30 in Berlin: half an hour on each day.
    at('2026-11-17T22:30:00.000Z');
    tracker.startActivity({ name: 'Client A — design' });
    at('2026-11-17T23:30:00.000Z');
    tracker.stopActivity();
    // Wednesday: running since 10:00 Berlin; "now" is 11:00 Berlin.
    at('2026-11-18T09:00:00.000Z');
    tracker.startActivity({ name: 'Café Ünïcode', createIfMissing: true });
    at('2026-11-18T10:00:00.000Z');
  },
});

const store = () => ui.services.store;
const report = (from: string, to: string, by: 'activity' | 'day') => buildReport(store(), { from, to, by }, now, 'Europe/Berlin');

/** The table's rows as text cells. */
async function tableRows(page: Page, part: 'tbody' | 'tfoot' = 'tbody'): Promise<string[][]> {
  return page.locator(`[data-testid="report-table"] ${part} tr`).evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())),
  );
}

/** Waits until the screen shows the days `from`–`to` with `total`. */
async function shows(page: Page, from: string, to: string, total: string): Promise<void> {
  try {
    await page.locator(`#report-heading[data-range="${from}/${to}"]`).waitFor();
    await page.getByTestId('report-total').filter({ hasText: new RegExp(`^${total}$`) }).waitFor();
  } catch (error) {
    const seen = await page.evaluate(() => `${document.querySelector('#report-heading')?.getAttribute('data-range')} with "${document.querySelector('[data-testid="report-total"]')?.textContent}"`);
    throw new Error(`expected ${from}/${to} with "${total}", the screen shows ${seen}`, { cause: error });
  }
}

async function download(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

function exportText(request: Partial<ExportRequest>): string {
  const source = openExportSource(store());
  try {
    return [...{ [Symbol.iterator]: () => exportChunks(source.db, { format: 'csv', timeZone: 'Europe/Berlin', now, ...request }) }].join('');
  } finally {
    source.close();
  }
}

describe('Reports', () => {
  it('opens on this week by activity: ranked bars, the table with shares and its total, as core reports it', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/reports');
    await page.locator('#report-heading').filter({ hasText: /16.*22.*2026/ }).waitFor();
    await page.getByRole('link', { name: 'Reports' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Reports' }).getAttribute('aria-current'), 'page');
    await shows(page, '2026-11-16', '2026-11-22', '5 h 15 min');
    const expected = report('2026-11-16', '2026-11-22', 'activity');
    assert.equal(expected.totalSeconds, 5 * 3600 + 15 * 60);
    assert.deepEqual(await tableRows(page), [
      ['Client A — design', '3 h 15 min', '3.25', '62 %'],
      ['Café Ünïcode', '1 h', '1.00', '19 %'],
      ['Invoices, "Q4"', '1 h', '1.00', '19 %'],
    ]);
    assert.deepEqual(
      (expected.rows as { activityName: string }[]).map((r) => r.activityName),
      ['Client A — design', 'Café Ünïcode', 'Invoices, "Q4"'],
    );
    assert.deepEqual(await tableRows(page, 'tfoot'), [['Total', '5 h 15 min', '5.25', '100 %']]);
    const chart = page.getByTestId('report-activity-chart');
    assert.equal(await chart.getAttribute('role'), 'img');
    assert.match((await chart.getAttribute('aria-label')) ?? '', /^Time per activity, most first: Client A — design 3 h 15 min, Café Ünïcode 1 h, and Invoices, "Q4" 1 h\.$/);
    await screenshot(page, 'reports-light');
  });

  it('keeps each ranked bar’s time on one line in German, the tracks all as long, wide and narrow', async () => {
    const { page } = ui;
    const socket = homePaths(ui.app.home).adminSocket;
    try {
      await callAdmin(socket, 'POST /settings/set', { key: 'language', value: '"de"' });
      await page.getByRole('heading', { level: 1, name: 'Berichte' }).waitFor();
      const chart = page.getByTestId('report-activity-chart');
      for (const width of [1200, 390]) {
        await page.setViewportSize({ width, height: 860 });
        // `3 Std., 15 Min.` broke over two lines in a value column of a fixed 6.5rem (5.5rem narrow).
        const lines = await chart.locator('.ranked-value').evaluateAll((els) =>
          els.map((el) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            return [el.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
          }),
        );
        assert.deepEqual(lines, [['3 Std., 15 Min.', 1], ['1 Std.', 1], ['1 Std.', 1]], `${width} px`);
        const tracks = await chart.locator('.ranked-track').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().width)));
        assert.equal(new Set(tracks).size, 1, `${width} px: one length for every track, so the bars compare: ${tracks}`);
      }
    } finally {
      await page.setViewportSize({ width: 1200, height: 860 });
      await callAdmin(socket, 'POST /settings/set', { key: 'language', value: null });
      await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    }
  });

  it('by day: one row per day with zeros, bars stacked by activity, midnight split between the days', async () => {
    const { page } = ui;
    await page.getByRole('radio', { name: 'Day', exact: true }).check();
    await page.getByTestId('report-day-chart').waitFor();
    const rows = await tableRows(page);
    const dates = await page.locator('[data-testid="report-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-date')));
    assert.deepEqual(dates, ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22']);
    assert.match(rows[0]?.[0] ?? '', /^Mon\b.*16/);
    assert.deepEqual(rows.map((r) => r[1]), ['3 h 15 min', '30 min', '1 h 30 min', '0 min', '0 min', '0 min', '0 min']);
    assert.deepEqual(
      (report('2026-11-16', '2026-11-22', 'day').rows as { seconds: number }[]).map((r) => r.seconds),
      [11_700, 1_800, 5_400, 0, 0, 0, 0],
    );
    const wednesday = page.locator('[data-testid="report-day-chart"] g[data-day="2026-11-18"] rect');
    assert.deepEqual((await wednesday.evaluateAll((els) => els.map((e) => e.getAttribute('data-activity')))).sort(), ['Café Ünïcode', 'Client A — design']);
    assert.match((await page.getByTestId('report-day-chart').getAttribute('aria-label')) ?? '', /^Time per day: Mon, Nov 16 3 h 15 min, Tue, Nov 17 30 min, Wed, Nov 18 1 h 30 min, Thu, Nov 19 0 min, Fri, Nov 20 0 min, Sat, Nov 21 0 min, and Sun, Nov 22 0 min\.$/);
    assert.deepEqual(await page.getByTestId('report-legend').locator('li').allTextContents(), ['Client A — design3 h 15 min', 'Café Ünïcode1 h', 'Invoices, "Q4"1 h']);
    await screenshot(page, 'reports-by-day');
  });

  it('named ranges by keyboard: arrows move through them, and the report follows', async () => {
    const { page } = ui;
    await page.getByRole('radio', { name: 'Activity' }).check();
    await page.locator('main h1').focus();
    await tabTo(page, 'input[name="report-period"]');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement).value), 'week');
    await page.keyboard.press('ArrowRight');
    await shows(page, '2026-11-09', '2026-11-15', '0 min');
    await page.getByText('Nothing tracked in this range.').waitFor();
    await page.keyboard.press('ArrowRight');
    await shows(page, '2026-11-01', '2026-11-30', '5 h 15 min');
    await page.keyboard.press('ArrowRight');
    await shows(page, '2026-10-01', '2026-10-31', '2 h');
    await page.getByRole('radio', { name: 'Today' }).check();
    await shows(page, '2026-11-18', '2026-11-18', '1 h 30 min');
    await page.keyboard.press('ArrowRight');
    await shows(page, '2026-11-17', '2026-11-17', '30 min');
    // Screen readers hear the new range and its total.
    await page.locator('[aria-live="polite"]').filter({ hasText: /^Tuesday, .*17.*2026: 30 min tracked\.$/ }).waitFor();
  });

  it('this year and last year: the whole calendar year, the days still to come included', async () => {
    const { page } = ui;
    await page.getByRole('radio', { name: 'This year' }).check();
    await shows(page, '2026-01-01', '2026-12-31', '7 h 15 min');
    assert.equal(report('2026-01-01', '2026-12-31', 'activity').totalSeconds, 7 * 3600 + 15 * 60);
    assert.deepEqual((await tableRows(page, 'tfoot'))[0]?.slice(0, 3), ['Total', '7 h 15 min', '7.25']);
    await page.getByRole('radio', { name: 'Last year' }).check();
    await shows(page, '2025-01-01', '2025-12-31', '0 min');
    await page.getByText('Nothing tracked in this range.').waitFor();
  });

  it('custom days: from the range shown last, refused days explained next to the field', async () => {
    const { page } = ui;
    await page.getByRole('radio', { name: 'This month' }).check();
    await shows(page, '2026-11-01', '2026-11-30', '5 h 15 min');
    await page.getByRole('radio', { name: 'Custom…' }).check();
    const from = page.getByLabel('From', { exact: true });
    const to = page.getByLabel('To', { exact: true });
    assert.equal(await from.inputValue(), '2026-11-01');
    assert.equal(await to.inputValue(), '2026-11-30');
    await from.fill('2026-10-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await shows(page, '2026-10-01', '2026-11-30', '7 h 15 min');
    assert.equal(report('2026-10-01', '2026-11-30', 'activity').totalSeconds, 7 * 3600 + 15 * 60);

    await to.fill('2026-09-30');
    await page.getByRole('button', { name: 'Show' }).click();
    const error = page.locator('#report-to-error');
    await error.waitFor();
    assert.equal(await error.textContent(), 'Must not be before the start day (2026-10-01); give the earlier day as the start.');
    assert.equal(await to.getAttribute('aria-invalid'), 'true');
    assert.equal(await to.getAttribute('aria-describedby'), 'report-to-error');
    await to.fill('2027-12-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#report-to-error').filter({ hasText: 'a report covers at most 366' }).waitFor();
    await to.fill('');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#report-to-error').filter({ hasText: 'choose the last day' }).waitFor();
    await to.fill('2026-11-30');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#report-to-error').waitFor({ state: 'detached' });
    await shows(page, '2026-10-01', '2026-11-30', '7 h 15 min');
    assert.equal(await to.getAttribute('aria-invalid'), null);
  });

  it('downloads the report and the export of the range shown, byte for byte what core writes', async () => {
    const { page } = ui;
    const reportFile = await download(page, 'download-report');
    assert.equal(reportFile.name, 'tock-report-2026-10-01-to-2026-11-30-by-activity.csv');
    assert.equal(reportFile.text, reportCsv(report('2026-10-01', '2026-11-30', 'activity'), 'activity'));
    assert.ok(reportFile.text.startsWith('activity,seconds,billed_seconds,amount,currency,amounts,hours\r\nClient A — design,11700,0,,,,3.25\r\n'));

    const exportFile = await download(page, 'download-export');
    assert.equal(exportFile.name, 'tock-export-2026-10-01-to-2026-11-30.csv');
    assert.equal(exportFile.text, exportText({ fromDay: '2026-10-01', toDay: '2026-11-30' }));
    const lines = exportFile.text.split('\r\n');
    // The ledger's six columns come last (docs/data.md "Export").
    assert.equal(lines[0], 'kind,activity,start,end,seconds,note,localStart,localEnd,hours,client,tags,billable,billed_seconds,amount,currency');
    assert.match(lines[1] as string, /^entry,"Invoices, ""Q4""",2026-10-05T10:00:00\.000Z,2026-10-05T12:00:00\.000Z,7200,,[^,]+,[^,]+,2(,[^,]*){6}$/);
    assert.match(lines.at(-2) as string, /^session,Café Ünïcode,2026-11-18T09:00:00\.000Z,,3600,,[^,]+,,1(,[^,]*){6}$/, 'the running session: no end, seconds up to now');

    await page.getByRole('radio', { name: 'Day', exact: true }).check();
    await page.getByTestId('report-day-chart').waitFor();
    await screenshot(page, 'reports-two-months-by-day');
    const byDay = await download(page, 'download-report');
    assert.equal(byDay.name, 'tock-report-2026-10-01-to-2026-11-30-by-day.csv');
    assert.equal(byDay.text, reportCsv(report('2026-10-01', '2026-11-30', 'day'), 'day'));
    await page.getByRole('radio', { name: 'Activity' }).check();
  });

  it('the downloads need the window’s session and refuse bad days with one line', async () => {
    const host = { host: `127.0.0.1:${ui.app.port}` };
    const anonymous = await rawRequest(ui.app.port, 'GET', '/api/export.csv', host);
    assert.equal(anonymous.status, 401);
    const session = await windowSession(ui.app);
    const bad = await rawRequest(ui.app.port, 'GET', '/api/export.csv?from=2026-02-30', { ...host, ...session });
    assert.equal(bad.status, 400);
    assert.deepEqual(JSON.parse(bad.body), {
      ok: false,
      error: 'from: must be a date YYYY-MM-DD such as 2026-11-22',
      code: 'validation_failed',
      details: [{ field: 'from', message: 'must be a date YYYY-MM-DD such as 2026-11-22', rule: 'date', values: { example: '2026-11-22' } }],
    });
    const csv = await rawRequest(ui.app.port, 'GET', '/api/report.csv?period=today&by=day', { ...host, ...session });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(csv.headers['content-disposition'], 'attachment; filename="tock-report-2026-11-18-by-day.csv"');
    assert.equal(csv.body, 'date,seconds,billed_seconds,amount,currency,amounts,hours\r\n2026-11-18,5400,0,,,,1.50\r\n');
    assert.ok(csv.headers['content-security-policy'], 'downloads carry the window’s security headers');
  });

  it('is axe clean in light and dark', async () => {
    const { page } = ui;
    await page.getByRole('radio', { name: 'This week' }).check();
    await shows(page, '2026-11-16', '2026-11-22', '5 h 15 min');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.getByRole('radio', { name: 'Day', exact: true }).check();
    await page.getByTestId('report-day-chart').waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);
    const dark = await newTab(ui.browser, { colorScheme: 'dark' });
    try {
      await openWindow(dark, ui.app, '/reports');
      await shows(dark, '2026-11-16', '2026-11-22', '5 h 15 min');
      assert.deepEqual(await seriousAxeViolations(dark), []);
      await screenshot(dark, 'reports-dark');
      await dark.getByRole('radio', { name: 'Custom…' }).check();
      await dark.getByRole('radio', { name: 'Day', exact: true }).check();
      await dark.getByTestId('report-day-chart').waitFor();
      assert.deepEqual(await seriousAxeViolations(dark), []);
      await screenshot(dark, 'reports-dark-by-day');
    } finally {
      await dark.close();
    }
  });

  it('16 h 40 min is 16.67 hours, and the hours and shares add up, with the digits `tock report --csv` writes', async () => {
    const { page } = ui;
    // Monday 7 September: three activities of 20 minutes; Tuesday 8: 16 h 40 min of one.
    const { tracker } = ui.services;
    for (const [name, end] of [
      ['Thirds A', '2026-09-07T08:20:00.000Z'],
      ['Thirds B', '2026-09-07T08:40:00.000Z'],
      ['Thirds C', '2026-09-07T09:00:00.000Z'],
    ] as const) {
      tracker.logEntry({ name, createIfMissing: true, durationMinutes: 20, endedAt: end });
    }
    tracker.logEntry({ name: 'Long day', createIfMissing: true, durationMinutes: 1000, endedAt: '2026-09-08T21:00:00.000Z' });
    await openWindow(page, ui.app, '/reports');
    await page.getByRole('radio', { name: 'Custom…' }).check();
    await page.getByLabel('From', { exact: true }).fill('2026-09-07');
    await page.getByLabel('To', { exact: true }).fill('2026-09-08');
    await page.getByRole('button', { name: 'Show' }).click();
    await shows(page, '2026-09-07', '2026-09-08', '17 h 40 min');
    // Each row within a hundredth (a percent) of its exact value, and the column adds up: 16.67 + 0.34 + 0.33 + 0.33 = 17.67; 94 + 2 + 2 + 2 = 100.
    assert.deepEqual(await tableRows(page), [
      ['Long day', '16 h 40 min', '16.67', '94 %'],
      ['Thirds A', '20 min', '0.34', '2 %'],
      ['Thirds B', '20 min', '0.33', '2 %'],
      ['Thirds C', '20 min', '0.33', '2 %'],
    ]);
    assert.deepEqual(await tableRows(page, 'tfoot'), [['Total', '17 h 40 min', '17.67', '100 %']]);
    assert.match((await page.locator('.report-total').textContent()) ?? '', /· 17\.67 hours$/);
    // The report CSV (the very text `tock report --csv` prints) has the same digits in its hours column.
    const file = await download(page, 'download-report');
    assert.equal(file.text, reportCsv(report('2026-09-07', '2026-09-08', 'activity'), 'activity'));
    const hours = file.text
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',').at(-1));
    assert.deepEqual(hours, ['16.67', '0.34', '0.33', '0.33']);
    await page.getByRole('radio', { name: 'Day', exact: true }).check();
    await page.getByTestId('report-day-chart').waitFor();
    assert.deepEqual(
      (await tableRows(page)).map((r) => r[2]),
      ['1.00', '16.67'],
    );
    const byDay = await download(page, 'download-report');
    assert.deepEqual(
      byDay.text
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(',').at(-1)),
      ['1.00', '16.67'],
    );
  });
});
