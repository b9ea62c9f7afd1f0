/** Reading a request body with the size limit of docs/protocol.md "Order of checks", step 4. */

import type { IncomingMessage } from 'node:http';

/** The body was larger than the limit; the rest is being discarded. */
export const TOO_LARGE = Symbol('too large');
/** The client went away before the body ended. */
export const ABORTED = Symbol('aborted');

/** Reads the body up to `limit` bytes; stops reading (and drops the rest) beyond it. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE | typeof ABORTED> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (value: Buffer | typeof TOO_LARGE | typeof ABORTED): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        settle(TOO_LARGE);
        req.resume(); // discard the rest until the connection closes
      } else chunks.push(chunk);
    };
    const onEnd = (): void => settle(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    const onAbort = (): void => settle(ABORTED);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}
