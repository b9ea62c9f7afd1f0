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
 *
 * The socket takes a request as the window's API does, through the door kit (door-kit/): a
 * body of at most 64 KiB, sent as `application/json`, a JSON object with no `__proto__`,
 * `constructor` or `prototype` key anywhere; each refused before any handler runs.
 */
import type { Server, ServerResponse } from 'node:http';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { AdminError, adminRequest, STREAM_END, STREAM_ERROR, STREAM_PROBLEM, STREAM_SUMMARY, type ProblemWire } from '@tock/admin';
import { nodeHttp } from '@tock/listener';
import { ruleLine } from '@tock/protocol';
import { writable } from './backpressure.ts';
import { failureOf, readJsonBody, standardRefusals, type BodyRules } from './door-kit/index.ts';

/** The caller's side and the frames live in @tock/admin; here for the app's own modules and tests. */
export { AdminError, AppNotRunningError, adminDownload, adminRequest } from '@tock/admin';

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

const MAX_ADMIN_BODY = 64 * 1024;

/**
 * How the socket reads a body (the door kit's reader): 64 KiB of JSON, `application/json`,
 * no prototype keys. Its frames predate the kit: a body that is not a JSON object keeps its
 * old line.
 */
const ADMIN_BODY: BodyRules = {
  limit: MAX_ADMIN_BODY,
  refusals: {
    ...standardRefusals(MAX_ADMIN_BODY),
    unreadable: () => new AdminError(...ruleLine('body', { rule: 'adminNotObject' })),
    notObject: () => new AdminError(...ruleLine('body', { rule: 'adminNotObject' })),
  },
};

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const INTERNAL = 'internal error in the app; see its output for details';

/**
 * A failure as the admin door answers it: the kit's mapping (door-kit/failure.ts), the one
 * line and the problem beside it; `undefined` for a bug, which is logged and answered as
 * internal. Every refusal is a 400 on the socket whatever its code (the frames' contract: the
 * caller reads `ok` and `code`, never the status).
 */
function refusalOf(error: unknown): { message: string; problem: ProblemWire } | undefined {
  const failure = failureOf(error);
  if (failure.unexpected) return undefined;
  const problem: ProblemWire = { code: failure.code };
  if (failure.field !== undefined) problem.field = failure.field;
  if (failure.details !== undefined) problem.details = failure.details;
  if (failure.because !== undefined) problem.because = failure.because;
  return { message: failure.message, problem };
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
    if (await adminReachable(path)) throw new AdminError(...ruleLine('home', { rule: 'appAlreadyRunning' }));
    rmSync(path, { force: true }); // left behind by a crash
  }
  const server = nodeHttp.createServer(async (req, res) => {
    const handler = routes[`${req.method} ${req.url}`];
    if (!handler) return send(res, 404, { ok: false, error: `unknown admin command ${req.method} ${req.url}`, code: 'route_not_found' });
    try {
      const result = await handler(await readJsonBody(req, ADMIN_BODY));
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

