/**
 * The app on the desktop (docs/desktop.md): idle detection with its question, the reminder,
 * continuing the last activity, the tray, and the settings for them. Wires the pure parts
 * (IdleWatch, IdleReader, Reminder, the tray's model) to the store, the tracker, the real
 * sources, notifier and tray, and unref'd timers: the idle poll every 15 s reads the idle
 * source only while a session runs (no helper runs at all otherwise), the reminder looks once
 * a minute, and the tray after writes and at the minutes its text changes (tray/tray-feed.ts).
 */
import { Problem } from '@tock/protocol';
import { discardIdleSpan, lastTrackedActivity, readLanguage, runningSessionSpan, stopAtIdleStart, type BudgetCrossing, type Store, type Tracker } from '@tock/core';
import { type OneShotTimers, unrefTimeouts } from '@tock/core/one-shot-timers';
import { environmentRegion, resolveLanguage } from '@tock/i18n/languages';
import type { StartResult, Suggestion } from '@tock/protocol';
import { IdleReader, IdleWatch, type IdleAnswer, type IdleChoice, type IdleNotice, type IdleQuestion } from './idle/watch.ts';
import { idleSourcesFor, type IdleSource } from './idle/sources.ts';
import { currentDesktopMessages } from './i18n/index.ts';
import { budgetNotification } from './budget-notice.ts';
import { notifierFor, type Notifier } from './notify.ts';
import { Reminder } from './reminder.ts';
import { localeClockFormat, readDesktopSettings, savedDesktopSettings, storedClockFormatSet, updateDesktopSettings, type DesktopSettings } from './settings.ts';
import { statusNotifierTray } from './tray/status-notifier.ts';
import { noTray, type TrayAction, type TrayFactory } from './tray/tray.ts';
import { TrayFeed, type TrayTimers } from './tray/tray-feed.ts';
import type { DesktopView, IdleSourceHint } from './view.ts';
import { DesktopWakes } from './wakes.ts';

/** How often the idle source is read while a session runs (docs/desktop.md: every 10–30 s). */
export const IDLE_POLL_MS = 15_000;

const SETTINGS_KEY = 'desktop';

export type { DesktopView } from './view.ts';

/** What {@link createDesktop} needs; tests inject sources, notifier and clock. */
export interface DesktopOptions {
  store: Store;
  tracker: Tracker;
  clock: () => number;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The idle sources to try, best first (default: the platform's). */
  idleSources?: (signal: AbortSignal) => readonly IdleSource[];
  notifier?: Notifier;
  /** IANA zone of the working hours (default: the process's zone, read on each check). */
  timeZone?: () => string;
  /** Start the poll and reminder timers and probe the idle sources (default true). */
  timers?: boolean;
  /** The idle poll's and the reminder's timers (wakes.ts; default: unref'd global ones; tests: virtual time). */
  wakeTimers?: OneShotTimers;
  /**
   * How long after it is made the desktop first probes the idle sources, on `wakeTimers`
   * (default: at once). Nothing waits for that probe (a read probes first when it must; the
   * view says `checking` until then), and spawning its helper while the app starts delays the
   * listener's first answer: the app waits (bench/README.md, figure 9).
   */
  firstProbeAfterMs?: number;
  /**
   * The tray (default: Linux's StatusNotifierItem on the session bus; none elsewhere, and none
   * when `timers` is false — a desktop for a test runs nothing by itself).
   */
  tray?: TrayFactory;
  /** The tray feed's timer (tests: fake ones, and `trayFeed.refresh()`). */
  trayTimers?: TrayTimers;
  /** The directory holding Tock's hicolor icon theme, for tray hosts that look there. */
  iconThemePath?: string;
  /** Opens the window, at `screen` (`/today`) when given: the tray's *Open Tock*, *Log time…* and a click on the item. */
  openWindow?: (screen?: string) => void;
  /** Ends the app: the tray's *Quit Tock*. */
  quit?: () => void;
  /** Called after the tray changed what is tracked (the app's status events and windows follow). */
  onTracked?: () => void;
  /** Today's suggestions (the app's suggestions service), counted in the reminder when labelled. */
  todaysSuggestions?: () => readonly Suggestion[];
}

/** The running desktop part of the app. */
export interface Desktop {
  settings(): DesktopSettings;
  /** Applies a settings patch; throws a `validation_failed` Problem naming a refused field. */
  updateSettings(patch: Record<string, unknown>): DesktopSettings;
  view(): DesktopView;
  /** The idle question waiting for an answer. */
  pendingIdle(): IdleQuestion | null;
  /** Answers the idle question (once; NoIdleQuestion after that). */
  answerIdle(choice: IdleChoice, questionID?: string): IdleAnswer;
  /** Starts the most recently tracked activity again. */
  continueLast(): StartResult;
  /** Shows the notification of a budget threshold passed (budget-notice.ts); never throws. */
  notifyBudget(crossing: BudgetCrossing): void;
  /**
   * Calls `listener` with `{since, seconds}` when the user has just been idle for the
   * threshold while a session runs — the `idle` event's data (docs/protocol.md "The event stream").
   */
  onIdleNoticed(listener: (notice: IdleNotice) => void): () => void;
  /** Calls `listener` when anything the view shows changed (question, settings, idle source). */
  onChange(listener: () => void): () => void;
  /** One idle poll now, as the timer does it: the idle source is read only while a session runs. */
  pollIdle(): Promise<void>;
  /** One reminder check now (what the timer does); true when it sent one. */
  checkReminder(): boolean;
  /** Probes the idle sources again now. */
  probeIdleSources(): Promise<void>;
  /**
   * The one reader of "which idle source answers" (docs/desktop.md "Idle time"): `tock idle`
   * names its source, and capture reads idleness through it and names the same one.
   */
  readonly idleReader: IdleReader;
  /** What keeps the tray in step; `refresh()` looks for a change now (tests). */
  readonly trayFeed: TrayFeed;
  /** Stops the timers, kills running helpers and removes the tray. */
  stop(): Promise<void>;
}

/** Creates the desktop part over an open store and tracker. */
export function createDesktop(options: DesktopOptions): Desktop {
  const { store, tracker, clock } = options;
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const aborter = new AbortController();
  const sources = options.idleSources ?? ((signal) => idleSourcesFor(platform, { env, clock, signal }));
  const notifier = options.notifier ?? notifierFor(platform, { env });
  const startedAtMs = clock();
  const changeListeners = new Set<() => void>();
  const idleListeners = new Set<(n: IdleNotice) => void>();
  const changed = (): void => {
    for (const l of changeListeners) l();
  };

  // Only what the person set is stored (settings.ts); an unset clock follows the locale, read
  // at each answer as the person's week is (the language setting may change meanwhile).
  let saved = store.settings.get(SETTINGS_KEY);
  let settings = readDesktopSettings(saved);
  const shown = (): DesktopSettings =>
    storedClockFormatSet(saved)
      ? { ...settings, clockFormatSet: true }
      : { ...settings, clockFormat: localeClockFormat(resolveLanguage(readLanguage(store.settings), env), environmentRegion(env)), clockFormatSet: false };
  const reader = new IdleReader({ candidates: () => sources(aborter.signal), clock });
  // What each source tried here needs, for "no idle source works" (making the list starts nothing).
  const idleHints = (): IdleSourceHint[] =>
    sources(aborter.signal).flatMap((source) => (source.hint === undefined ? [] : [{ ...(source.id === undefined ? {} : { id: source.id }), source: source.name, hint: source.hint }]));

  const running = (): { sessionID: string; activityName: string; onBreak: boolean } | null => {
    const span = runningSessionSpan(store);
    if (!span) return null;
    return { sessionID: span.sessionID, onBreak: span.onBreak, activityName: tracker.getCurrent()?.activityName ?? '' };
  };

  const watch = new IdleWatch({
    clock,
    readIdleMs: async () => {
      const hadSource = reader.source;
      const ms = await reader.read();
      if (reader.source !== hadSource) changed();
      return ms;
    },
    running,
    thresholdMs: () => settings.idleThresholdMinutes * 60_000,
    discard: (span) => discardIdleSpan(store, span).discardedMs,
    stop: (span) => stopAtIdleStart(store, span, clock()).discardedMs,
    onNoticed: (notice) => {
      for (const l of idleListeners) l(notice);
      changed();
    },
    onQuestion: changed,
  });

  // Within a minute of a stop it resumes that session (core's continueLast, docs/product.md "No crumbs").
  const continueLast = (): StartResult => {
    const started = tracker.continueLast();
    if (!started) throw new Problem('nothing_to_continue', 'there is nothing to continue (nothing tracked yet, or only archived activities): start an activity in the window or with `tock start NAME --create`');
    return started;
  };

  // The language is read at each notification: a change of the setting shows in the next one.
  const messages = () => currentDesktopMessages(store.settings, env);
  const reminder = new Reminder({
    clock,
    messages,
    settings: () => settings,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    tracking: () => tracker.getTracking().isTracking,
    lastTrackedEndMs: () => lastTrackedActivity(store)?.endedAtMs ?? null,
    lastActivityName: () => lastTrackedActivity(store)?.activityName ?? null,
    startedAtMs,
    forgotten: () => {
      if (options.todaysSuggestions === undefined) return null;
      try {
        const labelled = options.todaysSuggestions().filter((s) => s.activityName !== null);
        return { count: labelled.length, seconds: labelled.reduce((sum, s) => sum + s.seconds, 0) };
      } catch (error) {
        console.error(`tock: the reminder goes without suggestions (${error instanceof Error ? error.message : String(error)})`);
        return null;
      }
    },
    send: ({ title, body, canContinue }) => {
      const action = canContinue ? { id: 'continue', label: messages()('reminder.action.continue') } : undefined;
      notifier
        .notify({ title, body, ...(action ? { action } : {}) }, (actionID) => {
          if (actionID !== 'continue') return;
          try {
            continueLast();
            changed();
          } catch (error) {
            console.error(`tock: continue from the reminder: ${error instanceof Error ? error.message : String(error)}`);
          }
        })
        .catch((error: unknown) => {
          console.error(`tock: reminder not shown (${error instanceof Error ? error.message : String(error)})`);
        });
    },
  });

  // Only while a session runs does a poll run a helper: the tracker's status is kept in memory
  // between writes, so a poll while nothing runs reads no SQL and spawns nothing. An episode
  // already noticed is still polled, so the watch sees the session end and forgets it.
  const pollIdle = async (): Promise<void> => {
    if (tracker.getTracking().isTracking || watch.idleSince !== null) await watch.poll();
  };

  const report = (message: string): void => console.error(`tock: ${message}`);
  const act = (action: TrayAction): void => {
    switch (action.kind) {
      case 'stop':
        tracker.stopActivity();
        break;
      case 'break':
        tracker.startBreak();
        break;
      case 'resume':
        tracker.resumeBreak();
        break;
      case 'continue':
        // The window's Continue (within a minute of a stop it resumes that session). A click
        // on a Continue naming another activity than Continue would now is an item since gone.
        if (tracker.continueCandidate()?.activityID !== action.activityID) return;
        continueLast();
        break;
      case 'start':
        tracker.startActivity({ activityID: action.activityID });
        break;
      case 'log':
        options.openWindow?.('/today');
        return;
      case 'open':
        options.openWindow?.();
        return;
      case 'quit':
        options.quit?.();
        return;
    }
    options.onTracked?.();
    changed();
  };
  const trayFactory =
    options.tray ??
    (platform === 'linux' && options.timers !== false
      ? statusNotifierTray({ env, ...(options.iconThemePath ? { iconThemePath: options.iconThemePath } : {}), onError: report })
      : noTray);
  const trayFeed = new TrayFeed({
    store,
    tracker,
    clock,
    factory: trayFactory,
    act,
    onStateChange: changed,
    onError: report,
    env,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.trayTimers ? { timers: options.trayTimers } : {}),
  });
  trayFeed.setEnabled(settings.tray);

  // The idle poll and the reminder wake only while they have something to do (wakes.ts): the
  // store's writes (what is tracked) and the settings set them again; nothing polls for those.
  const wakeTimers = options.wakeTimers ?? unrefTimeouts;
  const wakes = new DesktopWakes({
    timers: wakeTimers,
    pollWanted: () => {
      // After every write: the tracking state alone, not today's total (which a write makes
      // the status count again over every block of the day).
      const tracking = tracker.getTracking();
      return (tracking.isTracking && !tracking.isOnBreak && settings.idleThresholdMinutes > 0) || watch.idleSince !== null;
    },
    poll: pollIdle,
    pollEveryMs: IDLE_POLL_MS,
    reminderInMs: () => reminder.nextCheckInMs(),
    checkReminder: () => reminder.check(),
  });
  let unsubscribeWrites = (): void => {};
  let firstProbe: unknown = null;
  if (options.timers !== false) {
    // A write is heard at once, perhaps inside its transaction: look when the task that wrote
    // ends, once however many rows (a group commit of Store.durably is heard once committed,
    // and a look before the next requests are read never ends the next group early).
    let heard = false;
    unsubscribeWrites = store.onWrite(() => {
      if (heard) return;
      heard = true;
      queueMicrotask(() => {
        heard = false;
        wakes.update();
      });
    });
    wakes.update();
    const probe = (): void => {
      firstProbe = null;
      if (!reader.probed) void reader.probe().then(changed, () => {});
    };
    if (options.firstProbeAfterMs === undefined) probe();
    else firstProbe = wakeTimers.setTimeout(probe, options.firstProbeAfterMs);
  }

  return {
    settings: shown,
    updateSettings(patch) {
      settings = updateDesktopSettings(settings, patch);
      saved = savedDesktopSettings(saved, settings, patch);
      store.settings.set(SETTINGS_KEY, saved);
      trayFeed.setEnabled(settings.tray);
      if (options.timers !== false) wakes.update();
      changed();
      return shown();
    },
    view() {
      // What Continue would start or resume now (core: a crumb stopped within the minute too).
      const last = tracker.continueCandidate();
      return {
        settings: shown(),
        idleSource: !reader.probed
          ? { state: 'checking', name: null, hints: [] }
          : reader.source
            ? { state: 'found', ...(reader.source.id === undefined ? {} : { id: reader.source.id }), name: reader.source.name, hints: [] }
            : { state: 'none', name: null, hints: idleHints() },
        idleQuestion: watch.pending(),
        continueActivity: last ? { activityID: last.activityID, activityName: last.activityName } : null,
        notifier: notifier.name,
        ...(notifier.id === undefined ? {} : { notifierID: notifier.id }),
        tray: trayFeed.state(),
      };
    },
    pendingIdle: () => watch.pending(),
    answerIdle: (choice, questionID) => watch.answer(choice, questionID),
    continueLast() {
      const started = continueLast();
      changed();
      return started;
    },
    notifyBudget(crossing) {
      notifier.notify(budgetNotification(crossing, messages())).catch((error: unknown) => {
        console.error(`tock: budget notification not shown (${error instanceof Error ? error.message : String(error)})`);
      });
    },
    onIdleNoticed(listener) {
      idleListeners.add(listener);
      return () => idleListeners.delete(listener);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    pollIdle,
    checkReminder: () => reminder.check(),
    async probeIdleSources() {
      await reader.probe();
      changed();
    },
    idleReader: reader,
    trayFeed,
    async stop() {
      unsubscribeWrites();
      if (firstProbe !== null) wakeTimers.clearTimeout(firstProbe);
      wakes.stop();
      aborter.abort();
      notifier.close?.();
      await trayFeed.stop();
    },
  };
}

