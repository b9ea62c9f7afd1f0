/**
 * Issue 31, "A day you can trust", in the window (real Chromium, a real app in Europe/Berlin
 * on a clock fixed at Wednesday 18 November 2026, 16:00): durations floored by the shared
 * formatter and tables that add up as shown, overlaps counted once, marked and offered a trim
 * when a block is logged or edited, swapped times refused unless the block ends the next day,
 * a confirmation past 12 hours, one 24-hour clock, and "Ended at" following the clock.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { buildReport, type ReportDayRow } from '@tock/core';
import { es, ja } from '@tock/window/testing';
import { openWindow, rawRequest, screenshot, seriousAxeViolations, windowSession, windowSuite } from './ui-support/harness.ts';

let now = Date.parse('2026-11-18T07:00:00.000Z');
const at = (iso: string): void => {
  now = Date.parse(iso);
};

const ui = windowSuite({
  app: { clock: () => now },
  browser: { locale: 'en-US' },
  seed: ({ app }) => {
    const { tracker } = app.services;
    // Three sessions with odd seconds (times in UTC; Berlin is an hour ahead):
    // 1:30:40 + 1:00:40 + 0:49:40 = 3:21:00 — floored one by one they make 3:19, rounded 3:22.
    at('2026-11-18T07:00:00.000Z');
    tracker.startActivity({ name: 'Design', createIfMissing: true });
    at('2026-11-18T08:30:40.000Z');
    tracker.stopActivity();
    at('2026-11-18T09:00:00.000Z');
    tracker.startActivity({ name: 'Review', createIfMissing: true });
    at('2026-11-18T10:00:40.000Z');
    tracker.stopActivity();
    at('2026-11-18T10:30:00.000Z');
    tracker.startActivity({ name: 'Docs', createIfMissing: true });
    at('2026-11-18T11:19:40.000Z');
    tracker.stopActivity();
    at('2026-11-18T15:00:00.000Z');
  },
});

const blocks = () => ui.services.tracker.listBlocks(Date.parse('2026-11-15T00:00:00.000Z'), Date.parse('2026-11-19T00:00:00.000Z'));
const block = (name: string) => blocks().find((x) => x.activity.activityName === name);

/** The report table's rows as text cells. */
async function tableRows(page: Page, part: 'tbody' | 'tfoot' = 'tbody'): Promise<string[][]> {
  return page.locator(`[data-testid="report-table"] ${part} tr`).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));
}

/** `3 h 21 min` → 201. */
function minutes(text: string): number {
  const m = /^−?(?:(\d+) h)? ?(?:(\d+) min)?$/.exec(text);
  assert.ok(m, `"${text}" is not a duration`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

async function showReport(page: Page, period: string, total: string): Promise<void> {
  await openWindow(page, ui.app, '/reports');
  await page.getByRole('radio', { name: period, exact: true }).check();
  await page.getByTestId('report-total').filter({ hasText: new RegExp(`^${total}$`) }).waitFor();
}

describe('one way to show time', () => {
  it('floors every duration (49 min 40 s is 49 min) and Today agrees with the app', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    await page.getByTestId('today-total').filter({ hasText: /^3 h 21 min$/ }).waitFor();
    const docs = page.getByTestId('today-block').filter({ hasText: 'Docs' });
    assert.equal(await docs.locator('.dur-value').textContent(), '49 min');
    assert.match((await page.getByTestId('timeline').getAttribute('aria-label')) ?? '', /3 blocks, 3 h 21 min worked/);
  });

  it('Reports: the rows add up to the total as shown, in minutes and in hours', async () => {
    const { page } = ui;
    await showReport(page, 'Today', '3 h 21 min');
    const rows = await tableRows(page);
    assert.deepEqual(
      rows.map((r) => r.slice(0, 3)),
      [
        ['Design', '1 h 31 min', '1.52'],
        ['Review', '1 h 1 min', '1.02'],
        ['Docs', '49 min', '0.81'],
      ],
    );
    const foot = await tableRows(page, 'tfoot');
    assert.deepEqual(foot, [['Total', '3 h 21 min', '3.35', '100 %']]);
    assert.equal(
      rows.reduce((s, r) => s + minutes(r[1] as string), 0),
      201,
    );
    assert.equal(rows.reduce((s, r) => s + Math.round(Number(r[2]) * 100), 0), 335);
    // The ranked bars above the table say the same times, and so does their summary.
    const ranked = await page.locator('[data-testid=report-activity-chart] .ranked-row').evaluateAll((items) => items.map((r) => [r.querySelector('.ranked-name')?.textContent ?? '', r.querySelector('.ranked-value')?.textContent ?? '']));
    assert.deepEqual(
      ranked,
      rows.map((r) => [r[0], r[1]]),
    );
    assert.match((await page.getByTestId('report-activity-chart').getAttribute('aria-label')) ?? '', /Design 1 h 31 min, Review 1 h 1 min, and Docs 49 min\./);
  });

  it('shows times on one 24-hour clock, also where the browser’s language says 12 hours', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    await page.getByTestId('history-row').first().waitFor();
    assert.equal(await page.locator('input[type=time]').count(), 0, 'no time field drawn by the browser’s language');
    assert.match(await page.getByLabel('Ended at').inputValue(), /^([01]\d|2[0-3]):[0-5]\d$/);
    await page.getByRole('radio', { name: 'Start and end' }).check();
    assert.equal(await page.locator('#log-from').inputValue(), '09:00');
    const text = (await page.locator('main').textContent()) ?? '';
    assert.doesNotMatch(text, /\b[AP]M\b/);
  });

  it('follows the clock setting: 12 hours everywhere (working hours too), the browser’s language with “system”, 24 hours again', async (ctx) => {
    const { page } = ui;
    const settings = () => ui.services.desktop.settings();
    // The tests after this one read the 24-hour clock, whatever happens here.
    ctx.after(() => void ui.services.desktop.updateSettings({ clockFormat: '24h', workingHours: { from: '09:00', to: '17:00' } }));
    await openWindow(page, ui.app, '/settings/desktop');
    assert.equal(await page.locator('input[type=time]').count(), 0, 'working hours are typed, not drawn by the browser’s language');
    assert.equal(await page.getByLabel('Working hours from').inputValue(), '09:00');
    await page.getByRole('radio', { name: '12-hour (2:05 PM)' }).check();
    await page.waitForFunction(() => (document.querySelector('#work-from') as HTMLInputElement | null)?.value === '9:00 AM');
    assert.equal(settings().clockFormat, '12h');
    assert.equal(await page.getByLabel('to', { exact: true }).inputValue(), '5:00 PM');
    await page.getByLabel('Working hours from').fill('8:30 am');
    await page.getByLabel('to', { exact: true }).fill('5:30 PM');
    await page.getByRole('button', { name: 'Save reminder' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    assert.deepEqual([settings().workingHours.from, settings().workingHours.to], ['08:30', '17:30']);
    await page.getByLabel('to', { exact: true }).fill('25:00');
    await page.getByRole('button', { name: 'Save reminder' }).click();
    await page.locator('#work-error').filter({ hasText: 'Write the working hours as h:mm AM or PM, for example 9:30 AM or 2:05 PM.' }).waitFor();
    assert.equal(settings().workingHours.to, '17:30', 'nothing saved');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'settings-desktop-12h');

    await openWindow(page, ui.app, '/today');
    const ranges = page.getByTestId('today-block').locator('.range');
    await ranges.first().waitFor();
    assert.ok((await ranges.allTextContents()).includes('8:00 AM–9:30 AM'));
    await screenshot(page, 'today-12h');
    await openWindow(page, ui.app, '/history');
    await page.getByTestId('history-row').first().waitFor();
    assert.match(await page.getByLabel('Ended at').inputValue(), /^(1[0-2]|[1-9]):[0-5]\d [AP]M$/);
    await page.getByRole('button', { name: 'Edit session of Design' }).click();
    assert.equal(await page.getByLabel('From', { exact: true }).inputValue(), '8:00 AM');

    // "system" in an English (US) browser is the 12-hour clock too; then back to 24 hours.
    ui.services.desktop.updateSettings({ clockFormat: 'system' });
    await openWindow(page, ui.app, '/today');
    await page.getByTestId('today-block').locator('.range').filter({ hasText: '8:00 AM–9:30 AM' }).waitFor();
    ui.services.desktop.updateSettings({ clockFormat: '24h', workingHours: { from: '09:00', to: '17:00' } });
    await openWindow(page, ui.app, '/today');
    await page.getByTestId('today-block').locator('.range').filter({ hasText: '08:00–09:30' }).waitFor();
  });

  it('writes and reads the 12-hour clock in the window’s language: a. m./p. m. in Spanish, 午前/午後 first in Japanese', async (ctx) => {
    const { page } = ui;
    const settings = () => ui.services.desktop.settings();
    const setLanguage = async (value: string): Promise<void> => {
      const session = await windowSession(ui.app);
      const res = await rawRequest(ui.app.port, 'PUT', '/api/settings/ledger/language', { host: `127.0.0.1:${ui.app.port}`, origin: ui.app.origin, 'content-type': 'application/json', ...session }, JSON.stringify({ value: JSON.stringify(value) }));
      assert.equal(res.status, 200, res.body);
    };
    ctx.after(async () => {
      ui.services.desktop.updateSettings({ clockFormat: '24h', workingHours: { from: '09:00', to: '17:00' } });
      await setLanguage('en');
    });
    ui.services.desktop.updateSettings({ clockFormat: '12h', workingHours: { from: '09:00', to: '17:00' } });
    for (const [language, catalog, from, to, typed, saved, blockShown] of [
      ['es', es, '9:00 a. m.', '5:00 p. m.', '5:30 p. m.', '17:30', '8:00 a. m.–9:30 a. m.'],
      ['ja', ja, '午前9:00', '午後5:30', '午後６：４５', '18:45', '午前8:00–午前9:30'],
    ] as const) {
      // openWindow waits for English titles: this waits for the language's.
      const open = async (screen: string, title: string): Promise<void> => {
        await page.goto(`${ui.app.launchUrl()}#${screen}`);
        await page.locator(`html[lang=${language}]`).waitFor({ state: 'attached' });
        await page.locator('main h1').filter({ hasText: title }).waitFor();
      };
      await setLanguage(language);
      await open('/settings/desktop', catalog['screen.desktop']);
      // Drawn in the language from the first frame: the fields are seeded in its words.
      assert.deepEqual([await page.locator('#work-from').inputValue(), await page.locator('#work-to').inputValue()], [from, to]);
      await page.locator('#work-to').fill(typed);
      await page.getByRole('button', { name: catalog['desk.saveReminder'] }).click();
      await page.getByText(catalog['desk.saved'], { exact: true }).waitFor();
      assert.equal(settings().workingHours.to, saved, language);
      await page.locator('#work-to').fill('9'.repeat(32));
      await page.getByRole('button', { name: catalog['desk.saveReminder'] }).click();
      await page.locator('#work-error').waitFor();
      assert.equal(settings().workingHours.to, saved, 'nothing saved');
      await open('/today', catalog['screen.today']);
      const ranges = page.getByTestId('today-block').locator('.range');
      await ranges.first().waitFor();
      assert.ok((await ranges.allTextContents()).includes(blockShown), (await ranges.allTextContents()).join(' | '));
      await screenshot(page, `today-12h-${language}`);
    }
  });
});

describe('overlaps', () => {
  it('counts shared time once, marks both blocks, and shows the overlap as a row of the report', async () => {
    const { page } = ui;
    // 09:45–10:15 Berlin over Review (10:00–11:00:40): 15 minutes shared.
    ui.services.tracker.logEntry({ name: 'Meeting', createIfMissing: true, durationMinutes: 30, endedAt: '2026-11-18T09:15:00.000Z' });
    await openWindow(page, ui.app);
    await page.getByTestId('today-total').filter({ hasText: /^3 h 36 min$/ }).waitFor();
    await page.locator('[data-testid=timeline][aria-label*="3 h 36 min worked"]').waitFor();
    assert.deepEqual(
      await page.getByTestId('today-block').filter({ has: page.getByTestId('overlap-badge') }).locator('.name').allTextContents(),
      ['Reviewoverlaps', 'Meetingloggedoverlaps'],
    );
    assert.equal(await page.locator('[data-testid=timeline] g.bar.overlapping').count(), 2);

    await showReport(page, 'Today', '3 h 36 min');
    assert.deepEqual(await tableRows(page, 'tfoot'), [
      ['Blocks at the same time, counted once', '−15 min', '−0.25', '−7 %'],
      ['Total', '3 h 36 min', '3.60', '100 %'],
    ]);
    const rows = await tableRows(page);
    assert.equal(rows.reduce((s, r) => s + minutes(r[1] as string), 0) - 15, 216);

    // The week's bar for Wednesday says the day's total, not the segments' sum.
    await openWindow(page, ui.app, '/history');
    await page.locator('[data-testid=week-chart] g[data-day="2026-11-18"] .bar-total').filter({ hasText: /^3h 36m$/ }).waitFor();
    await page.getByText('3 h 36 min', { exact: true }).waitFor();
    // The bar is as tall as its label, 3 h 36 min on the axis, not the segments' 3 h 51 min (issue 37).
    const drawn = await page.locator('[data-testid=week-chart]').evaluate((svg) => {
      const gridY = (hours: number): number => {
        const tick = [...svg.querySelectorAll('text.tick')].find((t) => t.textContent === `${hours}h`) as SVGTextElement;
        return (tick.previousElementSibling as SVGLineElement).y1.baseVal.value;
      };
      const heights = [...svg.querySelectorAll('g[data-day="2026-11-18"] rect.segment')].map((r) => (r as SVGRectElement).height.baseVal.value);
      return { hours: heights.reduce((a, h) => a + h, 0) / (gridY(0) - gridY(1)) };
    });
    assert.ok(Math.abs(drawn.hours - 3.6) < 0.02, `Wednesday's bar reaches ${drawn.hours.toFixed(2)} h on the axis`);
    // And History says each day's total beside the day (shared time once).
    assert.equal(await page.locator('.day-group', { has: page.locator('h4', { hasText: 'November 18' }) }).getByTestId('history-day-total').textContent(), ', 3 h 36 min');
  });

  it('History: Resolve on a marked row trims this block to where the other starts', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    const meeting = page.getByTestId('history-row').filter({ hasText: 'Meeting' });
    await meeting.getByTestId('overlap-badge').waitFor();
    await meeting.getByRole('button', { name: 'Resolve the overlap of the entry of Meeting' }).click();
    const prompt = page.getByTestId('overlap-prompt');
    await prompt.getByText('The session of Review, 10:00–11:00: 15 min together.').waitFor();
    assert.deepEqual(await prompt.getByRole('button').allTextContents(), ['Trim the other to 10:15–11:00', 'Trim this one to 09:45–10:00', 'Keep both']);
    await prompt.getByRole('button', { name: 'Trim this one to 09:45–10:00' }).click();
    await prompt.waitFor({ state: 'detached' });
    assert.deepEqual([block('Meeting')?.startedAt, block('Meeting')?.endedAt], ['2026-11-18T08:45:00.000Z', '2026-11-18T09:00:00.000Z']);
    assert.equal(block('Review')?.startedAt, '2026-11-18T09:00:00.000Z');
    await page.getByTestId('overlap-badge').first().waitFor({ state: 'detached' });
  });

  it('logging a block over another asks at once: trimming the other moves its start', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    await page.getByRole('combobox', { name: 'Activity' }).fill('Call');
    await page.getByRole('textbox', { name: 'Duration' }).fill('20m');
    await page.getByLabel('Ended at').fill('11:40');
    await page.getByRole('button', { name: 'Log time' }).click();
    const prompt = page.getByTestId('overlap-prompt');
    await prompt.getByRole('heading', { name: 'This entry of Call (11:20–11:40) overlaps another block' }).waitFor();
    // The question has the focus, so the keyboard is at its answers.
    await page.waitForFunction(() => document.activeElement?.closest('[data-testid=overlap-prompt]') !== null);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await prompt.getByRole('button', { name: 'Trim the other to 11:40–12:19' }).click();
    await prompt.waitFor({ state: 'detached' });
    assert.deepEqual([block('Docs')?.startedAt, block('Docs')?.endedAt], ['2026-11-18T10:40:00.000Z', '2026-11-18T11:19:40.000Z']);
  });

  it('editing a block over another asks too; Keep both changes nothing and leaves it marked', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: 'Call' });
    await row.getByRole('button', { name: 'Edit entry of Call' }).click();
    await row.getByLabel('From').fill('11:30');
    await row.getByLabel('To').fill('11:50');
    await row.getByRole('button', { name: 'Save' }).click();
    const prompt = page.getByTestId('overlap-prompt');
    await prompt.getByText('The session of Docs, 11:40–12:19: 10 min together.').waitFor();
    await prompt.getByRole('button', { name: 'Keep both' }).click();
    await prompt.waitFor({ state: 'detached' });
    assert.deepEqual([block('Call')?.startedAt, block('Call')?.endedAt], ['2026-11-18T10:30:00.000Z', '2026-11-18T10:50:00.000Z']);
    assert.equal(block('Docs')?.startedAt, '2026-11-18T10:40:00.000Z');
    await page.getByTestId('history-row').filter({ hasText: 'Call' }).getByTestId('overlap-badge').waitFor();
  });
});

describe('times a person enters', () => {
  it('a past day’s “From 20:00 To 19:30” is an error, not 23 h 30 min; “Ends the next day” asks before a block over 12 h', async () => {
    const { page } = ui;
    const before = blocks().length;
    await openWindow(page, ui.app, '/history');
    await page.getByRole('combobox', { name: 'Activity' }).fill('Night shift');
    await page.getByRole('combobox', { name: 'Activity' }).press('Escape');
    await page.getByRole('radio', { name: 'Start and end' }).check();
    await page.getByLabel('Day', { exact: true }).fill('2026-11-16');
    await page.locator('#log-from').fill('20:00');
    await page.locator('#log-to').fill('19:30');
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.locator('#log-endedAt-error').filter({ hasText: 'It ends (19:30) before it starts (20:00). Correct the times, or choose “Ends the next day”.' }).waitFor();
    assert.equal(await page.locator('#log-to').getAttribute('aria-invalid'), 'true');
    assert.equal(blocks().length, before);

    await page.getByRole('checkbox', { name: 'Ends the next day' }).check();
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.getByTestId('confirm-long').filter({ hasText: 'This block is 23 h 30 min long, more than 12 hours. Is that right?' }).waitFor();
    assert.equal(blocks().length, before);
    await page.getByRole('button', { name: 'Log it anyway' }).click();
    await page.getByRole('status').filter({ hasText: 'Logged 23 h 30 min of Night shift (new activity), 20:00–19:30.' }).waitFor();
    assert.deepEqual([block('Night shift')?.startedAt, block('Night shift')?.endedAt], ['2026-11-16T19:00:00.000Z', '2026-11-17T18:30:00.000Z']);
  });

  it('a typed duration over 12 h asks first; a time that is no time of day is refused in the form', async () => {
    const { page } = ui;
    const before = blocks().length;
    await openWindow(page, ui.app, '/history');
    await page.getByRole('combobox', { name: 'Activity' }).fill('Typo');
    await page.getByRole('textbox', { name: 'Duration' }).fill('13h');
    await page.getByLabel('Day', { exact: true }).fill('2026-11-15');
    await page.getByLabel('Ended at').fill('25:00');
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.locator('#log-endedAt-error').filter({ hasText: 'Write the time it ended as HH:MM on the 24-hour clock, for example 09:30 or 14:05.' }).waitFor();
    await page.getByLabel('Ended at').fill('23:00');
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.getByTestId('confirm-long').filter({ hasText: 'This block is 13 h long' }).waitFor();
    assert.equal(blocks().length, before);
  });

  it('“Ended at” follows the clock until it is changed', async () => {
    const page = await ui.browser.context.newPage();
    try {
      await page.clock.install({ time: Date.parse('2026-11-18T15:00:00.000Z') });
      await openWindow(page, ui.app, '/history');
      const first = await page.getByLabel('Ended at').inputValue();
      await page.clock.fastForward('02:00:00');
      const [h, m] = first.split(':').map(Number) as [number, number];
      const later = `${String((h + 2) % 24).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
      await page.waitForFunction((want) => (document.querySelector('#log-end') as HTMLInputElement | null)?.value === want, later);
    } finally {
      await page.close();
    }
  });
});

describe('breaks you can see', () => {
  it('Today runs the break’s own clock; History lists every break of a session', async () => {
    const { tracker } = ui.services;
    at('2026-11-18T14:00:00.000Z');
    tracker.startActivity({ name: 'Focus', createIfMissing: true });
    at('2026-11-18T14:10:00.000Z');
    tracker.startBreak();
    at('2026-11-18T14:20:00.000Z');
    tracker.resumeBreak();
    at('2026-11-18T14:30:00.000Z');
    tracker.startBreak();
    at('2026-11-18T14:35:00.000Z');
    const { page } = ui;
    await openWindow(page, ui.app);
    await page.getByText('On a break', { exact: true }).waitFor();
    const timer = page.getByTestId('break-elapsed');
    await timer.waitFor();
    assert.match((await timer.textContent()) ?? '', /^0:05:\d\d$/);
    assert.match((await timer.getAttribute('aria-label')) ?? '', /^Break 5 min$/);
    // The session's clock stands still: 20 minutes worked.
    assert.match((await page.getByTestId('elapsed').textContent()) ?? '', /^0:20:00$/);

    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: 'Focus' });
    await row.getByTestId('break-list').filter({ hasText: 'Breaks 15:10–15:20 (10 min) and 15:30–now (5 min), not counted' }).waitFor();
  });
});

describe('History’s day and activity totals', () => {
  it('add up to the week’s total as shown, with the digits of the Reports tables and of the bars', async () => {
    const { tracker } = ui.services;
    at('2026-11-18T14:40:00.000Z');
    tracker.stopActivity();
    // Monday and Tuesday, 20 min 40 s each, beside the other blocks of those days: floored one
    // by one the days lose 40 s each, a minute of the week's total between them.
    for (const start of ['2026-11-16T09:00:00.000Z', '2026-11-17T20:00:00.000Z']) {
      at(start);
      tracker.startActivity({ name: 'Standup notes', createIfMissing: true });
      at(new Date(Date.parse(start) + 20 * 60_000 + 40_000).toISOString());
      tracker.stopActivity();
    }
    at('2026-11-18T15:00:00.000Z');
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    await page.getByTestId('history-row').filter({ hasText: 'Standup notes' }).first().waitFor();
    const week = minutes((await page.locator('.week-head p.muted strong').first().textContent()) ?? '');
    const days = await page.locator('.day-group').evaluateAll((groups) =>
      groups.map((g) => [g.querySelector('h4 > span')?.textContent ?? '', (g.querySelector('[data-testid=history-day-total]')?.textContent ?? '').replace(/^, /, '')]),
    );
    assert.deepEqual(
      days.map(([day]) => day),
      ['Wednesday, November 18', 'Tuesday, November 17', 'Monday, November 16'],
      JSON.stringify(days),
    );
    const shown = days.map(([, total]) => minutes(total as string));
    assert.equal(
      shown.reduce((a, m) => a + m, 0),
      week,
      `the days ${JSON.stringify(days)} add up to the week's ${week} min`,
    );
    // Each within a minute of the day's exact time, as the app counts it (shared time once).
    const exact = buildReport(ui.services.store, { from: '2026-11-16', to: '2026-11-22', by: 'day' }, now, 'Europe/Berlin').rows as ReportDayRow[];
    for (const [i, date] of ['2026-11-18', '2026-11-17', '2026-11-16'].entries()) {
      const seconds = exact.find((r) => r.date === date)?.seconds ?? 0;
      assert.ok([Math.floor(seconds / 60), Math.floor(seconds / 60) + 1].includes(shown[i] as number), `${date}: ${shown[i]} min for ${seconds} s`);
    }
    // The bars say the same, and so does the Reports table by day for this week.
    const bars = await page
      .locator('[data-testid=week-chart] .bar-total')
      .evaluateAll((texts) => texts.map((t) => [t.parentElement?.getAttribute('data-day'), t.textContent ?? '']));
    assert.deepEqual(
      bars.map(([day, text]) => [day, minutes((text as string).replace(/h/, ' h').replace(/m$/, ' min'))]),
      [
        ['2026-11-16', shown[2]],
        ['2026-11-17', shown[1]],
        ['2026-11-18', shown[0]],
      ],
    );
    // The legend: each activity's week as Reports by activity shows it for the same week.
    const legend = await page.locator('.legend li').evaluateAll((items) => items.map((li) => [li.querySelector('.legend-name')?.textContent ?? '', li.querySelector('.legend-total')?.textContent ?? '']));
    await showReport(page, 'This week', `${Math.floor(week / 60)} h ${week % 60} min`);
    await page.getByRole('radio', { name: 'Activity', exact: true }).check();
    const byActivity = new Map((await tableRows(page)).map((r) => [r[0], r[1]]));
    assert.ok(legend.length >= 4, JSON.stringify(legend));
    assert.deepEqual(
      legend,
      legend.map(([name]) => [name, byActivity.get(name)]),
    );
    await page.getByRole('radio', { name: 'Day', exact: true }).check();
    await page.getByTestId('report-day-chart').waitFor();
    const byDay = (await tableRows(page)).map((r) => minutes(r[1] as string)).slice(0, 3);
    assert.deepEqual(byDay, [shown[2], shown[1], shown[0]]);
  });
});
