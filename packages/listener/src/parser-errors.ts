/**
 * Answers for requests Node's HTTP parser refused (headers over 16 KiB, malformed, too slow):
 * they never reach the listener's checks, so they get a short answer with the usual headers,
 * unsigned (no signature was verified), then the connection closes.
 */

import type { Socket } from 'node:net';
import { API_VERSION, LIMITS } from '@tock/protocol';
import { nodeHttp } from './node-http.ts';

/** Writes the answer for a parser error straight to the socket, and closes it. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', `the request line and headers are larger than ${LIMITS.maxHeaderBytes / 1024} KiB`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request did not arrive in time']
        : [400, 'validation_failed', 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify({ ok: false, error: message, code });
  socket.end(
    `HTTP/1.1 ${status} ${nodeHttp.STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `X-Tock-Api-Version: ${API_VERSION}\r\n` +
      'Cache-Control: no-store\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
