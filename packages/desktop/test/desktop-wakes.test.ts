/**
 * How often the desktop part wakes by itself (docs/desktop.md "Idle time" and "Reminder";
 * bench/README.md, issue 42 target 1: no timer wakes the idle app more than once a minute).
 * A real store and tracker, the desktop's timers on — the idle poll, the reminder, the tray's
 * feed — all on virtual time: the test's clock and the timers are one, fired in order as the
 * test moves the clock on, and every firing is counted.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createTracker, openStore, type Tracker } from '@tock/core';
import type { OneShotTimers } from '@tock/core/one-shot-timers';
import { createDesktop, IDLE_POLL_MS, type Desktop } from '../src/desktop.ts';
import type { IdleSource } from '../src/idle/sources.ts';
import type { DesktopNotification, Notifier } from '../src/notify.ts';
import { LONGEST_REMINDER_SLEEP_MS } from '../src/reminder.ts';
import { minutesUntilWorkingHours } from '../src/settings.ts';
import { noTray } from '../src/tray/tray.ts';

/** Monday 23 November 2026, 08:00 UTC. */
const T0 = Date.parse('2026-11-23T08:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 3_600_000;

/** A clock and one-shot timers on it; {@link VirtualTime.runTo} fires each timer due, in order, at its time. */
interface VirtualTime extends OneShotTimers {
  now: number;
  /** Timers fired so far: the wake-ups. */
  fired: number;
  /** When each fired. */
  firedAt: number[];
  runTo(ms: number): Promise<void>;
}

function virtualTime(start: number): VirtualTime {
  const pending = new Map<number, { atMs: number; callback: () => void }>();
  let next = 1;
  const time: VirtualTime = {
    now: start,
    fired: 0,
    firedAt: [],
    setTimeout(callback, ms) {
      pending.set(next, { atMs: time.now + ms, callback });
      return next++;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    async runTo(ms) {
      for (;;) {
        let due: [number, { atMs: number; callback: () => void }] | undefined;
        for (const entry of pending) if (entry[1].atMs <= ms && (due === undefined || entry[1].atMs < due[1].atMs)) due = entry;
        if (due === undefined) break;
        pending.delete(due[0]);
        time.now = Math.max(time.now, due[1].atMs);
        time.fired++;
        time.firedAt.push(time.now);
        due[1].callback();
        // What a wake-up started (an idle read, a write heard) settles before the next one.
        await settle();
      }
      time.now = ms;
    },
  };
  return time;
}

/** Lets writes be heard: the desktop looks on the next turn of the event loop. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Rig {
  desktop: Desktop;
  tracker: Tracker;
  time: VirtualTime;
  /** Idle source reads so far (after the probes at the start). */
  reads: number;
  sent: DesktopNotification[];
}

async function rig(t: TestContext, settings: Record<string, unknown> = {}): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'tock-wakes-'));
  const store = openStore(join(dir, 'tock.db'));
  const time = virtualTime(T0);
  const clock = (): number => time.now;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const r = { tracker, time, reads: 0, sent: [] as DesktopNotification[] } as Rig;
  const source: IdleSource = {
    name: 'stand-in',
    idleMs: async () => {
      r.reads++;
      return 1000; // the user is at the keyboard
    },
  };
  const notifier: Notifier = {
    name: 'stand-in',
    notify: async (notification) => {
      r.sent.push(notification);
    },
  };
  r.desktop = createDesktop({ store, tracker, clock, notifier, idleSources: () => [source], tray: noTray, timeZone: () => 'UTC', wakeTimers: time, trayTimers: time });
  t.after(async () => {
    await r.desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  if (Object.keys(settings).length > 0) r.desktop.updateSettings(settings);
  await r.desktop.probeIdleSources();
  await settle();
  r.reads = 0; // the probes at the start
  return r;
}

const ALL_DAY = { from: '00:00', to: '23:59', days: [0, 1, 2, 3, 4, 5, 6] };

test('the idle app wakes at most once a minute: an hour with nothing tracked, reminder off', async (t) => {
  const r = await rig(t);
  await r.time.runTo(T0 + HOUR);
  assert.ok(r.time.fired <= 60, `${r.time.fired} wake-ups in the hour`);
  assert.equal(r.reads, 0, 'no idle read while nothing is tracked');
  assert.equal(r.time.fired, 0, 'the poll and the reminder set no timer at all');
});

test('the idle app wakes at most once a minute with the reminder on: once at the set minutes, then hourly', async (t) => {
  const r = await rig(t, { reminderEnabled: true, reminderAfterMinutes: 15, workingHours: ALL_DAY });
  await r.time.runTo(T0 + 3 * HOUR);
  assert.equal(r.sent.length, 1, 'one reminder for the untracked stretch');
  assert.deepEqual(r.time.firedAt.slice(0, 1), [T0 + 15 * MINUTE], 'the reminder woke at the set minutes, not before');
  for (let hour = 0; hour < 3; hour++) {
    const inHour = r.time.firedAt.filter((at) => at > T0 + hour * HOUR && at <= T0 + (hour + 1) * HOUR).length;
    assert.ok(inHour <= 60, `hour ${hour}: ${inHour} wake-ups`);
    assert.ok(inHour <= 2, `hour ${hour}: ${inHour} wake-ups (the reminder sleeps up to an hour)`);
  }
  assert.equal(r.reads, 0);
});

test('outside the working hours the reminder sleeps until they begin, and reminds at their set minutes', async (t) => {
  // Monday 08:00 UTC; working hours 09:00–17:00 on weekdays.
  const r = await rig(t, { reminderEnabled: true, reminderAfterMinutes: 15 });
  await r.time.runTo(T0 + 2 * HOUR);
  assert.equal(r.sent.length, 1);
  assert.ok(r.time.firedAt.includes(T0 + HOUR + 15 * MINUTE), `woke at 09:15: ${r.time.firedAt.map((at) => new Date(at).toISOString()).join(', ')}`);
  assert.ok(r.time.fired <= 3, `${r.time.fired} wake-ups in two hours`);
});

test('a tracked session is read every 15 s and the reminder sleeps; stopped, both go quiet', async (t) => {
  const r = await rig(t, { reminderEnabled: true, reminderAfterMinutes: 15, workingHours: ALL_DAY });
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  await settle();
  await r.time.runTo(T0 + HOUR);
  assert.equal(r.reads, HOUR / IDLE_POLL_MS, 'one read per poll while tracking (240 an hour)');
  assert.equal(r.sent.length, 0, 'no reminder while tracking');

  r.tracker.stopActivity();
  await settle();
  const readsBefore = r.reads;
  const firedBefore = r.time.fired;
  await r.time.runTo(T0 + 2 * HOUR);
  assert.equal(r.reads, readsBefore, 'no read once nothing runs');
  assert.equal(r.sent.length, 1, 'the reminder at the stretch’s set minutes');
  assert.ok(r.time.fired - firedBefore <= 3, `${r.time.fired - firedBefore} wake-ups in the hour after the stop`);
});

test('on a break, or with the idle threshold at 0, the poll sets no timer', async (t) => {
  const r = await rig(t);
  r.tracker.startActivity({ name: 'Writing', createIfMissing: true });
  await settle();
  r.tracker.startBreak();
  await settle();
  await r.time.runTo(T0 + HOUR);
  assert.equal(r.reads, 0, 'no read on a break');
  assert.equal(r.time.fired, 0);

  r.tracker.resumeBreak();
  r.desktop.updateSettings({ idleThresholdMinutes: 0 });
  await settle();
  await r.time.runTo(T0 + 2 * HOUR);
  assert.equal(r.reads, 0, 'no read with the threshold off');
  assert.equal(r.time.fired, 0);

  r.desktop.updateSettings({ idleThresholdMinutes: 10 });
  await r.time.runTo(T0 + 2 * HOUR + 10 * MINUTE);
  assert.equal(r.reads, (10 * MINUTE) / IDLE_POLL_MS, 'the threshold back on: polled again');
});

test('the next working hours: ahead of a local moment, next week for one beginning now, none without a day', () => {
  const weekdays = { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5] };
  assert.equal(minutesUntilWorkingHours(weekdays, 1, 8 * 60), 60, 'Monday 08:00: in an hour');
  assert.equal(minutesUntilWorkingHours(weekdays, 1, 10 * 60), 23 * 60, 'Monday 10:00: Tuesday 09:00');
  assert.equal(minutesUntilWorkingHours(weekdays, 5, 18 * 60), 2 * 1440 + 15 * 60, 'Friday 18:00: Monday 09:00');
  assert.equal(minutesUntilWorkingHours({ ...weekdays, days: [1] }, 1, 9 * 60), 7 * 1440, 'Monday 09:00 with Mondays only: next Monday');
  assert.equal(minutesUntilWorkingHours({ ...weekdays, days: [] }, 1, 9 * 60), null);
  assert.equal(LONGEST_REMINDER_SLEEP_MS, HOUR);
});

test("a write is heard through the tracking state alone, never today's total (counted again over the day's blocks)", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-wakes-'));
  const store = openStore(join(dir, 'tock.db'));
  const time = virtualTime(T0);
  const clock = (): number => time.now;
  const real = createTracker({ store, clock, timeZone: 'UTC' });
  let statusLooks = 0;
  const tracker: Tracker = {
    ...real,
    getStatus: () => {
      statusLooks++;
      return real.getStatus();
    },
  };
  const source: IdleSource = { name: 'stand-in', idleMs: async () => 1000 };
  const desktop = createDesktop({ store, tracker, clock, idleSources: () => [source], tray: noTray, timeZone: () => 'UTC', wakeTimers: time, trayTimers: time });
  t.after(async () => {
    await desktop.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await desktop.probeIdleSources();
  real.startActivity({ name: 'Writing', createIfMissing: true });
  await settle();
  for (let i = 0; i < 20; i++) {
    real.logEntry({ name: 'Writing', durationMinutes: 1, endedAt: new Date(T0 - (i + 1) * MINUTE).toISOString() });
    await settle();
  }
  real.startBreak();
  await settle();
  assert.equal(statusLooks, 0, `getStatus asked ${statusLooks} times after writes`);
  await time.runTo(T0 + MINUTE);
  assert.equal(statusLooks, 0, 'nor by the idle poll');
});

test('the first probe of the idle sources waits firstProbeAfterMs on the wake timers (the app starts first), and at once without', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tock-wakes-'));
  const store = openStore(join(dir, 'tock.db'));
  const time = virtualTime(T0);
  const clock = (): number => time.now;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  let reads = 0;
  const source: IdleSource = {
    name: 'stand-in',
    idleMs: async () => {
      reads++;
      return 1000;
    },
  };
  const make = (firstProbeAfterMs?: number): Desktop =>
    createDesktop({ store, tracker, clock, idleSources: () => [source], tray: noTray, timeZone: () => 'UTC', wakeTimers: time, trayTimers: time, ...(firstProbeAfterMs === undefined ? {} : { firstProbeAfterMs }) });
  const waiting = make(1000);
  t.after(async () => {
    await waiting.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await settle();
  assert.equal(reads, 0, 'no helper run while the app starts');
  assert.equal(waiting.view().idleSource.state, 'checking');
  await time.runTo(T0 + 999);
  assert.equal(reads, 0);
  await time.runTo(T0 + 1000);
  assert.equal(reads, 1, 'probed once, at its time');
  assert.equal(waiting.view().idleSource.state, 'found');

  const atOnce = make();
  await settle();
  assert.equal(reads, 2, 'without the option: probed as it is made');
  assert.equal(atOnce.view().idleSource.state, 'found');
  await atOnce.stop();
});
