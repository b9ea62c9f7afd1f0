/**
 * When the desktop part wakes by itself (docs/desktop.md "Idle time" and "Reminder"; issue 42
 * target 1: no timer wakes the idle app more than once a minute). Nothing here polls for
 * changes: the store's writes and the settings say when to look again ({@link DesktopWakes.update}).
 *
 * - The idle poll runs every `pollEveryMs` only while it is wanted — a session runs, not on a
 *   break, with the idle threshold on, or an idle stretch already noticed is still open — and
 *   sets no timer at all otherwise.
 * - The reminder sleeps until the moment its check could send ({@link Reminder.nextCheckInMs}),
 *   never once a minute; off, or while a session runs, it sets no timer.
 */
import type { OneShotTimers } from '@tock/core/one-shot-timers';

/** What {@link DesktopWakes} looks at and runs; all injected. */
export interface DesktopWakesOptions {
  timers: OneShotTimers;
  /** Whether the idle poll is wanted now. */
  pollWanted: () => boolean;
  /** One idle poll (never throws into the timer: a failure waits for the next poll). */
  poll: () => Promise<void>;
  pollEveryMs: number;
  /** Milliseconds until the reminder's next check, or null for none until something changes. */
  reminderInMs: () => number | null;
  checkReminder: () => void;
}

/** The desktop's two timers, each set only while it has something to do. */
export class DesktopWakes {
  readonly #o: DesktopWakesOptions;
  #poll: unknown = null;
  #reminder: unknown = null;
  #stopped = false;

  constructor(options: DesktopWakesOptions) {
    this.#o = options;
  }

  /** Whether the idle poll's timer is set (tests, `tock idle`'s cost figures). */
  get polling(): boolean {
    return this.#poll !== null;
  }

  /** Whether the reminder's timer is set. */
  get reminding(): boolean {
    return this.#reminder !== null;
  }

  /** Looks again at what should wake and when: at the start, after a write, after a settings change. */
  update(): void {
    this.#armPoll();
    this.#armReminder();
  }

  /** Clears both timers; nothing is set again. */
  stop(): void {
    this.#stopped = true;
    this.#clearPoll();
    if (this.#reminder !== null) this.#o.timers.clearTimeout(this.#reminder);
    this.#reminder = null;
  }

  #armPoll(): void {
    if (this.#stopped || !this.#o.pollWanted()) {
      this.#clearPoll();
      return;
    }
    // Already set: it keeps its cadence (a write does not push the next poll back).
    if (this.#poll !== null) return;
    this.#poll = this.#o.timers.setTimeout(() => {
      this.#poll = null;
      // Set again first, from what is wanted now; the poll itself never overlaps another (IdleWatch).
      this.#armPoll();
      void this.#o.poll().catch(() => {});
    }, this.#o.pollEveryMs);
  }

  #clearPoll(): void {
    if (this.#poll !== null) this.#o.timers.clearTimeout(this.#poll);
    this.#poll = null;
  }

  #armReminder(): void {
    if (this.#reminder !== null) this.#o.timers.clearTimeout(this.#reminder);
    this.#reminder = null;
    if (this.#stopped) return;
    const inMs = this.#o.reminderInMs();
    if (inMs === null) return;
    this.#reminder = this.#o.timers.setTimeout(() => {
      this.#reminder = null;
      this.#o.checkReminder();
      this.#armReminder();
    }, inMs);
  }
}
