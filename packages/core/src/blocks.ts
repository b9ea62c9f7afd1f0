/**
 * Blocks of tracked time as the UI sees them — sessions (timed, with breaks) and entries
 * (logged after the fact) — and the interval arithmetic they share.
 */

import type { ActivityRef } from '@tock/protocol';

/** A pause inside a session. `endedAt` is null while the break is on. */
export interface BreakSpan {
  startedAt: string;
  endedAt: string | null;
}

/**
 * One block of tracked time. `seconds` is the worked time of the whole block (breaks left
 * out; a running session counts up to now). Sessions have `note: null` and
 * `durationMinutes: null`; entries have `breaks: []` and always an `endedAt`.
 */
export interface Block {
  id: string;
  kind: 'session' | 'entry';
  activity: ActivityRef;
  startedAt: string;
  endedAt: string | null;
  seconds: number;
  note: string | null;
  durationMinutes: number | null;
  breaks: BreakSpan[];
  /** The device it was made on when that is another device (sync, docs/sync.md); absent for this one's. */
  device?: string;
}

/** Milliseconds that `[start, end)` and `[from, to)` have in common. */
export function overlapMs(start: number, end: number, from: number, to: number): number {
  return Math.max(0, Math.min(end, to) - Math.max(start, from));
}

/** Whole seconds in a duration of milliseconds (rounded down, never negative). */
export function wholeSeconds(ms: number): number {
  return Math.max(0, Math.floor(ms / 1000));
}
