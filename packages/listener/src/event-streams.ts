/**
 * The open `GET /events` streams (docs/protocol.md "The event stream: `GET /events`"): ids of
 * the form `<run>.<seq>`, the events kept for `Last-Event-ID` resumption, a signature per event
 * and per stream, keep-alive comments, the limit of 16 streams, a byte cap per stream, and the
 * endings. Knows nothing of where events come from: the application publishes them.
 *
 * Why a signature per stream: the signed string includes the nonce of the request that opened
 * the stream, so an event recorded from one stream cannot be replayed into another. The data
 * is serialized and hashed once per event; only the HMAC is per stream.
 */

import type { ServerResponse } from 'node:http';
import {
  API_VERSION,
  EVENT_ID_PATTERN,
  EVENT_LIMITS,
  EVENT_STREAM_CONTENT_TYPE,
  KEEP_ALIVE,
  SIGNATURE_VERSION_PREFIX,
  base64url,
  eventStringToSign,
  formatEvent,
  randomBytes,
  type EventType,
} from '@tock/protocol';
import { responseSignature, sha256Hex, type HmacKey } from './signature.ts';

/** The timer functions the streams use; tests pass fake ones. */
export interface StreamTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** How the event streams behave; every field has a default. */
export interface EventStreamsOptions {
  /** Milliseconds since the epoch (default `Date.now`). */
  clock?: () => number;
  /** Default: the global `setInterval` / `clearInterval` (unref'ed, so they never hold the process). */
  timers?: StreamTimers;
  /** This run's id, 8–32 characters `[A-Za-z0-9_-]` (default: 12 random bytes, base64url). */
  runId?: string;
  /** Events kept for resumption (default 1024; the contract asks for at least 256). */
  keptEvents?: number;
  /** Most streams open at once (default 16). */
  maxStreams?: number;
  /**
   * Bytes a stream may have waiting for its client before it is cut off (default 256 KiB,
   * about 800 status events): a client that stops reading must not grow the app's memory. It
   * reconnects with `Last-Event-ID` and gets what it missed.
   */
  maxBufferedBytes?: number;
  /** Quiet time after which a stream gets `: ping` (default 10 s: under the contract's 15 s with room for a late timer). */
  keepAliveMs?: number;
  /** How often open streams are checked for keep-alive and validity (default 1 s). */
  checkEveryMs?: number;
  /**
   * Whether a stream may stay open: false once its token was rotated or the license locked.
   * Checked on every tick and before every event, so a stream never outlives its token.
   */
  stillAllowed?: (key: HmacKey) => boolean;
}

/** An event kept for resumption: what every stream's copy is built from. */
interface KeptEvent {
  seq: number;
  id: string;
  type: EventType;
  data: string;
  dataSha256: string;
}

/** One open stream. */
interface Stream {
  res: ServerResponse;
  key: HmacKey;
  nonce: string;
  lastWriteMs: number;
}

/** Why streams were ended, for the application's log and the tests. */
export type StreamEnding =
  /** The listener closed (turned off, moved, app stopping) or the application ended them. */
  | 'closed'
  /** The token that opened it was rotated, or the license locked. */
  | 'revoked'
  /** Its client stopped reading and the byte cap was reached. */
  | 'slow'
  /** The client went away. */
  | 'client';

/**
 * The streams of one listener: opened by `GET /events`, fed by {@link EventStreams.publish},
 * ended all at once by {@link EventStreams.endAll}.
 */
export class EventStreams {
  readonly runId: string;
  readonly #clock: () => number;
  readonly #timers: StreamTimers;
  readonly #kept: (KeptEvent | undefined)[];
  readonly #maxStreams: number;
  readonly #maxBufferedBytes: number;
  readonly #keepAliveMs: number;
  readonly #checkEveryMs: number;
  readonly #stillAllowed: (key: HmacKey) => boolean;
  readonly #streams = new Set<Stream>();
  /** Sequence number of the last event of this run (an opening status included). */
  #seq = -1;
  /** Sequence number of the newest event no longer kept; resumption from before it is impossible. */
  #forgottenThrough = -1;
  /** Sequence numbers of the kept events, oldest first, as a ring over {@link #kept}. */
  #firstKept = 0;
  #keptCount = 0;
  #timer: unknown = null;
  #onEnd: ((why: StreamEnding) => void) | null = null;

  constructor(options: EventStreamsOptions = {}) {
    this.runId = options.runId ?? base64url(randomBytes(12));
    if (!EVENT_ID_PATTERN.test(`${this.runId}.0`)) {
      throw new Error('the run id must be 8 to 32 characters of A-Z a-z 0-9 _ -');
    }
    this.#clock = options.clock ?? Date.now;
    this.#timers = options.timers ?? unrefTimers;
    this.#kept = new Array(Math.max(EVENT_LIMITS.resumeEvents, options.keptEvents ?? 1024));
    this.#maxStreams = options.maxStreams ?? EVENT_LIMITS.maxStreams;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024;
    this.#keepAliveMs = Math.min(options.keepAliveMs ?? 10_000, EVENT_LIMITS.keepAliveSeconds * 1000);
    this.#checkEveryMs = options.checkEveryMs ?? 1000;
    this.#stillAllowed = options.stillAllowed ?? (() => true);
  }

  /** Streams open now. */
  get open(): number {
    return this.#streams.size;
  }

  /** False when the limit of open streams is reached: the next `GET /events` is answered 429. */
  get hasRoom(): boolean {
    return this.#streams.size < this.#maxStreams;
  }

  /** Calls `listener` each time a stream ends, with the reason (one listener; for logs and tests). */
  onEnd(listener: (why: StreamEnding) => void): void {
    this.#onEnd = listener;
  }

  /**
   * True when a stream resuming after `lastEventId` can be given exactly the events that
   * followed it: an id of this run, not in the future, whose followers are all still kept.
   */
  canResume(lastEventId: string | undefined): boolean {
    return this.#resumeSeq(lastEventId) !== null;
  }

  #resumeSeq(lastEventId: string | undefined): number | null {
    if (lastEventId === undefined) return null;
    const match = EVENT_ID_PATTERN.exec(lastEventId.trim());
    if (match === null || match[1] !== this.runId) return null;
    const seq = Number(match[2]);
    if (!Number.isSafeInteger(seq) || seq > this.#seq || seq < this.#forgottenThrough) return null;
    return seq;
  }

  /**
   * Starts a stream on `res`: writes the 200 with its headers (the response signature over
   * status 200 and the empty body), then either the kept events after `lastEventId` or, when
   * it cannot resume, `opening` (a fresh status) with an id of its own. `key` and `nonce` are
   * those of the request that opened the stream: every event is signed with them.
   */
  start(
    res: ServerResponse,
    opening: { key: HmacKey; nonce: string; lastEventId: string | undefined; status: () => unknown },
  ): void {
    const stream: Stream = { res, key: opening.key, nonce: opening.nonce, lastWriteMs: this.#clock() };
    const resumeAfter = this.#resumeSeq(opening.lastEventId);
    let first = '';
    if (resumeAfter === null) {
      const data = JSON.stringify(opening.status());
      const seq = ++this.#seq;
      first = this.#wire(stream, { seq, id: `${this.runId}.${seq}`, type: 'status', data, dataSha256: sha256Hex(data) });
    } else {
      for (const event of this.#keptAfter(resumeAfter)) first += this.#wire(stream, event);
    }
    res.socket?.setNoDelay(true);
    res.writeHead(200, [
      'content-type',
      EVENT_STREAM_CONTENT_TYPE,
      'x-tock-api-version',
      String(API_VERSION),
      'cache-control',
      'no-store',
      'x-tock-response-signature',
      responseSignature(opening.key, opening.nonce, 200, ''),
      'x-accel-buffering',
      'no',
    ]);
    // Headers and the first events leave in one write; an empty resume still sends the headers.
    if (first === '') res.flushHeaders();
    else {
      res.write(first);
      flushNow(res);
    }
    this.#streams.add(stream);
    const gone = (): void => this.#end(stream, 'client');
    res.once('close', gone);
    this.#startTimer();
  }

  /**
   * Sends an event to every open stream and keeps it for resumption; returns its id. `data`
   * is serialized here once (one line of JSON).
   */
  publish(type: EventType, data: unknown): string {
    const json = JSON.stringify(data);
    const seq = ++this.#seq;
    const event: KeptEvent = { seq, id: `${this.runId}.${seq}`, type, data: json, dataSha256: sha256Hex(json) };
    this.#keep(event);
    for (const stream of this.#streams) {
      if (!this.#stillAllowed(stream.key)) {
        this.#end(stream, 'revoked');
        continue;
      }
      this.#send(stream, this.#wire(stream, event));
    }
    return event.id;
  }

  /** Ends every open stream now (listener off or moved, token rotated, license locked, app stopping). */
  endAll(why: StreamEnding = 'closed'): void {
    for (const stream of [...this.#streams]) this.#end(stream, why);
  }

  /** One tick: ends streams no longer allowed, sends `: ping` to quiet ones. */
  check(): void {
    const now = this.#clock();
    for (const stream of [...this.#streams]) {
      if (!this.#stillAllowed(stream.key)) this.#end(stream, 'revoked');
      else if (now - stream.lastWriteMs >= this.#keepAliveMs) this.#send(stream, KEEP_ALIVE);
    }
  }

  #wire(stream: Stream, event: KeptEvent): string {
    const sig = SIGNATURE_VERSION_PREFIX + stream.key.hex(eventStringToSign(stream.nonce, event.id, event.type, event.dataSha256));
    return formatEvent(event.id, event.type, event.data, sig);
  }

  #send(stream: Stream, text: string): void {
    stream.res.write(text);
    flushNow(stream.res);
    stream.lastWriteMs = this.#clock();
    // A client that stops reading leaves the bytes in the socket's buffers: cut it off
    // before they grow without bound (it resumes with Last-Event-ID).
    if (stream.res.writableLength > this.#maxBufferedBytes) this.#end(stream, 'slow');
  }

  #end(stream: Stream, why: StreamEnding): void {
    if (!this.#streams.delete(stream)) return;
    if (why === 'slow') stream.res.destroy();
    else if (why !== 'client') {
      stream.res.end();
      // The response is over: the connection must not wait for a next request either.
      stream.res.once('finish', () => stream.res.socket?.destroySoon());
    }
    if (this.#streams.size === 0) this.#stopTimer();
    this.#onEnd?.(why);
  }

  #keep(event: KeptEvent): void {
    const size = this.#kept.length;
    if (this.#keptCount === size) {
      const oldest = this.#kept[this.#firstKept];
      if (oldest) this.#forgottenThrough = oldest.seq;
      this.#kept[this.#firstKept] = event;
      this.#firstKept = (this.#firstKept + 1) % size;
    } else {
      this.#kept[(this.#firstKept + this.#keptCount) % size] = event;
      this.#keptCount++;
    }
  }

  #keptAfter(seq: number): KeptEvent[] {
    const out: KeptEvent[] = [];
    for (let i = 0; i < this.#keptCount; i++) {
      const event = this.#kept[(this.#firstKept + i) % this.#kept.length];
      if (event !== undefined && event.seq > seq) out.push(event);
    }
    return out;
  }

  #startTimer(): void {
    if (this.#timer !== null) return;
    this.#timer = this.#timers.setInterval(() => this.check(), this.#checkEveryMs);
  }

  #stopTimer(): void {
    if (this.#timer === null) return;
    this.#timers.clearInterval(this.#timer);
    this.#timer = null;
  }
}

/**
 * Sends what was just written now. Node corks a chunked response's socket on each write and
 * uncorks it on the next tick, to send the chunk's framing and data in one packet; an event is
 * one write, so uncorking at once sends the same packet without waiting for the rest of the
 * tick — which may be the answer to the very write the event reports.
 */
function flushNow(res: ServerResponse): void {
  const socket = res.socket;
  if (socket !== null && socket.writableCorked > 0) socket.uncork();
}

/**
 * The global timers with their handles unref'ed, so a stream's keep-alive never holds a
 * process open; the default of {@link EventStreamsOptions.timers} and of the app's live feed.
 */
export const unrefTimers: StreamTimers = {
  setInterval(callback, ms) {
    const handle = setInterval(callback, ms);
    handle.unref();
    return handle;
  },
  clearInterval(handle) {
    clearInterval(handle as ReturnType<typeof setInterval>);
  },
};
