/**
 * Loading what a screen shows from the window's API: again whenever what it depends on changes
 * (the day, the week, `blocksVersion` after any window changed tracked time), and only the
 * newest answer counts — a slower, older load that lands after a newer one, or after the screen
 * closed, is dropped instead of showing stale data.
 */
import { useEffect, useState } from 'preact/hooks';
import { messageOf } from './api.ts';

/** What a screen loaded: the last answer (or `initial`), the last failure's one line, and a setter for local changes. */
export interface Loaded<T> {
  data: T;
  error: string | null;
  /** Changes the shown data at once (the next load brings the app's version of it). */
  setData(update: (current: T) => T): void;
}

/** Runs `load` whenever `deps` change; a success clears the error, a failure keeps the last data. */
export function useLoaded<T>(load: () => Promise<T>, deps: readonly unknown[], initial: T): Loaded<T> {
  const [data, setData] = useState<T>(initial);
  const [error, setError] = useState<string | null>(null);
  // The caller names what the load depends on: `deps`, as with useEffect itself.
  useEffect(() => {
    let live = true;
    load()
      .then((value) => {
        if (!live) return;
        setData(() => value);
        setError(null);
      })
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, deps);
  return { data, error, setData: (update) => setData(update) };
}
