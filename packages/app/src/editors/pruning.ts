/**
 * Deleting heartbeats and capture spans past the capture retention (docs/data.md "Capture
 * settings": deleted daily), scheduled like
 * the daily backup (backups.ts): a first run a minute after start-up, then every hour, each
 * run a no-op unless the local day changed since the last — and the deletion itself only
 * touches rows past the retention, so a run that comes early deletes nothing twice.
 */
import { localDayKey, pruneCapture, systemTimeZone, type Store } from '@tock/core';

const FIRST_CHECK_MS = 60_000;
const CHECK_EVERY_MS = 60 * 60_000;

/** Prunes heartbeats and capture spans once per local day of the injected clock. */
export class HeartbeatPruner {
  readonly #store: Store;
  readonly #clock: () => number;
  readonly #onError: (message: string) => void;
  #lastDay: string | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(options: { store: Store; clock: () => number; onError: (message: string) => void }) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#onError = options.onError;
  }

  /** Prunes unless it already did on this local day; returns how many heartbeats and spans went (null: not due). */
  pruneDaily(): number | null {
    const now = this.#clock();
    const day = localDayKey(now, systemTimeZone());
    if (day === this.#lastDay) return null;
    const deleted = pruneCapture(this.#store, now);
    this.#lastDay = day;
    return deleted.heartbeats + deleted.spans;
  }

  /** Starts the timer: a first check a minute after start-up, then every hour. */
  start(): void {
    const check = (): void => {
      try {
        this.pruneDaily();
      } catch (error) {
        this.#onError(error instanceof Error ? error.message : String(error));
      }
      this.#timer = setTimeout(check, CHECK_EVERY_MS);
      this.#timer.unref();
    };
    this.#timer = setTimeout(check, FIRST_CHECK_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
