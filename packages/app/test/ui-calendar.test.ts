/**
 * Settings › Calendar in a real Chromium against a real app (docs/calendar.md): an address
 * and an empty path refused at the field, a folder added and named, its events counted and
 * this week's meetings listed, your addresses leaving out a meeting you declined, the meeting
 * in Today's suggestions lane with its calendar's name and accepted from there, the screen at
 * 390 and 1280 px, axe, and the calendar removed. A file's problems are said in the person's
 * language (`language=de`), and in English as the app wrote them, marked English.
 */
process.env.TZ = 'Europe/Berlin';

import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CALENDAR_LIMITS } from '@tock/core/calendar';
import { setLedgerSetting } from '@tock/core';
import { tempDirs } from '@tock/test-support';
import { blur, newTab, openWindow, screenshot, seriousAxeViolations, tabTo, windowSuite } from './ui-support/harness.ts';

// Wednesday 18 November 2026, 13:00 in Berlin.
const now = Date.parse('2026-11-18T12:00:00.000Z');
const tempDir = tempDirs();
let folder: string;

const ics = (...events: string[][]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']), 'END:VCALENDAR', ''].join('\r\n');

const ui = windowSuite({
  app: { clock: () => now, capture: { focusSources: () => [], timers: false } },
  // The app reads the folder only once the test adds it through the window.
  seed: () => {
    folder = join(tempDir('tock-ui-calendar-'), 'work');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'standup.ics'),
      ics(['UID:s', 'DTSTART;TZID=Europe/Berlin:20260105T091500', 'DTEND;TZID=Europe/Berlin:20260105T093000', 'RRULE:FREQ=WEEKLY;BYDAY=MO', 'SUMMARY:Standup']),
    );
    writeFileSync(join(folder, 'planning.ics'), ics(['UID:p', 'DTSTART;TZID=Europe/Berlin:20261118T100000', 'DTEND;TZID=Europe/Berlin:20261118T110000', 'SUMMARY:Planning']));
    writeFileSync(
      join(folder, 'town-hall.ics'),
      ics(['UID:t', 'DTSTART:20261119T150000Z', 'DTEND:20261119T160000Z', 'SUMMARY:Town hall', 'ATTENDEE;PARTSTAT=DECLINED:mailto:ana@example.org']),
    );
  },
});

describe('Settings › Calendar', () => {
  it('adds a folder, lists this week’s meetings, leaves out what you declined', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/calendar');
    await page.getByRole('heading', { name: 'Add a calendar' }).waitFor();
    const path = page.getByLabel('File or folder');
    const error = page.locator('#calendar-path-error');
    await page.getByRole('button', { name: 'Add calendar' }).click();
    await error.filter({ hasText: 'Enter the full path of an .ics file or a folder of them' }).waitFor();
    await path.fill('https://calendar.example.org/ana.ics');
    await page.getByRole('button', { name: 'Add calendar' }).click();
    await error.filter({ hasText: 'is an address: Tock reads calendars on this computer only' }).waitFor();
    assert.equal(await path.getAttribute('aria-invalid'), 'true');

    await path.fill(folder);
    await page.getByLabel('Name (optional; the file’s or folder’s otherwise)').fill('Work');
    await page.getByRole('button', { name: 'Add calendar' }).click();
    const card = page.getByTestId('calendar');
    await card.getByRole('heading', { name: 'Work' }).waitFor();
    assert.match((await card.locator('.calendar-path').textContent()) ?? '', /work · 3 events$/);
    const week = card.getByTestId('calendar-week').locator('li');
    await week.nth(2).waitFor();
    const lines = (await week.allTextContents()).map((l) => l.replace(/\s+/g, ' '));
    assert.equal(lines.length, 3, lines.join(' | '));
    assert.match(lines[0] as string, /09:15–09:30 Standup$/);
    assert.match(lines[1] as string, /10:00–11:00 Planning$/);
    assert.match(lines[2] as string, /16:00–17:00 Town hall$/);
    assert.deepEqual(ui.services.calendars.list().map((c) => c.name), ['Work']);

    await page.getByLabel('Your e-mail addresses').fill('Ana@example.org');
    await page.getByRole('button', { name: 'Save addresses' }).click();
    await page.getByText('Saved: meetings you declined are left out.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=calendar-week] li').length === 2);
    assert.deepEqual(ui.services.calendars.me(), ['ana@example.org']);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'settings-calendar');
  });

  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    it(`fits the screen at ${width}×${height}: no sideways scrolling, the path field as wide as its form`, async () => {
      const sized = await newTab(ui.browser, { width, height });
      try {
        await openWindow(sized, ui.app, '/settings/calendar');
        await sized.getByTestId('calendar-week').waitFor();
        const overflow = await sized.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.equal(overflow, 0, 'no sideways scrolling');
        const form = await sized.locator('form.calendar-form').boundingBox();
        const field = await sized.locator('#calendar-path').boundingBox();
        assert.ok(form && field);
        assert.ok(field.width >= form.width - 2, `${field.width} of ${form.width}`);
        await screenshot(sized, `settings-calendar-${width}`);
      } finally {
        await sized.close();
      }
    });
  }

  it('shows the meeting in Today’s suggestions lane with its calendar, accepts it, and removes the calendar', async () => {
    const { page } = ui;
    // Capture is off: the lane shows the calendar's meetings all the same.
    await openWindow(page, ui.app, '/today');
    const lane = page.getByTestId('today-suggestions');
    const ghost = lane.getByTestId('ghost-block');
    // The standup was Monday's; today's meeting is Planning, 10:00–11:00 in Berlin.
    await ghost.first().waitFor();
    assert.equal(await ghost.count(), 1);
    await ghost.first().hover();
    await page.getByTestId('today-suggestions-detail').filter({ hasText: '10:00–11:00 (1 h): no activity yet. Seen: Planning in Work 1 h.' }).waitFor();
    await blur(page);
    await tabTo(page, '.ghost-block[aria-label*="no activity yet"]');
    await tabTo(page, 'input[list]');
    await page.keyboard.type('Meetings');
    await page.keyboard.press('Enter');
    await ghost.first().waitFor({ state: 'detached' });
    const accepted = ui.services.tracker.listBlocks(0, now + 1).find((x) => x.note === 'from capture');
    assert.deepEqual([accepted?.activity.activityName, accepted?.startedAt, accepted?.endedAt], ['Meetings', '2026-11-18T09:00:00.000Z', '2026-11-18T10:00:00.000Z']);

    await openWindow(page, ui.app, '/settings/calendar');
    await page.getByRole('button', { name: 'Remove Work' }).click();
    await page.getByRole('heading', { name: 'Add a calendar' }).waitFor();
    assert.deepEqual(ui.services.calendars.list(), []);
  });

  it('says a file missing, an event that does not end and a file over the size limit in German under language=de', async () => {
    const { page } = ui;
    const odd = join(tempDir('tock-ui-calendar-odd-'), 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, 'unended.ics'), ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:u', 'DTSTART:20261118T090000Z', 'SUMMARY:Cut short', ''].join('\r\n'));
    writeFileSync(join(odd, 'big.ics'), Buffer.alloc(CALENDAR_LIMITS.maxFileBytes + 1, 0x20));
    const gone = join(odd, '..', 'gone.ics');
    writeFileSync(gone, ics(['UID:g', 'DTSTART:20261118T090000Z', 'DTEND:20261118T093000Z', 'SUMMARY:Gone']));
    await ui.services.calendars.add(odd, 'Odd');
    const goneCalendar = await ui.services.calendars.add(gone, 'Gone');
    rmSync(gone);
    await ui.services.calendars.refresh();
    const problems = page.getByTestId('calendar-problems').locator('li');

    /** Opens Settings › Calendar afresh and waits for its heading in the language set. */
    const openIn = async (heading: string) => {
      await page.goto(`${ui.app.launchUrl()}#/settings/calendar`);
      await page.locator('main h1').filter({ hasText: heading }).waitFor();
    };
    setLedgerSetting(ui.services.store.settings, 'language', '"de"');
    try {
      await openIn('Kalender');
      await problems.nth(2).waitFor();
      assert.deepEqual(await problems.allTextContents(), [
        `${join(odd, 'big.ics')} ist 10.241 KiB groß, mehr als die 10.240 KiB, die eine Kalenderdatei haben darf; sie wird nicht gelesen`,
        `${join(odd, 'unended.ics')}: Ein VEVENT endet nicht (END:VEVENT fehlt) und wird ausgelassen`,
        `${goneCalendar.path} fehlt: Legen Sie die Datei zurück oder entfernen Sie diesen Kalender`,
      ]);
      // Said in the page's language: none is marked English (as the app's own lines are).
      assert.deepEqual(await problems.evaluateAll((lis) => lis.map((li) => li.getAttribute('lang'))), [null, null, null]);
    } finally {
      setLedgerSetting(ui.services.store.settings, 'language', '"en"');
    }
    await openIn('Calendar');
    await problems.nth(2).waitFor();
    assert.deepEqual(await problems.allTextContents(), [
      `${join(odd, 'big.ics')} is 10.0 MiB, over the 10.0 MiB a calendar file may have; it is not read`,
      `${join(odd, 'unended.ics')}: a VEVENT does not end (END:VEVENT missing): it is left out`,
      `${goneCalendar.path} is missing: put it back, or remove this calendar`,
    ]);
    assert.deepEqual(await problems.evaluateAll((lis) => lis.map((li) => li.getAttribute('lang'))), ['en', 'en', 'en']);
    setLedgerSetting(ui.services.store.settings, 'language', 'null');
    ui.services.calendars.remove('Odd');
    ui.services.calendars.remove('Gone');
  });
});
