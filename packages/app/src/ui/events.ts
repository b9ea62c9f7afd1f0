/**
 * Server push for the window (`GET /api/events`, Server-Sent Events). A window hears at once
 * of what changed anywhere — a listener request, the switch, a branch prompt, a break taken
 * from the CLI — without polling: the window server refreshes topics as the app's change bus
 * (change-bus.ts) tells it. Each topic is sent only when its JSON changed since the
 * last send, so a stream stays quiet while nothing happens.
 */
import type { ServerResponse } from 'node:http';

/** A topic's current value; called whenever something may have changed. */
export type Snapshot = () => unknown;

/**
 * Keep-alive comment interval: proxies and browsers drop silent streams after a while, and the
 * window server's connections end after 30 s without a byte (connections.ts): well under it.
 */
export const KEEPALIVE_MS = 15_000;
/**
 * Most streams open at once, as on the listener: the rest of the window server's 64
 * connections stay free for the windows' requests.
 */
export const MAX_WINDOW_STREAMS = 16;

/** Fans snapshots out to every open event stream. */
export class EventHub {
  readonly #clients = new Set<ServerResponse>();
  readonly #topics: Record<string, Snapshot>;
  readonly #last = new Map<string, string>();
  /** Set only while a stream is open: the idle app is not woken for nobody (issue 42 target 1). */
  #keepalive: NodeJS.Timeout | undefined;

  constructor(topics: Record<string, Snapshot>) {
    this.#topics = topics;
  }

  /** Opens a stream on `res` and sends every topic's current value. */
  attach(res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    res.write('retry: 1000\n\n');
    // Read without remembering: the other streams may not have seen these values yet, and
    // the next refresh must still send them there.
    for (const topic of Object.keys(this.#topics)) {
      const json = this.#read(topic);
      if (json !== undefined) res.write(frame(topic, json));
    }
    this.#clients.add(res);
    this.#keepalive ??= setInterval(() => this.#write(': keep-alive\n\n'), KEEPALIVE_MS).unref();
    res.on('close', () => {
      this.#clients.delete(res);
      if (this.#clients.size > 0) return;
      clearInterval(this.#keepalive);
      this.#keepalive = undefined;
    });
  }

  /** Sends the topics whose value changed (all topics when none is named); returns those it sent. */
  refresh(...topics: string[]): string[] {
    if (this.#clients.size === 0) {
      this.#last.clear();
      return [];
    }
    const sent: string[] = [];
    for (const topic of topics.length ? topics : Object.keys(this.#topics)) {
      const previous = this.#last.get(topic);
      const json = this.#snapshot(topic);
      if (json !== undefined && json !== previous) {
        this.#write(frame(topic, json));
        sent.push(topic);
      }
    }
    return sent;
  }

  /** Sends a one-off event to every stream (for example "blocks changed, reload them"). */
  announce(event: string, data: unknown = null): void {
    this.#write(frame(event, JSON.stringify(data)));
  }

  /** False when {@link MAX_WINDOW_STREAMS} are open: the next stream is refused (429). */
  get hasRoom(): boolean {
    return this.#clients.size < MAX_WINDOW_STREAMS;
  }

  /** Number of open streams. */
  get size(): number {
    return this.#clients.size;
  }

  /** Ends every stream. */
  close(): void {
    clearInterval(this.#keepalive);
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }

  #snapshot(topic: string): string | undefined {
    const json = this.#read(topic);
    if (json !== undefined) this.#last.set(topic, json);
    return json;
  }

  #read(topic: string): string | undefined {
    const read = this.#topics[topic];
    if (!read) return undefined;
    try {
      return JSON.stringify(read());
    } catch {
      // A topic that cannot be read right now (a credential store that is locked) is
      // skipped; the next refresh tries again.
      return undefined;
    }
  }

  #write(chunk: string): void {
    for (const res of this.#clients) res.write(chunk);
  }
}

function frame(event: string, json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}
