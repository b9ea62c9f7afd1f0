/**
 * The app's change bus (change-bus.ts) over a real store, with the event loop's turns and the
 * one timer in the test's hands: a burst of writes is one `written`, delivered on the next
 * turn after the commit; `tracking` follows core's status changes only while wanted; the
 * listener's stream feed publishes a change with no timer run and no clock advanced.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTracker, openStore } from '@tock/core';
import type { Status } from '@tock/protocol';
import { ChangeBus, LONGEST_TICK_MS } from '../src/change-bus.ts';
import { startLiveEvents } from '../src/live-events.ts';
import type { OneShotTimers } from '@tock/core/one-shot-timers';

/** Noon of a fixed day in the run's zone (a fixed UTC hour is midnight somewhere). */
const NOON = new Date(2026, 10, 23, 12, 0, 0).getTime();

/** One-shot timers that fire only when the test says so. */
function manualTimers(): OneShotTimers & { set: Map<number, { fn: () => void; ms: number }> } {
  const set = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    set,
    setTimeout(fn, ms) {
      set.set(++next, { fn, ms });
      return next;
    },
    clearTimeout(handle) {
      set.delete(handle as number);
    },
  };
}

function setUp(start = NOON, timeZone?: () => string) {
  let now = start;
  const clock = () => now;
  const store = openStore(':memory:');
  const tracker = createTracker({ store, clock });
  const deferred: (() => void)[] = [];
  const timers = manualTimers();
  const bus = new ChangeBus({ store, tracker, clock, timers, defer: (fn) => deferred.push(fn), ...(timeZone ? { timeZone } : {}) });
  return {
    store,
    tracker,
    bus,
    timers,
    deferred,
    advance: (ms: number) => (now += ms),
    /** Fires the one timer set, after moving the clock on by its wait; returns the wait. */
    fireTimer(): number {
      const [entry, ...more] = [...timers.set.entries()];
      assert.ok(entry !== undefined && more.length === 0, 'one timer is set');
      timers.set.delete(entry[0]);
      now += entry[1].ms;
      entry[1].fn();
      return entry[1].ms;
    },
    /** The next turn of the event loop: what the bus deferred runs. */
    turn() {
      for (const fn of deferred.splice(0)) fn();
    },
  };
}

describe('the change bus', () => {
  it('tells one `written` for a burst of writes, on the next turn, and nothing for a turn without writes', () => {
    const f = setUp();
    const written: number[] = [];
    f.bus.on('written', ({ generation }) => written.push(generation));
    f.store.transaction(() => {
      for (let i = 0; i < 50; i++) f.tracker.logEntry({ name: `A${i}`, createIfMissing: true, durationMinutes: 1 });
    });
    f.store.settings.set('another', 1);
    assert.deepEqual(written, [], 'not inside the writes');
    assert.equal(f.deferred.length, 1, 'one later turn asked for, however many rows');
    f.turn();
    assert.deepEqual(written, [f.store.generation]);
    f.turn();
    f.bus.flush();
    assert.equal(written.length, 1, 'no write since: nothing told');
    f.store.close();
  });

  it("delivers a durable write after its group's commit, never committing the group early", async () => {
    const f = setUp();
    const seen: boolean[] = [];
    f.bus.on('written', () => seen.push(f.store.db.isTransaction));
    const durable = f.store.durably(() => f.tracker.startActivity({ name: 'Focus', createIfMissing: true }));
    assert.equal(f.store.db.isTransaction, true, 'the group is open');
    await durable; // the group commits on its own turn
    f.turn();
    assert.deepEqual(seen, [false], 'heard once, outside any transaction');
    f.store.close();
  });

  it("hears a group's commit before the next turn, so its look never ends the next group early", async () => {
    const store = openStore(':memory:');
    const tracker = createTracker({ store, clock: () => NOON });
    const bus = new ChangeBus({ store, tracker, clock: () => NOON, timers: manualTimers() }); // the default defer
    const seen: boolean[] = [];
    bus.on('written', () => seen.push(store.db.isTransaction));
    await store.durably(() => tracker.startActivity({ name: 'Focus', createIfMissing: true }));
    assert.deepEqual(seen, [false], 'heard by the time the write is answered, outside any transaction');
    bus.stop();
    store.close();
  });

  it('tells `tracking` on a change of the status, only to subscribers that want it, never for time alone', () => {
    const f = setUp();
    const heard: Status[] = [];
    let wanted = false as boolean;
    f.bus.on('tracking', (status) => heard.push(status), { wanted: () => wanted });
    f.tracker.startActivity({ name: 'Focus', createIfMissing: true });
    f.turn();
    assert.deepEqual(heard, [], 'not wanted: nothing computed or told');
    wanted = true;
    f.bus.takeBaseline();
    f.advance(10 * 60_000);
    f.store.settings.set('unrelated', 1);
    f.turn();
    assert.deepEqual(heard, [], 'ten minutes and an unrelated write: no change');
    f.tracker.stopActivity();
    f.turn();
    assert.equal(heard.length, 1);
    assert.equal((heard as Status[])[0]?.isTracking, false);
    f.store.close();
  });

  it('runs its one timer only while somebody hears tracking or tick, and at most an hour ahead', () => {
    const f = setUp();
    assert.equal(f.timers.set.size, 0, 'nobody hears: no timer');
    const stop = f.bus.on('tick', () => {});
    assert.equal(f.timers.set.size, 1);
    const [timer] = [...f.timers.set.values()];
    assert.ok(timer !== undefined && timer.ms <= LONGEST_TICK_MS && timer.ms >= 60_000, `the next wake in ${timer?.ms} ms`);
    stop();
    assert.equal(f.timers.set.size, 0);
    f.store.close();
  });

  it("tells tracking at the local day's end by its timer, with no write", () => {
    const f = setUp();
    const heard: Status[] = [];
    f.bus.on('tracking', (status) => heard.push(status));
    f.bus.takeBaseline();
    f.advance(13 * 3_600_000); // past midnight
    const [entry] = [...f.timers.set.entries()];
    assert.ok(entry !== undefined, 'the timer is set');
    f.timers.set.delete(entry[0]);
    entry[1].fn();
    assert.equal(heard.length, 1, 'a new day is a change');
    assert.equal(f.timers.set.size, 1, 'the next wake is set');
    f.store.close();
  });

  it('looks at no day, nor the zone, to set its first timer: it waits until the next whole minute', () => {
    let zoneAsked = 0;
    const f = setUp(NOON + 12_345, () => {
      zoneAsked++;
      return Intl.DateTimeFormat().resolvedOptions().timeZone;
    });
    f.bus.on('tick', () => {});
    assert.equal(zoneAsked, 0, 'no day looked at: no Intl.DateTimeFormat on the start path');
    assert.deepEqual([...f.timers.set.values()].map((timer) => timer.ms), [60_000 - 12_345]);
    assert.equal(f.fireTimer(), 60_000 - 12_345);
    assert.ok(zoneAsked > 0, 'the day is looked at once the first wait ends');
    assert.deepEqual([...f.timers.set.values()].map((timer) => timer.ms), [LONGEST_TICK_MS], 'at noon: an hour ahead');
    f.store.close();
  });

  it("tells the local day's end at its instant when the day ends as its first wait does", () => {
    const midnight = new Date(2026, 10, 24, 0, 0, 0).getTime();
    const f = setUp(midnight - 20_000);
    const ticks: number[] = [];
    const heard: Status[] = [];
    f.bus.on('tick', ({ atMs }) => ticks.push(atMs));
    f.bus.on('tracking', (status) => heard.push(status));
    f.bus.takeBaseline();
    assert.equal(f.fireTimer(), 20_000);
    assert.deepEqual(ticks, [midnight], 'told at the day\'s first instant');
    assert.equal(heard.length, 1, 'a new day is a change');
    assert.deepEqual([...f.timers.set.values()].map((timer) => timer.ms), [LONGEST_TICK_MS], 'then the new day: an hour ahead');
    f.store.close();
  });

  it("waits for the local day's end after its first wait, and tells it at its instant", () => {
    const midnight = new Date(2026, 10, 24, 0, 0, 0).getTime();
    const f = setUp(midnight - 30 * 60_000 + 50); // 23:30:00.050
    const ticks: number[] = [];
    f.bus.on('tick', ({ atMs }) => ticks.push(atMs));
    assert.equal(f.fireTimer(), 60_000 - 50, 'to 23:31');
    assert.deepEqual(ticks, [], 'the day goes on: nothing told');
    assert.equal(f.fireTimer(), 29 * 60_000, 'to midnight');
    assert.deepEqual(ticks, [midnight]);
    f.store.close();
  });
});

describe('a change reaches an open event stream', () => {
  it('publishes the status of a write on the turn after it, with no timer run and no clock advanced', () => {
    const f = setUp();
    const published: [string, unknown][] = [];
    const liveTimers = manualTimers();
    const live = startLiveEvents({
      listener: { publish: (type, data) => (published.push([type, data]), 'r.1'), openStreams: 1 },
      bus: f.bus,
      tracker: f.tracker,
      timers: liveTimers,
    });
    live.streamOpening();
    const timersBefore = f.timers.set.size;
    f.tracker.startActivity({ name: 'Focus', createIfMissing: true }); // as an admin command does
    f.turn();
    assert.deepEqual(
      published.map(([type, data]) => [type, (data as Status).currentActivity?.activityName]),
      [['status', 'Focus']],
    );
    assert.equal(f.timers.set.size, timersBefore, 'no timer set for the change');
    live.stop();
    f.store.close();
  });
});
