/**
 * The window's picture of the app: one snapshot from `/api/state`, kept current by the
 * event stream (`/api/events`). Components read it with {@link useAppState}; `blocksVersion`
 * goes up whenever tracked time changed anywhere, so timelines and charts know to reload, and
 * with it comes the one list of every activity that every view reads ({@link useActivities}),
 * read again only when the app said it changed (the feed's `activities`).
 */
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { messageOf, request } from './api.ts';
import { browserLanguage, setWindowLanguage, windowLanguageLoaded } from './i18n/index.ts';
import { setActivityOrder } from './colors.ts';
import { hasSession, type SessionProblem, sessionHeaders, startSession } from './session.ts';
import { setAppClock, setClockFormat, setPersonDays } from './time.ts';
import type { ActivityInfo, Snapshot, Status } from './types.ts';

export interface AppState {
  snapshot: Snapshot | null;
  /** When (by this browser's clock) the status was received: live clocks count from here. */
  statusAt: number;
  blocksVersion: number;
  /**
   * Every activity, archived ones too, as read for this `blocksVersion` (null until the first
   * read): one read a change for every view, where each view once read its own.
   */
  activities: ActivityInfo[] | null;
  /** Why the last read of the activities failed (the list before it stays). */
  activitiesError: string | null;
  /** Goes up when capture's settings or data changed (a reload of what it shows). */
  captureVersion: number;
  /** Goes up when clients, an activity's or a block's ledger fields, or the ledger's settings changed. */
  ledgerVersion: number;
  /**
   * `expired`: this tab's session is gone (30 days without use, or the app's sessions file lost);
   * `no-session`: this tab never got one (a new tab, a used or expired launch code).
   */
  connection: 'connecting' | 'open' | 'lost' | 'expired' | 'no-session';
  /** Why there is no session (`no-session`), in the app's words. */
  sessionProblem: SessionProblem | null;
  loadError: string | null;
}

let state: AppState = {
  snapshot: null,
  statusAt: Date.now(),
  blocksVersion: 0,
  activities: null,
  activitiesError: null,
  captureVersion: 0,
  ledgerVersion: 0,
  connection: 'connecting',
  sessionProblem: null,
  loadError: null,
};
const listeners = new Set<() => void>();

function set(patch: Partial<AppState>): void {
  // Every time of day follows the clock setting: learn it before views redraw.
  if (patch.snapshot) setClockFormat(patch.snapshot.desktop?.settings.clockFormat);
  // Today and the week are the person's (dayStartsAt, weekStart): learn them before views redraw.
  if (patch.snapshot) setPersonDays(patch.snapshot.dayStartsAt, patch.snapshot.weekStart);
  // The language follows the app's setting `language`: a new one redraws the window's text.
  if (patch.snapshot) setWindowLanguage(patch.snapshot.language);
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

/** Patches the snapshot (none before the first: {@link connect}'s load lays what the stream brought over it). */
function patchSnapshot(patch: Partial<Snapshot>): void {
  if (!state.snapshot) return;
  set({ snapshot: { ...state.snapshot, ...patch }, ...('status' in patch ? { statusAt: Date.now() } : {}) });
}

/** The snapshot's parts the event stream brings whole, as they change. */
const TOPICS = new Set(['status', 'listener', 'token', 'requests', 'license', 'prompts', 'desktop', 'sync']);

/**
 * How many topic events the event stream has brought, and per topic the last one: its value, its
 * count, and when it came (the status's is where live clocks count from).
 */
let topicEvents = 0;
const streamed = new Map<string, { value: unknown; event: number; at: number }>();

/**
 * The topics the event stream brought after its first `seen` topic events, and when the status
 * came if it is one of them: what an answer that carries topics (the snapshot, `GET /api/status`)
 * gives way to when it was asked for at `seen`. The stream's are as new or newer: the stream
 * brings every change in order, and the answer, made before a change the stream has shown (a
 * switch or the listener turned on from the CLI, the next click), would take it back until that
 * topic's next event, which may never come.
 */
function streamedSince(seen: number): { topics: Partial<Snapshot>; statusAt: number | undefined } {
  const topics: Record<string, unknown> = {};
  for (const [topic, last] of streamed) if (last.event > seen) topics[topic] = last.value;
  const status = streamed.get('status');
  return { topics: topics as Partial<Snapshot>, statusAt: status && status.event > seen ? status.at : undefined };
}

/**
 * Asks the app for its status and shows it before the event arrives (after a change made in
 * this window) — unless the event stream brought one while the answer was on its way.
 */
export async function refreshStatus(): Promise<void> {
  const seen = topicEvents;
  const status = await request('GET /api/status');
  if (!('status' in streamedSince(seen).topics)) patchSnapshot({ status });
}

/** Whether the activities are being read, and whether tracked time changed again since that read was asked for. */
let readingActivities = false;
let changedWhileReading = false;
/**
 * Whether the list of activities is to be read with the next change: until the first read, after
 * the feed's `activities` (the app saw a row made, renamed, archived, merged, removed or used on
 * another day), after a reconnect (the app may have changed anything), after a failed read.
 */
let activitiesStale = true;

/**
 * Tells every view that tracked time changed (after an edit made in this window, or the live
 * feed's `blocks`). When the activities changed too ({@link activitiesChanged}) they are read
 * first, once for every view, and come with the new `blocksVersion` — colors learnt before views
 * redraw; otherwise the list stays (a start, a stop, an entry leave it as shown: at 20 000
 * activities a read is 40–60 ms of the app's CPU). A change while a read is on its way asks for
 * one more turn once it is back, not one each: that read was asked for before the change and may
 * not hold it, while one after it holds every change made until then (a window's own write brings
 * three calls: its own and the feed's two `blocks`). One read at a time also means an older list
 * never comes after a newer one.
 */
export function blocksChanged(): void {
  if (readingActivities) {
    changedWhileReading = true;
    return;
  }
  if (!activitiesStale) {
    set({ blocksVersion: state.blocksVersion + 1 });
    return;
  }
  activitiesStale = false;
  readingActivities = true;
  void request('GET /api/activities/all')
    .then(
      (activities): Partial<AppState> => {
        setActivityOrder(activities);
        return { activities, activitiesError: null };
      },
      (error: unknown): Partial<AppState> => {
        // The next change tries again.
        activitiesStale = true;
        return { activitiesError: messageOf(error) };
      },
    )
    .then((read) => {
      readingActivities = false;
      set({ ...read, blocksVersion: state.blocksVersion + 1 });
      if (changedWhileReading) {
        changedWhileReading = false;
        blocksChanged();
      }
    });
}

/**
 * The list of activities changed (the live feed's `activities`: a row made, renamed, archived,
 * merged, removed or used on another day, here or anywhere else), or may have (a reconnect): it
 * is read again, and every view told as by {@link blocksChanged}.
 */
export function activitiesChanged(): void {
  activitiesStale = true;
  blocksChanged();
}

/** Tells every view that capture changed (settings, forgotten days). */
export function captureChanged(): void {
  set({ captureVersion: state.captureVersion + 1 });
}

/** Tells every view that the ledger changed (clients, rates, tags, targets, the setting `language`). */
export function ledgerChanged(): void {
  set({ ledgerVersion: state.ledgerVersion + 1 });
  // The language, the day's and the week's start are ledger settings: learn what the app resolves them to now.
  void request('GET /api/state').then(
    (snapshot) => patchSnapshot({ language: snapshot.language, dayStartsAt: snapshot.dayStartsAt, weekStart: snapshot.weekStart }),
    () => {},
  );
}

/** Redeems the launch code, loads the snapshot and opens the event stream; reconnects on its own. */
export async function connect(): Promise<void> {
  const problem = await startSession();
  if (problem !== null) {
    // A tab that simply has none gets the window's own how-to line; a refused code says why —
    // in the browser's language, since without a session the app's setting is not known here.
    setWindowLanguage(browserLanguage(navigator.languages.length > 0 ? navigator.languages : [navigator.language]));
    set({ connection: 'no-session', sessionProblem: problem.code === 'no_session' ? null : problem });
    return;
  }
  const load = async (): Promise<void> => {
    try {
      const seen = topicEvents;
      const snapshot = await request('GET /api/state');
      setAppClock(snapshot.timeZone, snapshot.now);
      // The first screen is drawn in the app's language, not English then redrawn.
      setWindowLanguage(snapshot.language);
      await windowLanguageLoaded();
      // The stream runs while the snapshot is on its way (it can beat the first, and always runs
      // after a reconnect): what it brought since stays.
      const since = streamedSince(seen);
      set({ snapshot: { ...snapshot, ...since.topics }, statusAt: since.statusAt ?? Date.now(), loadError: null });
      // The first load, or one after a reconnect (another launch of the app, perhaps): the list is read again.
      activitiesChanged();
    } catch (error) {
      set({ loadError: error instanceof Error ? error.message : String(error) });
    }
  };
  void load();
  void stream(load);
}

const RETRY_MS = 1000;

/**
 * The event stream, read through `fetch` (an `EventSource` cannot send the session header):
 * Server-Sent Events frames, parsed here; on any end or failure it reconnects after a second
 * and reloads the snapshot once it is back. A 401 means this tab's session is gone (sessions
 * last until 30 days without use, across restarts): this window cannot continue.
 */
async function stream(load: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      const res = await fetch('/api/events', { headers: sessionHeaders(), credentials: 'omit', cache: 'no-store' });
      if (res.status === 401) {
        set(hasSession() ? { connection: 'expired' } : { connection: 'no-session' });
        return;
      }
      if (res.ok && res.body) {
        // After a reconnect the app may have changed everything: reload the snapshot once.
        if (state.connection === 'lost') void load();
        set({ connection: 'open' });
        await readEvents(res.body);
      }
    } catch {
      // the app went away; try again below
    }
    set({ connection: 'lost' });
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

async function readEvents(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      dispatch(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
}

/** One frame: `event: <name>` and `data: <json>` lines (comments and `retry:` ignored). */
function dispatch(frame: string): void {
  let event = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return;
  if (event === 'blocks') blocksChanged();
  else if (event === 'activities') activitiesChanged();
  else if (event === 'capture') captureChanged();
  else if (event === 'ledger') ledgerChanged();
  else if (TOPICS.has(event)) {
    const value: unknown = JSON.parse(data.join('\n'));
    streamed.set(event, { value, event: ++topicEvents, at: Date.now() });
    patchSnapshot({ [event]: value } as Partial<Snapshot>);
  }
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

/**
 * Every activity, archived ones too (null until the first read), and why the last read failed:
 * the list read once a change for every view (see {@link blocksChanged}). Shared — a view that
 * sorts or filters it does so on a copy.
 */
export function useActivities(): { activities: ActivityInfo[] | null; error: string | null } {
  const { activities, activitiesError } = useAppState();
  return { activities, error: activitiesError };
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
