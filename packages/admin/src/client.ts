/**
 * The caller's side of the admin socket: one JSON command (`adminRequest`) or one streamed
 * answer piped into a destination (`adminDownload`); a refusal becomes an {@link AdminError}
 * with the app's code and field, no app on the socket an {@link AppNotRunningError}.
 */
import type * as Http from 'node:http';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PROBLEM_STATUS, ruleLine, type FieldProblem, type ProblemCode, type ProblemOptions, type ProblemReason } from '@tock/protocol';
import { AdminError, STREAM_END, STREAM_ERROR, STREAM_PROBLEM, STREAM_SUMMARY } from './frames.ts';

/**
 * `node:http` through `require`, as @tock/listener's node-http.ts takes it: an ES import of the
 * builtin reads its getters and loads undici, which no Tock process uses.
 */
const nodeHttp = createRequire(import.meta.url)('node:http') as typeof Http;

/** The error a caller throws for a refusal: its line, and the code, field and details the app sent (when they are well-formed). */
function refusalError(message: string, sent: unknown): AdminError {
  const wire = typeof sent === 'object' && sent !== null ? (sent as Record<string, unknown>) : {};
  const code = typeof wire.code === 'string' && Object.hasOwn(PROBLEM_STATUS, wire.code) ? (wire.code as ProblemCode) : 'refused';
  const details = Array.isArray(wire.details) && wire.details.every((d) => typeof d?.field === 'string' && typeof d?.message === 'string') ? (wire.details as FieldProblem[]) : undefined;
  const options: ProblemOptions & { code: ProblemCode } = { code };
  if (typeof wire.field === 'string') options.field = wire.field;
  if (details !== undefined) options.details = details;
  const because = wire.because as { code?: unknown; values?: unknown } | undefined;
  if (typeof because === 'object' && because !== null && typeof because.code === 'string' && (because.values === undefined || (typeof because.values === 'object' && because.values !== null))) {
    options.because = because as ProblemReason;
  }
  return new AdminError(message, options);
}

/** Thrown by {@link adminRequest} when no app answers on the socket. */
export class AppNotRunningError extends Error {
  override name = 'AppNotRunningError' as const;
}

/** How long the app may be silent before it counts as stuck: 15 s, unless the command says (an import) or its route is below. */
export const ADMIN_SILENCE_MS = 15_000;

/**
 * Routes whose answer may take longer than {@link ADMIN_SILENCE_MS} without the app being stuck:
 * `tock calendar add` of a folder reads its files (at most 20 000, 16 MiB) before it answers with
 * their count, seconds on a loaded machine and more on a slow disk (docs/decisions.md).
 */
export const ADMIN_LONGER_MS: Readonly<Record<string, number>> = { 'POST /calendars/add': 120_000 };

/** How long a command to `route` may wait in silence: what the caller says, else the route's, else {@link ADMIN_SILENCE_MS}. */
export function adminSilenceMs(method: 'GET' | 'POST', route: string, timeoutMs?: number): number {
  return timeoutMs ?? ADMIN_LONGER_MS[`${method} ${route}`] ?? ADMIN_SILENCE_MS;
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
            reject(new AdminError(...ruleLine('app', { rule: 'appAnswerUnreadable' })));
          }
        });
      },
    );
    // 15 s of silence means the app is stuck; a long import says how long it may take, a calendar's first read is given longer.
    req.setTimeout(adminSilenceMs(method, route, options.timeoutMs), () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') reject(new AppNotRunningError('Tock is not running'));
      else reject(new AdminError(...ruleLine('app', { rule: 'appUnreachable', values: { reason: error.code ?? error.message } })));
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
      else reject(new AdminError(...ruleLine('app', { rule: 'appUnreachable', values: { reason: error.code ?? error.message } })));
    });
    req.on('response', (res) => {
      req.setTimeout(0);
      if (res.statusCode !== 200 || !res.headers.trailer?.includes(STREAM_END)) {
        readAnswer(res).then(
          (parsed) => reject(parsed.ok ? new AdminError(...ruleLine('app', { rule: 'appNoStream' })) : refusalError(parsed.error ?? 'the app refused the command', parsed)),
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
            reject(new AdminError(...ruleLine('app', { rule: 'appStoppedSending' })));
          }
        },
        (error: NodeJS.ErrnoException) => {
          // The source failing is the app going away; anything else is the destination's own error.
          if (res.errored || error.code === 'ECONNRESET' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' && !destination.errored) {
            reject(new AdminError(...ruleLine('app', { rule: 'appStoppedSending' })));
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
    throw new AdminError(...ruleLine('app', { rule: 'appAnswerUnreadable' }));
  }
}
