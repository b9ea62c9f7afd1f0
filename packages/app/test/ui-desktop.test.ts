/**
 * The desktop parts of the window in a real Chromium against a real app whose idle source
 * and clock the test controls: the idle question in every open window, answered once; the
 * Continue button on Today; Settings › Desktop with the idle source, the threshold, the
 * reminder and its working hours, the app's refusals shown at their fields, what to install when
 * no idle source works; axe on both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TrayState } from '@tock/desktop/tray/tray';
import { newTab, openWindow, screenshot, seriousAxeViolations, windowSuite } from './ui-support/harness.ts';

const MIN = 60_000;
/** The app's clock runs with the real one, plus the time the test skips. */
let skipped = 0;
let leftAt: number | null = null;
/** The stand-in tray's state, and how to tell the app it changed. */
let trayState: TrayState = 'shown';
let trayChanged: () => void = () => {};
/** While true, no idle source answers: each needs something installed first. */
let noIdleSource = false;
const unanswered = async (): Promise<number> => {
  throw new Error('not installed');
};
const NEEDS = [
  { name: 'X11 (xprintidle)', hint: 'install xprintidle (Debian/Ubuntu: apt install xprintidle)', idleMs: unanswered },
  { name: 'GNOME (Mutter)', hint: 'needs a GNOME session bus', idleMs: unanswered },
];
const clock = (): number => Date.now() + skipped;

const ui = windowSuite({
  app: {
    clock,
    desktop: {
      timers: false,
      notifier: { name: 'the test’s notifier', notify: async () => {} },
      idleSources: () => (noIdleSource ? NEEDS : [{ name: 'the test’s idle source', idleMs: async () => (leftAt === null ? 0 : clock() - leftAt) }]),
      tray: (hooks) => {
        trayChanged = hooks.onStateChange;
        return { show: () => {}, state: () => trayState, close: async () => {} };
      },
    },
  },
  seed: async ({ app }) => {
    await app.services.desktop.probeIdleSources();
  },
});

const services = () => ui.services;

describe('Idle question', () => {
  it('appears in every open window once the user is back, and one answer applies once for all', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    const second = await ui.browser.context.newPage();
    await openWindow(second, ui.app);

    services().tracker.startActivity({ name: 'Writing', createIfMissing: true });
    leftAt = clock();
    skipped += 40 * MIN;
    await services().desktop.pollIdle(); // noticed
    leftAt = null;
    await services().desktop.pollIdle(); // back: the question

    for (const p of [page, second]) {
      const card = p.getByTestId('idle-question');
      await card.waitFor();
      assert.match((await card.getByRole('heading').textContent()) ?? '', /^You were away for 40 min \(\d\d:\d\d–\d\d:\d\d\)$/);
      await card.getByText('“Writing” kept running').waitFor();
    }
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.getByTestId('current-activity').filter({ hasText: 'Writing' }).waitFor();
    await screenshot(page, 'idle-question-light');
    const questionID = services().desktop.pendingIdle()!.questionID;

    await page.getByTestId('idle-question').getByRole('button', { name: 'Discard it' }).click();
    for (const p of [page, second]) await p.getByTestId('idle-question').waitFor({ state: 'detached' });
    const [block] = services().tracker.listBlocks(clock() - 60 * MIN, clock() + 1);
    assert.equal(block!.breaks.length, 1, 'one break covers the time away');

    // The other window answering the same question afterwards changes nothing.
    const late = await second.evaluate(async (id) => {
      const headers = { 'content-type': 'application/json', 'x-tock-session': sessionStorage.getItem('tock-session') ?? '' };
      const res = await fetch(`/api/idle/${id}/answer`, { method: 'POST', headers, body: '{"choice":"stop"}' });
      return { status: res.status, body: (await res.json()) as { code: string } };
    }, questionID);
    assert.equal(late.status, 404);
    assert.equal(late.body.code, 'idle_question_not_found');
    assert.equal(services().tracker.getStatus().isTracking, true);
    await second.close();
  });
});

describe('Continue on Today', () => {
  it('offers the activity tracked last when nothing runs, and starts it', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    services().tracker.stopActivity();
    const button = page.getByRole('button', { name: 'Continue “Writing”' });
    await button.waitFor();
    await button.click();
    await page.getByTestId('current-activity').filter({ hasText: 'Writing' }).waitFor();
    await button.waitFor({ state: 'detached' });
    assert.equal(services().tracker.getCurrent()?.activityName, 'Writing');
  });
});

describe('Settings › Desktop', () => {
  it('shows the idle source and saves the threshold; a bad value is explained at the field', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/desktop');
    await page.getByTestId('idle-source').filter({ hasText: 'Idle time comes from the test’s idle source.' }).waitFor();
    const field = page.getByLabel('Ask after (minutes away)');
    assert.equal(await field.inputValue(), '10');
    await field.fill('abc');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('#idle-threshold-error').filter({ hasText: 'Enter a whole number of minutes from 0 to 240.' }).waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await field.fill('5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved: Tock asks after 5 minutes away.').waitFor();
    assert.equal(services().desktop.settings().idleThresholdMinutes, 5);
    assert.deepEqual(await seriousAxeViolations(page), []);
  });

  it('says what to install when no idle source works here', async () => {
    const { page } = ui;
    noIdleSource = true;
    try {
      await services().desktop.probeIdleSources();
      await openWindow(page, ui.app, '/settings/desktop');
      await page.getByTestId('idle-source').filter({ hasText: 'No idle source works on this desktop' }).waitFor();
      const hints = page.getByTestId('idle-hints');
      assert.deepEqual(await hints.locator('li').allTextContents(), [
        'X11 (xprintidle): install xprintidle (Debian/Ubuntu: apt install xprintidle)',
        'GNOME (Mutter): needs a GNOME session bus',
      ]);
      await page.getByText('Any one of these makes it work:').waitFor();
      assert.deepEqual(await seriousAxeViolations(page), []);
    } finally {
      noIdleSource = false;
      await services().desktop.probeIdleSources();
    }
    await page.getByTestId('idle-source').filter({ hasText: 'Idle time comes from the test’s idle source.' }).waitFor();
    await page.getByTestId('idle-hints').waitFor({ state: 'detached' });
  });

  it('turns the reminder on and saves its minutes and working hours; the app’s refusal shows at the field', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/desktop');
    const toggle = page.getByRole('switch', { name: 'Reminder' });
    assert.equal(await toggle.getAttribute('aria-checked'), 'false', 'off by default');
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('[role=switch][aria-labelledby=reminder-heading]')?.getAttribute('aria-checked') === 'true');
    assert.equal(services().desktop.settings().reminderEnabled, true);

    await page.getByLabel('Remind after (minutes)').fill('30');
    await page.getByLabel('Working hours from').fill('17:00');
    await page.getByLabel('to', { exact: true }).fill('17:00');
    await page.getByRole('button', { name: 'Save reminder' }).click();
    await page.locator('#work-error').filter({ hasText: 'must not begin and end at the same time (17:00–17:00)' }).waitFor();
    // The app's fragment, shown as a sentence (docs/decisions.md "The window's messages are sentences").
    assert.equal(
      await page.locator('#work-error').textContent(),
      'Must not begin and end at the same time (17:00–17:00); for hours over midnight give an end before the start, like 18:00–09:00.',
    );
    assert.equal(services().desktop.settings().reminderAfterMinutes, 15, 'nothing saved');

    await page.getByLabel('Working hours from').fill('08:30');
    await page.getByLabel('to', { exact: true }).fill('16:30');
    await page.getByRole('checkbox', { name: 'Friday' }).uncheck();
    await page.getByRole('button', { name: 'Save reminder' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    assert.deepEqual(services().desktop.settings().workingHours, { from: '08:30', to: '16:30', days: [1, 2, 3, 4] });
    assert.equal(services().desktop.settings().reminderAfterMinutes, 30);
    await page.getByText('Notifications go through the test’s notifier.').waitFor();
  });
});

describe('Settings › Desktop: the tray', () => {
  it('says where the tray stands in words and turns it off and on', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/settings/desktop');
    const box = page.getByRole('checkbox', { name: /Show Tock in the tray/ });
    assert.equal(await box.isChecked(), true, 'on by default');
    await page.getByTestId('tray-state').filter({ hasText: 'Tock is in the tray now.' }).waitFor();
    trayState = 'no-host';
    trayChanged();
    await page.getByTestId('tray-state').filter({ hasText: 'this desktop shows no tray right now' }).waitFor();
    await box.click();
    await page.getByTestId('tray-state').filter({ hasText: 'Tock is not in the tray.' }).waitFor();
    assert.equal(services().desktop.settings().tray, false);
    await box.click();
    await page.getByTestId('tray-state').filter({ hasText: 'this desktop shows no tray right now' }).waitFor();
    assert.equal(services().desktop.settings().tray, true);
    trayState = 'unavailable';
    trayChanged();
    await page.getByTestId('tray-state').filter({ hasText: 'This desktop offers no tray' }).waitFor();
  });
});

describe('Settings › Desktop in the dark theme', () => {
  it('passes axe', async () => {
    const dark = await newTab(ui.browser, { colorScheme: 'dark' });
    try {
      await openWindow(dark, ui.app, '/settings/desktop');
      await dark.getByTestId('idle-source').waitFor();
      assert.deepEqual(await seriousAxeViolations(dark), []);
      await screenshot(dark, 'settings-desktop-dark');
    } finally {
      await dark.close();
    }
  });
});
