/**
 * Change notifications for the status (docs/protocol.md "The event stream: `GET /events`"):
 * tells subscribers the new `GET /status` result after every change of `isTracking`,
 * `isOnBreak`, `currentActivity` (a rename included) or `since`, after every write that changes
 * today's total, and when the local day changes — and never because time alone passed.
 *
 * Core knows no HTTP and owns no timers: whoever runs it calls {@link StatusChanges.check}
 * after writes and on a timer. A check costs two comparisons while the store's generation and
 * the local day stay the same, so it can run after every request and every second.
 */

import type { Status } from '@tock/protocol';
import { localDayAt } from './day.ts';
import { systemTimeZone } from './zone.ts';

/** What {@link StatusChanges} reads. */
export interface StatusChangesOptions {
  /** The store's write counter ({@link Store.generation}): the status is recomputed only when it moved. */
  generation: () => number;
  /** The current status (the tracker's `getStatus`). */
  status: () => Status;
  /** Milliseconds since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** The IANA zone that decides "today". Default: the process's zone, read on each check. */
  timeZone?: () => string;
  /** When a day starts, minutes after midnight (the setting `dayStartsAt`). Default: midnight. */
  dayStartsAt?: () => number;
}

/** The last status computed, and when. */
interface Seen {
  status: Status;
  atMs: number;
  generation: number;
  dayEndMs: number;
  timeZone: string;
}

/**
 * Watches the status for changes that matter to a client; see the module comment. The first
 * {@link check} only takes the baseline.
 */
export class StatusChanges {
  readonly #options: StatusChangesOptions;
  readonly #clock: () => number;
  readonly #timeZone: () => string;
  readonly #listeners = new Set<(status: Status) => void>();
  #seen: Seen | null = null;

  constructor(options: StatusChangesOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#timeZone = options.timeZone ?? systemTimeZone;
  }

  /** Calls `listener` with each new status until the returned function is called. */
  subscribe(listener: (status: Status) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Forgets the last status seen: the next {@link check} only takes a new baseline. For when
   * nobody listens, so that no status is computed for nobody.
   */
  forget(): void {
    this.#seen = null;
  }

  /**
   * Compares the status with the last one seen, when a write happened or the day changed since,
   * and tells subscribers when it changed. Returns the new status when it did, else null.
   */
  check(): Status | null {
    const now = this.#clock();
    const generation = this.#options.generation();
    const seen = this.#seen;
    if (seen !== null && generation === seen.generation && now < seen.dayEndMs && now >= seen.atMs - DAY_SLACK_MS) {
      return null;
    }
    const status = this.#options.status();
    const timeZone = this.#timeZone();
    const day = localDayAt(now, timeZone, this.#options.dayStartsAt?.() ?? 0);
    this.#seen = { status, atMs: now, generation, dayEndMs: day.end, timeZone };
    if (seen === null) return null;
    const dayChanged = now >= seen.dayEndMs || timeZone !== seen.timeZone || now < seen.atMs - DAY_SLACK_MS;
    if (!dayChanged && !statusChanged(seen.status, seen.atMs, status, now)) return null;
    for (const listener of this.#listeners) listener(status);
    return status;
  }
}

/** A clock set back by more than this is treated as a day change (the day may be another one). */
const DAY_SLACK_MS = 1000;

/**
 * True when `after` differs from `before` other than by time passing. While a session runs
 * outside a break, today's total grows by one second per second; both totals are whole
 * seconds rounded down, so time alone moves it by the elapsed seconds ± less than one. A
 * write that changes the total by two seconds or more is always told apart; one of exactly
 * one second may be taken for rounding (docs/decisions.md "Event stream").
 */
export function statusChanged(before: Status, beforeAtMs: number, after: Status, afterAtMs: number): boolean {
  if (
    before.isTracking !== after.isTracking ||
    before.isOnBreak !== after.isOnBreak ||
    before.since !== after.since ||
    before.currentActivity?.activityID !== after.currentActivity?.activityID ||
    before.currentActivity?.activityName !== after.currentActivity?.activityName
  ) {
    return true;
  }
  const counting = before.isTracking && !before.isOnBreak;
  const elapsedSeconds = counting ? (afterAtMs - beforeAtMs) / 1000 : 0;
  return Math.abs(after.todaySeconds - before.todaySeconds - elapsedSeconds) >= 1;
}
