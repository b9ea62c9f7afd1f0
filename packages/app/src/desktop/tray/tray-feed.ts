/**
 * What keeps the tray in step with the app (docs/desktop.md "The tray"): once a second it looks
 * at the tracker's status — kept in memory between writes, so a look while nothing was written
 * reads no SQL — and hands the tray a new model when what it shows changed: a write (from the
 * listener, the window, an admin command, sync, the tray itself), or the minute shown in the
 * status line. The recent activities and the activity to continue are read again only after a
 * write. The setting `tray` turns it on and off without a restart.
 *
 * It looks only while the tray is shown: where no tray host runs (no StatusNotifierWatcher on
 * the bus, or no bus) nobody could see the model, so none is built until the tray asks for one
 * (`onNeedModel`: it is about to register, or something on the bus calls it), and the
 * once-a-second look starts when the tray says it is shown (a watcher appeared) and stops when
 * it is not (issue 30). A tray that cannot be shown reads nothing at all.
 */
import { lastTrackedActivity, type Store, type Tracker } from '@tock/core';
import type { ActivityRef } from '@tock/protocol';
import { RECENT_IN_MENU, trayModel } from './tray-model.ts';
import type { Tray, TrayAction, TrayFactory, TrayModel, TrayState } from './tray.ts';
import { type StreamTimers, unrefTimers } from '@tock/listener';

/**
 * The interval timer of the feed's once-a-second check: the listener's unref'd timers by default,
 * as the live events use; tests pass fake ones and call {@link TrayFeed.refresh}.
 */
export type TrayTimers = StreamTimers;

/** What {@link TrayFeed} wires together. */
export interface TrayFeedOptions {
  store: Store;
  tracker: Tracker;
  clock: () => number;
  factory: TrayFactory;
  /** Carries out what the person clicked (the app: the tracker, the window, quitting). */
  act: (action: TrayAction) => void;
  /** Called when the tray's state changed (the Desktop settings show it). */
  onStateChange?: () => void;
  timers?: TrayTimers;
  onError?: (message: string) => void;
}

/** Facts read from the store, kept until the next write. */
interface StoredFacts {
  generation: number;
  recent: ActivityRef[];
  last: ActivityRef | null;
  /** The running session's start and its breaks (ms), to count its worked time at any moment. */
  session: { startMs: number; breaks: [number, number | null][] } | null;
}

/** Keeps one tray (while the setting is on) showing the app's state; see the module comment. */
export class TrayFeed {
  readonly #options: TrayFeedOptions;
  readonly #timers: TrayTimers;
  #tray: Tray | null = null;
  #timer: unknown = null;
  #stored: StoredFacts | null = null;
  #shown: TrayModel | null = null;
  #shownKey = '';
  /** The last look: the store's generation then, and until when nothing can change without a write. */
  #looked = { generation: -1, atMs: 0, untilMs: 0 };

  constructor(options: TrayFeedOptions) {
    this.#options = options;
    this.#timers = options.timers ?? unrefTimers;
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

  /** Whether the once-a-second look runs now (it does only while the tray is shown). */
  get looking(): boolean {
    return this.#timer !== null;
  }

  /** Starts the once-a-second look when the tray is shown, stops it when it is not. */
  #pace(): void {
    const shown = this.#tray?.state() === 'shown';
    if (shown && this.#timer === null) {
      this.refresh(); // what changed while nobody could see it
      this.#timer = this.#timers.setInterval(() => this.#tick(), 1000);
    } else if (!shown) this.#stopLooking();
  }

  #stopLooking(): void {
    if (this.#timer === null) return;
    this.#timers.clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Where the tray stands: `off` while the setting is off. */
  state(): TrayState {
    return this.#tray?.state() ?? 'off';
  }

  /** The tray shown now (tests). */
  get tray(): Tray | null {
    return this.#tray;
  }

  /**
   * The once-a-second check. Without a write since the last look, what the tray shows can only
   * change with time while a session runs (its minutes and today's); otherwise only at midnight,
   * so a look once a minute is enough then. A check that needs no look reads two numbers and
   * allocates nothing: an idle app with a tray does no work that would make V8 grow its young
   * generation or optimise the feed (bench/README.md "Tray": the tray's RSS).
   */
  #tick(): void {
    const now = this.#options.clock();
    const looked = this.#looked;
    if (this.#options.store.generation === looked.generation && now >= looked.atMs && now < looked.untilMs) return;
    this.refresh();
  }

  /** Looks for a change now, as the timer does every second; returns the model shown. */
  refresh(): TrayModel | null {
    const tray = this.#tray;
    if (!tray) return null;
    try {
      const now = this.#options.clock();
      const model = this.#model();
      const running = model.status === 'Active' && model.icon === 'tock-tracking';
      // The generation after the reads: a read can count as one (a statement prepared the first time).
      this.#looked = { generation: this.#options.store.generation, atMs: now, untilMs: running ? now : now + 60_000 };
      const key = JSON.stringify(model);
      if (key !== this.#shownKey) {
        this.#shownKey = key;
        this.#shown = model;
        tray.show(model);
      }
    } catch (error) {
      this.#options.onError?.(`tray: ${error instanceof Error ? error.message : String(error)}`);
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
    if (this.#stored?.generation === generation) return this.#stored;
    const last = lastTrackedActivity(store);
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
      last: last ? { activityID: last.activityID, activityName: last.activityName } : null,
      session,
    };
    return this.#stored;
  }

  #model(): TrayModel {
    const status = this.#options.tracker.getStatus();
    const stored = this.#facts();
    const now = this.#options.clock();
    let sessionSeconds: number | null = null;
    if (stored.session) {
      const onBreak = stored.session.breaks.reduce((ms, [from, to]) => ms + Math.max(0, (to ?? now) - from), 0);
      sessionSeconds = Math.max(0, Math.floor((now - stored.session.startMs - onBreak) / 1000));
    }
    return trayModel({ status, sessionSeconds, recent: stored.recent, last: stored.last });
  }
}
