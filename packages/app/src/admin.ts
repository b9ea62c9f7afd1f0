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
 *
 * A refusal travels as the problem it is (docs/architecture.md "One problem type"): a JSON
 * answer `{ok: false, error, code, field?, details?}` — `error` the one line, as before, so an
 * older CLI still prints it — and a failed stream adds `X-Tock-Stream-Problem`, the same
 * `{code, field?, details?}` as percent-encoded JSON. The caller turns either back into an
 * {@link AdminError}, a `Problem` with the app's code and field.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { nodeHttp } from '@tock/listener';
import { isProblem, PROBLEM_STATUS, Problem, type FieldProblem, type ProblemCode, type ProblemOptions } from '@tock/protocol';
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
const STREAM_PROBLEM = 'x-tock-stream-problem';

/**
 * A failure an admin command reports to the user as one line, with the CLI's exit status 1: a
 * {@link Problem}, `refused` unless a code is given. On the caller's side it is the app's
 * refusal as it was answered — its code, and the field it is about — so a command maps the
 * field to its flag without reading the message.
 */
export class AdminError extends Problem {
  override name = 'AdminError' as const;

  constructor(message: string, options: ProblemOptions & { code?: ProblemCode } = {}) {
    super(options.code ?? 'refused', message, options);
  }
}

/** What a refusal carries beside its line, on the wire (`field` and `details` only when known). */
interface ProblemWire {
  code: ProblemCode;
  field?: string;
  details?: FieldProblem[];
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
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new AdminError('admin request must be a JSON object');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new AdminError('admin request must be a JSON object');
  return value as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const INTERNAL = 'internal error in the app; see its output for details';

/** A refusal as the admin door answers it: the one line and the problem beside it. */
interface Refusal {
  message: string;
  problem: ProblemWire;
}

/**
 * How an admin answer gives a failure: a problem's message, code and field (the checked
 * input's and every domain refusal), or, as `refused`, the message of an error whose class
 * names itself (`override name = …`, such as a desktop source's); `undefined` for a bug (a
 * plain Error, TypeError, RangeError — their name is the prototype's), which is logged and
 * answered as internal. The one place the admin door maps failures; never by the message.
 */
function refusalOf(error: unknown): Refusal | undefined {
  if (isProblem(error)) {
    const problem: ProblemWire = { code: error.code };
    if (error.field !== undefined) problem.field = error.field;
    if (error.details !== undefined) problem.details = error.details;
    return { message: error.message, problem };
  }
  const named = error instanceof Error && Object.hasOwn(error, 'name');
  return named ? { message: error.message, problem: { code: 'refused' } } : undefined;
}

/** The error a caller throws for a refusal: its line, and the code, field and details the app sent (when they are well-formed). */
function refusalError(message: string, sent: unknown): AdminError {
  const wire = typeof sent === 'object' && sent !== null ? (sent as Record<string, unknown>) : {};
  const code = typeof wire.code === 'string' && Object.hasOwn(PROBLEM_STATUS, wire.code) ? (wire.code as ProblemCode) : 'refused';
  const details = Array.isArray(wire.details) && wire.details.every((d) => typeof d?.field === 'string' && typeof d?.message === 'string') ? (wire.details as FieldProblem[]) : undefined;
  const options: ProblemOptions & { code: ProblemCode } = { code };
  if (typeof wire.field === 'string') options.field = wire.field;
  if (details !== undefined) options.details = details;
  return new AdminError(message, options);
}

/** Sends a stream's chunks as the client takes them, then the trailer that says how it ended. */
async function sendStream(res: ServerResponse, stream: AdminStream): Promise<void> {
  res.writeHead(200, { 'content-type': stream.contentType, trailer: `${STREAM_END}, ${STREAM_ERROR}, ${STREAM_PROBLEM}, ${STREAM_SUMMARY}` });
  let finished = false;
  try {
    for (;;) {
      if (res.destroyed) return; // the client went away; close() below lets go of the store
      const next = stream.chunks.next();
      if (next.done) {
        // Header values are Latin-1: every other character of the summary (a client named 東京) as a JSON escape.
        const summary = JSON.stringify(next.value ?? null).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        res.addTrailers({ [STREAM_END]: 'ok', [STREAM_SUMMARY]: summary });
        finished = true;
        break;
      }
      if (!res.write(next.value)) await writable(res);
    }
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === undefined) console.error('tock: admin stream failed:', error instanceof Error ? error.message : String(error));
    const { message, problem } = refusal ?? { message: INTERNAL, problem: { code: 'internal_error' } };
    // Header values are Latin-1: the reason and the problem travel percent-encoded.
    res.addTrailers({ [STREAM_END]: 'error', [STREAM_ERROR]: encodeURIComponent(message), [STREAM_PROBLEM]: encodeURIComponent(JSON.stringify(problem)) });
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
    if (!handler) return send(res, 404, { ok: false, error: `unknown admin command ${req.method} ${req.url}`, code: 'route_not_found' });
    try {
      const result = await handler(await readJson(req));
      if (result instanceof AdminStream) await sendStream(res, result);
      else send(res, 200, { ok: true, result: result ?? null });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === undefined) console.error('tock: admin command failed:', error instanceof Error ? error.message : String(error));
      if (refusal === undefined) send(res, 500, { ok: false, error: INTERNAL, code: 'internal_error' });
      else send(res, 400, { ok: false, error: refusal.message, ...refusal.problem });
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
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<unknown> {
  const body = input === undefined ? '' : JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(
      // `signal`: a caller that stops waiting (`tock watch` on Ctrl+C) ends the request at once.
      { socketPath: path, method, path: route, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, ...(options.signal ? { signal: options.signal } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok: boolean; result?: unknown; error?: string };
            if (parsed.ok) resolve(parsed.result);
            else reject(refusalError(parsed.error ?? 'the app refused the command', parsed));
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
          (parsed) => reject(parsed.ok ? new AdminError('the app answered without a stream; restart it with `tock app`') : refusalError(parsed.error ?? 'the app refused the command', parsed)),
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
            reject(refusalError(safeDecode(res.trailers[STREAM_ERROR] ?? 'the app could not finish'), parsedProblem(res.trailers[STREAM_PROBLEM])));
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

/** The problem trailer of a failed stream, or undefined (an older app sends none). */
function parsedProblem(trailer: string | undefined): unknown {
  if (trailer === undefined) return undefined;
  try {
    return JSON.parse(decodeURIComponent(trailer));
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Reads a JSON admin answer (an error before a stream started). */
async function readAnswer(res: IncomingMessage): Promise<{ ok: boolean; error?: string; code?: unknown; field?: unknown; details?: unknown }> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok: boolean; error?: string };
  } catch {
    throw new AdminError('the app sent an unreadable answer; restart it with `tock app`');
  }
}
