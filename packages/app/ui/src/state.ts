/**
 * The window's picture of the app: one snapshot from `/api/state`, kept current by the
 * event stream (`/api/events`). Components read it with {@link useAppState}; `blocksVersion`
 * goes up whenever tracked time changed anywhere, so timelines and charts know to reload.
 */
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { api, ApiError } from './api.ts';
import { setActivityOrder } from './colors.ts';
import { setAppClock } from './time.ts';
import type { Snapshot, Status } from './types.ts';

export interface AppState {
  snapshot: Snapshot | null;
  /** When (by this browser's clock) the status was received: live clocks count from here. */
  statusAt: number;
  blocksVersion: number;
  /** `expired`: the app restarted, and this window's session belongs to the earlier launch. */
  connection: 'connecting' | 'open' | 'lost' | 'expired';
  loadError: string | null;
}

let state: AppState = { snapshot: null, statusAt: Date.now(), blocksVersion: 0, connection: 'connecting', loadError: null };
const listeners = new Set<() => void>();

function set(patch: Partial<AppState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

function patchSnapshot(patch: Partial<Snapshot>): void {
  if (!state.snapshot) return;
  set({ snapshot: { ...state.snapshot, ...patch }, ...('status' in patch ? { statusAt: Date.now() } : {}) });
}

/** Applies a status the window got back from its own request, before the event arrives. */
export function applyStatus(status: Status): void {
  patchSnapshot({ status });
}

/** Tells every view that tracked time changed (after an edit made in this window). */
export function blocksChanged(): void {
  // Colors follow creation order: learn new activities before views redraw.
  void api
    .get<{ activityID: string; createdAt: string }[]>('/api/activities/all')
    .then(setActivityOrder, () => {})
    .finally(() => set({ blocksVersion: state.blocksVersion + 1 }));
}

/** Loads the snapshot and opens the event stream; reconnects on its own. */
export function connect(): void {
  const load = async (): Promise<void> => {
    try {
      const snapshot = await api.get<Snapshot>('/api/state');
      setAppClock(snapshot.timeZone, snapshot.now);
      set({ snapshot, statusAt: Date.now(), loadError: null });
      blocksChanged();
    } catch (error) {
      set({ loadError: error instanceof Error ? error.message : String(error) });
    }
  };
  void load();
  openStream(load);
}

function openStream(load: () => Promise<void>): void {
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    // After a reconnect the app may have changed everything: reload the snapshot once.
    if (state.connection === 'lost') void load();
    set({ connection: 'open' });
  });
  events.addEventListener('error', () => {
    set({ connection: 'lost' });
    if (events.readyState !== EventSource.CLOSED) return; // the browser retries on its own
    // The browser gives up on a stream the app refused (401 after a restart): find out why,
    // and try again later unless this window's session is gone for good.
    api.get('/api/status').then(
      () => setTimeout(() => openStream(load), 1000),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) set({ connection: 'expired' });
        else setTimeout(() => openStream(load), 1000);
      },
    );
  });
  for (const topic of ['status', 'listener', 'token', 'requests', 'license', 'prompts', 'desktop', 'sync'] as const) {
    events.addEventListener(topic, (event) => {
      patchSnapshot({ [topic]: JSON.parse((event as MessageEvent<string>).data) } as Partial<Snapshot>);
    });
  }
  events.addEventListener('blocks', () => blocksChanged());
}

/** The current state; re-renders the component when it changes. */
export function useAppState(): AppState {
  const [, force] = useState(0);
  const rendered = state;
  // A layout effect runs as the component is committed, not after the next frame: in a
  // background tab frames never come, and a snapshot arriving before a plain effect ran
  // would be missed, leaving the window on "Loading…" for good.
  useLayoutEffect(() => {
    const l = (): void => force((n) => n + 1);
    listeners.add(l);
    if (state !== rendered) l();
    return () => {
      listeners.delete(l);
    };
  }, []);
  return state;
}

/** Re-renders every `ms` milliseconds (for live clocks). */
export function useTick(ms: number, active = true): void {
  const [, force] = useState(0);
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => force((n) => n + 1), ms);
    return () => clearInterval(id);
  }, [ms, active]);
}

/** Live worked seconds from a status: counting while tracking and not on a break. */
export function liveSeconds(base: number, status: Status, statusAt: number): number {
  if (!status.isTracking || status.isOnBreak) return base;
  return base + (Date.now() - statusAt) / 1000;
}
