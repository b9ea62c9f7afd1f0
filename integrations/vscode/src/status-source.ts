/**
 * Where the status bar's news comes from. Everything else sees only `StatusSource`; this file
 * is the one to change when the source changes.
 *
 * The news is the listener's event stream (docs/protocol.md "The event stream: `GET /events`"),
 * read with `client.events()`: a `status` event opens every stream and follows every change.
 * The stream is opened without the client's own reconnect so that a drop is seen here: the
 * status bar says "offline" (with the reason) while the app is away, and the stream is
 * reopened after 0.5 s, doubling to 10 s, as the clients do. When the app already serves its
 * limit of streams (429 `too_many_streams`: many editor windows), the source falls back to
 * asking `GET /status` every 30 s, trying the stream again each time.
 */
import { HttpError, type Status } from '@tock/client';
import { EVENT_LIMITS } from '@tock/protocol';
import type { Connected } from './connection.ts';
import type { Disposable } from './editor.ts';
import type { Scheduler } from './scheduler.ts';

/** How often the status is asked for when no stream can be had, ms. */
export const POLL_INTERVAL_MS = 30_000;

/** One piece of news: the status as of `receivedAtMs`, or why there is none. */
export type StatusReport =
  | { kind: 'status'; status: Status; receivedAtMs: number }
  | { kind: 'offline'; error: unknown };

/** A source of status reports for the status bar. */
export interface StatusSource extends Disposable {
  /** Starts delivering reports to `listener` (the first as soon as it can). */
  start(listener: (report: StatusReport) => void): void;
  /**
   * Says that the state may have changed (one of the extension's own commands ran): a source
   * that hears of changes by itself ignores this; one that is out of touch tries again now.
   */
  refresh(): void;
  /** Starts over with a fresh connection now: the token or the port changed, or "Retry". */
  reconnect(): void;
}

/** What a status source is made from. */
export interface StatusSourceOptions {
  /** The client for the current token and port (rejects when there is none). */
  connect: () => Promise<Connected>;
  scheduler: Scheduler;
}

/** The status source the extension uses. */
export function createStatusSource(options: StatusSourceOptions): StatusSource {
  return new EventStatusSource(options);
}

/** The wait before the `failures`-th attempt in a row to reopen the stream: 0.5 s doubling to 10 s. */
export function reopenDelayMs(failures: number): number {
  return Math.min(EVENT_LIMITS.reconnectMaxMs, EVENT_LIMITS.reconnectInitialMs * 2 ** Math.min(Math.max(0, failures - 1), 30));
}

/** Follows the event stream; see the file's comment. */
class EventStatusSource implements StatusSource {
  readonly #connect: () => Promise<Connected>;
  readonly #scheduler: Scheduler;
  #listener: ((report: StatusReport) => void) | undefined;
  /** Ends the current attempt (its stream, or its wait). */
  #attempt: AbortController | undefined;
  #cancelRetry: (() => void) | undefined;
  /** Whether a stream is open and has delivered its first event. */
  #live = false;
  #failures = 0;
  #disposed = false;

  constructor(options: StatusSourceOptions) {
    this.#connect = options.connect;
    this.#scheduler = options.scheduler;
  }

  start(listener: (report: StatusReport) => void): void {
    this.#listener = listener;
    this.reconnect();
  }

  refresh(): void {
    if (!this.#live) this.reconnect();
  }

  reconnect(): void {
    if (this.#disposed || this.#listener === undefined) return;
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
    this.#attempt?.abort();
    this.#live = false;
    const attempt = new AbortController();
    this.#attempt = attempt;
    void this.#follow(attempt.signal);
  }

  dispose(): void {
    this.#disposed = true;
    this.#cancelRetry?.();
    this.#attempt?.abort();
    this.#listener = undefined;
  }

  #deliver(signal: AbortSignal, report: StatusReport): void {
    if (!signal.aborted && !this.#disposed) this.#listener?.(report);
  }

  async #follow(signal: AbortSignal): Promise<void> {
    let failure: unknown;
    let ended = false;
    try {
      const { client } = await this.#connect();
      for await (const event of client.events({ signal, reconnect: false })) {
        if (signal.aborted) return;
        this.#live = true;
        this.#failures = 0;
        if (event.type === 'status') this.#deliver(signal, { kind: 'status', status: event.data, receivedAtMs: this.#scheduler.now() });
      }
      ended = true; // the app ended the stream: it is stopping, or the listener moved or its token changed
    } catch (error) {
      failure = error;
    }
    if (signal.aborted || this.#disposed) return;
    this.#live = false;
    this.#failures++;
    let delay = reopenDelayMs(this.#failures);
    if (failure instanceof HttpError && failure.code === 'too_many_streams') {
      // Every stream the app allows is taken: ask for the status, and try the stream later.
      this.#deliver(signal, await this.#pollOnce(signal));
      delay = POLL_INTERVAL_MS;
    } else if (!ended) {
      this.#deliver(signal, { kind: 'offline', error: failure });
      if (failure instanceof HttpError && failure.retryAfter !== undefined) delay = Math.max(delay, failure.retryAfter * 1000);
    }
    if (signal.aborted || this.#disposed) return;
    this.#cancelRetry = this.#scheduler.setTimeout(() => this.reconnect(), delay);
  }

  async #pollOnce(signal: AbortSignal): Promise<StatusReport> {
    try {
      const { client } = await this.#connect();
      const status = await client.getStatus({ signal });
      return { kind: 'status', status, receivedAtMs: this.#scheduler.now() };
    } catch (error) {
      return { kind: 'offline', error };
    }
  }
}
