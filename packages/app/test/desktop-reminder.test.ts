/**
 * The reminder: its rules with an injected clock, what it says of today's suggestions (the
 * app's suggestions service over captured spans), and the real notification on a private
 * session bus — a `dbus-daemon` of the test's own, watched with `dbus-monitor` — and the
 * Continue action arriving as an `ActionInvoked` signal.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test, type TestContext } from 'node:test';
import { addRule, createTracker, openStore, recordSpan, type Tracker } from '@tock/core';
import { createDesktop, type Desktop } from '@tock/desktop/desktop';
import { forgottenText } from '@tock/desktop/reminder';
import { freedesktopNotifier, watchNotificationActions, type DesktopNotification, type Notifier } from '@tock/desktop/notify';
import { createSuggestions } from '../src/suggestions.ts';

const MIN = 60_000;
const MONDAY_0900 = Date.parse('2026-11-23T09:00:00.000Z');

interface Rig {
  desktop: Desktop;
  tracker: Tracker;
  now: { ms: number };
  advanceMinutes(n: number): void;
}

function rig(t: TestContext, notifier: Notifier, startMs = MONDAY_0900): Rig {
  const dir = mkdtempSync(join(tmpdir(), 'tock-remind-'));
  const store = openStore(join(dir, 'tock.db'));
  const now = { ms: startMs };
  const clock = (): number => now.ms;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const desktop = createDesktop({ store, tracker, clock, timers: false, notifier, idleSources: () => [], timeZone: () => 'UTC' });
  desktop.updateSettings({ reminderEnabled: true, reminderAfterMinutes: 15 });
  t.after(async () => {
    await desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { desktop, tracker, now, advanceMinutes: (n) => void (now.ms += n * MIN) };
}

function recordingNotifier(): Notifier & { sent: DesktopNotification[]; click?: (action: string) => void } {
  const notifier: Notifier & { sent: DesktopNotification[]; click?: (action: string) => void } = {
    name: 'recording',
    sent: [],
    async notify(n, onAction) {
      notifier.sent.push(n);
      if (onAction) notifier.click = onAction;
    },
  };
  return notifier;
}

test('off by default; when on, reminds once after N untracked minutes within working hours, offering to continue', async (t) => {
  const notifier = recordingNotifier();
  const r = rig(t, notifier);
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  r.advanceMinutes(30);
  r.tracker.stopActivity(); // 09:30
  r.advanceMinutes(14);
  assert.equal(r.desktop.checkReminder(), false, '14 minutes is not yet 15');
  r.advanceMinutes(1);
  assert.equal(r.desktop.checkReminder(), true);
  assert.deepEqual(notifier.sent, [
    { title: 'Nothing is being tracked', body: 'Nothing has been tracked for 15 minutes. Continue "Writing"?', action: { id: 'continue', label: 'Continue' } },
  ]);
  r.advanceMinutes(30);
  assert.equal(r.desktop.checkReminder(), false, 'once per untracked stretch');
  // Continue from the notification starts Writing again.
  notifier.click?.('continue');
  const status = r.tracker.getStatus();
  assert.equal(status.currentActivity?.activityName, 'Writing');
  assert.equal(status.since, new Date(r.now.ms).toISOString());
});

test('with the reminder turned off nothing is sent', async (t) => {
  const notifier = recordingNotifier();
  const r = rig(t, notifier);
  r.desktop.updateSettings({ reminderEnabled: false });
  r.advanceMinutes(120);
  assert.equal(r.desktop.checkReminder(), false);
  assert.deepEqual(notifier.sent, []);
});

test('no reminder while tracking, outside the working hours, or on a day off', async (t) => {
  const notifier = recordingNotifier();
  const early = rig(t, notifier, Date.parse('2026-11-23T07:00:00.000Z'));
  early.advanceMinutes(90); // 08:30, before 09:00
  assert.equal(early.desktop.checkReminder(), false);
  early.advanceMinutes(40); // 09:10: only 10 minutes into the working day
  assert.equal(early.desktop.checkReminder(), false, 'the stretch counts from the start of the working hours');
  early.advanceMinutes(5);
  assert.equal(early.desktop.checkReminder(), true);

  const sunday = rig(t, recordingNotifier(), Date.parse('2026-11-22T10:00:00.000Z'));
  sunday.advanceMinutes(60);
  assert.equal(sunday.desktop.checkReminder(), false);

  const working = rig(t, recordingNotifier());
  working.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  working.advanceMinutes(60);
  assert.equal(working.desktop.checkReminder(), false);
  working.advanceMinutes(8 * 60); // 18:00, after hours
  working.tracker.stopActivity();
  working.advanceMinutes(30);
  assert.equal(working.desktop.checkReminder(), false);
});

test('with nothing ever tracked the reminder says to start an activity, without an action', async (t) => {
  const notifier = recordingNotifier();
  const r = rig(t, notifier);
  r.advanceMinutes(20);
  assert.equal(r.desktop.checkReminder(), true);
  assert.deepEqual(notifier.sent, [{ title: 'Nothing is being tracked', body: 'Nothing has been tracked for 20 minutes. Start an activity in Tock.' }]);
});

test("the reminder says how much of today the labelled suggestions hold, and says nothing of them once there are none", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-remind-'));
  const store = openStore(join(dir, 'tock.db'));
  const now = { ms: MONDAY_0900 };
  const clock = (): number => now.ms;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const suggestions = createSuggestions({ store, capture: { openSpans: () => [] }, clock, timeZone: () => 'UTC' });
  const notifier = recordingNotifier();
  const desktop = createDesktop({
    store,
    tracker,
    clock,
    timers: false,
    notifier,
    idleSources: () => [],
    timeZone: () => 'UTC',
    todaysSuggestions: () => suggestions.day().suggestions,
  });
  desktop.updateSettings({ reminderEnabled: true, reminderAfterMinutes: 15 });
  t.after(async () => {
    await desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  addRule(store.settings, { match: { app: 'firefox' }, activity: 'Browsing' });
  addRule(store.settings, { match: { app: 'thunder*' }, activity: 'Mail' });
  const window = (app: string, from: string, to: string): void =>
    recordSpan(store, { startMs: Date.parse(`2026-11-23T${from}:00.000Z`), endMs: Date.parse(`2026-11-23T${to}:00.000Z`), source: 'window', app, title: null });
  window('Terminal', '07:00', '07:30'); // unlabelled: not counted
  window('Firefox', '08:00', '09:00');
  tracker.startActivity({ name: 'Writing', createIfMissing: true });
  now.ms += 30 * MIN;
  tracker.stopActivity(); // 09:30
  window('Firefox', '09:30', '09:38');
  window('Thunderbird', '09:38', '09:45');
  now.ms += 15 * MIN;
  assert.equal(desktop.checkReminder(), true);
  assert.equal(
    notifier.sent[0]?.body,
    'Nothing has been tracked for 15 minutes. Continue "Writing"? 1 h 15 min untracked today — review 3 suggestions in Tock.',
  );
  // Accepted, they are tracked time: the next stretch's reminder has nothing to review.
  assert.equal(suggestions.acceptAll().length, 3);
  tracker.startActivity({ name: 'Writing' });
  now.ms += 5 * MIN;
  tracker.stopActivity(); // 09:50
  now.ms += 15 * MIN;
  assert.equal(desktop.checkReminder(), true);
  assert.equal(notifier.sent[1]?.body, 'Nothing has been tracked for 15 minutes. Continue "Writing"?');
});

test('a new untracked stretch after tracking again is reminded again', async (t) => {
  const notifier = recordingNotifier();
  const r = rig(t, notifier);
  r.advanceMinutes(20);
  assert.equal(r.desktop.checkReminder(), true);
  r.tracker.startActivity({ name: 'Email', createIfMissing: true });
  r.advanceMinutes(10);
  r.tracker.stopActivity();
  r.advanceMinutes(15);
  assert.equal(r.desktop.checkReminder(), true);
  assert.equal(notifier.sent.length, 2);
});

// ---- the real session bus ----

let bus: ChildProcess;
let busEnv: NodeJS.ProcessEnv;

before(async () => {
  bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: bus.stdout! }).once('line', resolve);
    bus.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
  });
  busEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address };
});

after(() => {
  bus?.kill();
});

/** `dbus-monitor` on the test's bus; resolves once it listens, collecting its lines. */
async function monitor(t: TestContext, rule: string): Promise<{ lines: string[]; waitFor(pattern: RegExp): Promise<void> }> {
  const child = spawn('dbus-monitor', ['--session', rule], { env: busEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  t.after(() => void child.kill());
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      resolve();
      const text = lines.join('\n');
      for (const w of waiters.filter((w) => w.pattern.test(text))) w.resolve();
    });
  });
  await ready;
  return {
    lines,
    waitFor: (pattern) =>
      new Promise<void>((resolve) => {
        if (pattern.test(lines.join('\n'))) resolve();
        else waiters.push({ pattern, resolve });
      }),
  };
}

test('the reminder goes out as org.freedesktop.Notifications.Notify on the session bus, with the Continue action', { timeout: 20_000 }, async (t) => {
  const watch = await monitor(t, "type='method_call',interface='org.freedesktop.Notifications'");
  const r = rig(t, freedesktopNotifier({ env: busEnv }));
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  r.advanceMinutes(5);
  r.tracker.stopActivity();
  r.advanceMinutes(15);
  assert.equal(r.desktop.checkReminder(), true);
  // Nobody serves notifications on this bus: the call fails, but it was sent, and the app goes on.
  await watch.waitFor(/member=Notify[\s\S]*string "Nothing has been tracked for 15 minutes\. Continue "Writing"\?"[\s\S]*string "continue"\s+string "Continue"/);
  const text = watch.lines.join('\n');
  assert.match(text, /destination=org\.freedesktop\.Notifications .*path=\/org\/freedesktop\/Notifications; interface=org\.freedesktop\.Notifications; member=Notify/);
  assert.match(text, /string "Tock"\s+uint32 0\s+string "tock"\s+string "Nothing is being tracked"/);
});

test("a click on the notification's Continue action arrives as ActionInvoked for its ID", { timeout: 20_000 }, async () => {
  const clicks: string[] = [];
  let clicked!: () => void;
  const arrived = new Promise<void>((resolve) => (clicked = resolve));
  const watcher = await watchNotificationActions(7, (action) => {
    clicks.push(action);
    clicked();
  }, { env: busEnv });
  const emit = (id: number): void => {
    execFileSync('gdbus', ['emit', '--session', '--object-path', '/org/freedesktop/Notifications', '--signal', 'org.freedesktop.Notifications.ActionInvoked', `uint32 ${id}`, "'continue'"], { env: busEnv });
  };
  emit(8); // another notification's click: not ours
  emit(7);
  await arrived;
  watcher.stop();
  assert.deepEqual(clicks, ['continue']);
});

test('working hours over midnight (18:00–09:00) are accepted and belong to the day they begin on', async () => {
  const { minutesIntoWorkingHours, updateDesktopSettings, readDesktopSettings } = await import('@tock/desktop/settings');
  const night = updateDesktopSettings(readDesktopSettings(undefined), { workingHours: { from: '18:00', to: '09:00', days: [5] } });
  assert.deepEqual(night.workingHours, { from: '18:00', to: '09:00', days: [5] });
  const hours = night.workingHours;
  assert.equal(minutesIntoWorkingHours(hours, 5, 18 * 60), 0, 'Friday 18:00: they begin');
  assert.equal(minutesIntoWorkingHours(hours, 6, 2 * 60), 8 * 60, 'Saturday 02:00: eight hours into Friday night');
  assert.equal(minutesIntoWorkingHours(hours, 6, 9 * 60), null, 'Saturday 09:00: over');
  assert.equal(minutesIntoWorkingHours(hours, 6, 20 * 60), null, 'Saturday evening: not a listed day');
  assert.equal(minutesIntoWorkingHours(hours, 5, 2 * 60), null, 'Friday 02:00 belongs to Thursday night, not listed');
  assert.equal(minutesIntoWorkingHours({ from: '09:00', to: '17:00', days: [1] }, 1, 10 * 60), 60);
  assert.throws(() => updateDesktopSettings(night, { workingHours: { from: '09:00', to: '09:00' } }), /must not begin and end at the same time/);
});

test('one suggestion is said in the singular (issue 37)', () => {
  assert.equal(forgottenText({ count: 1, seconds: 3600 }), ' 1 h untracked today — review 1 suggestion in Tock.');
  assert.equal(forgottenText({ count: 2, seconds: 3600 }), ' 1 h untracked today — review 2 suggestions in Tock.');
});
