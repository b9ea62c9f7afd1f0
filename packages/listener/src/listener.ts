/**
 * The signed HTTP API of docs/protocol.md on node:http: the checks of docs/protocol.md "Order of checks on the server" in their order, the
 * envelopes, response signing, idempotency and the request list. Knows no SQL: the use cases
 * arrive as injected handlers.
 */

import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  API_VERSION,
  EMPTY_BODY_SHA256,
  ENDPOINTS,
  ERROR_STATUS,
  LICENSE_LOCKED_BODY,
  LIMITS,
  ROUTES,
  TockProblem,
  validateBody,
  validateQuery,
  validationProblem,
  type BodyRoute,
  type ErrorCode,
  type FieldProblem,
  type RoutePath,
} from '@tock/protocol';
import {
  MALFORMED_KEY,
  allowedHostsFor,
  declaredBodyTooLarge,
  hasBody,
  hostAllowed,
  idempotencyKeyOf,
  isBrowserRequest,
  isJsonContentType,
  parseJson,
  readAuthHeaders,
  signedBeforeStart,
  timestampDrifts,
} from './checks.ts';
import { memoryIdempotencyStore } from './idempotency.ts';
import { Lockout } from './lockout.ts';
import { NonceWindow } from './nonce-window.ts';
import { PortInUseError } from './port-in-use-error.ts';
import { RequestLog, toRecord } from './request-log.ts';
import { TokenKeys, requestSignatureMatches, responseSignature, sha256Hex, type HmacKey } from './signature.ts';
import type { ListenerHandlers, Listener, ListenerOptions, RememberedNonce } from './types.ts';

/** Server timeouts, ms (see README: loopback clients send a request in one go). */
export const SERVER_TIMEOUTS = {
  /** Whole header block must arrive within this. */
  headersTimeout: 10_000,
  /** Whole request (headers and ≤ 64 KiB body) must arrive within this. */
  requestTimeout: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeout: 5_000,
  /**
   * How often the two limits above are enforced. A connection that never sends a byte is
   * closed (408) by `requestTimeout` too: Node counts from the moment it was accepted.
   */
  connectionsCheckingInterval: 1_000,
} as const;

/** The timeouts above, each of which a test may shorten (ListenerOptions.serverTimeouts). */
export type ServerTimeouts = { -readonly [K in keyof typeof SERVER_TIMEOUTS]: number };

/**
 * Most connections open at once; more are closed as soon as they are accepted. Keeps a flood
 * of idle sockets from using up the app's file descriptors (its database and window need
 * some); far above what local clients open (the TS client's fetch opens one per request in flight).
 */
export const MAX_CONNECTIONS = 1024;

const NONCE_WINDOW_MS = LIMITS.nonceWindowSeconds * 1000;
const IDEMPOTENCY_WINDOW_MS = LIMITS.idempotencyWindowSeconds * 1000;
/** About 75 MB of nonces at most (70–75 B per nonce at the bound, measured by bench/, outside the JS heap); reached when verified requests average > 5 500/s for 180 s. */
const DEFAULT_MAX_NONCES = 1_000_000;
const ROUTE_METHODS: ReadonlyMap<string, string> = new Map(Object.entries(ROUTES));
const EMPTY = Buffer.alloc(0);
const TOO_LARGE = Symbol('too large');
const ABORTED = Symbol('aborted');
const NOT_WIRED = Symbol('not wired');

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const API_VERSION_TEXT = String(API_VERSION);

/** One request on its way through the checks. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  nowMs: number;
  method: string;
  path: string;
  /** Set once the signature verified: from then on every response is signed. */
  key: HmacKey | null;
  nonce: string | null;
  /** The rest of the request was not read: close the connection after answering. */
  closeAfter: boolean;
}

interface Outcome {
  status: number;
  body: string;
}

/** Creates the listener; nothing is bound until {@link Listener.listen}. */
export function createListener(options: ListenerOptions): Listener {
  const clock = options.clock ?? Date.now;
  const idempotency = options.idempotency ?? memoryIdempotencyStore();
  const lockout = new Lockout();
  const nonces = new NonceWindow(options.maxNonces ?? DEFAULT_MAX_NONCES);
  const log = new RequestLog();
  const keys = new TokenKeys();
  const inFlight = new Map<string, Promise<void>>();
  const startedAtMs = options.replayGuard?.startedAtMs ?? clock();
  for (const { nonce, timestamp } of options.replayGuard?.remembered ?? []) {
    const expiresAtMs = timestamp * 1000 + NONCE_WINDOW_MS;
    if (expiresAtMs > clock()) nonces.add(nonce, expiresAtMs, clock());
  }

  let boundPort: number | null = null;
  let allowedHosts: ReadonlySet<string> = new Set();
  /**
   * Nonces of requests dated in the current second. The restart guard compares whole seconds,
   * so a restart within that second would let them through again: close() hands them to
   * `remember` (a write per request would cost the hot path far more than this array).
   */
  let currentSecond = -1;
  let currentSecondNonces: RememberedNonce[] = [];

  // ---- answering ------------------------------------------------------------------------

  function reply(x: Exchange, status: number, body: string, extra?: Record<string, string>): void {
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
    x.res.writeHead(status, headers);
    x.res.end(body);
    log.add(x.nowMs, x.method, x.path, status);
    if (options.onRequest) {
      try {
        options.onRequest(toRecord({ timeMs: x.nowMs, method: x.method, path: x.path, status }));
      } catch (error) {
        options.onError?.(error);
      }
    }
  }

  function refuse(x: Exchange, code: ErrorCode, message: string, extra?: Record<string, string>): void {
    const outcome = problemOutcome(code, message);
    reply(x, outcome.status, outcome.body, extra);
  }

  /** A 401 for well-formed auth headers: counts toward the lockout. */
  function authFailure(x: Exchange, code: 'clock_drift' | 'bad_signature', message: string): void {
    lockout.recordFailure(x.nowMs);
    refuse(x, code, message);
  }

  // ---- the checks of docs/protocol.md "Order of checks on the server", in order --------------------------------------------------

  /**
   * Steps 1–4, then reads the body if there is one. Synchronous up to the handler when there
   * is no body and the handler answers synchronously: GETs pay no promise round trips.
   */
  function answer(x: Exchange): void | Promise<void> {
    const headers = x.req.headers;
    if (!hostAllowed(headers.host, allowedHosts)) {
      return refuse(x, 'forbidden_host', `the Host header must be 127.0.0.1:${boundPort} or localhost:${boundPort}`);
    }
    if (isBrowserRequest(headers)) {
      return refuse(x, 'browser_request', 'requests from web browsers are refused; call the API from a script or an SDK');
    }
    const lockedFor = lockout.retryAfterSeconds(x.nowMs);
    if (lockedFor > 0) {
      return refuse(x, 'locked_out', `too many failed authentications; try again in ${lockedFor} s`, {
        'retry-after': String(lockedFor),
      });
    }
    if (declaredBodyTooLarge(headers)) return refuse(x, 'payload_too_large', TOO_LARGE_MESSAGE);
    if (!hasBody(headers)) return answerWithBody(x, EMPTY);
    return readBody(x.req, LIMITS.maxBodyBytes).then((read) => {
      if (read === ABORTED) return;
      if (read === TOO_LARGE) {
        x.closeAfter = true;
        return refuse(x, 'payload_too_large', TOO_LARGE_MESSAGE);
      }
      return answerWithBody(x, read);
    });
  }

  /** Steps 5–9, then the handler. */
  function answerWithBody(x: Exchange, body: Buffer): void | Promise<void> {
    const headers = x.req.headers;
    const target = x.req.url ?? '/';
    const auth = readAuthHeaders(headers);
    if (auth === undefined) {
      return refuse(
        x,
        'missing_auth',
        'X-Tock-Timestamp, X-Tock-Nonce and X-Tock-Signature must each be sent once, well formed',
      );
    }
    const timestampSec = Number(auth.timestamp);
    if (timestampDrifts(timestampSec, x.nowMs)) {
      return authFailure(
        x,
        'clock_drift',
        `the request timestamp is more than ${LIMITS.clockSkewSeconds} s from the server clock; check the system clock`,
      );
    }
    const token = options.token();
    const bodySha256 = body.length === 0 ? EMPTY_BODY_SHA256 : sha256Hex(body);
    const key = token === null ? null : keys.forToken(token);
    if (key === null || !requestSignatureMatches(key, auth, x.method, target, bodySha256)) {
      return authFailure(x, 'bad_signature', 'the request signature does not match; check the token');
    }
    if (signedBeforeStart(timestampSec, x.nowMs, startedAtMs)) {
      return authFailure(x, 'clock_drift', 'the request was signed before Tock started; sign it again');
    }
    x.key = key;
    x.nonce = auth.nonce;

    if (nonces.has(auth.nonce, x.nowMs)) {
      return refuse(x, 'nonce_reused', 'this nonce was used in the last 180 s; sign every request with a fresh nonce');
    }
    if (!nonces.add(auth.nonce, x.nowMs + NONCE_WINDOW_MS, x.nowMs)) {
      const wait = Math.max(1, Math.ceil(nonces.msUntilRoom(x.nowMs) / 1000));
      return refuse(x, 'locked_out', `too many requests in the last ${LIMITS.nonceWindowSeconds} s; try again in ${wait} s`, {
        'retry-after': String(wait),
      });
    }
    if (options.replayGuard?.remember) {
      if (timestampSec * 1000 > x.nowMs) options.replayGuard.remember(auth.nonce, timestampSec);
      else if (timestampSec * 1000 > x.nowMs - 1000) {
        if (timestampSec !== currentSecond) {
          currentSecond = timestampSec;
          currentSecondNonces = [];
        }
        currentSecondNonces.push({ nonce: auth.nonce, timestamp: timestampSec });
      }
    }

    if (x.path !== '/healthcheck' && options.license() === 'locked') return reply(x, 423, LICENSE_LOCKED_BODY);

    const allowed = ROUTE_METHODS.get(x.path);
    if (allowed === undefined) return refuse(x, 'route_not_found', `there is no endpoint ${x.method} ${x.path}`);
    if (x.method !== allowed) {
      return refuse(x, 'method_not_allowed', `${x.path} accepts ${allowed} only`, { allow: allowed });
    }
    const path = x.path as RoutePath;
    if (path === '/healthcheck') return reply(x, 200, healthBody());

    if (allowed === 'GET') {
      let input: unknown;
      if (path === '/activities/search') {
        const q = target.indexOf('?');
        const query = validateQuery('/activities/search', q === -1 ? '' : target.slice(q + 1));
        if (!query.ok) return replyOutcome(x, invalid(query.problems));
        input = query.value;
      }
      return replyWhenDone(x, run(path, input));
    }

    let json: unknown;
    if (body.length > 0) {
      if (!isJsonContentType(headers['content-type'])) {
        return refuse(x, 'unsupported_media_type', 'a request body must be sent with Content-Type: application/json');
      }
      const parsed = parseJson(body);
      if (!parsed.ok) return refuse(x, 'invalid_json', 'the request body is not valid UTF-8 JSON');
      json = parsed.value;
    }
    const validated = validateBody(path as BodyRoute, json, { nowMs: x.nowMs });
    if (!validated.ok) return replyOutcome(x, invalid(validated.problems));

    const idempotencyKey = idempotencyKeyOf(headers);
    if (idempotencyKey === MALFORMED_KEY) {
      return replyOutcome(
        x,
        invalid([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 64 characters of A-Z a-z 0-9 _ -' }]),
      );
    }
    if (idempotencyKey === undefined) return replyWhenDone(x, runWrite(path, validated.value));
    return answerOnce(x, idempotencyKey, bodySha256, () => run(path, validated.value));
  }

  /**
   * docs/protocol.md "Request signing" idempotency: the first 2xx answer under a key is replayed for the same request.
   * The stored answer is looked up, and a new one saved, in the store's transaction together
   * with the use case (`atomically`), so a crash can never keep the work and lose its key.
   */
  async function answerOnce(
    x: Exchange,
    key: string,
    bodySha256: string,
    work: () => Outcome | Promise<Outcome>,
  ): Promise<void> {
    for (let pending = inFlight.get(key); pending !== undefined; pending = inFlight.get(key)) await pending;
    let finished!: () => void;
    inFlight.set(key, new Promise<void>((resolve) => (finished = resolve)));
    let saved = false;
    const save = (outcome: Outcome): void => {
      if (outcome.status >= 200 && outcome.status < 300) {
        idempotency.save(key, { method: x.method, path: x.path, bodySha256, ...outcome, createdAtMs: x.nowMs });
      }
      saved = true;
    };
    const answer = (): Outcome | Promise<Outcome> => {
      const stored = idempotency.find(key);
      if (stored !== undefined && x.nowMs - stored.createdAtMs < IDEMPOTENCY_WINDOW_MS) {
        saved = true;
        if (stored.method === x.method && stored.path === x.path && stored.bodySha256 === bodySha256) {
          return { status: stored.status, body: stored.body };
        }
        return problemOutcome('idempotency_conflict', 'this Idempotency-Key was used for a different request in the last 24 h; use a new key');
      }
      const outcome = work();
      // In a transaction, a synchronous use case is saved with its key: if the save fails,
      // the work is undone too. Without one, the work stays done whatever the save does.
      if (options.atomically && !(outcome instanceof Promise)) save(outcome);
      return outcome;
    };
    try {
      let outcome: Outcome;
      try {
        // If the transaction fails, nothing was done and the failure is answered like the use
        // case's own (a retry is safe).
        outcome = await (options.atomically ? options.atomically(answer) : answer());
      } catch (error) {
        return replyOutcome(x, failureOutcome(error));
      }
      if (!saved) {
        try {
          save(outcome);
        } catch (error) {
          // The work is done: answering 500 now would invite the retry that logs twice.
          options.onError?.(error);
        }
      }
      replyOutcome(x, outcome);
    } finally {
      inFlight.delete(key);
      finished();
    }
  }

  /** A use case that writes: in the store's transaction when it offers one (answered once saved). */
  function runWrite(path: RoutePath, input: unknown): Outcome | Promise<Outcome> {
    const atomically = options.atomically;
    if (!atomically) return run(path, input);
    try {
      const outcome = atomically(() => run(path, input));
      return outcome instanceof Promise ? outcome.then((done) => done, failureOutcome) : outcome;
    } catch (error) {
      return failureOutcome(error);
    }
  }

  /** Steps 10 and 11: call the use case and turn its result or failure into an answer. */
  function run(path: RoutePath, input: unknown): Outcome | Promise<Outcome> {
    let result: unknown;
    try {
      result = dispatch(options.handlers, path, input);
    } catch (error) {
      return failureOutcome(error);
    }
    if (result === NOT_WIRED) return problemOutcome('not_wired', `${path} is not available in this version of the app`);
    if (isThenable(result)) {
      return Promise.resolve(result).then((value) => successOutcome(path, value), failureOutcome);
    }
    return successOutcome(path, result);
  }

  function failureOutcome(error: unknown): Outcome {
    if (isTockProblem(error)) return problemOutcome(error.code, error.message, error.details);
    options.onError?.(error);
    return problemOutcome('internal_error', INTERNAL_ERROR_MESSAGE);
  }

  function replyWhenDone(x: Exchange, outcome: Outcome | Promise<Outcome>): void | Promise<void> {
    if (outcome instanceof Promise) return outcome.then((done) => replyOutcome(x, done));
    replyOutcome(x, outcome);
  }

  function replyOutcome(x: Exchange, outcome: Outcome): void {
    reply(x, outcome.status, outcome.body);
  }

  /** Hands the nonces dated in the current second to `remember`, for the next run's guard. */
  function rememberCurrentSecond(): void {
    const remember = options.replayGuard?.remember;
    const nowSec = Math.floor(clock() / 1000);
    if (remember && currentSecond >= nowSec) {
      try {
        for (const { nonce, timestamp } of currentSecondNonces) remember(nonce, timestamp);
      } catch (error) {
        options.onError?.(error); // closing must not fail because the store did
      }
    }
    currentSecond = -1;
    currentSecondNonces = [];
  }

  function healthBody(): string {
    return successBody({ status: 'ok', apiVersion: API_VERSION, appVersion: options.appVersion, license: options.license() });
  }

  // ---- the server -----------------------------------------------------------------------

  const server = createServer(
    {
      maxHeaderSize: LIMITS.maxHeaderBytes,
      requireHostHeader: false, // a missing Host is answered 403 forbidden_host, and listed
      ...SERVER_TIMEOUTS,
      ...options.serverTimeouts,
    },
    (req, res) => {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const x: Exchange = {
        req,
        res,
        nowMs: clock(),
        method: req.method ?? 'GET',
        path: q === -1 ? target : target.slice(0, q),
        key: null,
        nonce: null,
        closeAfter: false,
      };
      const unexpected = (error: unknown): void => {
        options.onError?.(error);
        if (!res.headersSent) refuse(x, 'internal_error', INTERNAL_ERROR_MESSAGE);
        else res.destroy();
      };
      try {
        const pending = answer(x);
        if (pending) pending.catch(unexpected);
      } catch (error) {
        unexpected(error);
      }
    },
  );
  server.on('clientError', answerClientError);
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  // Errors while listening (EMFILE, …) must not crash the app; those of listen() reject it.
  server.on('error', (error) => {
    if (server.listening) options.onError?.(error);
  });

  return {
    listen(port: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException): void => {
          server.off('listening', onListening);
          reject(error.code === 'EADDRINUSE' ? new PortInUseError(port) : error);
        };
        const onListening = (): void => {
          server.off('error', onError);
          const address = server.address();
          boundPort = typeof address === 'object' && address !== null ? address.port : port;
          allowedHosts = allowedHostsFor(boundPort);
          resolve();
        };
        if (server.listening) {
          reject(new Error(`the listener is already listening on port ${boundPort}; close it first`));
          return;
        }
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen({ port, host: '127.0.0.1', exclusive: true });
      });
    },
    close(): Promise<void> {
      rememberCurrentSecond();
      return new Promise((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => {
          boundPort = null;
          allowedHosts = new Set();
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      });
    },
    get port() {
      return boundPort;
    },
    requests: () => log.list(),
  };
}

const INTERNAL_ERROR_MESSAGE = 'Tock failed to handle the request; see the app log';
const TOO_LARGE_MESSAGE = `the request body is larger than ${LIMITS.maxBodyBytes / 1024} KiB`;

function successOutcome(path: RoutePath, result: unknown): Outcome {
  return { status: ENDPOINTS[path].successStatus, body: successBody(result) };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function successBody(result: unknown): string {
  return `{"ok":true,"result":${JSON.stringify(result) ?? 'null'}}`;
}

function problemOutcome(code: ErrorCode, message: string, details?: FieldProblem[]): Outcome {
  const status = ERROR_STATUS[code];
  if (status === 423) return { status, body: LICENSE_LOCKED_BODY };
  const envelope = details && details.length > 0 ? { ok: false, error: message, code, details } : { ok: false, error: message, code };
  return { status, body: JSON.stringify(envelope) };
}

function invalid(problems: FieldProblem[]): Outcome {
  const problem = validationProblem(problems);
  return problemOutcome(problem.code, problem.message, problem.details);
}

function isTockProblem(error: unknown): error is TockProblem {
  if (error instanceof TockProblem) return true;
  // A second copy of @tock/protocol (bundling) still throws problems of the same shape.
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { name?: unknown; code?: unknown; message?: unknown };
  return candidate.name === 'TockProblem' && typeof candidate.code === 'string' && Object.hasOwn(ERROR_STATUS, candidate.code);
}

/** Calls the use case behind a path; {@link NOT_WIRED} when the app has not provided it. */
function dispatch(handlers: Partial<ListenerHandlers>, path: RoutePath, input: unknown): unknown {
  switch (path) {
    case '/current':
      return handlers.getCurrent ? handlers.getCurrent() : NOT_WIRED;
    case '/status':
      return handlers.getStatus ? handlers.getStatus() : NOT_WIRED;
    case '/activities/search':
      return handlers.searchActivities ? handlers.searchActivities(input as { q: string; limit: number }) : NOT_WIRED;
    case '/activities/start':
      return handlers.startActivity ? handlers.startActivity(input as Parameters<ListenerHandlers['startActivity']>[0]) : NOT_WIRED;
    case '/activities/stop':
      return handlers.stopActivity ? handlers.stopActivity() : NOT_WIRED;
    case '/entries':
      return handlers.logEntry ? handlers.logEntry(input as Parameters<ListenerHandlers['logEntry']>[0]) : NOT_WIRED;
    case '/branch-changed':
      return handlers.branchChanged ? handlers.branchChanged(input as Parameters<ListenerHandlers['branchChanged']>[0]) : NOT_WIRED;
    case '/healthcheck':
      return NOT_WIRED;
  }
}

/** Reads the body up to `limit` bytes; stops reading (and drops the rest) beyond it. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE | typeof ABORTED> {
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

/**
 * Requests the HTTP parser refused (headers over 16 KiB, malformed, too slow) never reach
 * the handler; they get a short answer with the usual headers, then the connection closes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
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
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `X-Tock-Api-Version: ${API_VERSION}\r\n` +
      'Cache-Control: no-store\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
