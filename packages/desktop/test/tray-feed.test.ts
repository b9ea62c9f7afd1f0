/**
 * When the tray feed wakes (docs/desktop.md "The tray"; bench/README.md figure 24): after a
 * write, and at the next moment the shown text changes by itself — never on a once-a-second
 * timer. A tray that is always shown, a store in memory, and virtual time: the test's clock and
 * the feed's timers are one, fired in order as the test moves the clock on.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { createTracker, openStore, setActivityArchived, type Tracker } from '@tock/core';
import { createDesktop } from '../src/desktop.ts';
import { LONGEST_WAIT_MS, TrayFeed, type TrayTimers, WINDOW_GAP_MS, WRITE_SETTLE_MS } from '../src/tray/tray-feed.ts';
import type { TrayAction, TrayHooks, TrayMenuItem, TrayModel } from '../src/tray/tray.ts';

const T0 = Date.parse('2026-11-23T09:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60_000;
const HOUR = 3_600_000;

/** A clock and timers on it: {@link VirtualTime.runTo} fires each timer due, in order, at its time. */
interface VirtualTime extends TrayTimers {
  now: number;
  /** Timers set so far. */
  set: number;
  /** Timers fired so far. */
  fired: number;
  runTo(ms: number): void;
}

function virtualTime(start: number): VirtualTime {
  const pending = new Map<number, { atMs: number; callback: () => void }>();
  let next = 1;
  const time: VirtualTime = {
    now: start,
    set: 0,
    fired: 0,
    setTimeout(callback, ms) {
      time.set++;
      pending.set(next, { atMs: time.now + ms, callback });
      return next++;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    runTo(ms) {
      for (;;) {
        let due: [number, { atMs: number; callback: () => void }] | undefined;
        for (const entry of pending) if (entry[1].atMs <= ms && (due === undefined || entry[1].atMs < due[1].atMs)) due = entry;
        if (due === undefined) break;
        pending.delete(due[0]);
        time.now = Math.max(time.now, due[1].atMs);
        time.fired++;
        due[1].callback();
      }
      time.now = ms;
    },
  };
  return time;
}

interface Rig {
  time: VirtualTime;
  tracker: Tracker;
  feed: TrayFeed;
  shown: TrayModel[];
  /** How often the feed read the status (a look). */
  looks: () => number;
}

function rig(t: TestContext, start = T0, settings: Readonly<Record<string, string>> = {}): Rig {
  const store = openStore(':memory:');
  // The tray shows sessions of seconds here: every one is kept (crumbs are core's tests').
  store.settings.set('minSessionSeconds', 0);
  for (const [key, value] of Object.entries(settings)) store.settings.set(key, value);
  const time = virtualTime(start);
  const clock = (): number => time.now;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  let looks = 0;
  const counted: Tracker = {
    ...tracker,
    getStatus: () => {
      looks++;
      return tracker.getStatus();
    },
  };
  const shown: TrayModel[] = [];
  const feed = new TrayFeed({
    store,
    tracker: counted,
    clock,
    timeZone: () => 'UTC',
    timers: time,
    factory: () => ({ show: (model) => shown.push(model), state: () => 'shown', close: async () => {} }),
    act: () => {},
  });
  feed.setEnabled(true);
  t.after(async () => {
    await feed.stop();
    store.close();
  });
  return { time, tracker, feed, shown, looks: () => looks };
}

const line = (r: Rig): string | undefined => r.shown.at(-1)?.statusLine;

test('an idle tray runs no timer in an idle hour but the hourly guard, and reads nothing', (t) => {
  const r = rig(t);
  assert.equal(line(r), 'Not tracking · today 0:00');
  assert.equal(r.time.set, 1, 'one timer');
  assert.equal(r.feed.nextWakeAtMs, T0 + LONGEST_WAIT_MS, 'at the hourly guard (midnight is later)');
  const looks = r.looks();
  r.time.runTo(T0 + HOUR - 1);
  assert.equal(r.time.fired, 0, 'no timer fired in the idle hour');
  r.time.runTo(T0 + 10 * HOUR);
  assert.equal(r.time.fired, 10, 'the guard: once an hour');
  assert.equal(r.looks(), looks, 'nothing written, nothing running: no look');
  assert.equal(r.shown.length, 1);
});

test('a write shows within a second, one look for a burst of writes', (t) => {
  const r = rig(t);
  r.time.runTo(T0 + 10 * SECOND);
  const looks = r.looks();
  r.tracker.startActivity({ name: 'Writing docs', createIfMissing: true });
  r.tracker.createActivity('Reviews');
  assert.equal(r.feed.nextWakeAtMs, T0 + 10 * SECOND + WRITE_SETTLE_MS, 'a wake after the writes');
  r.time.runTo(T0 + 11 * SECOND);
  assert.equal(line(r), 'Writing docs · 0:00 · today 0:00');
  assert.equal(r.shown.at(-1)?.icon, 'tock-tracking');
  assert.equal(r.looks() - looks, 2, 'one look (it reads the status twice) for both writes');

  r.tracker.stopActivity();
  r.time.runTo(T0 + 12 * SECOND);
  assert.equal(line(r), 'Not tracking · today 0:00');
  assert.deepEqual(
    r.shown.at(-1)?.menu.map((item) => ('label' in item ? item.label : '—')),
    ['Not tracking · today 0:00', '—', 'Continue Writing docs', 'Start', '—', 'Log time…', 'Open Tock', '—', 'Quit Tock'],
  );
});

test('while a session runs the text follows each minute within a second, at most three wakes a minute', (t) => {
  const r = rig(t, T0 - MINUTE);
  // 30.4 s tracked earlier today: today's minute turns 30.4 s off the session's.
  r.tracker.startActivity({ name: 'Email', createIfMissing: true });
  r.time.runTo(T0 - MINUTE + 30_400);
  r.tracker.stopActivity();
  r.time.runTo(T0 + 1);
  r.tracker.startActivity({ name: 'Writing docs', createIfMissing: true });
  const start = r.time.now;
  r.time.runTo(start + SECOND);
  const fired = r.time.fired;
  const expected = (at: number): string => {
    const session = Math.floor((at - start) / MINUTE);
    const today = Math.floor((at - start + 30_400) / MINUTE);
    return `Writing docs · 0:${String(session).padStart(2, '0')} · today 0:${String(today).padStart(2, '0')}`;
  };
  for (let at = start + SECOND; at <= start + 10 * MINUTE; at += 100) {
    r.time.runTo(at);
    const now = line(r);
    assert.ok(now === expected(at) || now === expected(at - SECOND), `at +${at - start} ms the tray shows "${now}", not "${expected(at)}"`);
  }
  assert.ok(r.time.fired - fired <= 30, `${r.time.fired - fired} wakes in 10 minutes`);

  // On a break nothing counts: the next wake is the hourly guard.
  r.tracker.startBreak();
  r.time.runTo(r.time.now + SECOND);
  assert.match(line(r) ?? '', /^On a break from Writing docs · 0:10 · today 0:10$/);
  assert.equal(r.feed.nextWakeAtMs, r.time.now - SECOND + WRITE_SETTLE_MS + LONGEST_WAIT_MS);
});

test('at midnight the day’s total starts again', (t) => {
  const r = rig(t, Date.parse('2026-11-23T22:00:00.000Z'));
  r.tracker.startActivity({ name: 'Email', createIfMissing: true });
  r.time.runTo(Date.parse('2026-11-23T23:00:00.000Z'));
  r.tracker.stopActivity();
  r.time.runTo(Date.parse('2026-11-23T23:30:00.000Z'));
  assert.equal(line(r), 'Not tracking · today 1:00');
  assert.equal(r.feed.nextWakeAtMs, Date.parse('2026-11-24T00:00:00.000Z'), 'the next wake is midnight');
  r.time.runTo(Date.parse('2026-11-24T00:00:00.000Z'));
  assert.equal(line(r), 'Not tracking · today 0:00');
});

test('with dayStartsAt "04:00" the day’s total runs past midnight and starts again at 04:00', (t) => {
  const r = rig(t, Date.parse('2026-11-23T22:00:00.000Z'), { dayStartsAt: '04:00' });
  r.tracker.startActivity({ name: 'Email', createIfMissing: true });
  r.time.runTo(Date.parse('2026-11-24T02:30:00.000Z'));
  r.tracker.stopActivity();
  r.time.runTo(Date.parse('2026-11-24T03:00:00.000Z'));
  assert.equal(line(r), 'Not tracking · today 4:30', 'the night is still the 23rd’s');
  r.time.runTo(Date.parse('2026-11-24T03:59:59.000Z'));
  assert.equal(line(r), 'Not tracking · today 4:30');
  assert.equal(r.feed.nextWakeAtMs, Date.parse('2026-11-24T04:00:00.000Z'), 'the next wake is 04:00, not the hourly guard');
  r.time.runTo(Date.parse('2026-11-24T04:00:00.000Z'));
  assert.equal(line(r), 'Not tracking · today 0:00');
});

test('the tray opens at most one window per 2 s (Activate, Open Tock, Log time…); a clock set back opens one', (t) => {
  const store = openStore(':memory:');
  const time = virtualTime(T0);
  const tracker = createTracker({ store, clock: () => time.now, timeZone: 'UTC' });
  const acted: string[] = [];
  let hooks: TrayHooks | undefined;
  const feed = new TrayFeed({
    store,
    tracker,
    clock: () => time.now,
    timeZone: () => 'UTC',
    timers: time,
    factory: (h) => {
      hooks = h;
      return { show: () => {}, state: () => 'shown', close: async () => {} };
    },
    act: (action) => acted.push(action.kind),
  });
  feed.setEnabled(true);
  t.after(async () => {
    await feed.stop();
    store.close();
  });
  assert.ok(hooks);
  for (let i = 0; i < 20; i++) hooks.onAction({ kind: 'open' });
  hooks.onAction({ kind: 'log' });
  assert.deepEqual(acted, ['open'], '20 clicks and a Log time… in a burst: one window');
  hooks.onAction({ kind: 'break' });
  assert.deepEqual(acted, ['open', 'break'], 'other actions are not held back');
  time.now = T0 + WINDOW_GAP_MS - 1;
  hooks.onAction({ kind: 'open' });
  assert.equal(acted.length, 2, 'not within 2 s');
  time.now = T0 + WINDOW_GAP_MS;
  hooks.onAction({ kind: 'log' });
  assert.deepEqual(acted, ['open', 'break', 'log'], '2 s after the first');
  time.now = T0 - HOUR;
  hooks.onAction({ kind: 'open' });
  assert.deepEqual(acted.at(-1), 'open', 'a clock set back does not lock windows out');
});

/** A desktop whose tray is shown, on the virtual time: the tray's clicks go through the app's own `act`; `env` is the app's environment. */
function desktopRig(t: TestContext, env?: NodeJS.ProcessEnv) {
  const store = openStore(':memory:'); // minSessionSeconds as shipped: 60
  const time = virtualTime(T0);
  const clock = (): number => time.now;
  const tracker = createTracker({ store, clock, timeZone: 'UTC' });
  const shown: TrayModel[] = [];
  let hooks: TrayHooks | undefined;
  const desktop = createDesktop({
    store,
    tracker,
    clock,
    timers: false,
    notifier: { name: 'none', notify: async () => {} },
    idleSources: () => [],
    timeZone: () => 'UTC',
    tray: (given) => {
      hooks = given;
      return { show: (model) => shown.push(model), state: () => 'shown', close: async () => {} };
    },
    trayTimers: time,
    ...(env ? { env } : {}),
  });
  t.after(async () => {
    await desktop.stop();
    store.close();
  });
  /** The shown menu's Continue item, as the person sees it. */
  const continueItem = (): { label: string; action: TrayAction } | undefined => {
    const item = shown.at(-1)?.menu.find((i: TrayMenuItem) => i.kind === 'action' && i.action.kind === 'continue');
    return item?.kind === 'action' ? item : undefined;
  };
  const click = (action: TrayAction): void => {
    assert.ok(hooks);
    hooks.onAction(action);
  };
  const sessions = () => tracker.listBlocks(T0 - HOUR, T0 + 2 * HOUR).filter((b) => b.kind === 'session');
  return { time, tracker, desktop, continueItem, click, sessions, store, shown };
}

test('an archived activity leaves the tray: Start offers the 5 most recent of the others, Continue not it', (t) => {
  const r = desktopRig(t);
  for (const name of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6']) {
    r.tracker.startActivity({ name, createIfMissing: true });
    r.time.runTo(r.time.now + 2 * MINUTE);
  }
  r.tracker.stopActivity();
  r.time.runTo(r.time.now + 2 * SECOND);
  const start = (): string[] => {
    const item = r.shown.at(-1)?.menu.find((i: TrayMenuItem) => i.kind === 'submenu');
    return item?.kind === 'submenu' ? item.items.map((i) => (i.kind === 'action' ? i.label : '')) : [];
  };
  assert.deepEqual(start(), ['A6', 'A5', 'A4', 'A3', 'A2']);
  setActivityArchived(r.store, 'A5', true);
  setActivityArchived(r.store, 'A6', true);
  r.time.runTo(r.time.now + 2 * MINUTE);
  assert.deepEqual(start(), ['A4', 'A3', 'A2', 'A1'], 'archived activities are not offered');
  assert.equal(r.continueItem()?.label, 'Continue A4', 'nor continued: Continue names the last activity not archived');
});

test('the tray’s Continue within 60 s of a stop resumes that session: one session, the gap a break', (t) => {
  const r = desktopRig(t);
  const writing = r.tracker.createActivity('Writing docs').activityID;
  r.tracker.startActivity({ activityID: writing });
  r.time.runTo(T0 + 10 * MINUTE);
  r.tracker.stopActivity();
  r.time.runTo(T0 + 10 * MINUTE + 30 * SECOND);
  const item = r.continueItem();
  assert.equal(item?.label, 'Continue Writing docs');
  assert.ok(item);
  r.click(item.action);

  const sessions = r.sessions();
  assert.equal(sessions.length, 1, 'one session, not a new one');
  const [session] = sessions;
  assert.ok(session);
  assert.equal(session.startedAt, new Date(T0).toISOString(), 'it runs again from its own start');
  assert.equal(session.endedAt, null, 'it runs');
  assert.deepEqual(
    session.breaks.map((b) => [b.startedAt, b.endedAt]),
    [[new Date(T0 + 10 * MINUTE).toISOString(), new Date(T0 + 10 * MINUTE + 30 * SECOND).toISOString()]],
    'the 30 s between the stop and the continue are a break of it',
  );
  assert.equal(r.tracker.getStatus().isOnBreak, false);
});

test('the tray names a crumb the stop dropped, as the window does, and Continue gets it back whole; a minute on it names the activity tracked last', (t) => {
  const r = desktopRig(t);
  const writing = r.tracker.createActivity('Writing docs').activityID;
  const email = r.tracker.createActivity('Email').activityID;
  r.tracker.startActivity({ activityID: writing });
  r.time.runTo(T0 + 10 * MINUTE);
  r.tracker.startActivity({ activityID: email }); // ends Writing docs, kept
  r.time.runTo(T0 + 10 * MINUTE + 20 * SECOND);
  r.tracker.stopActivity(); // 20 s of Email: a crumb, not kept
  r.time.runTo(T0 + 10 * MINUTE + 21 * SECOND);
  assert.equal(r.sessions().length, 1, 'the crumb was dropped');
  assert.equal(r.continueItem()?.label, 'Continue Email', 'the tray names what the window’s Continue names');
  assert.deepEqual(r.desktop.view().continueActivity, { activityID: email, activityName: 'Email' });

  // Unclicked, the tray follows when the crumb can no longer be resumed.
  r.time.runTo(T0 + 10 * MINUTE + 20 * SECOND + 62 * SECOND);
  assert.equal(r.continueItem()?.label, 'Continue Writing docs', 'a minute after the stop Continue starts the activity tracked last');
  assert.deepEqual(r.desktop.view().continueActivity?.activityName, 'Writing docs');
});

test('the tray’s Continue of a dropped crumb within the minute brings it back whole, the gap a break', (t) => {
  const r = desktopRig(t);
  const email = r.tracker.createActivity('Email').activityID;
  r.tracker.startActivity({ activityID: email });
  r.time.runTo(T0 + 20 * SECOND);
  r.tracker.stopActivity();
  r.time.runTo(T0 + 50 * SECOND);
  assert.equal(r.sessions().length, 0, 'the crumb was dropped');
  const item = r.continueItem();
  assert.equal(item?.label, 'Continue Email');
  assert.ok(item);
  r.click(item.action);
  const sessions = r.sessions();
  assert.equal(sessions.length, 1);
  assert.equal(sessions[0]?.startedAt, new Date(T0).toISOString(), 'from its own start');
  assert.deepEqual(
    sessions[0]?.breaks.map((b) => [b.startedAt, b.endedAt]),
    [[new Date(T0 + 20 * SECOND).toISOString(), new Date(T0 + 50 * SECOND).toISOString()]],
  );
});

test('a click on a Continue that names another activity than Continue would now does nothing', (t) => {
  const r = desktopRig(t);
  const writing = r.tracker.createActivity('Writing docs').activityID;
  const email = r.tracker.createActivity('Email').activityID;
  r.tracker.startActivity({ activityID: writing });
  r.time.runTo(T0 + 10 * MINUTE);
  r.tracker.stopActivity();
  r.time.runTo(T0 + 20 * MINUTE);
  r.click({ kind: 'continue', activityID: email });
  assert.equal(r.tracker.getStatus().isTracking, false, 'an item since gone');
  r.click({ kind: 'continue', activityID: writing });
  assert.equal(r.tracker.getStatus().currentActivity?.activityName, 'Writing docs', 'later than 60 s: started anew');
  assert.equal(r.sessions().length, 2);
});

test('the tray speaks the setting language, "system" read from the app’s environment, a change shown at the next look', (t) => {
  const r = desktopRig(t, { LANG: 'ja_JP.UTF-8' });
  const labels = (): string[] => (r.shown.at(-1)?.menu ?? []).flatMap((item) => ('label' in item ? [item.label] : []));
  r.tracker.startActivity({ name: 'Writing docs', createIfMissing: true });
  r.time.runTo(T0 + 10 * SECOND);
  assert.equal(r.shown.at(-1)?.statusLine, 'Writing docs · 0:00 · 今日 0:00', 'system: the app’s LANG, not the process’s');
  assert.deepEqual(labels().slice(1, 3), ['停止', '休憩する']);
  r.store.settings.set('language', 'de');
  r.time.runTo(T0 + 20 * SECOND);
  assert.equal(r.shown.at(-1)?.statusLine, 'Writing docs · 0:00 · heute 0:00');
  assert.deepEqual(labels().slice(1, 3), ['Anhalten', 'Pause machen']);
  r.store.settings.set('language', 'system');
  r.time.runTo(T0 + 30 * SECOND);
  assert.equal(r.shown.at(-1)?.statusLine, 'Writing docs · 0:00 · 今日 0:00');
});
