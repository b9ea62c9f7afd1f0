/**
 * One request on its way through the listener's checks (listener.ts), and the headers of its
 * JSON answer: the content type, the API version, no caching, the length, the response
 * signature once the request was verified (docs/protocol.md "Request signing"), and
 * `connection: close` when the rest of the request was not read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_VERSION } from '@tock/protocol';
import { responseSignature, type HmacKey } from './signature.ts';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const API_VERSION_TEXT = String(API_VERSION);

/** One request on its way through the checks: what it asked and what was found about it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  nowMs: number;
  method: string;
  /** The request target as sent (path and query): what was signed. */
  target: string;
  /** The target without its query. */
  path: string;
  /** Set once the signature verified: from then on every response is signed. */
  key: HmacKey | null;
  nonce: string | null;
  /** The rest of the request was not read: close the connection after answering. */
  closeAfter: boolean;
}

/** The headers of a JSON answer to `x` with `status` and `body`, and any `extra` ones. */
export function answerHeaders(x: Exchange, status: number, body: string, extra?: Record<string, string>): string[] {
  // A flat [name, value, …] list: no object to build and copy on the hot path.
  const headers: string[] = [
    'content-type',
    JSON_CONTENT_TYPE,
    'x-tock-api-version',
    API_VERSION_TEXT,
    'cache-control',
    'no-store',
    'content-length',
    String(Buffer.byteLength(body)),
  ];
  if (x.key !== null && x.nonce !== null) {
    headers.push('x-tock-response-signature', responseSignature(x.key, x.nonce, status, body));
  }
  if (extra) for (const name in extra) headers.push(name, extra[name] as string);
  if (x.closeAfter) headers.push('connection', 'close');
  return headers;
}
