/**
 * The WakaTime door (docs/protocol.md "Editors: WakaTime heartbeats"): the
 * `/wakatime/api/v1…` paths on the listener's port (`heartbeats.bulk` and the `api_url` itself
 * take a bulk), a door of their own beside the signed API
 * — not a special case inside it. Its own auth (the editor key in `Authorization`, never the
 * token), its own lockout, a 2 MiB body limit and WakaTime's bodies (`{"error": "…"}`); the
 * checks of the signed API that apply are the listener's own functions (checks.ts): Host, browser, body
 * size, JSON. The use cases are injected, like the signed API's; it knows no SQL.
 *
 * Order: Host (403) → browser (403: any `Origin` or `Sec-Fetch-Site` but a browser
 * extension's `Origin`; an extension's CORS preflight is answered here, 204) → lockout (429)
 * → declared size (413) → editor key (401, from `Authorization` or the query's `api_key`;
 * a wrong one counts toward the lockout, a missing one does not) → license (423) → path (404)
 * and method (405) → body (413 while reading, 415, 400) → use case (inside `atomically`:
 * answered once the heartbeats are committed) → 201 / 200. How each request ended — what was
 * accepted, the reason of a refusal — goes to the `heartbeatsAnswered` handler, under the
 * request's User-Agent (`tock editors` shows the last refusal of each editor). An answer to
 * an extension carries `Access-Control-Allow-Origin` with its origin, so the extension can
 * read it; an extension's body may come as `text/plain` (what `fetch` sends a string as).
 */

import type { IncomingMessage } from 'node:http';
import {
  isProblem,
  isWireCode,
  ERROR_STATUS,
  LICENSE_LOCKED_BODY,
  EXTENSION_ORIGIN_PATTERN,
  WAKATIME_BULK_PATHS,
  WAKATIME_LIMITS,
  WAKATIME_ROUTES,
  type HeartbeatOutcome,
  type LicenseState,
  type ProblemReason,
  type WakatimeError,
  type WakatimePath,
} from '@tock/protocol';
import { allowedHostsFor, hasBody, hostAllowed, isBrowserRequest, isJsonContentType, parseJson } from '../checks.ts';
import { INTERNAL_ERROR_MESSAGE } from '../envelopes.ts';
import { Lockout } from '../lockout.ts';
import { ABORTED, TOO_LARGE, readBody } from '../read-body.ts';
import type { MaybePromise, WakatimeHandlers } from '../types.ts';
import { editorKeyMatches, presentedKey } from './editor-key.ts';

/** An answer of the door: written by the listener (headers, request list) like any other. */
export interface DoorAnswer {
  status: number;
  body: string;
  extra?: Record<string, string>;
  /** The body was not read (or not all of it): close the connection after answering. */
  closeAfter?: boolean;
  /** A refusal's reason by its code and values, told to `heartbeatsAnswered` (never written). */
  reason?: ProblemReason;
}

/** What the door needs from the listener and the application. */
export interface DoorOptions {
  /** The current editor key, read on every request; null (none made yet) refuses every request. */
  editorKey: () => string | null;
  handlers: Partial<WakatimeHandlers>;
  license: () => LicenseState;
  /** Durations of the lockout are measured on it. */
  monotonic: () => number;
  /** The store's transaction: heartbeats are answered once committed (see ListenerOptions.atomically). */
  atomically: (<T>(work: () => T) => T | Promise<T>) | undefined;
  onError: ((error: unknown) => void) | undefined;
}

/** The door, for one listener. */
export interface WakatimeDoor {
  /** Sets the port the Host header must name (null while not listening). */
  bindTo(port: number | null): void;
  /** Answers one request whose path starts with `/wakatime/`; undefined when the client went away. */
  answer(req: IncomingMessage, method: string, path: string): MaybePromise<DoorAnswer | undefined>;
}

const TOO_LARGE_MESSAGE = `the request body is larger than ${WAKATIME_LIMITS.maxBodyBytes / (1024 * 1024)} MiB`;
const ROUTES = WAKATIME_ROUTES as Readonly<Record<string, string>>;

function error(status: number, message: string, reason?: ProblemReason, extra?: Record<string, string>): DoorAnswer {
  return { status, body: JSON.stringify({ error: message }), ...(extra ? { extra } : {}), ...(reason ? { reason } : {}) };
}

/** Creates the door; the listener hands it every request under `/wakatime/`. */
export function createWakatimeDoor(options: DoorOptions): WakatimeDoor {
  const lockout = new Lockout();
  let allowedHosts: ReadonlySet<string> = new Set();
  let boundPort: number | null = null;

  /** Answers already told to `heartbeatsAnswered` (the heartbeats' own, with what was accepted). */
  const told = new WeakSet<IncomingMessage>();

  /** Tells the application how a request ended; an observer that fails never changes the answer. */
  function tell(req: IncomingMessage, report: { accepted: number; refusal: string | null; refusalReason?: ProblemReason | null }): void {
    told.add(req);
    const heard = options.handlers.heartbeatsAnswered;
    if (!heard) return;
    try {
      heard.call(options.handlers, { userAgent: userAgentOf(req), ...report });
    } catch (thrown) {
      options.onError?.(thrown);
    }
  }

  /** A refusal's reason as it was answered: the body's `error`. */
  function tellRefusal(req: IncomingMessage, answer: DoorAnswer | undefined): DoorAnswer | undefined {
    if (answer === undefined || answer.status < 400 || told.has(req)) return answer;
    let reason = `HTTP ${answer.status}`;
    try {
      const body = JSON.parse(answer.body) as { error?: unknown };
      if (typeof body.error === 'string') reason = body.error;
    } catch {
      // Every body of the door is JSON; the status says enough otherwise.
    }
    tell(req, { accepted: 0, refusal: reason, refusalReason: answer.reason ?? null });
    return answer;
  }

  /** A failure of a use case: a Problem with a wire code keeps its status and message; anything else is a 500 that says nothing. */
  function failure(thrown: unknown): DoorAnswer {
    if (isProblem(thrown) && isWireCode(thrown.code)) return error(ERROR_STATUS[thrown.code], thrown.message);
    options.onError?.(thrown);
    return error(500, INTERNAL_ERROR_MESSAGE, { code: 'editor_failed' });
  }

  /** Runs `work` in the store's transaction when there is one; its promise settles once committed. */
  function durably<T>(work: () => MaybePromise<T>, done: (value: T) => DoorAnswer): MaybePromise<DoorAnswer> {
    let result: MaybePromise<T> | Promise<MaybePromise<T>>;
    try {
      result = options.atomically ? options.atomically(work) : work();
    } catch (thrown) {
      return failure(thrown);
    }
    if (result instanceof Promise) return result.then((value) => Promise.resolve(value).then(done, failure), failure);
    return done(result as T);
  }

  function heartbeats(req: IncomingMessage, path: WakatimePath, json: unknown): MaybePromise<DoorAnswer> {
    const record = options.handlers.recordHeartbeats;
    if (!record) return error(503, `${path} is not available in this version of the app`, { code: 'editor_unavailable', values: { path } });
    const bulk = WAKATIME_BULK_PATHS.has(path);
    if (bulk) {
      if (!Array.isArray(json) || json.length === 0) return error(400, 'the body must be a JSON array of 1 to 1000 heartbeats', { code: 'editor_body_shape', values: { shape: 'array' } });
      if (json.length > WAKATIME_LIMITS.maxBulk) return error(400, `at most ${WAKATIME_LIMITS.maxBulk} heartbeats in one request; send the rest in another`, { code: 'editor_too_many', values: { max: WAKATIME_LIMITS.maxBulk } });
    } else if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return error(400, 'the body must be one heartbeat, a JSON object', { code: 'editor_body_shape', values: { shape: 'object' } });
    }
    const userAgent = userAgentOf(req);
    const machine = req.headers['x-machine-name'];
    const input = { heartbeats: bulk ? (json as unknown[]) : [json], userAgent, machine: typeof machine === 'string' ? machine : undefined };
    return durably(
      () => record.call(options.handlers, input),
      (answered: HeartbeatOutcome[]) => {
        let outcomes = answered;
        const refused = outcomes.find((o): o is WakatimeError => 'error' in o);
        const accepted = outcomes.filter((o) => 'data' in o).length;
        // Core's check by its code; a refusal without one (another handler) in its English inside the coded line.
        tell(req, { accepted, refusal: refused?.error ?? null, refusalReason: refused === undefined ? null : (refused.because ?? { code: 'editor_heartbeat', values: { error: refused.error } }) });
        // The wire as it always was: a refusal is `{error}` alone.
        outcomes = outcomes.map((o) => ('error' in o ? { error: o.error } : o));
        if (!bulk) {
          const [only] = outcomes;
          return only !== undefined && 'data' in only ? { status: 201, body: JSON.stringify(only) } : { status: 400, body: JSON.stringify(only ?? { error: 'the heartbeat was refused' }) };
        }
        const responses = outcomes.map((o) => [o, 'data' in o ? 201 : 400]);
        if (accepted > 0) return { status: 201, body: JSON.stringify({ responses }) };
        return { status: 400, body: JSON.stringify({ error: 'every heartbeat was refused; see responses', responses }) };
      },
    );
  }

  function statusBar(path: WakatimePath): MaybePromise<DoorAnswer> {
    const read = options.handlers.statusBarToday;
    if (!read) return error(503, `${path} is not available in this version of the app`, { code: 'editor_unavailable', values: { path } });
    try {
      const result = read.call(options.handlers);
      if (result instanceof Promise) return result.then((value) => ({ status: 200, body: JSON.stringify(value) }), failure);
      return { status: 200, body: JSON.stringify(result) };
    } catch (thrown) {
      return failure(thrown);
    }
  }

  function afterBody(req: IncomingMessage, path: WakatimePath, body: Buffer): MaybePromise<DoorAnswer> {
    const type = req.headers['content-type'];
    if (!isJsonContentType(type) && !(extensionOrigin(req.headers) !== null && isTextPlain(type))) {
      return error(415, 'a request body must be sent with Content-Type: application/json', { code: 'editor_not_json', values: { what: 'type' } });
    }
    const parsed = parseJson(body);
    if (!parsed.ok) return error(400, 'the request body is not valid UTF-8 JSON', { code: 'editor_not_json', values: { what: 'body' } });
    return heartbeats(req, path, parsed.value);
  }

  return {
    bindTo(port) {
      boundPort = port;
      allowedHosts = port === null ? new Set() : allowedHostsFor(port);
    },

    answer(req, method, path) {
      const origin = extensionOrigin(req.headers);
      const answered = answerRequest(req, method, path);
      const done = (a: DoorAnswer | undefined): DoorAnswer | undefined => withCors(tellRefusal(req, a), origin);
      return answered instanceof Promise ? answered.then(done) : done(answered);
    },
  };

  function answerRequest(req: IncomingMessage, method: string, path: string): MaybePromise<DoorAnswer | undefined> {
    const headers = req.headers;
    const unread = hasBody(headers);
    const refuse = (answer: DoorAnswer): DoorAnswer => (unread ? { ...answer, closeAfter: true } : answer);
    if (!hostAllowed(headers.host, allowedHosts)) {
      return refuse(error(403, `the Host header must be 127.0.0.1:${boundPort} or localhost:${boundPort}`, { code: 'editor_host', values: { port: String(boundPort) } }));
    }
    const extension = extensionOrigin(headers);
    if (isBrowserRequest(headers) && extension === null) {
      return refuse(error(403, 'requests from web pages are refused; editors send heartbeats through wakatime-cli, browsers through the WakaTime extension', { code: 'editor_web_page' }));
    }
    // An extension's preflight (it sends X-Machine-Name): nothing is read or run, no key is asked.
    if (extension !== null && method === 'OPTIONS') return refuse({ status: 204, body: '', extra: PREFLIGHT });
    const lockedFor = lockout.retryAfterSeconds(options.monotonic());
    if (lockedFor > 0) {
      return refuse(error(429, `too many wrong editor keys; try again in ${lockedFor} s`, { code: 'editor_locked_out', values: { seconds: lockedFor } }, { 'retry-after': String(lockedFor) }));
    }
    const length = headers['content-length'];
    if (length !== undefined && Number(length) > WAKATIME_LIMITS.maxBodyBytes) return refuse(error(413, TOO_LARGE_MESSAGE, { code: 'editor_too_large', values: { mib: WAKATIME_LIMITS.maxBodyBytes / (1024 * 1024) } }));

    const presented = presentedKey(headers.authorization, req.url);
    if (!presented.present) return refuse(error(401, 'send the editor key: api_key in ~/.wakatime.cfg (`tock editors setup` writes it)', { code: 'editor_key_missing', values: { command: 'tock editors setup' } }));
    if (!editorKeyMatches(presented.key, options.editorKey())) {
      lockout.recordFailure(options.monotonic());
      return refuse(error(401, 'the editor key is wrong; `tock editors key` prints the right one', { code: 'editor_key_wrong', values: { command: 'tock editors key' } }));
    }
    if (options.license() === 'locked') return refuse({ status: 423, body: LICENSE_LOCKED_BODY, reason: { code: 'editor_license_locked' } });
    const allowed = ROUTES[path];
    if (allowed === undefined) return refuse(error(404, `there is no endpoint ${method} ${path}`, { code: 'editor_no_endpoint', values: { method, path } }));
    if (method !== allowed) return refuse(error(405, `${path} accepts ${allowed} only`, { code: 'editor_method', values: { path, allowed } }, { allow: allowed }));
    const route = path as WakatimePath;
    // A GET's body (none is expected) is left unread: the connection closes after the answer.
    if (allowed === 'GET') return unread ? Promise.resolve(statusBar(route)).then(refuse) : statusBar(route);
    if (!unread) return error(400, 'the body must hold heartbeats as JSON', { code: 'editor_body_shape', values: { shape: 'any' } });
    return readBody(req, WAKATIME_LIMITS.maxBodyBytes).then((read) => {
      if (read === ABORTED) return undefined;
      if (read === TOO_LARGE) return { ...error(413, TOO_LARGE_MESSAGE, { code: 'editor_too_large', values: { mib: WAKATIME_LIMITS.maxBodyBytes / (1024 * 1024) } }), closeAfter: true };
      return afterBody(req, route, read);
    });
  }
}

/** What an extension's preflight is answered: the door's methods and the headers the extension may send. */
const PREFLIGHT: Record<string, string> = {
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers': 'authorization, content-type, x-machine-name',
  'access-control-max-age': '600',
};

/** The request's `Origin` when it is a browser extension's (docs/security.md "The WakaTime door"), else null. */
function extensionOrigin(headers: IncomingMessage['headers']): string | null {
  const origin = headers.origin;
  return typeof origin === 'string' && EXTENSION_ORIGIN_PATTERN.test(origin) ? origin : null;
}

/** `text/plain`, with or without a charset: how `fetch` labels a string body (the browser extension's). */
function isTextPlain(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase() === 'text/plain';
}

/** An answer to an extension names its origin, so the extension may read it (and no other origin may). */
function withCors(answer: DoorAnswer | undefined, origin: string | null): DoorAnswer | undefined {
  if (answer === undefined || origin === null) return answer;
  return { ...answer, extra: { ...answer.extra, 'access-control-allow-origin': origin, vary: 'Origin' } };
}

/** The request's User-Agent: the plugin and editor it names, or the client's own. */
function userAgentOf(req: IncomingMessage): string | undefined {
  const header = req.headers['user-agent'];
  return typeof header === 'string' ? header : undefined;
}
