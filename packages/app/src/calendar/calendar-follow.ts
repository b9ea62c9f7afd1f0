/**
 * Following the calendars' files (docs/calendar.md "Following changes"), for calendars.ts: each
 * calendar's folder watched (a file through its folder: calendar programs replace files rather
 * than write them in place, and a watch of the file itself ends with the first replacement), a
 * change read after {@link DEBOUNCE_MS} of quiet, and where watching is not possible — `fs.watch`
 * fails, or the folder is gone until it is made again — a check every {@link FALLBACK_CHECK_MS}.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';

/** A change is read after this much quiet (ms). */
export const DEBOUNCE_MS = 500;
/** Where watching is not possible, the files are checked this often (ms). */
export const FALLBACK_CHECK_MS = 3_000;

/** The timers the service runs on (injected by tests). */
export interface CalendarTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Watching a folder; tests pass one that throws to exercise the fallback check. */
export type WatchFile = (path: string, onChange: () => void) => { close(): void };

export const realTimers: CalendarTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

export const nodeWatch = (path: string, onChange: () => void): FSWatcher => {
  const watcher = watch(path, { persistent: false }, onChange);
  watcher.on('error', () => watcher.close());
  return watcher;
};

/** Follows the folders it is given; tells `changed` (debounced) when one changed. */
export interface Follower {
  /** Watches these folders (by calendar id), and no others. */
  follow(folders: ReadonlyMap<string, string>): void;
  /**
   * Follows again when a folder went or came back, or is another folder now (an export made
   * afresh): a watch ends with its folder, and a missing one is checked until it is back.
   */
  followAgainIfMoved(folders: ReadonlyMap<string, string>): void;
  stop(): void;
}

/** Where `path` is on its disk now, or `missing`. */
function identity(path: string): string {
  try {
    const stats = statSync(path);
    return `${path}\0${stats.dev}:${stats.ino}`;
  } catch {
    return `${path}\0missing`;
  }
}

export function createFollower(timers: CalendarTimers, watchFile: WatchFile, changed: () => void): Follower {
  const watchers = new Map<string, { close(): void }>();
  let fallback: unknown;
  let debounce: unknown;
  /** What was followed, by calendar id; undefined until {@link Follower.follow} first runs. */
  let followed: Map<string, string> | undefined;

  const soon = (): void => {
    if (debounce !== undefined) timers.clearTimeout(debounce);
    debounce = timers.setTimeout(() => {
      debounce = undefined;
      changed();
    }, DEBOUNCE_MS);
  };
  const unwatch = (): void => {
    for (const w of watchers.values()) w.close();
    watchers.clear();
    if (fallback !== undefined) timers.clearInterval(fallback);
    fallback = undefined;
  };

  const follower: Follower = {
    follow(folders) {
      unwatch();
      followed = new Map([...folders].map(([id, path]) => [id, identity(path)]));
      let watched = true;
      for (const [id, path] of folders) {
        try {
          watchers.set(id, watchFile(path, soon));
        } catch {
          watched = false;
        }
      }
      if (!watched) fallback = timers.setInterval(soon, FALLBACK_CHECK_MS);
    },
    followAgainIfMoved(folders) {
      const was = followed;
      if (was === undefined) return;
      if (folders.size !== was.size || [...folders].some(([id, path]) => was.get(id) !== identity(path))) follower.follow(folders);
    },
    stop() {
      unwatch();
      followed = undefined;
      if (debounce !== undefined) timers.clearTimeout(debounce);
      debounce = undefined;
    },
  };
  return follower;
}
