/**
 * The app's one change bus (docs/architecture.md "The change bus"): every part that shows
 * something — the listener's event streams, the window's event stream, the tray, the admin
 * socket's status long poll — hears of changes here, and nobody looks for them on a timer.
 *
 * What feeds it:
 * - the store's write notice (`Store.onWrite`), coalesced: one `written` per task that wrote,
 *   delivered when it ends ({@link ChangeBusOptions.defer}, a microtask: a transaction is
 *   synchronous, so it has committed by then; a group commit of `Store.durably` is told only
 *   once committed), so a subscriber reads committed data and, looking before the event loop
 *   reads the next requests, never commits the next group early; {@link ChangeBus.flush}
 *   delivers at once (the listener calls it once a write is durable, so that the event leaves
 *   before the answer);
 * - `tracking`, derived from `written` by core's `StatusChanges` (a start, stop, break, rename,
 *   a write that moves today's total, the local day changing — never time alone), computed only
 *   while a subscriber wants it (an open stream, an open window, a waiting `tock watch`);
 * - the app's parts that keep state outside the store: branch prompts, the desktop, the
 *   listener's state and requests, sync, idle notices and budget thresholds ({@link ChangeBus.emit}).
 *
 * Its one timer fires at the local day's end, at most an hour ahead (timers stand still while
 * the machine sleeps), and runs only while somebody subscribes to `tracking` or `tick`. Its
 * first wait asks for no day: finding one makes the process's first `Intl.DateTimeFormat`,
 * 13–28 ms of ICU's locale list on the app's start path before the listener answers (bench/README.md,
 * figure 9), so it ends at the next whole minute of the clock, where the day is looked at. A
 * local day starts on a whole minute (zone offsets and their changes are whole minutes, and so
 * is the setting `dayStartsAt`), so no day can end inside that wait: a day that ends at its
 * end is told then, at its start, as every later one is.
 */
import { StatusChanges, localDayAt, readDayStartsAt, systemTimeZone, type BudgetCrossing, type Store, type Tracker } from '@tock/core';
import type { RequestRecord } from '@tock/listener';
import type { Idle, Status } from '@tock/protocol';
import { type OneShotTimers, unrefTimeouts } from '@tock/core/one-shot-timers';
import type { PendingPrompt } from './prompts.ts';

/** Every change the bus carries, by name, with what a subscriber is given. */
export interface ChangeEvents {
  /** The store was written and the writes are committed: one notice per event-loop turn, however many rows. */
  written: { generation: number };
  /** The status changed other than by time passing (core's `StatusChanges`): the new `GET /status` result. */
  tracking: Status;
  /** The bus's one timer fired (the local day's end, or an hour passed): what changes with time alone may have. */
  tick: { atMs: number };
  /** A branch prompt arrived. */
  prompts: PendingPrompt;
  /** The desktop's view changed (its settings, an idle question, the idle source, the tray's state). */
  desktop: null;
  /** A setting the window shows changed outside the store's notice: the listener's state or token, editors, capture, calendars, the credential store. */
  settings: null;
  /** The listener answered a request (the window's request list). */
  request: RequestRecord;
  /** The sync folder's state changed; `applied`: another device's operations were applied. */
  sync: { applied: boolean };
  /** The person has been idle for the threshold while tracking (the `idle` event's data). */
  idle: Idle;
  /** A budget threshold was passed (core's `BudgetWatch`). */
  budget: BudgetCrossing;
}

/** The name of a change. */
export type ChangeType = keyof ChangeEvents;

/** How a subscription to `tracking` says whether it wants the status computed now. */
export interface TrackingInterest {
  /** False while nobody it serves is there (no stream open): then no status is computed for it. */
  wanted?: () => boolean;
}

/** What {@link ChangeBus} reads. */
export interface ChangeBusOptions {
  store: Pick<Store, 'generation' | 'onWrite'> & Partial<Pick<Store, 'settings'>>;
  tracker: Pick<Tracker, 'getStatus'>;
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** The IANA zone that decides "today" (default: the process's zone, read each time). */
  timeZone?: () => string;
  /** Runs a function once the current task ends (default `queueMicrotask`); tests run it themselves. */
  defer?: (fn: () => void) => void;
  /** The one timer (default: unref'd global timers). */
  timers?: OneShotTimers;
  /** Where a subscriber's failure is reported (the others still hear the change). */
  onError?: (error: unknown) => void;
}

/** The longest the bus's timer waits: a sleep of the machine stops timers, not the wall clock. */
export const LONGEST_TICK_MS = 3_600_000;

const MINUTE_MS = 60_000;

type Listener<K extends ChangeType> = (data: ChangeEvents[K]) => void;

/** The bus; see the module comment. */
export class ChangeBus {
  readonly #options: ChangeBusOptions;
  readonly #defer: (fn: () => void) => void;
  readonly #timers: OneShotTimers;
  readonly #timeZone: () => string;
  readonly #listeners: { [K in ChangeType]?: Set<Listener<K>> } = {};
  readonly #trackingWanted = new Map<Listener<'tracking'>, () => boolean>();
  readonly #status: StatusChanges;
  readonly #unlisten: () => void;
  #pending = false;
  /** The store's generation last delivered as `written`. */
  #delivered: number;
  #timer: unknown = null;
  /** Whether a day was looked at for the timer yet: until then it waits for a whole minute (module comment). */
  #dayLookedAt = false;
  #stopped = false;

  constructor(options: ChangeBusOptions) {
    this.#options = options;
    this.#defer = options.defer ?? queueMicrotask;
    this.#timers = options.timers ?? unrefTimeouts;
    this.#timeZone = options.timeZone ?? systemTimeZone;
    this.#delivered = options.store.generation;
    this.#status = new StatusChanges({
      generation: () => options.store.generation,
      status: () => options.tracker.getStatus(),
      clock: options.clock,
      timeZone: this.#timeZone,
      dayStartsAt: () => this.#dayStartsAt(),
    });
    this.#unlisten = options.store.onWrite(() => this.#written());
  }

  /**
   * Calls `listener` with each change of `type` until the returned function is called. A
   * `tracking` subscriber may say when it wants the status computed ({@link TrackingInterest}).
   */
  on<K extends ChangeType>(type: K, listener: Listener<K>, interest: TrackingInterest = {}): () => void {
    let set = this.#listeners[type] as Set<Listener<K>> | undefined;
    if (set === undefined) {
      set = new Set();
      (this.#listeners as Record<K, Set<Listener<K>>>)[type] = set;
    }
    set.add(listener);
    if (type === 'tracking') this.#trackingWanted.set(listener as Listener<'tracking'>, interest.wanted ?? (() => true));
    this.#pace();
    const added = set;
    return () => {
      added.delete(listener);
      if (type === 'tracking') this.#trackingWanted.delete(listener as Listener<'tracking'>);
      this.#pace();
    };
  }

  /** Tells every subscriber of `type` (a change outside the store's notice). */
  emit<K extends ChangeType>(type: K, data: ChangeEvents[K]): void {
    const set = this.#listeners[type] as Set<Listener<K>> | undefined;
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(data);
      } catch (error) {
        this.#options.onError?.(error);
      }
    }
  }

  /**
   * Delivers the writes not delivered yet, now (after a commit: the listener's durable write,
   * an admin command); nothing when there are none. The status is looked at either way, as a
   * stream that is about to open needs the baseline it starts from.
   */
  flush(): void {
    this.#pending = false;
    if (this.#stopped) return;
    const generation = this.#options.store.generation;
    if (generation !== this.#delivered) {
      this.emit('written', { generation });
      // Writes made by subscribers while they heard this one (a budget marked announced) are
      // bookkeeping nobody shows: they are not delivered again.
      this.#delivered = this.#options.store.generation;
    }
    this.#checkTracking();
  }

  /**
   * A `tracking` subscriber is about to want the status (a stream or a window opening): delivers
   * what is pending, then takes the status it starts from as the baseline (while nobody wanted
   * it, none was kept), so that the very next write's change reaches it.
   */
  takeBaseline(): void {
    this.flush();
    this.#checkTracking(true);
  }

  /** Stops hearing the store and the timer. */
  stop(): void {
    this.#stopped = true;
    this.#unlisten();
    this.#clearTimer();
  }

  /** The store's notice: may come inside a transaction; deliver on a later turn, once. */
  #written(): void {
    if (this.#pending || this.#stopped) return;
    this.#pending = true;
    this.#defer(() => {
      if (this.#pending) this.flush();
    });
  }

  #trackingIsWanted(): boolean {
    for (const wanted of this.#trackingWanted.values()) if (wanted()) return true;
    return false;
  }

  /** Computes the status (only while it is wanted) and tells `tracking` subscribers when it changed. */
  #checkTracking(force = false): void {
    if (!force && !this.#trackingIsWanted()) {
      this.#status.forget();
      return;
    }
    let status: Status | null;
    try {
      status = this.#status.check();
    } catch (error) {
      this.#options.onError?.(error);
      return;
    }
    if (status === null) return;
    const set = this.#listeners.tracking;
    if (!set) return;
    for (const [listener, wanted] of [...this.#trackingWanted]) {
      if (!wanted()) continue;
      try {
        listener(status);
      } catch (error) {
        this.#options.onError?.(error);
      }
    }
  }

  /** Runs the timer while somebody hears `tracking` or `tick`, stops it otherwise. */
  #pace(): void {
    const needed = (this.#listeners.tracking?.size ?? 0) + (this.#listeners.tick?.size ?? 0) > 0;
    if (!needed) this.#clearTimer();
    else if (this.#timer === null && !this.#stopped) this.#setTimer();
  }

  /** When the person's day starts (the setting `dayStartsAt`; midnight for a store without settings). */
  #dayStartsAt(): number {
    const settings = this.#options.store.settings;
    return settings === undefined ? 0 : readDayStartsAt(settings);
  }

  #setTimer(): void {
    const now = this.#options.clock();
    if (!this.#dayLookedAt) {
      // The first wait: until the next whole minute, when the day of `now` is looked at.
      this.#timer = this.#timers.setTimeout(() => this.#firstMinute(now), MINUTE_MS - (((now % MINUTE_MS) + MINUTE_MS) % MINUTE_MS));
      return;
    }
    this.#waitUntil(localDayAt(now, this.#timeZone(), this.#dayStartsAt()).end, now);
  }

  /** Sets the timer for `dayEnd`, at most an hour from `now`. */
  #waitUntil(dayEnd: number, now: number): void {
    this.#timer = this.#timers.setTimeout(() => this.#tick(), Math.max(0, Math.min(dayEnd - now, LONGEST_TICK_MS)));
  }

  /** The first wait ended: the day it began on has ended (told now), or the timer waits for its end. */
  #firstMinute(armedAt: number): void {
    this.#timer = null;
    if (this.#stopped) return;
    this.#dayLookedAt = true;
    const dayEnd = localDayAt(armedAt, this.#timeZone(), this.#dayStartsAt()).end;
    const now = this.#options.clock();
    if (now >= dayEnd) this.#tick();
    else this.#waitUntil(dayEnd, now);
  }

  #clearTimer(): void {
    if (this.#timer === null) return;
    this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #tick(): void {
    this.#timer = null;
    if (this.#stopped) return;
    this.#checkTracking();
    this.emit('tick', { atMs: this.#options.clock() });
    this.#pace();
  }
}
