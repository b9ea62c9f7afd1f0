/**
 * `events()`: the signed event stream of docs/protocol.md "The event stream: `GET /events`"
 * as an async iterable. Pure parts first (checking one received event, the reconnect delays),
 * then the loop that does the I/O: open the stream with a freshly signed request, check the
 * response signature, check every event's `sig`, and reopen a dropped stream with
 * `Last-Event-ID` after 0.5 s, doubling to 10 s while it keeps failing.
 */

import {
  EMPTY_BODY_SHA256,
  EVENT_LIMITS,
  EVENT_TYPES,
  EVENTS_PATH,
  EventStreamParser,
  HEADER,
  LAST_EVENT_ID_HEADER,
  type RawEvent,
  type SigningKey,
  type TockEvent,
  eventSignatureValid,
  newNonce,
  responseStringToSign,
} from '@tock/protocol';
import { AuthError, NetworkError, TockError } from './errors.ts';
import { buildRequest } from './request.ts';
import { NOT_SIGNED_BY_TOCK, readResponse } from './response.ts';

/** Options of `events()`. */
export interface EventsOptions {
  /** Ends the iteration (quietly) and closes the connection. */
  signal?: AbortSignal | undefined;
  /** Resume after this event id: the stream starts with the events that followed it, if the app still holds them. */
  lastEventId?: string | undefined;
  /** Reopen a dropped stream (default true). 401, 423, 429 and other refusals end the iteration with their error either way. */
  reconnect?: boolean | undefined;
}

/** The message of `bad_event_signature` errors. */
export const EVENT_NOT_SIGNED_BY_TOCK = 'an event of the stream was not signed by Tock';

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/**
 * The event a received one stands for, after checking its `sig` against the key and the
 * nonce of the request that opened the stream. A missing or wrong `sig`, or data that is not
 * JSON, is an `AuthError` with code `bad_event_signature`. Returns null for a signed event of
 * a type this client does not know (a newer app): it is skipped, its id still counts.
 */
export function readEvent(raw: RawEvent, key: SigningKey, nonce: string): TockEvent | null {
  const { id, event: type, data, sig } = raw;
  if (id === undefined || type === undefined || data === undefined || sig === undefined) throw badEventSignature();
  if (!eventSignatureValid(key, nonce, { id, type, data, sig })) throw badEventSignature();
  if (!KNOWN_TYPES.has(type)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw badEventSignature();
  }
  return { id, type, data: parsed } as TockEvent;
}

function badEventSignature(): AuthError {
  return new AuthError(EVENT_NOT_SIGNED_BY_TOCK, { code: 'bad_event_signature', status: 200 });
}

/** The wait before reopening a stream after `failures` failed attempts in a row (1 → 0.5 s, doubling, at most 10 s). */
export function reconnectDelayMs(failures: number): number {
  const exponent = Math.max(0, failures - 1);
  return Math.min(EVENT_LIMITS.reconnectMaxMs, EVENT_LIMITS.reconnectInitialMs * 2 ** Math.min(exponent, 30));
}

/** What the loop needs from the client that runs it. */
export interface EventLoopContext {
  baseUrl: string;
  key: SigningKey;
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
  now: () => number;
  random: (n: number) => Uint8Array;
  /** Waits `ms`, or until `signal` aborts (then resolves early). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A stream that sends nothing, not even `: ping`, for this long is dropped (default {@link STREAM_SILENT_MS}). */
  silentMs: number;
}

/** Three keep-alive periods: the app sends `: ping` at least every 15 s. */
export const STREAM_SILENT_MS = 3 * EVENT_LIMITS.keepAliveSeconds * 1000;


/** A stream that ended or broke; with `reconnect` it is opened again. */
class Dropped extends Error {
  readonly networkError: NetworkError | null;
  constructor(networkError: NetworkError | null) {
    super('the event stream ended');
    this.networkError = networkError;
  }
}

/**
 * The events of the stream, one at a time, until `options.signal` aborts, the consumer stops
 * iterating (the connection is closed either way), an error ends it, or — without
 * `reconnect` — the stream ends.
 */
export async function* streamEvents(ctx: EventLoopContext, options: EventsOptions = {}): AsyncGenerator<TockEvent, void, undefined> {
  const reconnect = options.reconnect ?? true;
  const outer = options.signal;
  // One controller for the whole iteration: aborting it closes whatever connection is open.
  const stop = new AbortController();
  const forwardAbort = (): void => stop.abort(outer?.reason);
  outer?.addEventListener('abort', forwardAbort, { once: true });
  if (outer?.aborted) forwardAbort();
  let lastEventId = options.lastEventId;
  let failures = 0;
  try {
    while (!stop.signal.aborted) {
      let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
      try {
        const opened = await openStream(ctx, lastEventId, stop.signal);
        reader = opened.reader;
        failures = 0;
        const parser = new EventStreamParser();
        const decoder = new TextDecoder();
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          // The app sends `: ping` at least every 15 s: a stream silent for much longer is
          // dead (a frozen app, a lost connection), and is dropped to be reopened.
          let silenced = false;
          const silent = setTimeout(() => {
            silenced = true;
            reader?.cancel().catch(() => {});
          }, ctx.silentMs);
          try {
            chunk = await reader.read();
          } catch (error) {
            throw new Dropped(networkError(ctx, error, 'the event stream broke'));
          } finally {
            clearTimeout(silent);
          }
          if (chunk.done) {
            throw new Dropped(
              silenced
                ? new NetworkError(`the event stream from ${ctx.baseUrl} was silent for ${ctx.silentMs / 1000} s`, { code: 'timeout' })
                : null,
            );
          }
          for (const raw of parser.push(decoder.decode(chunk.value, { stream: true }))) {
            const event = readEvent(raw, ctx.key, opened.nonce);
            lastEventId = raw.id;
            if (event !== null) yield event;
          }
        }
      } catch (error) {
        if (stop.signal.aborted) return;
        if (!(error instanceof Dropped)) throw error;
        if (!reconnect) {
          if (error.networkError) throw error.networkError;
          return;
        }
        failures++;
        await ctx.sleep(reconnectDelayMs(failures), stop.signal);
      } finally {
        if (reader !== null) reader.cancel().catch(() => {});
      }
    }
  } finally {
    outer?.removeEventListener('abort', forwardAbort);
    stop.abort(); // the consumer left the loop: close the connection
  }
}

/** Opens the stream once: a signed `GET /events`, its answer checked. Network failures are {@link Dropped}. */
async function openStream(
  ctx: EventLoopContext,
  lastEventId: string | undefined,
  signal: AbortSignal,
): Promise<{ reader: ReadableStreamDefaultReader<Uint8Array>; nonce: string }> {
  const request = buildRequest(
    { method: 'GET', path: EVENTS_PATH },
    { baseUrl: ctx.baseUrl, key: ctx.key, timestamp: Math.floor(ctx.now() / 1000), nonce: newNonce(ctx.random) },
  );
  const headers: Record<string, string> = { ...request.headers, accept: 'text/event-stream' };
  if (lastEventId !== undefined) headers[LAST_EVENT_ID_HEADER] = lastEventId;
  // The timeout covers opening only: a stream is meant to stay open.
  const opening = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    opening.abort();
  }, ctx.timeoutMs);
  let response: Response;
  try {
    response = await ctx.fetch(request.url, {
      method: 'GET',
      headers,
      redirect: 'manual',
      signal: AbortSignal.any([signal, opening.signal]),
    });
  } catch (error) {
    throw new Dropped(
      timedOut
        ? new NetworkError(`Tock did not answer within ${ctx.timeoutMs} ms (${ctx.baseUrl})`, { code: 'timeout', cause: error })
        : networkError(ctx, error, 'could not reach Tock'),
    );
  } finally {
    clearTimeout(timer);
  }
  if (response.status !== 200 || response.body === null) {
    // A refusal (401, 423, 429, …) is read like any answer: its signature checked, its error thrown.
    let body: Uint8Array;
    try {
      body = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new Dropped(networkError(ctx, error, 'the answer to GET /events broke off'));
    }
    readResponse({ status: response.status, headers: response.headers, body }, ctx.key, request.nonce);
    throw new TockError(`Tock answered GET /events with ${response.status} and no stream`, {
      code: 'invalid_response',
      status: response.status,
    });
  }
  // The 200 is signed over the empty body: the events carry signatures of their own.
  const signature = response.headers.get(HEADER.responseSignature);
  if (signature === null || !ctx.key.verify(responseStringToSign(request.nonce, 200, EMPTY_BODY_SHA256), signature)) {
    await response.body.cancel().catch(() => {});
    throw new AuthError(NOT_SIGNED_BY_TOCK, { code: 'bad_response_signature', status: 200 });
  }
  return { reader: response.body.getReader(), nonce: request.nonce };
}

function networkError(ctx: EventLoopContext, error: unknown, what: string): NetworkError {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new NetworkError(`${what} at ${ctx.baseUrl} (${reason}); is the app running with the listener on?`, {
    code: 'network_error',
    cause: error,
  });
}
