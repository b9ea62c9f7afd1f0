/**
 * Test helper: an open `GET /events` stream as a client sees it, over real HTTP — the response,
 * the raw text and the events parsed so far — with waits that end as soon as a condition
 * holds (no sleeping).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { EventStreamParser, type RawEvent } from '@tock/protocol';
import { TOKEN, hmac, sha256 } from './signed-client.ts';

export class StreamReader {
  readonly events: RawEvent[] = [];
  text = '';
  ended = false;
  res!: IncomingMessage;
  #waiters: (() => void)[] = [];

  /** Sends `GET /events` with `headers` and waits for the response head. */
  static async open(port: number, headers: OutgoingHttpHeaders): Promise<StreamReader> {
    const reader = new StreamReader();
    const req = request({ host: '127.0.0.1', port, path: '/events', headers, agent: false });
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    reader.res = res;
    const parser = new EventStreamParser();
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      reader.text += chunk;
      reader.events.push(...parser.push(chunk));
      reader.#wake();
    });
    const done = (): void => {
      reader.ended = true;
      reader.#wake();
    };
    res.on('end', done);
    res.on('close', done);
    res.on('error', done);
    return reader;
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Resolves once `check()` holds; fails if the stream ends first. */
  async until(check: () => boolean): Promise<void> {
    while (!check()) {
      if (this.ended) assert.fail(`the stream ended before the condition held; got ${JSON.stringify(this.text)}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Resolves once the server ended the stream. */
  async untilEnded(): Promise<void> {
    while (!this.ended) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Closes the connection from the client's side. */
  close(): void {
    this.res.destroy();
  }
}

/** The `sig` a correct server puts on `event` in the stream opened with `nonce`. */
export function expectedEventSig(nonce: string, event: RawEvent, token = TOKEN): string {
  return `v1=${hmac(token, ['TOCK-HMAC-SHA256-EVENT', nonce, event.id, event.event, sha256(event.data ?? '')].join('\n'))}`;
}
