/**
 * `TockClient`: the operations of docs/protocol.md "Endpoints", "GET /report" and "The event stream" over `fetch`. Each method is a line or two —
 * it names its operation; building, signing and reading the response are pure functions in
 * `request.ts` and `response.ts`. This file only does the I/O: the timeout, the caller's
 * abort signal, and `logEntry`'s single retry.
 */

import {
  type ActivityRef,
  type BranchPrompt,
  type Entry,
  type Health,
  type Report,
  type Suggestions,
  SigningKey,
  type StartResult,
  type Status,
  type StoppedSession,
  type TockEvent,
  newNonce,
  randomBytes,
} from '@tock/protocol';
import { type TockClientOptions, resolveConfig } from './config.ts';
import { NetworkError } from './errors.ts';
import { type EventsOptions, STREAM_SILENT_MS, streamEvents } from './events.ts';
import {
  type ActivitySelector,
  type BranchChange,
  type LogEntryInput,
  type Operation,
  type ReportQuery,
  type SuggestionsQuery,
  type AcceptSuggestionOptions,
  buildRequest,
  idempotencyKeyFor,
  operations,
} from './request.ts';
import { readResponse } from './response.ts';

/** The trailing options every method takes. */
export interface RequestOptions {
  /** Aborts the request; the promise then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** Options of `searchActivities`. */
export interface SearchOptions extends RequestOptions {
  /** 1–100; default (the server's) 20. */
  limit?: number | undefined;
}

/** Options of `startActivity`. */
export interface StartOptions extends RequestOptions {
  /** Create the activity when no activity has that name (applies to a name only). */
  createIfMissing?: boolean | undefined;
  /** What the session is about, at most 2000 characters (docs/protocol.md "Endpoints"). */
  note?: string | undefined;
}

/** The clock and the random source a client uses; tests replace them. */
export interface ClientDeps {
  /** Milliseconds since the epoch. */
  now: () => number;
  /** `n` random bytes. */
  random: (n: number) => Uint8Array;
  /** Waits `ms` before `events()` reopens a stream; resolves early when `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long an event stream may stay silent (not even `: ping`) before it is dropped and reopened, ms. */
  streamSilentMs: number;
}

const runtimeDeps: ClientDeps = {
  now: () => Date.now(),
  random: randomBytes,
  sleep: abortableSleep,
  streamSilentMs: STREAM_SILENT_MS,
};

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** NetworkErrors raised before any response arrived: only those may be retried. */
const failedBeforeResponse = new WeakSet<NetworkError>();

let setDeps: (client: TockClient, deps: ClientDeps) => void;

/**
 * A client of the Tock listener on `127.0.0.1`. It signs every request with a fresh nonce,
 * checks that every response was signed by Tock, never follows redirects, and retries
 * only `logEntry`, once, with the same idempotency key, after a failure that happened
 * before any response arrived.
 */
export class TockClient {
  readonly #key: SigningKey;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch;
  #deps: ClientDeps = runtimeDeps;

  static {
    setDeps = (client, deps) => {
      client.#deps = deps;
    };
  }

  /**
   * Checks the options (falling back on `SERVICE_TOKEN` / `SERVICE_PORT`); throws
   * `TockError` with code `missing_token` or `invalid_port`. Makes no request.
   */
  constructor(options: TockClientOptions = {}) {
    const config = resolveConfig(options);
    this.#key = new SigningKey(config.token);
    this.#baseUrl = config.baseUrl;
    this.#timeoutMs = config.timeoutMs;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** `GET /healthcheck`: the app's version and license state; answers while locked too. */
  healthcheck(options?: RequestOptions): Promise<Health> {
    return this.#call(operations.healthcheck(), options);
  }

  /** `GET /current`: the activity being tracked, or `null`. */
  getCurrent(options?: RequestOptions): Promise<ActivityRef | null> {
    return this.#call(operations.getCurrent(), options);
  }

  /** `GET /status`: tracking, break, current activity and today's total. */
  getStatus(options?: RequestOptions): Promise<Status> {
    return this.#call(operations.getStatus(), options);
  }

  /** `GET /activities/search`: activities matching `q`, best first (empty `q`: most recent). */
  searchActivities(q: string, options?: SearchOptions): Promise<ActivityRef[]> {
    return this.#call(operations.searchActivities(q, options?.limit), options);
  }

  /** `POST /activities/start`: starts (or switches to) an activity, by name or by `{ activityID }`. */
  startActivity(activity: ActivitySelector, options?: StartOptions): Promise<StartResult> {
    return this.#call(operations.startActivity(activity, options?.createIfMissing, options?.note), options);
  }

  /** `POST /activities/stop`: ends the running session; `null` when nothing ran. */
  stopActivity(options?: RequestOptions): Promise<StoppedSession | null> {
    return this.#call(operations.stopActivity(), options);
  }

  /**
   * `POST /entries`: logs a finished block of time. Sent with an `Idempotency-Key` (the
   * caller's or a fresh one) and retried once with it after a network failure, so a retry
   * never logs twice.
   */
  logEntry(entry: LogEntryInput, options?: RequestOptions): Promise<Entry> {
    const key = idempotencyKeyFor(entry.idempotencyKey, this.#deps.random);
    return this.#call(operations.logEntry(entry, key), options, 2);
  }

  /** `POST /branch-changed`: opens the app's tracking prompt for a git branch switch. */
  notifyBranchChange(change: BranchChange, options?: RequestOptions): Promise<BranchPrompt> {
    return this.#call(operations.notifyBranchChange(change), options);
  }

  /**
   * `GET /report`: worked seconds per activity (default) or per day over local days `from` to
   * `to` (`YYYY-MM-DD`, both included, default today). A bad range is a `ValidationError`.
   */
  getReport(query: ReportQuery = {}, options?: RequestOptions): Promise<Report> {
    return this.#call(operations.getReport(query), options);
  }

  /**
   * `GET /suggestions`: the untracked stretches of a local day (`date`, default today) where
   * capture saw work, each labelled with an activity or not (docs/protocol.md "Suggestions").
   */
  getSuggestions(query: SuggestionsQuery = {}, options?: RequestOptions): Promise<Suggestions> {
    return this.#call(operations.getSuggestions(query), options);
  }

  /**
   * `POST /suggestions/accept`: logs the suggestion as an entry noted `from capture` (the
   * `activityName` given, else its label). Sent with a fresh `Idempotency-Key` and retried once
   * with it after a network failure. An id that is no current suggestion is a `NotFoundError`
   * (`suggestion_not_found`); an unlabelled one without `activityName` a `ValidationError`.
   */
  acceptSuggestion(id: string, accept: AcceptSuggestionOptions = {}, options?: RequestOptions): Promise<Entry> {
    const key = idempotencyKeyFor(undefined, this.#deps.random);
    return this.#call(operations.acceptSuggestion(id, accept, key), options, 2);
  }

  /**
   * `GET /events`: the app's events (`status`, `branch-prompt`, `idle`, `budget`) as they happen, each
   * checked against its signature (a missing or wrong one ends the iteration with `AuthError`
   * code `bad_event_signature`). A dropped stream is reopened with `Last-Event-ID` after 0.5 s,
   * doubling to 10 s while it keeps failing (unless `reconnect` is false); 401, 423 and 429
   * end the iteration with their error. Aborting `signal` or leaving the loop ends it and
   * closes the connection.
   */
  events(options: EventsOptions = {}): AsyncIterable<TockEvent> {
    const deps = this.#deps;
    return streamEvents(
      {
        baseUrl: this.#baseUrl,
        key: this.#key,
        timeoutMs: this.#timeoutMs,
        fetch: this.#fetch,
        now: deps.now,
        random: deps.random,
        sleep: deps.sleep,
        silentMs: deps.streamSilentMs,
      },
      options,
    );
  }

  async #call<T>(op: Operation, options: RequestOptions | undefined, attempts = 1): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt<T>(op, options?.signal);
      } catch (error) {
        const retry = attempt < attempts && error instanceof NetworkError && failedBeforeResponse.has(error);
        if (!retry) throw error;
      }
    }
  }

  async #attempt<T>(op: Operation, signal: AbortSignal | undefined): Promise<T> {
    signal?.throwIfAborted();
    const request = buildRequest(op, {
      baseUrl: this.#baseUrl,
      key: this.#key,
      timestamp: Math.floor(this.#deps.now() / 1000),
      nonce: newNonce(this.#deps.random),
    });
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#timeoutMs);
    const forwardAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    if (signal?.aborted) forwardAbort(); // aborted while the request was being signed
    const failure = (error: unknown, beforeResponse: boolean): unknown => {
      if (signal?.aborted) return signal.reason;
      const networkError = timedOut
        ? new NetworkError(`Tock did not answer within ${this.#timeoutMs} ms (${this.#baseUrl})`, {
            code: 'timeout',
            cause: error,
          })
        : new NetworkError(`could not reach Tock at ${this.#baseUrl} (${describeFailure(error)}); is the app running with the listener on?`, {
            code: 'network_error',
            cause: error,
          });
      if (beforeResponse) failedBeforeResponse.add(networkError);
      return networkError;
    };
    try {
      let response: Response;
      try {
        response = await this.#fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body as Uint8Array<ArrayBuffer> | undefined,
          redirect: 'manual',
          signal: controller.signal,
        });
      } catch (error) {
        throw failure(error, true);
      }
      let body: Uint8Array;
      try {
        body = new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        throw failure(error, false);
      }
      return readResponse<T>({ status: response.status, headers: response.headers, body }, this.#key, request.nonce);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }
}

/**
 * Replaces the clock and random source of a client (for tests: fixed timestamps and nonces
 * without patching globals). Not exported from the package.
 */
export function withDeps(client: TockClient, deps: Partial<ClientDeps>): TockClient {
  setDeps(client, { ...runtimeDeps, ...deps });
  return client;
}

/** A short reason for a failed fetch across runtimes: refused, reset, or the runtime's words. */
function describeFailure(error: unknown): string {
  const text = collectErrorText(error);
  if (/ECONNREFUSED|ConnectionRefused|connection refused/i.test(text)) return 'connection refused';
  if (/ECONNRESET|ConnectionReset|connection reset|other side closed|socket hang up|UND_ERR_SOCKET/i.test(text)) {
    return 'connection reset';
  }
  const first = error instanceof Error ? error.message : String(error);
  return first.split('\n')[0] ?? 'network error';
}

function collectErrorText(error: unknown, depth = 0): string {
  if (depth > 4 || typeof error !== 'object' || error === null) return String(error ?? '');
  const e = error as { message?: unknown; code?: unknown; cause?: unknown };
  return `${String(e.code ?? '')} ${String(e.message ?? '')} ${collectErrorText(e.cause, depth + 1)}`;
}
