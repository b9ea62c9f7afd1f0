/**
 * How `tock watch` follows the status over the admin socket (docs/cli.md "Your own commands"):
 * a long poll. `POST /status/next` with the version the caller last got is answered as soon as
 * the status changes (core's StatusChanges: a start, stop, break, rename, a write that changes
 * today's total, the local day's end — never time alone passing), or after at most
 * {@link FOLLOW_WAIT_MS} with the status as it is. A caller without a version, or with one
 * from an earlier run of the app, is answered at once.
 *
 * Nothing is looked at while nobody waits: a waiter subscribes to the store's write notice
 * (Store.onWrite), and a write is looked at {@link WRITE_SETTLE_MS} later, outside the
 * write's transaction, with the writes that came with it.
 */
import { randomUUID } from 'node:crypto';
import { StatusChanges, type Store, type Tracker } from '@tock/core';
import type { Status } from '@tock/protocol';

/** The longest a `POST /status/next` is held before it is answered with the status unchanged. */
export const FOLLOW_WAIT_MS = 50_000;

/** How long after a write the status is looked at: the writes of one request are seen together. */
const WRITE_SETTLE_MS = 50;

/** A status and the version it has: a caller sends the version back to wait for the next one. */
export interface VersionedStatus {
  version: string;
  status: Status;
}

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
  store: Pick<Store, 'generation' | 'onWrite'>;
  tracker: Pick<Tracker, 'getStatus'>;
  clock: () => number;
  timers?: FollowTimers;
}

/** The versions of the status, and the callers waiting for the next one; see the module comment. */
export class StatusFollow {
  readonly #tracker: Pick<Tracker, 'getStatus'>;
  readonly #store: Pick<Store, 'generation' | 'onWrite'>;
  readonly #timers: FollowTimers;
  readonly #changes: StatusChanges;
  /** Tells versions of this run from an earlier run's. */
  readonly #run = randomUUID().slice(0, 8);
  #changesSeen = 0;
  readonly #waiters = new Set<() => void>();
  #unlisten: (() => void) | null = null;
  #settle: unknown = null;

  constructor(options: StatusFollowOptions) {
    this.#tracker = options.tracker;
    this.#store = options.store;
    this.#timers = options.timers ?? unrefTimers;
    this.#changes = new StatusChanges({ generation: () => options.store.generation, status: () => options.tracker.getStatus(), clock: options.clock });
    this.#changes.check(); // the baseline
  }

  /** The version of the status now (after looking for a change since the last look). */
  #version(): string {
    if (this.#changes.check() !== null) this.#changesSeen++;
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

  /** Subscribes to the store's writes while somebody waits. */
  #listen(): void {
    if (this.#unlisten !== null) return;
    this.#unlisten = this.#store.onWrite(() => {
      // The write notice may come inside the write's transaction: look a little later.
      if (this.#settle !== null) return;
      this.#settle = this.#timers.setTimeout(() => {
        this.#settle = null;
        for (const settle of [...this.#waiters]) settle();
      }, WRITE_SETTLE_MS);
    });
  }

  #stopListening(): void {
    this.#unlisten?.();
    this.#unlisten = null;
    if (this.#settle !== null) this.#timers.clearTimeout(this.#settle);
    this.#settle = null;
  }
}
