/**
 * What keeps the tray in step with the app (docs/desktop.md "The tray"). It wakes only when
 * what the tray shows may have changed: after a write to the store (from the listener, the
 * window, an admin command, sync, the tray itself: the app's change bus, `written`, once per
 * event-loop turn after the commit; on its own, the store's `onWrite`, looked at
 * {@link WRITE_SETTLE_MS} later so that a burst of writes costs one look), and
 * at the next moment the text changes by itself — the next minute of the running session or of
 * today's total while a session runs outside a break, otherwise the local midnight. An idle app
 * with a tray so runs no timer but one an hour (the guard against a sleep of the machine, whose
 * timers stand still meanwhile: docs/decisions.md "The tray wakes on writes"). The tracker's
 * status is kept in memory between writes, so a look reads SQL only after a write; the recent
 * activities and the activity to continue are read again only then too — and when a crumb the
 * last stop dropped stops being resumable, a minute after the stop, since *Continue* then names
 * the activity tracked last (core's `continueCandidate`, what the window's *Continue* names).
 * The setting `tray` turns it on and off without a restart.
 *
 * It looks only while the tray is shown: where no tray host runs (no StatusNotifierWatcher on
 * the bus, or no bus) nobody could see the model, so none is built until the tray asks for one
 * (`onNeedModel`: it is about to register, or something on the bus calls it), and it hears of
 * writes and sets its timer only from when the tray says it is shown (a watcher appeared) until
 * it is not (issue 30). A tray that cannot be shown reads nothing at all.
 */
import { lastContinuableActivity, localDayAt, readDayStartsAt, RESUME_WINDOW_MS, systemTimeZone, type Store, type Tracker } from '@tock/core';
import type { ActivityRef } from '@tock/protocol';
import { currentDesktopMessages } from '../i18n/index.ts';
import { RECENT_IN_MENU, trayModel } from './tray-model.ts';
import type { Tray, TrayAction, TrayFactory, TrayModel, TrayState } from './tray.ts';
import { type OneShotTimers, unrefTimeouts } from '@tock/core/one-shot-timers';

/** The feed's one timer: unref'd global timers by default; tests pass fake ones. */
export type TrayTimers = OneShotTimers;

/** How long after a write the feed looks: writes in between are seen by the same look; well within the 1 s of docs/desktop.md. */
export const WRITE_SETTLE_MS = 200;

/** The longest the feed sleeps: a sleep of the machine stops timers, not the wall clock. */
export const LONGEST_WAIT_MS = 3_600_000;

/** The least time between two windows the tray opens (`Activate`, *Open Tock*, *Log time…*): docs/desktop.md "Its bus". */
export const WINDOW_GAP_MS = 2_000;

/** What {@link TrayFeed} wires together. */
export interface TrayFeedOptions {
  store: Store;
  tracker: Tracker;
  clock: () => number;
  /** The IANA zone that decides "today" (default: the process's zone, read on each look). */
  timeZone?: () => string;
  factory: TrayFactory;
  /** Carries out what the person clicked (the app: the tracker, the window, quitting). */
  act: (action: TrayAction) => void;
  /** Called when the tray's state changed (the Desktop settings show it). */
  onStateChange?: () => void;
  timers?: TrayTimers;
  onError?: (message: string) => void;
  /** Where the setting `language`'s `"system"` is read (`LC_ALL`, `LC_MESSAGES`, `LANG`): the app's environment (default: the process's). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Facts read from the store, kept until the next write. */
interface StoredFacts {
  generation: number;
  recent: ActivityRef[];
  /** What *Continue* resumes or starts again: core's `continueCandidate`, as the window names it. */
  last: ActivityRef | null;
  /**
   * When {@link last} may change with no write (the clock's ms): a dropped crumb is named for
   * {@link RESUME_WINDOW_MS} after its stop only; infinity otherwise.
   */
  lastUntilMs: number;
  /** The running session's start and its breaks (ms), to count its worked time at any moment. */
  session: { startMs: number; breaks: [number, number | null][] } | null;
}

/** Keeps one tray (while the setting is on) showing the app's state; see the module comment. */
export class TrayFeed {
  readonly #options: TrayFeedOptions;
  readonly #timers: TrayTimers;
  readonly #timeZone: () => string;
  #tray: Tray | null = null;
  /** Stops hearing of writes; null while not listening. */
  #unlisten: (() => void) | null = null;
  #timer: unknown = null;
  /** When {@link #timer} fires (the clock's ms). */
  #timerAtMs = 0;
  #refreshing = false;
  #stored: StoredFacts | null = null;
  #shown: TrayModel | null = null;
  #shownKey = '';
  /** The last look: the store's generation then, and when what it showed changes by itself. */
  #looked = { generation: -1, atMs: 0, changesAtMs: 0 };
  #wakes = 0;
  /** When the tray last opened a window (the clock's ms). */
  #windowAtMs = Number.NEGATIVE_INFINITY;
  /** Where writes are heard: the store's own notice until the app gives its change bus. */
  #subscribeWrites: (listener: () => void) => () => void;
  /** How long after a write notice the feed looks: {@link WRITE_SETTLE_MS} for the store's, none for the bus's. */
  #settleMs = WRITE_SETTLE_MS;

  constructor(options: TrayFeedOptions) {
    this.#options = options;
    this.#timers = options.timers ?? unrefTimeouts;
    this.#timeZone = options.timeZone ?? systemTimeZone;
    this.#subscribeWrites = (listener) => options.store.onWrite(listener);
  }

  /**
   * Hears writes from `subscribe` — the app's change bus (change-bus.ts), whose notice comes
   * once per event-loop turn after the writes were committed — instead of the store's raw
   * notice, which may come inside a transaction: the feed then looks at once, not
   * {@link WRITE_SETTLE_MS} later.
   */
  hearWritesFrom(subscribe: (listener: () => void) => () => void): void {
    this.#subscribeWrites = subscribe;
    this.#settleMs = 0;
    if (this.#unlisten !== null) {
      this.#unlisten();
      this.#unlisten = subscribe(() => this.#written());
    }
  }

  /** Shows the tray (true) or removes it (false); nothing when it already is so. */
  setEnabled(enabled: boolean): void {
    if (enabled && !this.#tray) {
      const tray = this.#options.factory({
        onAction: (action) => this.#act(action),
        onStateChange: () => {
          if (this.#tray === tray) this.#pace();
          this.#options.onStateChange?.();
        },
        // Before a host sees the item (it registers, or is called): a model at once.
        onNeedModel: () => {
          if (this.#tray === tray) this.refresh();
        },
      });
      this.#tray = tray;
      this.#shown = null;
      this.#shownKey = '';
      this.#pace();
      this.#options.onStateChange?.();
    } else if (!enabled && this.#tray) {
      const tray = this.#tray;
      this.#tray = null;
      this.#stopLooking();
      void tray.close().then(() => this.#options.onStateChange?.());
    }
  }

  /** Whether the feed follows the app now (it does only while the tray is shown). */
  get looking(): boolean {
    return this.#unlisten !== null;
  }

  /** How often the feed's timer has fired (tests count them). */
  get wakes(): number {
    return this.#wakes;
  }

  /** When the feed's timer fires next (the clock's ms), or null when none is set. */
  get nextWakeAtMs(): number | null {
    return this.#timer === null ? null : this.#timerAtMs;
  }

  /** Starts following the app when the tray is shown, stops when it is not. */
  #pace(): void {
    const shown = this.#tray?.state() === 'shown';
    if (shown && this.#unlisten === null) {
      this.#unlisten = this.#subscribeWrites(() => this.#written());
      this.refresh(); // what changed while nobody could see it; sets the timer
    } else if (!shown) this.#stopLooking();
  }

  #stopLooking(): void {
    this.#unlisten?.();
    this.#unlisten = null;
    this.#clearTimer();
  }

  /** A write: look a little later, unless a look comes sooner anyway. Uses no store (see `onWrite`). */
  #written(): void {
    if (this.#refreshing) return;
    this.#wakeAt(this.#options.clock() + this.#settleMs);
  }

  /** Sets the timer to fire at `atMs` unless it fires sooner already. */
  #wakeAt(atMs: number): void {
    if (this.#timer !== null && this.#timerAtMs <= atMs) return;
    this.#clearTimer();
    const now = this.#options.clock();
    this.#timerAtMs = atMs;
    this.#timer = this.#timers.setTimeout(() => this.#wake(), Math.max(0, atMs - now));
  }

  #clearTimer(): void {
    if (this.#timer === null) return;
    this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /**
   * The timer fired. Without a write since the last look, and before the moment that look said
   * the text changes by itself (a clock set back, a wake meant for a write of the feed's own),
   * nothing is read: the timer is only set again.
   */
  #wake(): void {
    this.#timer = null;
    this.#wakes++;
    if (this.#tray === null || this.#unlisten === null) return;
    const now = this.#options.clock();
    const looked = this.#looked;
    if (this.#options.store.generation === looked.generation && now >= looked.atMs && now < looked.changesAtMs) {
      this.#wakeAt(Math.min(looked.changesAtMs, now + LONGEST_WAIT_MS));
      return;
    }
    this.refresh();
  }

  /** Where the tray stands: `off` while the setting is off. */
  state(): TrayState {
    return this.#tray?.state() ?? 'off';
  }

  /** The tray shown now (tests). */
  get tray(): Tray | null {
    return this.#tray;
  }

  /** Looks for a change now, as the feed does after a write or at a minute; returns the model shown. */
  refresh(): TrayModel | null {
    const tray = this.#tray;
    if (!tray) return null;
    this.#refreshing = true;
    try {
      const now = this.#options.clock();
      const { model, changesAtMs } = this.#model(now);
      // The generation after the reads: a read can count as one (a statement prepared the first time).
      this.#looked = { generation: this.#options.store.generation, atMs: now, changesAtMs };
      if (this.#unlisten !== null) this.#wakeAt(Math.min(changesAtMs, now + LONGEST_WAIT_MS));
      const key = JSON.stringify(model);
      if (key !== this.#shownKey) {
        this.#shownKey = key;
        this.#shown = model;
        tray.show(model);
      }
    } catch (error) {
      this.#options.onError?.(`tray: ${error instanceof Error ? error.message : String(error)}`);
      // Look again after a while rather than never.
      if (this.#unlisten !== null) this.#wakeAt(this.#options.clock() + 60_000);
    } finally {
      this.#refreshing = false;
    }
    return this.#shown;
  }

  /** Removes the tray and stops the timer. */
  async stop(): Promise<void> {
    const tray = this.#tray;
    this.#tray = null;
    this.#stopLooking();
    await tray?.close();
  }

  #act(action: TrayAction): void {
    if (action.kind === 'open' || action.kind === 'log') {
      // One window per WINDOW_GAP_MS, however many clicks come (a clock set back opens one).
      const now = this.#options.clock();
      if (now >= this.#windowAtMs && now < this.#windowAtMs + WINDOW_GAP_MS) return;
      this.#windowAtMs = now;
    }
    try {
      this.#options.act(action);
    } catch (error) {
      this.#options.onError?.(`tray: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.refresh();
  }

  #facts(): StoredFacts {
    const { store, tracker } = this.#options;
    const generation = store.generation;
    const now = this.#options.clock();
    if (this.#stored?.generation === generation && now < this.#stored.lastUntilMs) return this.#stored;
    const last = tracker.continueCandidate();
    // A crumb the stop dropped is named only while it can be resumed: the stop was a write at
    // most this long ago, so a look a window after now names the activity tracked last (not archived).
    const lastUntilMs = last !== null && last.activityID !== lastContinuableActivity(store)?.activityID ? now + RESUME_WINDOW_MS + 1 : Number.POSITIVE_INFINITY;
    const since = tracker.getStatus().since;
    let session: StoredFacts['session'] = null;
    if (since !== null) {
      // The running session overlaps the millisecond it started in (`since`, to the ms); a
      // range up to now read every block since with it, after every write (bench/README.md
      // "Durable writes (figure 5)").
      const startMs = Date.parse(since);
      const block = tracker.listBlocks(startMs, startMs + 1).find((b) => b.kind === 'session' && b.endedAt === null);
      if (block) {
        session = {
          startMs: Date.parse(block.startedAt),
          breaks: block.breaks.map((b): [number, number | null] => [Date.parse(b.startedAt), b.endedAt === null ? null : Date.parse(b.endedAt)]),
        };
      }
    }
    const recent = tracker.searchActivities('', RECENT_IN_MENU + 1);
    this.#stored = {
      generation: store.generation, // after the reads, as in refresh()
      recent,
      last,
      lastUntilMs,
      session,
    };
    return this.#stored;
  }

  /** The model at `now`, and the next moment its text changes by itself (no write between). */
  #model(now: number): { model: TrayModel; changesAtMs: number } {
    const status = this.#options.tracker.getStatus();
    const stored = this.#facts();
    let sessionSeconds: number | null = null;
    let changesAtMs = Math.min(localDayAt(now, this.#timeZone(), readDayStartsAt(this.#options.store.settings)).end, stored.lastUntilMs);
    if (stored.session) {
      const onBreakMs = stored.session.breaks.reduce((ms, [from, to]) => ms + Math.max(0, (to ?? now) - from), 0);
      const workedMs = Math.max(0, now - stored.session.startMs - onBreakMs);
      sessionSeconds = Math.floor(workedMs / 1000);
      if (status.isTracking && !status.isOnBreak) {
        // The session's minute turns exactly then; today's total is known to the second only,
        // so its minute is looked at half a second early and, if not yet turned, again at most
        // half a second late.
        const sessionTurns = now + 60_000 - (workedMs % 60_000);
        const todayTurns = now + (60 - (status.todaySeconds % 60)) * 1000 - 500;
        changesAtMs = Math.min(changesAtMs, sessionTurns, todayTurns);
      }
    }
    return { model: trayModel({ status, sessionSeconds, recent: stored.recent, last: stored.last }, currentDesktopMessages(this.#options.store.settings, this.#options.env)), changesAtMs };
  }
}
