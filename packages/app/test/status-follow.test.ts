/**
 * The admin socket's long poll for `tock watch` (admin/status-follow.ts), on an injected clock
 * and timers: an unknown version is answered at once; a known one is held until a write
 * changes the status (looked at when the change bus delivers the write, on the next turn), or
 * until the wait ends, unchanged; time alone passing is no change; nothing listens to the bus
 * while nobody waits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTracker, openStore, type Store } from '@tock/core';
import { StatusFollow, type FollowTimers } from '../src/admin/status-follow.ts';
import { ChangeBus } from '../src/change-bus.ts';

/** Timers that fire only when the test says so, in the order they are due. */
function manualTimers(): FollowTimers & { pending(): number; fire(): void } {
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    setTimeout(fn, ms) {
      timers.set(++next, { fn, ms });
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pending: () => timers.size,
    /** Fires the timer due first (the shortest). */
    fire() {
      const [id, timer] = [...timers.entries()].sort((a, b) => a[1].ms - b[1].ms)[0] ?? [];
      if (id === undefined || timer === undefined) throw new Error('no timer is set');
      timers.delete(id);
      timer.fn();
    },
  };
}

/** Noon of a fixed day in the run's zone (a fixed UTC hour is midnight somewhere). */
const NOON = new Date(2026, 10, 23, 12, 0, 0).getTime();

function setUp(): {
  store: Store;
  bus: ChangeBus;
  follow: StatusFollow;
  timers: ReturnType<typeof manualTimers>;
  advance(ms: number): void;
  turn(): void;
  tracker: ReturnType<typeof createTracker>;
} {
  let now = NOON;
  const clock = () => now;
  const store = openStore(':memory:');
  const tracker = createTracker({ store, clock });
  const timers = manualTimers();
  const deferred: (() => void)[] = [];
  const bus = new ChangeBus({ store, tracker, clock, defer: (fn) => deferred.push(fn), timers: { setTimeout: () => 0, clearTimeout: () => {} } });
  const follow = new StatusFollow({ store, tracker, clock, timers, changes: bus });
  /** The next turn of the event loop: the bus delivers the writes of the last one. */
  const turn = (): void => {
    for (const fn of deferred.splice(0)) fn();
  };
  return { store, bus, follow, timers, tracker, turn, advance: (ms) => (now += ms) };
}

/** Whether `promise` has settled after the pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('the status long poll (POST /status/next)', () => {
  it('answers at once without a version, or with one of an earlier run', async () => {
    const { follow, store } = setUp();
    const first = await follow.next(undefined);
    assert.equal(first.status.isTracking, false);
    assert.equal((await follow.next('an-earlier-run.0')).version, first.version);
    store.close();
  });

  it('computes no status until it is first asked (none while the app starts), then follows changes from there', async () => {
    const store = openStore(':memory:');
    const real = createTracker({ store, clock: () => NOON });
    let looks = 0;
    const tracker = {
      getStatus: () => {
        looks++;
        return real.getStatus();
      },
    };
    const bus = new ChangeBus({ store, tracker, clock: () => NOON, defer: () => {}, timers: { setTimeout: () => 0, clearTimeout: () => {} } });
    const follow = new StatusFollow({ store, tracker, clock: () => NOON, timers: manualTimers(), changes: bus });
    real.startActivity({ name: 'Focus', createIfMissing: true });
    assert.equal(looks, 0, 'made, and a write since: no status computed');
    const first = await follow.next(undefined);
    assert.equal(first.status.currentActivity?.activityName, 'Focus');
    real.stopActivity();
    assert.notEqual((await follow.next(first.version)).version, first.version, 'a change since the first answer is a new version');
    store.close();
  });

  it('holds a known version until a write changes the status, looked at when the bus delivers the write', async () => {
    const { follow, store, tracker, timers, turn } = setUp();
    const { version } = await follow.next(undefined);
    const waiting = follow.next(version);
    assert.equal(await settled(waiting), false);
    assert.equal(timers.pending(), 1, 'only the wait');
    tracker.startActivity({ name: 'Focus', createIfMissing: true });
    assert.equal(await settled(waiting), false, 'not inside the write');
    turn(); // the bus delivers the write: no timer runs
    const next = await waiting;
    assert.notEqual(next.version, version);
    assert.equal(next.status.currentActivity?.activityName, 'Focus');
    assert.equal(timers.pending(), 0, 'the wait ended with the answer');
    store.close();
  });

  it('answers the same version after the wait when nothing changed, and time alone is no change', async () => {
    const { follow, store, tracker, timers, advance } = setUp();
    tracker.startActivity({ name: 'Focus', createIfMissing: true });
    const { version, status } = await follow.next(undefined);
    const waiting = follow.next(version, 50_000);
    advance(50_000);
    timers.fire();
    const same = await waiting;
    assert.equal(same.version, version);
    assert.equal(same.status.todaySeconds, status.todaySeconds + 50);
    store.close();
  });

  it('a write that changes nothing shown keeps the wait going', async () => {
    const { follow, store, timers, turn } = setUp();
    const { version } = await follow.next(undefined);
    const waiting = follow.next(version);
    store.settings.set('unrelated', 1);
    turn(); // the bus delivers the write: the status is the same
    assert.equal(await settled(waiting), false);
    assert.equal(timers.pending(), 1, 'the wait is still set');
    timers.fire();
    assert.equal((await waiting).version, version);
    store.close();
  });

  it('listens to the change bus only while somebody waits', async () => {
    const { follow, store, bus, timers } = setUp();
    let listening = 0;
    const on = bus.on.bind(bus);
    (bus as { on: ChangeBus['on'] }).on = (type, listener, interest) => {
      listening++;
      const unlisten = on(type, listener, interest);
      return () => {
        listening--;
        unlisten();
      };
    };
    const { version } = await follow.next(undefined);
    assert.equal(listening, 0);
    const waiting = follow.next(version);
    assert.equal(listening, 2, 'its writes and its tick');
    timers.fire();
    await waiting;
    assert.equal(listening, 0);
    store.close();
  });
});
