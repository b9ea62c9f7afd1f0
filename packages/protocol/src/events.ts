/**
 * The event stream of docs/protocol.md "The event stream: `GET /events`" in code: its names
 * and numbers, the signed string of an event, and the server-sent-events framing (writing one
 * event, reading a stream back). Pure string work, so the listener, both clients' runtimes and
 * the tests share one definition of what goes on the wire.
 */

import type { SigningKey } from './signing.ts';
import { sha256Hex } from './signing.ts';
import type { BranchPrompt, Budget, Idle, Status } from './wire.ts';

/** First line of an event's signed string. */
export const EVENT_SIGNING_PREFIX = 'TOCK-HMAC-SHA256-EVENT';

/** The path of the stream. */
export const EVENTS_PATH = '/events';

/** The header a client sends to resume after the last event it received (not signed). */
export const LAST_EVENT_ID_HEADER = 'last-event-id';

/** The media type of the stream's body. */
export const EVENT_STREAM_CONTENT_TYPE = 'text/event-stream';

/** The event types a stream carries. */
export const EVENT_TYPES = ['status', 'branch-prompt', 'idle', 'budget'] as const;
/** One of {@link EVENT_TYPES}: the `event` field of an event. */
export type EventType = (typeof EVENT_TYPES)[number];

/** Numbers of the stream fixed by the contract. */
export const EVENT_LIMITS = {
  /** Streams open at once; one more is answered 429 `too_many_streams`. */
  maxStreams: 16,
  /** Longest quiet time before a keep-alive comment, seconds. */
  keepAliveSeconds: 15,
  /** Events the app holds for `Last-Event-ID` resumption, at least. */
  resumeEvents: 256,
  /** Client reconnect delay after a dropped stream: first, then doubling up to the last, ms. */
  reconnectInitialMs: 500,
  reconnectMaxMs: 10_000,
} as const;

/** A run id: new on every start of the app. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{8,32}$/;

/** An event id, `<run>.<seq>`. */
export const EVENT_ID_PATTERN = /^([A-Za-z0-9_-]{8,32})\.(0|[1-9][0-9]*)$/;

/** The keep-alive comment, with the blank line that ends it. Carries no data and no signature. */
export const KEEP_ALIVE = ': ping\n\n';

/** The typed data of each event type. */
export interface EventDataByType {
  status: Status;
  'branch-prompt': BranchPrompt;
  idle: Idle;
  budget: Budget;
}

/** One event of the stream, as a client hands it out: its id, its type and its parsed data. */
export type TockEvent = {
  [T in EventType]: { id: string; type: T; data: EventDataByType[T] };
}[EventType];

/**
 * Builds the four-line string an event's `sig` covers (no trailing newline). `requestNonce` is
 * the `X-Tock-Nonce` of the request that opened the stream, so an event recorded from one
 * stream cannot be replayed into another; `dataSha256` is the lowercase hex SHA-256 of the
 * exact `data` line's bytes.
 */
export function eventStringToSign(requestNonce: string, id: string, type: string, dataSha256: string): string {
  return [EVENT_SIGNING_PREFIX, requestNonce, id, type, dataSha256].join('\n');
}

/**
 * The `sig` of an event (`v1=<hex>`), made with the JavaScript HMAC the clients use. The
 * listener computes the same bytes on node:crypto from {@link eventStringToSign}.
 */
export function signEvent(key: SigningKey, requestNonce: string, id: string, type: string, data: string): string {
  return key.sign(eventStringToSign(requestNonce, id, type, sha256Hex(data)));
}

/** True when `sig` is the right signature of the event for the stream opened with `requestNonce`. */
export function eventSignatureValid(
  key: SigningKey,
  requestNonce: string,
  event: { id: string; type: string; data: string; sig: string },
): boolean {
  return key.verify(eventStringToSign(requestNonce, event.id, event.type, sha256Hex(event.data)), event.sig);
}

/**
 * The wire form of one event: `id`, `event`, `data`, `sig`, in this order, then a blank line.
 * `data` must be one line (JSON.stringify output is).
 */
export function formatEvent(id: string, type: string, data: string, sig: string): string {
  return `id: ${id}\nevent: ${type}\ndata: ${data}\nsig: ${sig}\n\n`;
}

/** An event as read off the wire, before its signature or data are checked. Absent fields are `undefined`. */
export interface RawEvent {
  id: string | undefined;
  event: string | undefined;
  data: string | undefined;
  sig: string | undefined;
}

/**
 * Reads a server-sent-events body incrementally (WHATWG rules: lines end in CRLF, LF or CR;
 * `:` starts a comment; one space after the colon is dropped; a blank line ends an event).
 * Text goes in as it arrives, in any chunks; each complete event comes out once. Keep-alive
 * comments produce nothing. Unknown fields are ignored.
 */
export class EventStreamParser {
  #buffer = '';
  #fields: RawEvent = emptyRawEvent();
  #seen = false;

  /** Adds received text; returns the events it completed, in order. */
  push(text: string): RawEvent[] {
    this.#buffer += text;
    const done: RawEvent[] = [];
    let start = 0;
    for (;;) {
      let end = -1;
      let next = -1;
      for (let i = start; i < this.#buffer.length; i++) {
        const c = this.#buffer.charCodeAt(i);
        if (c === 10) {
          end = i;
          next = i + 1;
          break;
        }
        if (c === 13) {
          // A CR at the very end may be the first half of a CRLF: wait for more.
          if (i + 1 >= this.#buffer.length) break;
          end = i;
          next = this.#buffer.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
          break;
        }
      }
      if (end === -1) break;
      const event = this.#line(this.#buffer.slice(start, end));
      if (event !== null) done.push(event);
      start = next;
    }
    this.#buffer = this.#buffer.slice(start);
    return done;
  }

  #line(line: string): RawEvent | null {
    if (line === '') {
      if (!this.#seen) return null;
      const event = this.#fields;
      this.#fields = emptyRawEvent();
      this.#seen = false;
      return event;
    }
    if (line.charCodeAt(0) === 58 /* : */) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'id':
      case 'event':
      case 'sig':
        this.#fields[field] = value;
        break;
      case 'data':
        this.#fields.data = this.#fields.data === undefined ? value : `${this.#fields.data}\n${value}`;
        break;
      default:
        return null;
    }
    this.#seen = true;
    return null;
  }
}

function emptyRawEvent(): RawEvent {
  return { id: undefined, event: undefined, data: undefined, sig: undefined };
}
