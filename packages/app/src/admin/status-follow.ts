/**
 * How `tock watch` follows the status over the admin socket (docs/cli.md "Your own commands"):
 * a long poll. `POST /status/next` with the version the caller last got is answered as soon as
 * the status changes (core's StatusChanges: a start, stop, break, rename, a write that changes
 * today's total, the local day's end — never time alone passing), or after at most
 * {@link FOLLOW_WAIT_MS} with the status as it is. A caller without a version, or with one
 * from an earlier run of the app, is answered at once.
 *
 * Nothing is looked at while nobody waits: while somebody does, the follow hears the app's
 * change bus (change-bus.ts): its `written`, once per event-loop turn after the writes were
 * committed, and its `tick` at the local day's end. No timer but each waiter's own wait runs.
 */
import { randomUUID } from 'node:crypto';
import { StatusChanges, type Store, type Tracker } from '@tock/core';
import type { VersionedStatus } from '@tock/admin';
import type { ChangeBus } from '../change-bus.ts';

/** The longest a `POST /status/next` is held before it is answered with the status unchanged. */
export const FOLLOW_WAIT_MS = 50_000;

/** A status and the version it has (the admin contract's, @tock/admin): a caller sends the version back to wait for the next one. */
export type { VersionedStatus } from '@tock/admin';

/** The timers used (tests pass their own); the default ones are unref'd, so a wait never holds the process. */
export interface FollowTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const unrefTimers: FollowTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What {@link StatusFollow} reads. */
export interface StatusFollowOptions {
  store: Pick<Store, 'generation'>;
  tracker: Pick<Tracker, 'getStatus'>;
  /** The app's change bus: heard while somebody waits. */
  changes: Pick<ChangeBus, 'on'>;
  clock: () => number;
  timers?: FollowTimers;
}

/** The versions of the status, and the callers waiting for the next one; see the module comment. */
export class StatusFollow {
  readonly #tracker: Pick<Tracker, 'getStatus'>;
  readonly #changes: Pick<ChangeBus, 'on'>;
  readonly #timers: FollowTimers;
  readonly #status: StatusChanges;
  /** Tells versions of this run from an earlier run's. */
  readonly #run = randomUUID().slice(0, 8);
  #changesSeen = 0;
  readonly #waiters = new Set<() => void>();
  #unlisten: (() => void) | null = null;

  constructor(options: StatusFollowOptions) {
    this.#tracker = options.tracker;
    this.#changes = options.changes;
    this.#timers = options.timers ?? unrefTimers;
    // The baseline is the first look, on the first call: one made here would compute a status,
    // and the day it is on, while the app starts (bench/README.md, figure 9). Versions before
    // the first call were never handed out, so none is lost.
    this.#status = new StatusChanges({ generation: () => options.store.generation, status: () => options.tracker.getStatus(), clock: options.clock });
  }

  /** The version of the status now (after looking for a change since the last look; the first look takes the baseline). */
  #version(): string {
    if (this.#status.check() !== null) this.#changesSeen++;
    return `${this.#run}.${this.#changesSeen}`;
  }

  #answer(version: string): VersionedStatus {
    return { version, status: this.#tracker.getStatus() };
  }

  /**
   * The status once its version differs from `after` (at once when it does already), or after
   * `waitMs` as it is then.
   */
  next(after: string | undefined, waitMs: number = FOLLOW_WAIT_MS): Promise<VersionedStatus> {
    const version = this.#version();
    if (version !== after) return Promise.resolve(this.#answer(version));
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        let now: string;
        try {
          now = this.#version();
        } catch (error) {
          done();
          reject(error);
          return;
        }
        if (now === after && !timedOut) return;
        done();
        try {
          resolve(this.#answer(now));
        } catch (error) {
          reject(error);
        }
      };
      let timedOut = false;
      const timer = this.#timers.setTimeout(() => {
        timedOut = true;
        settle();
      }, waitMs);
      const done = (): void => {
        this.#timers.clearTimeout(timer);
        this.#waiters.delete(settle);
        if (this.#waiters.size === 0) this.#stopListening();
      };
      this.#waiters.add(settle);
      this.#listen();
    });
  }

  /** Hears the change bus while somebody waits: committed writes, and the local day's end. */
  #listen(): void {
    if (this.#unlisten !== null) return;
    const look = (): void => {
      for (const settle of [...this.#waiters]) settle();
    };
    const stops = [this.#changes.on('written', look), this.#changes.on('tick', look)];
    this.#unlisten = () => {
      for (const stop of stops) stop();
    };
  }

  #stopListening(): void {
    this.#unlisten?.();
    this.#unlisten = null;
  }
}
