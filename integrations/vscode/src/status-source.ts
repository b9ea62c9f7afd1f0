/**
 * Where the status bar's news comes from. Everything else sees only `StatusSource`; this file
 * is the one to change when the source changes.
 *
 * Today it polls `GET /status` every 30 s (and at once after each of the extension's own
 * commands, and when the token or the port changes). The listener's event stream
 * (docs/protocol.md "The event stream: `GET /events`") will replace the timer with a
 * subscription to `client.events()`: the `StatusReport`s stay the same.
 */
import type { Status } from '@tock/client';
import type { Connected } from './connection.ts';
import type { Disposable } from './editor.ts';
import type { Scheduler } from './scheduler.ts';

/** How often the status is asked for while nothing else asks, ms. */
export const POLL_INTERVAL_MS = 30_000;

/** One piece of news: the status as of `receivedAtMs`, or why there is none. */
export type StatusReport =
  | { kind: 'status'; status: Status; receivedAtMs: number }
  | { kind: 'offline'; error: unknown };

/** A source of status reports for the status bar. */
export interface StatusSource extends Disposable {
  /** Starts delivering reports to `listener` (the first as soon as it can). */
  start(listener: (report: StatusReport) => void): void;
  /** Asks for a fresh report now: after a command changed the state, or a setting changed. */
  refresh(): void;
  /** Resolves once the report asked for last has been delivered (tests wait on it). */
  settled(): Promise<void>;
}

/** What a status source is made from. */
export interface StatusSourceOptions {
  /** The client for the current token and port (rejects when there is none). */
  connect: () => Promise<Connected>;
  scheduler: Scheduler;
  /** Poll interval, ms; default 30 s. */
  intervalMs?: number | undefined;
}

/** The status source the extension uses. */
export function createStatusSource(options: StatusSourceOptions): StatusSource {
  return new PollingStatusSource(options);
}

/**
 * Polls `getStatus` every `intervalMs`. A refresh while a poll is on its way starts another
 * one, and only the newest poll's answer is delivered: the state may have changed after the
 * older request was answered.
 */
class PollingStatusSource implements StatusSource {
  readonly #connect: () => Promise<Connected>;
  readonly #scheduler: Scheduler;
  readonly #intervalMs: number;
  #listener: ((report: StatusReport) => void) | undefined;
  #cancelTimer: (() => void) | undefined;
  #inFlight: AbortController | undefined;
  #latest: Promise<void> = Promise.resolve();
  #generation = 0;
  #disposed = false;

  constructor(options: StatusSourceOptions) {
    this.#connect = options.connect;
    this.#scheduler = options.scheduler;
    this.#intervalMs = options.intervalMs ?? POLL_INTERVAL_MS;
  }

  start(listener: (report: StatusReport) => void): void {
    this.#listener = listener;
    this.refresh();
  }

  refresh(): void {
    if (this.#disposed) return;
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#inFlight?.abort();
    const generation = ++this.#generation;
    const controller = new AbortController();
    this.#inFlight = controller;
    this.#latest = this.#poll(generation, controller.signal);
  }

  settled(): Promise<void> {
    return this.#latest;
  }

  dispose(): void {
    this.#disposed = true;
    this.#cancelTimer?.();
    this.#inFlight?.abort();
    this.#listener = undefined;
  }

  async #poll(generation: number, signal: AbortSignal): Promise<void> {
    let report: StatusReport;
    try {
      const { client } = await this.#connect();
      const status = await client.getStatus({ signal });
      report = { kind: 'status', status, receivedAtMs: this.#scheduler.now() };
    } catch (error) {
      report = { kind: 'offline', error };
    }
    if (this.#disposed || generation !== this.#generation) return; // a newer poll answers instead
    this.#inFlight = undefined;
    this.#listener?.(report);
    this.#cancelTimer = this.#scheduler.setTimeout(() => this.refresh(), this.#intervalMs);
  }
}
