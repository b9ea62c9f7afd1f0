/**
 * The admin channel: how `tock listener on`, `tock token` and the other admin commands
 * reach the running app. HTTP over a Unix socket in the owner-only home directory (mode
 * 0600 on the socket, 0700 on the directory), so only the user who runs Tock can open it;
 * on Windows a named pipe. No TCP port, nothing a web page can reach.
 *
 * Most commands are one JSON request and one JSON answer. A command whose output can be
 * large (`tock export`) answers with an {@link AdminStream} instead: the body is its text,
 * sent chunk by chunk as the client reads (backpressure), and an HTTP trailer
 * `X-Tock-Stream-End` says at the end whether it finished (`ok`) or failed (`error`, with the
 * reason in `X-Tock-Stream-Error`). A body without that trailer was cut short. See
 * docs/decisions.md "Streaming admin answers".
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { nodeHttp } from '@tock/listener';
import { isProblem } from '@tock/protocol';
import { writable } from './backpressure.ts';

/**
 * One admin operation: its input is the parsed JSON body (or {}), its output any JSON value,
 * or an {@link AdminStream} for output too large to build in memory.
 */
export type AdminHandler = (input: Record<string, unknown>) => unknown;

/**
 * An admin answer sent as a stream of chunks (text, or bytes for a PDF). `chunks` is pulled one chunk at a time, only
 * when the client has taken the previous one; its return value (a JSON value) travels in the
 * `X-Tock-Stream-Summary` trailer. `close` runs once, however the stream ends (finished,
 * failed, or the client went away).
 */
export class AdminStream<Summary = unknown> {
  readonly contentType: string;
  readonly chunks: Iterator<string | Uint8Array, Summary, undefined>;
  readonly close: () => void;

  constructor(contentType: string, chunks: Iterator<string | Uint8Array, Summary, undefined>, close: () => void = () => {}) {
    this.contentType = contentType;
    this.chunks = chunks;
    this.close = close;
  }
}

/** Trailer names of a streamed admin answer. */
const STREAM_END = 'x-tock-stream-end';
const STREAM_ERROR = 'x-tock-stream-error';
const STREAM_SUMMARY = 'x-tock-stream-summary';

/** A failure an admin command reports to the user as one line, with the CLI's exit status 1. */
export class AdminError extends Error {
  override name = 'AdminError' as const;
}

const MAX_ADMIN_BODY = 64 * 1024;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_ADMIN_BODY) throw new AdminError('admin request too large');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new AdminError('admin request must be a JSON object');
  return value as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const INTERNAL = 'internal error in the app; see its output for details';

/**
 * The one line an admin answer gives for a failure: a problem's message (the checked input's
 * and every domain refusal), or the message of an error a module names as its own; `undefined`
 * for a bug (a plain Error, TypeError, RangeError), which is logged and answered as internal.
 * The one place the admin door maps failures.
 */
function refusalOf(error: unknown): string | undefined {
  if (isProblem(error)) return error.message;
  const named = error instanceof Error && error.name !== 'Error' && error.name !== 'TypeError' && error.name !== 'RangeError';
  return named ? error.message : undefined;
}

/** Sends a stream's chunks as the client takes them, then the trailer that says how it ended. */
async function sendStream(res: ServerResponse, stream: AdminStream): Promise<void> {
  res.writeHead(200, { 'content-type': stream.contentType, trailer: `${STREAM_END}, ${STREAM_ERROR}, ${STREAM_SUMMARY}` });
  let finished = false;
  try {
    for (;;) {
      if (res.destroyed) return; // the client went away; close() below lets go of the store
      const next = stream.chunks.next();
      if (next.done) {
        res.addTrailers({ [STREAM_END]: 'ok', [STREAM_SUMMARY]: JSON.stringify(next.value ?? null) });
        finished = true;
        break;
      }
      if (!res.write(next.value)) await writable(res);
    }
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === undefined) console.error('tock: admin stream failed:', error instanceof Error ? error.message : String(error));
    const message = refusal ?? INTERNAL;
    // Header values are Latin-1: the reason travels percent-encoded.
    res.addTrailers({ [STREAM_END]: 'error', [STREAM_ERROR]: encodeURIComponent(message) });
  } finally {
    if (!finished) stream.chunks.return?.();
    stream.close();
  }
  res.end();
}

/** Serves `routes` (keys like `POST /listener/on`) on the socket at `path`. */
export async function startAdminServer(path: string, routes: Record<string, AdminHandler>): Promise<Server> {
  if (process.platform !== 'win32' && existsSync(path)) {
    if (await adminReachable(path)) throw new AdminError('Tock is already running with this home; use that instance, or stop it first');
    rmSync(path, { force: true }); // left behind by a crash
  }
  const server = nodeHttp.createServer(async (req, res) => {
    const handler = routes[`${req.method} ${req.url}`];
    if (!handler) return send(res, 404, { ok: false, error: `unknown admin command ${req.method} ${req.url}` });
    try {
      const result = await handler(await readJson(req));
      if (result instanceof AdminStream) await sendStream(res, result);
      else send(res, 200, { ok: true, result: result ?? null });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === undefined) console.error('tock: admin command failed:', error instanceof Error ? error.message : String(error));
      send(res, refusal === undefined ? 500 : 400, { ok: false, error: refusal ?? INTERNAL });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The home directory is 0700 already; the umask makes the socket 0600 from its creation.
    const oldMask = process.umask(0o177);
    server.listen(path, () => {
      process.umask(oldMask);
      server.off('error', reject);
      resolve();
    });
  });
  if (process.platform !== 'win32') chmodSync(path, 0o600);
  return server;
}

/** True when an app answers on the socket. */
async function adminReachable(path: string): Promise<boolean> {
  try {
    await adminRequest(path, 'GET', '/ping');
    return true;
  } catch {
    return false;
  }
}

/** Thrown by {@link adminRequest} when no app answers on the socket. */
export class AppNotRunningError extends Error {
  override name = 'AppNotRunningError' as const;
}

/** Sends one admin command to the running app and returns its result, or throws AdminError / AppNotRunningError. */
export function adminRequest(
  path: string,
  method: 'GET' | 'POST',
  route: string,
  input?: Record<string, unknown>,
  options: { timeoutMs?: number } = {},
): Promise<unknown> {
  const body = input === undefined ? '' : JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(
      { socketPath: path, method, path: route, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok: boolean; result?: unknown; error?: string };
            if (parsed.ok) resolve(parsed.result);
            else reject(new AdminError(parsed.error ?? 'the app refused the command'));
          } catch {
            reject(new AdminError('the app sent an unreadable answer; restart it with `tock app`'));
          }
        });
      },
    );
    // 15 s of silence means the app is stuck; a long import says how long it may take.
    req.setTimeout(options.timeoutMs ?? 15_000, () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') reject(new AppNotRunningError('Tock is not running'));
      else reject(new AdminError(`could not reach the running app (${error.code ?? error.message})`));
    });
    req.end(body);
  });
}

/**
 * Sends one admin command whose answer is an {@link AdminStream} and pipes its text into
 * `destination` as it arrives, at the pace `destination` takes it. `end` (default true) ends
 * `destination` after the last chunk; leave it false for the process's stdout. Resolves with
 * the stream's summary once the app confirmed the end; rejects with AdminError when the app
 * refused the command, reported a failure, or the stream was cut short, and with
 * AppNotRunningError when no app answers.
 */
export function adminDownload(
  path: string,
  route: string,
  input: Record<string, unknown>,
  destination: Writable,
  options: { end?: boolean } = {},
): Promise<unknown> {
  const body = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request({ socketPath: path, method: 'POST', path: route, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    // Only until the answer starts: after that the pace is the destination's (a pager, a disk).
    req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') reject(new AppNotRunningError('Tock is not running'));
      else reject(new AdminError(`could not reach the running app (${error.code ?? error.message})`));
    });
    req.on('response', (res) => {
      req.setTimeout(0);
      if (res.statusCode !== 200 || !res.headers.trailer?.includes(STREAM_END)) {
        readAnswer(res).then(
          (parsed) => reject(new AdminError(parsed.ok ? 'the app answered without a stream; restart it with `tock app`' : (parsed.error ?? 'the app refused the command'))),
          reject,
        );
        return;
      }
      pipeline(res, destination, { end: options.end ?? true }).then(
        () => {
          const end = res.trailers[STREAM_END];
          if (end === 'ok') {
            try {
              resolve(JSON.parse(res.trailers[STREAM_SUMMARY] ?? 'null'));
            } catch {
              resolve(null);
            }
          } else if (end === 'error') {
            reject(new AdminError(safeDecode(res.trailers[STREAM_ERROR] ?? 'the app could not finish')));
          } else {
            reject(new AdminError('the app stopped before it finished sending; is it still running?'));
          }
        },
        (error: NodeJS.ErrnoException) => {
          // The source failing is the app going away; anything else is the destination's own error.
          if (res.errored || error.code === 'ECONNRESET' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' && !destination.errored) {
            reject(new AdminError('the app stopped before it finished sending; is it still running?'));
          } else reject(error);
        },
      );
    });
    req.end(body);
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Reads a JSON admin answer (an error before a stream started). */
async function readAnswer(res: IncomingMessage): Promise<{ ok: boolean; error?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok: boolean; error?: string };
  } catch {
    throw new AdminError('the app sent an unreadable answer; restart it with `tock app`');
  }
}
