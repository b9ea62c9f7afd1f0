/**
 * What the user decides about time they spent away while a session ran (docs/desktop.md
 * "Idle time"): discard it (a break covers the idle span) or discard it and stop (the session
 * ends when the idleness began). Each is one transaction, so a crash leaves either the old
 * session or the answered one, never half of it. Keeping the time changes nothing and needs
 * no function here.
 */
import { Problem, ruleLine } from '@tock/protocol';
import type { Store } from './store.ts';

/** The idle span a question was about: which session, and from when to when (ms since the epoch). */
export interface IdleSpan {
  sessionID: string;
  fromMs: number;
  toMs: number;
}

/** What {@link discardIdleSpan} and {@link stopAtIdleStart} changed, for the caller to report. */
export interface IdleResolution {
  /** The session's activity name, for a one-line confirmation. */
  activityName: string;
  /** Milliseconds taken out of the session's worked time by this answer. */
  discardedMs: number;
}

interface SessionSpanRow {
  id: string;
  startedAt: number;
  endedAt: number | null;
  activityName: string;
}

interface BreakSpanRow {
  id: string;
  startedAt: number;
  endedAt: number | null;
}

function sessionOf(store: Store, sessionID: string): SessionSpanRow {
  const row = store
    .statement(
      `SELECT s.id AS id, s.started_at AS startedAt, s.ended_at AS endedAt, a.name AS activityName
         FROM sessions s JOIN activities a ON a.id = s.activity_id WHERE s.id = ?`,
    )
    .get(sessionID) as SessionSpanRow | undefined;
  if (!row) throw new Problem('validation_failed', ...ruleLine('session', { rule: 'idleSessionGone' }));
  return row;
}

function breaksOf(store: Store, sessionID: string): BreakSpanRow[] {
  return store
    .statement('SELECT id, started_at AS startedAt, ended_at AS endedAt FROM breaks WHERE session_id = ? ORDER BY started_at')
    .all(sessionID) as unknown as BreakSpanRow[];
}

/** Milliseconds of `[from, to]` not already covered by `breaks` (open ones run to `to`). */
function uncoveredMs(from: number, to: number, breaks: readonly BreakSpanRow[]): number {
  let covered = 0;
  let cursor = from;
  for (const b of breaks) {
    const start = Math.max(b.startedAt, cursor);
    const end = Math.min(b.endedAt ?? to, to);
    if (end > start) {
      covered += end - start;
      cursor = end;
    }
  }
  return Math.max(0, to - from - covered);
}

/**
 * Discards an idle span: one break covers `[fromMs, toMs]` clipped to the session, merged with
 * the breaks it overlaps or touches (an open break among them keeps the merged one open), in
 * one transaction. Throws `validation_failed` when the session is gone.
 */
export function discardIdleSpan(store: Store, span: IdleSpan): IdleResolution {
  return store.transaction(() => {
    const session = sessionOf(store, span.sessionID);
    const from = Math.max(span.fromMs, session.startedAt);
    const to = Math.min(span.toMs, session.endedAt ?? span.toMs);
    if (!(to > from)) return { activityName: session.activityName, discardedMs: 0 };
    const breaks = breaksOf(store, session.id);
    const discardedMs = uncoveredMs(from, to, breaks);
    let start = from;
    let end: number | null = to;
    const merged: string[] = [];
    for (const b of breaks) {
      const bEnd = b.endedAt ?? Number.POSITIVE_INFINITY;
      if (bEnd < from || b.startedAt > to) continue;
      merged.push(b.id);
      start = Math.min(start, b.startedAt);
      if (b.endedAt === null) end = null;
      else if (end !== null) end = Math.max(end, b.endedAt);
    }
    const remove = store.statement('DELETE FROM breaks WHERE id = ?');
    for (const id of merged) remove.run(id);
    store
      .statement('INSERT INTO breaks (id, session_id, started_at, ended_at) VALUES (?, ?, ?, ?)')
      .run(crypto.randomUUID(), session.id, start, end);
    return { activityName: session.activityName, discardedMs };
  });
}

/**
 * Discards an idle span and stops: the session ends at `fromMs` (not before its start; not
 * later than it already ended), and its breaks are cut to its new end, in one transaction.
 * `discardedMs` counts the worked time taken away up to `nowMs` (a running session's end).
 */
export function stopAtIdleStart(store: Store, span: IdleSpan, nowMs: number): IdleResolution {
  return store.transaction(() => {
    const session = sessionOf(store, span.sessionID);
    const oldEnd = session.endedAt ?? Math.max(nowMs, span.toMs, span.fromMs);
    const end = Math.min(Math.max(span.fromMs, session.startedAt), oldEnd);
    const breaks = breaksOf(store, session.id);
    const discardedMs = uncoveredMs(end, oldEnd, breaks);
    store.statement('DELETE FROM breaks WHERE session_id = ? AND started_at >= ?').run(session.id, end);
    store
      .statement('UPDATE breaks SET ended_at = ? WHERE session_id = ? AND (ended_at IS NULL OR ended_at > ?)')
      .run(end, session.id, end);
    store.statement('UPDATE sessions SET ended_at = ? WHERE id = ?').run(end, session.id);
    return { activityName: session.activityName, discardedMs };
  });
}

/**
 * The running session's ID and start, or null: the idle watch needs the ID to tie a question
 * to the session it is about (the status only names the activity).
 */
export function runningSessionSpan(store: Store): { sessionID: string; startedAt: number; onBreak: boolean } | null {
  const row = store
    .statement(
      `SELECT s.id AS id, s.started_at AS startedAt,
              EXISTS (SELECT 1 FROM breaks b WHERE b.session_id = s.id AND b.ended_at IS NULL) AS onBreak
         FROM sessions s WHERE s.ended_at IS NULL`,
    )
    .get() as { id: string; startedAt: number; onBreak: number } | undefined;
  return row ? { sessionID: row.id, startedAt: row.startedAt, onBreak: row.onBreak === 1 } : null;
}

/** The activity tracked last and when its block ended (null: its session still runs). */
export interface LastTracked {
  activityID: string;
  activityName: string;
  endedAtMs: number | null;
}

/**
 * The last block's activity of `[sessions or entries](activities)` that pass `where` (on the
 * activity `a`): each side reads its ended_at index from the end until one passes; a running
 * session wins.
 */
function lastTrackedSQL(where: string): string {
  const side = (table: string) =>
    `SELECT * FROM (SELECT b.activity_id, b.ended_at AS at FROM ${table} b JOIN activities a ON a.id = b.activity_id WHERE b.ended_at IS NOT NULL AND ${where} ORDER BY b.ended_at DESC LIMIT 1)`;
  return `SELECT a.id AS activityID, a.name AS activityName, t.at AS at FROM (
      SELECT * FROM (SELECT s.activity_id, 9e15 AS at FROM sessions s JOIN activities a ON a.id = s.activity_id WHERE s.ended_at IS NULL AND ${where})
      UNION ALL ${side('sessions')}
      UNION ALL ${side('entries')}
    ) t JOIN activities a ON a.id = t.activity_id
    ORDER BY t.at DESC LIMIT 1`;
}
const LAST_TRACKED = lastTrackedSQL('1');
const LAST_CONTINUABLE = lastTrackedSQL('a.archived = 0');

function lastOf(store: Store, sql: string): LastTracked | null {
  const row = store.statement(sql).get() as { activityID: string; activityName: string; at: number } | undefined;
  return row ? { activityID: row.activityID, activityName: row.activityName, endedAtMs: row.at >= 9e15 ? null : row.at } : null;
}

/**
 * The most recently tracked activity — the one whose session or entry ended last (a running
 * session counts as now) — or null when nothing was ever tracked. The reminder counts
 * untracked time from its end.
 */
export function lastTrackedActivity(store: Store): LastTracked | null {
  return lastOf(store, LAST_TRACKED);
}

/**
 * What `tock continue`, the window's and the tray's *Continue* start again: the most recently
 * tracked activity that is not archived (an archived one has left the tray and the pickers,
 * docs/product.md "Activities"), or null.
 */
export function lastContinuableActivity(store: Store): LastTracked | null {
  return lastOf(store, LAST_CONTINUABLE);
}
