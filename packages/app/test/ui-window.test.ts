/**
 * The window in a real Chromium against a real app: tracking from Today (start, switch,
 * break, resume, stop) with the app agreeing, the main flow by keyboard alone, and History
 * (log a past block, see it in the timeline and the week chart, edit and delete it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callAdmin } from '@tock/admin';
import { startApp } from '@tock/app/start';
import { until } from '@tock/test-support';
import { homePaths } from '../src/home.ts';
import type { Page } from 'playwright-core';
import { blur, freePort, newTab, openWindow, rawRequest, startTestApp, tabTo, type TestApp, todaySettled, windowSession, windowSuite } from './ui-support/harness.ts';

const ui = windowSuite({ keepShortSessions: true });

const status = () => ui.services.tracker.getStatus();

/** A promise the test settles when it chooses: what a held route waits for, or a sign it came. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * Holds the page's first answer from `pattern` (made by the app, not yet given to the page) until
 * `held` resolves. Resolves once the route is set, with a promise that resolves once that answer is made.
 */
async function holdFirstAnswer(page: Page, pattern: string, held: Promise<void>): Promise<{ answered: Promise<void> }> {
  const { promise: answered, open } = gate();
  let holding = true;
  await page.route(pattern, async (route) => {
    const response = await route.fetch();
    if (holding) {
      holding = false;
      open();
      await held;
    }
    await route.fulfill({ response });
  });
  return { answered };
}

describe('Today', () => {
  it('starts, switches, takes a break, resumes and stops, and the app reports the same', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    assert.equal(await page.locator('main h1').textContent(), 'Today');
    await page.getByText('Not tracking', { exact: true }).first().waitFor();

    const picker = page.getByRole('combobox', { name: 'Start' });
    await picker.fill('Write docs');
    await page.getByRole('option', { name: 'Create “Write docs”' }).waitFor();
    await picker.press('Enter');
    await page.getByTestId('current-activity').filter({ hasText: 'Write docs' }).waitFor();
    assert.equal(status().currentActivity?.activityName, 'Write docs');
    assert.equal(status().isTracking, true);

    // The clock runs without a reload.
    const first = await page.getByTestId('elapsed').textContent();
    await page.waitForFunction((before) => document.querySelector('[data-testid=elapsed]')?.textContent !== before, first);

    const switcher = page.getByRole('combobox', { name: 'Switch to' });
    await switcher.fill('Review');
    await page.getByRole('option', { name: 'Create “Review”' }).click();
    await page.getByTestId('current-activity').filter({ hasText: 'Review' }).waitFor();
    assert.equal(status().currentActivity?.activityName, 'Review');

    await switcher.fill('writ');
    await page.getByRole('option', { name: 'Write docs' }).waitFor();
    await switcher.press('Enter');
    await page.getByTestId('current-activity').filter({ hasText: 'Write docs' }).waitFor();
    assert.equal(status().currentActivity?.activityName, 'Write docs');

    await page.getByRole('button', { name: 'Break' }).click();
    await page.getByText('On a break', { exact: true }).waitFor();
    assert.deepEqual([status().isTracking, status().isOnBreak], [true, true]);

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Tracking', { exact: true }).waitFor();
    assert.deepEqual([status().isTracking, status().isOnBreak], [true, false]);

    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Pick an activity below to start the clock.').waitFor();
    assert.deepEqual([status().isTracking, status().isOnBreak, status().currentActivity], [false, false, null]);

    // Three sessions today, drawn on the timeline, one of them with a break.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=timeline] g.bar.session').length === 3);
    assert.equal(await page.locator('[data-testid=timeline] rect.break').count(), 1);
  });

  it('follows tracking changed elsewhere (CLI, listener) without a reload', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    ui.services.tracker.startActivity({ name: 'Elsewhere', createIfMissing: true });
    await page.getByTestId('current-activity').filter({ hasText: 'Elsewhere' }).waitFor();
    ui.services.tracker.startBreak();
    await page.getByText('On a break', { exact: true }).waitFor();
    ui.services.tracker.stopActivity();
    await page.getByText('Pick an activity below to start the clock.').waitFor();
  });

  it('can be driven by keyboard alone, with visible focus', async () => {
    const { page } = ui;
    await openWindow(page, ui.app);
    await blur(page);
    // The skip link comes first and lands in the content.
    await tabTo(page, 'a.skip', { max: 1 });
    await tabTo(page, '#start-activity');
    await page.keyboard.type('Keyboard work');
    await page.getByRole('option', { name: 'Create “Keyboard work”' }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('current-activity').filter({ hasText: 'Keyboard work' }).waitFor();
    assert.equal(status().currentActivity?.activityName, 'Keyboard work');
    // The start's answer empties the field: typed before it, "write" would follow "Keyboard work".
    await todaySettled(page);

    // "/" brings the search back; arrows pick an existing activity.
    await blur(page);
    await page.keyboard.press('/');
    // Each step waited for, so that a slow machine says which one did not happen.
    await page.waitForFunction(() => document.activeElement?.id === 'start-activity');
    await page.keyboard.type('write');
    await page.waitForFunction(() => (document.getElementById('start-activity') as HTMLInputElement | null)?.value === 'write');
    await page.getByRole('option', { name: 'Write docs' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.getByTestId('current-activity').filter({ hasText: 'Write docs' }).waitFor();
    // Each button below is reached by Tab once the window shows the state it belongs to and is
    // not busy with its last request (a disabled button is passed by).
    await todaySettled(page);

    await blur(page);
    await tabTo(page, 'button', { text: 'Break' });
    await page.keyboard.press('Enter');
    await until('the app to be on a break', () => status().isOnBreak);
    await page.getByText('On a break', { exact: true }).waitFor();
    await todaySettled(page);
    await blur(page);
    await tabTo(page, 'button', { text: 'Resume' });
    await page.keyboard.press('Space');
    await until('the app to resume', () => !status().isOnBreak);
    await page.getByText('Tracking', { exact: true }).waitFor();
    await todaySettled(page);
    await blur(page);
    await tabTo(page, 'button', { text: 'Stop' });
    await page.keyboard.press('Enter');
    await until('the app to stop tracking', () => !status().isTracking);

    // Screens by keyboard: the heading of the new screen gets the focus.
    await blur(page);
    await tabTo(page, 'nav a[href="#/history"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'History');
    await tabTo(page, '#log-activity');
    await page.keyboard.type('Keyboard work');
    await page.keyboard.press('Escape');
    await tabTo(page, '#log-duration');
    await page.keyboard.type('20m');
    await tabTo(page, 'button[type=submit]', { text: 'Log time' });
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Logged 20 min of Keyboard work' }).waitFor();
  });

  it('keeps what is typed after a switch shows, while the switch’s own answer is still on its way', async () => {
    // The live feed can show a switch before the answer to the window's POST /api/start
    // arrives (two connections); the answer then emptied the field, taking what had been typed
    // since. The answer is held here until the next search is typed.
    const { page } = ui;
    await openWindow(page, ui.app);
    const { promise: held, open: release } = gate();
    await page.route('**/api/start', async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    try {
      const picker = page.locator('#start-activity');
      await picker.fill('Held switch');
      await page.getByRole('option', { name: 'Create “Held switch”' }).click();
      await page.getByTestId('current-activity').filter({ hasText: 'Held switch' }).waitFor();
      await picker.fill('held');
      // Start/Switch stays disabled while the window's switch is under way, to its last step.
      const submit = page.locator('form.start-form button[type=submit]');
      assert.equal(await submit.isDisabled(), true, 'the answer is still held');
      release();
      await todaySettled(page);
      assert.equal(await picker.inputValue(), 'held');
      await page.getByRole('option', { name: 'Held switch' }).waitFor();
      await picker.press('Escape');
      await picker.fill('');
    } finally {
      release();
      await page.unroute('**/api/start');
    }
    ui.services.tracker.stopActivity();
  });

  it('keeps a switch the live feed showed when its own status answer, older, comes after it', async () => {
    // After a start the window asks for the status; that answer (the state before a later
    // switch) came after the live feed had shown the later switch, and took it back: the window
    // showed the earlier activity while the app tracked the later one. Here the answer is held
    // until the feed has shown a switch made since.
    const { page } = ui;
    await openWindow(page, ui.app);
    const { promise: held, open: release } = gate();
    const { promise: statusAnswered, open: answered } = gate();
    await page.route('**/api/status', async (route) => {
      const response = await route.fetch();
      answered();
      await held;
      await route.fulfill({ response });
    });
    try {
      await page.locator('#start-activity').fill('Answered late');
      await page.getByRole('option', { name: 'Create “Answered late”' }).click();
      await statusAnswered;
      ui.services.tracker.startActivity({ name: 'Switched since', createIfMissing: true });
      await page.getByTestId('current-activity').filter({ hasText: 'Switched since' }).waitFor();
      release();
      // The window's start is over once Start/Switch is enabled again: the held answer was read.
      await todaySettled(page);
      assert.equal(await page.getByTestId('current-activity').textContent(), 'Switched since');
    } finally {
      release();
      await page.unroute('**/api/status');
    }
    ui.services.tracker.stopActivity();
  });

  it('reads the activities once per change, with both of Today’s editors open', async () => {
    // Today's state, its running editor and its block editor each asked for every activity
    // after each change (56–65 ms an answer at 20 000 activities): three reads where one does.
    const { page } = ui;
    const now = Date.now();
    const midnight = new Date(now).setHours(0, 0, 0, 0);
    const end = Math.floor((now - 60_000) / 60_000) * 60_000;
    const minutes = Math.max(2, Math.min(20, Math.floor((end - midnight) / 60_000) - 1));
    ui.services.tracker.logEntry({ name: 'Read once', createIfMissing: true, durationMinutes: minutes, endedAt: new Date(end).toISOString() });
    ui.services.tracker.startActivity({ name: 'Running read', createIfMissing: true });
    await openWindow(page, ui.app);
    await page.getByTestId('edit-running').click();
    await page.getByTestId('running-editor').waitFor();
    const row = page.getByTestId('today-block').filter({ hasText: 'Read once' });
    await row.getByTestId('edit-block').click();
    await row.getByTestId('block-editor').waitFor();
    const reads: string[] = [];
    const count = (request: { url(): string }): void => {
      if (new URL(request.url()).pathname === '/api/activities/all') reads.push(request.url());
    };
    page.on('request', count);
    try {
      const running = ui.services.tracker.getCurrent();
      assert.ok(running);
      // One change from elsewhere (a rename of what runs: the status changes): one "blocks" event on the live feed.
      ui.services.tracker.renameActivity(running.activityID, 'Running read, renamed');
      // Shown once the day's blocks came back, which Today asks for with everything else it reloads.
      await page.getByTestId('today-block').locator('.name').filter({ hasText: 'Running read, renamed' }).waitFor();
      await row.getByTestId('block-editor').waitFor();
      assert.equal(reads.length, 1, `GET /api/activities/all after one change: ${reads.length}`);
    } finally {
      page.off('request', count);
    }
    ui.services.tracker.stopActivity();
  });

  it('reads the activities once more after changes made while a read was on its way, and shows the last', async () => {
    // One read at a time: changes while one is on its way (which may not hold them) ask for one
    // read after it, not one each, and none is lost. Here the first read's answer is held while
    // two more changes are made.
    const { page } = ui;
    ui.services.tracker.startActivity({ name: 'Held read', createIfMissing: true });
    await openWindow(page, ui.app, '/activities');
    await page.getByTestId('activity-row').filter({ hasText: 'Held read' }).waitFor();
    const reads: string[] = [];
    const count = (request: { url(): string }): void => {
      if (new URL(request.url()).pathname === '/api/activities/all') reads.push(request.url());
    };
    const { promise: held, open: release } = gate();
    page.on('request', count);
    const { answered: readAnswered } = await holdFirstAnswer(page, '**/api/activities/all', held);
    try {
      const running = ui.services.tracker.getCurrent();
      assert.ok(running);
      ui.services.tracker.renameActivity(running.activityID, 'Held read, renamed once');
      await readAnswered;
      ui.services.tracker.renameActivity(running.activityID, 'Held read, renamed twice');
      ui.services.tracker.renameActivity(running.activityID, 'Held read, renamed three times');
      // The feed brings each change's status before its "blocks": the last status shown, the
      // second change's "blocks" has been read from the feed.
      await page.locator('.now-pill-name').filter({ hasText: 'renamed three times' }).waitFor({ state: 'attached' });
      assert.equal(reads.length, 1, `GET /api/activities/all while the first read was held: ${reads.length}`);
      release();
      await page.getByTestId('activity-row').filter({ hasText: 'Held read, renamed three times' }).waitFor();
    } finally {
      release();
      page.off('request', count);
      await page.unroute('**/api/activities/all');
    }
    ui.services.tracker.stopActivity();
  });

  it('picks with Enter what matches the text typed, never the matches of the text before it', async () => {
    // The search answers 60 ms after the last key. Before that answer the list still held the
    // matches of the text typed before, and the row the pointer had rested on stayed
    // highlighted: a quick Enter switched to one of those ("Alpha docs", or a new "Beta").
    // Here the answers for the new text are held until after Enter.
    const { page } = ui;
    ui.services.tracker.createActivity('Alpha docs');
    ui.services.tracker.createActivity('Beta review');
    await openWindow(page, ui.app);
    const picker = page.locator('#start-activity');
    await picker.fill('Alpha');
    await page.getByRole('option', { name: 'Alpha docs' }).waitFor();
    await page.getByRole('option', { name: 'Create “Alpha”' }).hover();
    const { promise: held, open: release } = gate();
    const search = (url: URL): boolean => url.pathname === '/api/activities';
    await page.route(search, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await picker.fill('Beta');
      await picker.press('Enter');
      release();
      await until('the app to track an activity', () => status().currentActivity);
      await todaySettled(page);
      assert.equal(status().currentActivity?.activityName, 'Beta review');
      assert.equal(await page.getByTestId('current-activity').textContent(), 'Beta review');
    } finally {
      release();
      await page.unroute(search);
    }
    ui.services.tracker.stopActivity();
  });
});

describe('opening', () => {
  it('draws its first screen in a background tab, where animation frames never come', async () => {
    // A background tab gets no animation frames, so effects run late (Preact waits up to
    // 100 ms for one); the snapshot, answered at once here, arrives before them.
    const page = await ui.browser.context.newPage();
    try {
      await page.addInitScript(() => {
        window.requestAnimationFrame = () => 0;
        const real = window.fetch.bind(window);
        // A reload keeps the session: the snapshot can be asked for before the window's script runs.
        const secret = sessionStorage.getItem('tock-session');
        const early = location.search || !secret ? null : real('/api/state', { cache: 'no-store', headers: { 'x-tock-session': secret } }).then((r) => r.text());
        window.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
          early && String(input) === '/api/state'
            ? early.then((text) => new Response(text, { headers: { 'content-type': 'application/json' } }))
            : real(input, init)) as typeof fetch;
      });
      await openWindow(page, ui.app);
      for (let i = 0; i < 5; i++) {
        await page.reload();
        await page.locator('main h1').filter({ hasText: 'Today' }).waitFor();
        await page.getByTestId('today-total').waitFor();
      }
    } finally {
      await page.close();
    }
  });
});

describe('History', () => {
  it('logs a past block that then shows in the timeline and the week chart', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    await page.getByRole('combobox', { name: 'Activity' }).fill('Client call');
    await page.getByRole('textbox', { name: 'Duration' }).fill('35m');
    await page.getByLabel('Note (optional)').fill('Kick-off with ACME');
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.getByRole('status').filter({ hasText: 'Logged 35 min of Client call (new activity)' }).waitFor();
    await page.locator('[data-testid=week-chart] rect.segment[data-activity="Client call"]').waitFor();
    await page.getByTestId('history-row').filter({ hasText: 'Client call' }).getByText('Kick-off with ACME').waitFor();

    const entry = ui.services.tracker.listBlocks(0, Date.now() + 60_000).find((x) => x.activity.activityName === 'Client call');
    assert.equal(entry?.kind, 'entry');
    assert.equal(entry?.durationMinutes, 35);

    await page.getByRole('link', { name: 'Today' }).click();
    await page.locator('[data-testid=timeline] g.bar.entry[data-activity="Client call"]').waitFor();
  });

  it('shows the app’s validation inline, next to the field', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    await page.getByRole('combobox', { name: 'Activity' }).fill('Client call');
    const field = page.getByRole('textbox', { name: 'Duration' });
    await field.fill('soon');
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.locator('#log-durationMinutes-error').filter({ hasText: '"soon" is not a duration; write 90, 45m, 1h30m, 1:30 or 1.5h' }).waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    // The error lists the forms itself, so a screen reader hears it instead of the hint.
    assert.equal(await field.getAttribute('aria-describedby'), 'log-durationMinutes-error');
    await field.fill('');
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.locator('#log-durationMinutes-error').filter({ hasText: /^No duration given; write 90, 45m/ }).waitFor();
    await field.fill('1500');
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.locator('#log-durationMinutes-error').filter({ hasText: 'at most 1440' }).waitFor();

    // The app's own rule, which the form does not check: a block may not end in the future.
    await field.fill('30m');
    const inTwoDays = new Date(Date.now() + 60 * 3_600_000).toISOString().slice(0, 10);
    await page.getByLabel('Day').fill(inTwoDays);
    await page.getByRole('button', { name: 'Log time' }).click();
    await page.locator('#log-endedAt-error').filter({ hasText: 'in the future' }).waitFor();
    assert.equal(await page.getByLabel('Ended at').getAttribute('aria-invalid'), 'true');
    assert.equal(ui.services.tracker.listBlocks(0, Date.now() + 3 * 86_400_000).some((x) => x.activity.activityName === 'Client call' && x.durationMinutes === 30), false);
  });

  it('says a refused duration in the window’s language, from its code (not the English reason)', async () => {
    const { page } = ui;
    const setLanguage = async (value: string): Promise<void> => {
      const session = await windowSession(ui.app);
      const res = await rawRequest(ui.app.port, 'PUT', '/api/settings/ledger/language', { host: `127.0.0.1:${ui.app.port}`, origin: ui.app.origin, 'content-type': 'application/json', ...session }, JSON.stringify({ value: JSON.stringify(value) }));
      assert.equal(res.status, 200, res.body);
    };
    await openWindow(page, ui.app, '/history');
    const error = page.locator('#log-durationMinutes-error');
    await page.getByRole('textbox', { name: 'Duration' }).fill('1h90m');
    await page.getByRole('button', { name: 'Log time' }).click();
    await error.filter({ hasText: '"1h90m" has 90 minutes after the hours; write 90, 45m, 1h30m, 1:30 or 1.5h' }).waitFor();
    await setLanguage('de');
    try {
      await page.locator('html[lang=de]').waitFor({ state: 'attached' });
      await page.locator('#log-duration').fill('90s');
      await page.getByRole('button', { name: 'Zeit nachtragen' }).click();
      await error.filter({ hasText: '„90s“ zählt Sekunden, Tock erfasst aber ganze Minuten; schreiben Sie 90, 45m, 1h30m, 1:30 oder 1.5h' }).waitFor();
      await page.locator('#log-duration').fill('1h90m');
      await page.getByRole('button', { name: 'Zeit nachtragen' }).click();
      await error.filter({ hasText: '„1h90m“ hat 90 Minuten nach den Stunden' }).waitFor();
    } finally {
      await setLanguage('en');
    }
  });

  it('edits and deletes an entry', async () => {
    const { page } = ui;
    await openWindow(page, ui.app, '/history');
    const row = page.getByTestId('history-row').filter({ hasText: 'Client call' });
    await row.getByRole('button', { name: 'Edit entry of Client call' }).click();
    const from = row.getByLabel('From');
    const to = row.getByLabel('To');
    const end = (await to.inputValue()).split(':').map(Number) as [number, number];
    // Make it 10 minutes long, ending where it ended.
    const startMin = (end[0] * 60 + end[1] - 10 + 1440) % 1440;
    await from.fill(`${String(Math.floor(startMin / 60)).padStart(2, '0')}:${String(startMin % 60).padStart(2, '0')}`);
    await row.getByLabel('Note').fill('Shorter than planned');
    await row.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('history-row').filter({ hasText: 'Shorter than planned' }).waitFor();
    const edited = ui.services.tracker.listBlocks(0, Date.now() + 60_000).find((x) => x.activity.activityName === 'Client call');
    assert.equal(edited?.durationMinutes, 10);
    assert.equal(edited?.note, 'Shorter than planned');

    const again = page.getByTestId('history-row').filter({ hasText: 'Client call' });
    await again.getByRole('button', { name: 'Delete entry of Client call' }).click();
    await again.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByTestId('history-row').filter({ hasText: 'Client call' }).waitFor({ state: 'detached' });
    assert.equal(ui.services.tracker.listBlocks(0, Date.now() + 60_000).some((x) => x.activity.activityName === 'Client call'), false);
  });
});

describe('a window of an earlier launch', () => {
  it('says the app went away, then goes on with the same session once it is back', async () => {
    const first = await startTestApp();
    const page = await newTab(ui.browser);
    let second: Awaited<ReturnType<typeof startApp>> | undefined;
    try {
      await openWindow(page, first);
      await first.app.stop();
      await page.getByRole('alert').filter({ hasText: 'Tock is not answering' }).waitFor();
      second = await startApp({ home: first.home, uiPort: first.port, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
      assert.equal(new URL(second.uiUrl).port, String(first.port), 'the new launch got the same port');
      // Sessions are kept across restarts (docs/ui.md "Security decisions"): the stream comes back.
      await page.getByRole('alert').filter({ hasText: 'Tock is not answering' }).waitFor({ state: 'detached' });
      assert.equal(await page.getByTestId('no-session').count(), 0);
      await page.locator('main h1').filter({ hasText: 'Today' }).waitFor();
    } finally {
      await page.close();
      await second?.stop();
      await first.stop();
    }
  });

  /**
   * Stops `first`'s app and starts another on its home and port; the window's first snapshot
   * after the reconnect (GET /api/state) is answered, then held until `held` resolves.
   * Resolves with the new app once that answer is made and held.
   */
  async function restartHoldingSnapshot(page: Page, first: TestApp, held: Promise<void>): Promise<Awaited<ReturnType<typeof startApp>>> {
    const { answered: snapshotAnswered } = await holdFirstAnswer(page, '**/api/state', held);
    await first.app.stop();
    await page.getByRole('alert').filter({ hasText: 'Tock is not answering' }).waitFor();
    const second = await startApp({ home: first.home, uiPort: first.port, env: { ...process.env, TOCK_CREDENTIAL_STORE: 'file' } });
    await snapshotAnswered;
    return second;
  }

  it('keeps a switch the live feed showed while the snapshot after the reconnect, older, was on its way', async () => {
    // Back on the live feed, the window reloads its snapshot (GET /api/state); that answer,
    // made before a switch the feed then showed, took the switch back until the next status
    // event. Here the snapshot's answer is held until the feed has shown a switch made since.
    const first = await startTestApp();
    const page = await newTab(ui.browser);
    let second: Awaited<ReturnType<typeof startApp>> | undefined;
    const { promise: held, open: release } = gate();
    try {
      first.app.services.tracker.startActivity({ name: 'Before the restart', createIfMissing: true });
      await openWindow(page, first);
      await page.getByTestId('current-activity').filter({ hasText: 'Before the restart' }).waitFor();
      second = await restartHoldingSnapshot(page, first, held);
      second.services.tracker.startActivity({ name: 'Switched since', createIfMissing: true });
      await page.getByTestId('current-activity').filter({ hasText: 'Switched since' }).waitFor();
      // The switch's own reload is over (the day's blocks came back): the next read of the
      // activities is the one the held snapshot asks for once it is shown.
      await page.getByTestId('today-block').locator('.name').filter({ hasText: 'Switched since' }).waitFor();
      const shown = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/activities/all');
      release();
      await shown;
      assert.equal(await page.getByTestId('current-activity').textContent(), 'Switched since');
    } finally {
      release();
      await page.unroute('**/api/state');
      await page.close();
      await second?.stop();
      await first.stop();
    }
  });

  it('keeps the listener and the clock the live feed showed while the snapshot after the reconnect, older, was on its way', async () => {
    // Every topic the feed brings whole has the status's race, and most have no next event to
    // put them right: here the listener is turned on (`tock listener on`'s route) and the clock
    // set to 12 hours over the admin socket while the snapshot's answer, made before, is held.
    const first = await startTestApp();
    const page = await newTab(ui.browser);
    let second: Awaited<ReturnType<typeof startApp>> | undefined;
    const { promise: held, open: release } = gate();
    const listener = page.locator('.sidebar-foot .version');
    const range = page.getByTestId('today-block').locator('.range');
    try {
      first.app.services.desktop.updateSettings({ clockFormat: '24h' });
      first.app.services.tracker.startActivity({ name: 'Before the restart', createIfMissing: true });
      await openWindow(page, first);
      await listener.filter({ hasText: /listener off$/ }).waitFor({ state: 'attached' });
      await range.filter({ hasText: /^\d\d:\d\d–now$/ }).waitFor();
      second = await restartHoldingSnapshot(page, first, held);
      const socket = homePaths(first.home).adminSocket;
      await callAdmin(socket, 'POST /listener/on', { port: await freePort() });
      await callAdmin(socket, 'POST /desktop', { clockFormat: '12h' });
      await listener.filter({ hasText: /listener on$/ }).waitFor({ state: 'attached' });
      await range.filter({ hasText: /[AP]M–now$/ }).waitFor();
      // Neither change reads the activities: the next read is the one the held snapshot asks for once it is shown.
      const shown = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/activities/all');
      release();
      await shown;
      assert.match((await listener.textContent()) ?? '', /listener on$/);
      assert.match((await range.textContent()) ?? '', /[AP]M–now$/);
    } finally {
      release();
      await page.unroute('**/api/state');
      await page.close();
      await second?.stop();
      await first.stop();
    }
  });
});
