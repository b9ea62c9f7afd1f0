/**
 * Capture on the desktop (docs/desktop.md "Capture"): while `windows` is on, follows the
 * focused window through the first focus source that works here (sway, GNOME, KDE, X11),
 * reads the idle source every 15 s to turn idleness into `idle` spans, and stores spans as
 * they end (recorder.ts); a lock of the screen (lock.ts) ends the open span at once and a
 * sleep of the machine ends it where the sleep began. Offers
 * the settings, the status (which source works, and why each other does not), a day's
 * timeline with the open span, forgetting a range of days, and the GNOME extension's
 * install. The window source is off by default: nothing is followed, no helper runs and no
 * timer ticks until `tock capture on`.
 */
import {
  forgetCapture,
  localDayKey,
  readCaptureSettings,
  recordSpan,
  setCaptureSetting,
  timeline,
  type CaptureSettings,
  type RecordedSpan,
  type Store,
  type Timeline,
} from '@tock/core';
import { IdleReader } from '../idle/watch.ts';
import type { IdleSource } from '../idle/sources.ts';
import type { BusReportHooks } from './dbus.ts';
import { installGnomeExtension, type GnomeExtensionInstall } from './gnome.ts';
import { screenSaverLockWatch, type LockFollower, type LockWatch } from './lock.ts';
import { CAPTURE_IDLE_POLL_MS, nextIdleReadInMs } from './idle-reads.ts';
import { CaptureRecorder } from './recorder.ts';
import type { CaptureStatus } from '../view.ts';
import { focusSourcesFor, whyNot, type FocusFollower, type FocusSource, type FocusSourceContext, type FocusSourceStatus } from './sources.ts';

/** After the source stopped working (or none did), try again this much later. */
const RETRY_MS = 60_000;
/** Idleness counts after this long when the desktop's idle question is off (threshold 0). */
const DEFAULT_IDLE_MS = 10 * 60_000;

export type { CaptureStatus, FocusSourceStatus } from '../view.ts';

/** What {@link createCapture} needs; tests inject sources, idle sources and the clock. */
export interface CaptureOptions {
  store: Store;
  clock: () => number;
  env: NodeJS.ProcessEnv;
  homeDir: string;
  platform?: NodeJS.Platform;
  /** The focus sources, best first (default: this platform's), given the titles setting and the ignored reports' counter. */
  focusSources?: (hooks: Required<BusReportHooks>) => FocusSource[] | Promise<FocusSource[]>;
  /** The idle sources (default: none: capture then records no idle spans). */
  idleSources?: (signal: AbortSignal) => readonly IdleSource[];
  /**
   * The desktop's idle reader, shared so that `tock capture status` and `tock idle` name the same
   * source (docs/desktop.md "Idle time"); given, `idleSources` is not read.
   */
  idleReader?: IdleReader;
  /** The screen's lock (default: the session bus's screensavers; null: none). */
  lockWatch?: LockWatch | null;
  /** Idleness longer than this is an idle span (the desktop's idle threshold). */
  idleThresholdMs?: () => number;
  /** IANA zone of the days (default: the process's). */
  timeZone?: () => string;
  /**
   * The GNOME Shell extension's files, what `tock capture gnome-extension install` copies (default:
   * the checkout's, beside gnome.ts; the app passes its one resolver's PACKAGE_FILES.gnomeExtension).
   */
  gnomeExtensionDir?: string;
  /** Idle poll and retry timers (default true). */
  timers?: boolean;
  onChange?: () => void;
  onError?: (message: string) => void;
}

/** The capture part of the running app. */
export interface Capture {
  settings(): CaptureSettings;
  /** Sets one setting (`tock capture set KEY VALUE`); `windows` starts or stops following. */
  set(key: string, value: unknown): Promise<CaptureStatus>;
  status(): Promise<CaptureStatus>;
  /** A local day's spans with the open one (default: today). */
  timeline(day?: string): Timeline;
  /** The span the window source has open (not stored until it ends), for suggestions. */
  openSpans(): RecordedSpan[];
  /** Deletes the spans and heartbeats of the local days `fromDay`..`toDay`. */
  forget(fromDay: string, toDay: string): { spans: number; heartbeats: number };
  installGnomeExtension(): Promise<GnomeExtensionInstall>;
  /** One idle poll now (what the timer does). */
  pollIdle(): Promise<void>;
  /**
   * The machine slept from `fromMs` to `toMs` (the app's clock tells it, clock-steps.ts): the
   * open window span ends where the sleep began and begins again at resume. Reads no clock.
   */
  slept(fromMs: number, toMs: number): void;
  /** Resolves once the window source has been started (or found missing) after the last change. */
  settled(): Promise<void>;
  stop(): void;
}

/** Creates the capture part; starts following when `windows` is on. */
export function createCapture(options: CaptureOptions): Capture {
  const { store, clock, env } = options;
  const zone = options.timeZone ?? (() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const aborter = new AbortController();
  const onError = options.onError ?? ((message: string) => console.error(`tock: capture: ${message}`));
  const changed = options.onChange ?? (() => {});
  let ignoredReports = 0;
  const settingsListeners = new Set<() => void>();
  // The bus sources read titles at each report and count the reports they refuse; the count
  // is not a change the window must hear of (a flood of forged reports makes no events).
  const hooks: Required<BusReportHooks> = {
    titles: () => readCaptureSettings(store.settings).titles,
    onSettingsChanged: (listener) => {
      settingsListeners.add(listener);
      return () => void settingsListeners.delete(listener);
    },
    ignored: () => {
      ignoredReports++;
    },
  };
  const sources = (): FocusSource[] | Promise<FocusSource[]> => {
    if (options.focusSources) return options.focusSources(hooks);
    const context: FocusSourceContext & BusReportHooks = { env, homeDir: options.homeDir, ...hooks };
    return focusSourcesFor(options.platform ?? process.platform, context);
  };
  const recorder = new CaptureRecorder({
    clock,
    settings: () => readCaptureSettings(store.settings),
    write: (span) => {
      try {
        recordSpan(store, span);
      } catch (error) {
        onError(`a span was not stored (${error instanceof Error ? error.message : String(error)})`);
      }
    },
  });
  const idleReader = options.idleReader ?? (options.idleSources ? new IdleReader({ candidates: () => options.idleSources?.(aborter.signal) ?? [], clock }) : null);
  const idleThreshold = (): number => options.idleThresholdMs?.() || DEFAULT_IDLE_MS;

  let follower: FocusFollower | null = null;
  let lockFollower: LockFollower | null = null;
  const lockWatch = options.lockWatch === undefined ? screenSaverLockWatch(env) : options.lockWatch;
  let active: FocusSource | null = null;
  let state: CaptureStatus['state'] = 'off';
  let starting: Promise<void> = Promise.resolve();
  let generation = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  // The follower's idle watch (GNOME) and the threshold it was set for; null: capture reads.
  let idleWatch: { stop(): void; thresholdMs: number } | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let stopped = false;

  const stopFollowing = (): void => {
    generation++;
    idleWatch?.stop();
    idleWatch = null;
    follower?.stop();
    follower = null;
    lockFollower?.stop();
    lockFollower = null;
    active = null;
    recorder.pause();
    if (idleTimer) clearTimeout(idleTimer);
    if (retryTimer) clearTimeout(retryTimer);
    idleTimer = retryTimer = null;
  };

  const retryLater = (): void => {
    if (options.timers === false || stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      starting = startFollowing();
    }, RETRY_MS);
    retryTimer.unref();
  };

  const startFollowing = async (): Promise<void> => {
    const mine = ++generation;
    state = 'starting';
    const list = await sources();
    for (const source of list) {
      if (mine !== generation) return;
      try {
        const f = await source.follow(
          (window) => {
            if (mine === generation) recorder.focus(window);
          },
          (reason) => {
            if (mine !== generation) return;
            onError(`${source.name} stopped: ${reason}`);
            stopFollowing();
            state = 'none';
            changed();
            retryLater();
          },
        );
        if (mine !== generation) {
          f.stop();
          return;
        }
        follower = f;
        active = source;
        state = 'following';
        await watchIdle(mine);
        if (idleReader && options.timers !== false) scheduleIdleRead(mine, CAPTURE_IDLE_POLL_MS);
        await followLock(mine);
        changed();
        return;
      } catch {
        // The next source; the status says why this one does not work.
      }
    }
    if (mine !== generation) return;
    state = 'none';
    changed();
    retryLater();
  };

  // Without a session bus (or a screensaver on it) the idle threshold still ends the span.
  const followLock = async (mine: number): Promise<void> => {
    if (lockWatch === null) return;
    try {
      const f = await lockWatch.follow(
        (locked) => {
          if (mine === generation) recorder.locked(locked);
        },
        () => hooks.ignored(),
      );
      if (mine === generation) lockFollower = f;
      else f.stop();
    } catch {
      // Nothing to follow here.
    }
  };

  // The follower's idle watch when it offers one: then nothing is read every 15 s. False when
  // it offers none or it cannot be set (capture reads instead).
  const watchIdle = async (mine: number): Promise<boolean> => {
    const f = follower;
    if (!f?.watchIdle) return false;
    const thresholdMs = idleThreshold();
    try {
      const handle = await f.watchIdle(
        thresholdMs,
        () => {
          if (mine === generation) recorder.idleSince(clock() - thresholdMs);
        },
        () => {
          if (mine === generation && recorder.idle) recorder.active(clock());
        },
      );
      if (mine !== generation) {
        handle.stop();
        return false;
      }
      idleWatch?.stop();
      idleWatch = { stop: () => handle.stop(), thresholdMs };
      return true;
    } catch {
      return false;
    }
  };

  // One idle read, then the next set by what it found (nextIdleReadInMs), never on an interval.
  const scheduleIdleRead = (mine: number, inMs: number): void => {
    idleTimer = setTimeout(() => {
      idleTimer = null;
      void readIdle()
        .catch(() => null)
        .then((idleMs) => {
          if (mine !== generation || stopped || active === null) return;
          scheduleIdleRead(mine, nextIdleReadInMs({ idleMs: idleMs ?? null, thresholdMs: idleThreshold(), away: recorder.idle && !recorder.screenLocked, watched: idleWatch !== null || recorder.screenLocked }));
        });
    }, inMs);
    idleTimer.unref();
  };

  /** Reads idleness once and records it; the reading, or null when watched or none came. */
  const readIdle = async (): Promise<number | null> => {
    if (active === null) return null;
    if (idleWatch !== null) {
      // Watched: nothing to read, unless the threshold changed and the watch must be set again.
      if (idleWatch.thresholdMs === idleThreshold()) return null;
      const old = idleWatch;
      idleWatch = null;
      old.stop();
      if (await watchIdle(generation)) return null;
    }
    // The source's own connection first (GNOME, KDE: no helper process per read), else the idle sources.
    const viaSource = follower?.idleMs?.bind(follower);
    if (!idleReader && !viaSource) return null;
    let idleMs: number | null;
    try {
      idleMs = viaSource ? await viaSource().catch(() => idleReader?.read() ?? null) : ((await idleReader?.read()) ?? null);
    } catch {
      return null;
    }
    if (idleMs === null) return null;
    const now = clock();
    if (idleMs >= idleThreshold()) recorder.idleSince(now - idleMs);
    else if (recorder.idle) recorder.active(now - idleMs);
    return idleMs;
  };
  const pollIdle = async (): Promise<void> => void (await readIdle());

  const apply = (): void => {
    const wanted = readCaptureSettings(store.settings).windows;
    if (wanted && state === 'off') starting = startFollowing();
    else if (!wanted && state !== 'off') {
      stopFollowing();
      state = 'off';
    } else recorder.refresh();
  };

  const status = async (): Promise<CaptureStatus> => {
    const list = await sources();
    const checked = await Promise.all(
      list.map(async (s): Promise<FocusSourceStatus> => {
        const why = s === active ? null : await whyNot(s);
        // One that works may still have something to say: an older GNOME extension to install again.
        const reason = why ?? (await s.notice?.().catch(() => null)) ?? null;
        if (reason === null) return { id: s.id, name: s.name, works: true, reason: null };
        return { id: s.id, name: s.name, works: why === null, reason: reason.text, ...(reason.code === 'other' ? {} : { reasonCode: reason.code, reasonValues: reason.values }) };
      }),
    );
    // Not probed yet (capture off, timers off): probe now rather than say none answers.
    if (idleReader && !idleReader.probed) await idleReader.probe().catch(() => null);
    return {
      settings: readCaptureSettings(store.settings),
      state,
      source: active ? { id: active.id, name: active.name } : null,
      sources: checked,
      idleSource: idleReader?.source?.name ?? null,
      ...(idleReader?.source?.id === undefined ? {} : { idleSourceID: idleReader.source.id }),
      ignoredReports,
    };
  };

  apply();

  return {
    settings: () => readCaptureSettings(store.settings),
    async set(key, value) {
      setCaptureSetting(store.settings, key, value);
      apply();
      for (const listener of settingsListeners) listener();
      await starting;
      changed();
      return status();
    },
    status,
    openSpans() {
      const open = recorder.openSpan();
      return open ? [open] : [];
    },
    timeline(day) {
      const timeZone = zone();
      const open = recorder.openSpan();
      return timeline(store, { day: day ?? localDayKey(clock(), timeZone), timeZone, nowMs: clock(), open: open ? [open] : [] });
    },
    forget(fromDay, toDay) {
      const { spans, heartbeats, fromMs, toMs } = forgetCapture(store, fromDay, toDay, zone());
      recorder.forget(fromMs, toMs);
      changed();
      return { spans, heartbeats };
    },
    installGnomeExtension: () => installGnomeExtension(env, undefined, options.gnomeExtensionDir),
    pollIdle,
    slept: (fromMs, toMs) => recorder.slept(fromMs, toMs),
    settled: () => starting,
    stop() {
      stopped = true;
      stopFollowing();
      state = 'off';
      aborter.abort();
    },
  };
}
