/**
 * The listener's HTTP wiring: node:http, the order of docs/protocol.md "Order of checks on the
 * server", and writing answers (headers, response signature, the request list). What each step
 * decides lives elsewhere: steps 1–6 in {@link Gate} (gate.ts), which endpoint is answered by
 * what in the route table (routes.ts), request rules in @tock/protocol, envelopes in
 * envelopes.ts, Idempotency-Key in idempotency.ts. Knows no SQL: the use cases arrive as
 * injected handlers.
 */

import { createLimitedServer } from './connection-limits.ts';
import { API_VERSION, EVENT_LIMITS, LAST_EVENT_ID_HEADER, LICENSE_LOCKED_BODY, LIMITS, WAKATIME_PREFIX, type ErrorCode } from '@tock/protocol';
import { MALFORMED_KEY, hasBody, idempotencyKeyOf, isJsonContentType, parseJson } from './checks.ts';
import {
  INTERNAL_ERROR_MESSAGE,
  TOO_LARGE_MESSAGE,
  failureOutcome,
  invalidOutcome,
  problemOutcome,
  successBody,
  type Outcome,
} from './envelopes.ts';
import { EventStreams } from './event-streams.ts';
import { Gate, isRefusal, type Refusal, type SignedRefusal } from './gate.ts';
import { createIdempotentRunner, memoryIdempotencyStore } from './idempotency.ts';
import { answerClientError } from './parser-errors.ts';
import { portInUse } from './port-in-use.ts';
import { ABORTED, TOO_LARGE, readBody } from './read-body.ts';
import { RequestLog, toRecord } from './request-log.ts';
import { NOT_WIRED, ROUTES_BY_PATH, type Route } from './routes.ts';
import type { HmacKey } from './signature.ts';
import { answerHeaders, type Exchange } from './exchange.ts';
import type { Listener, ListenerOptions } from './types.ts';
import { createWakatimeDoor, type DoorAnswer } from './wakatime/door.ts';

/**
 * Most connections open at once; more are closed as soon as they are accepted. Keeps a flood
 * of idle sockets from using up the app's file descriptors (its database and window need
 * some); far above what local clients open (the TS client's fetch opens one per request in flight).
 */
export const MAX_CONNECTIONS = 1024;

/** About 75 MB of nonces at most (70–75 B per nonce at the bound, measured by bench/, outside the JS heap); reached when verified requests average > 5 500/s for 180 s. */
const DEFAULT_MAX_NONCES = 1_000_000;
const EMPTY = Buffer.alloc(0);

/** Creates the listener; nothing is bound until {@link Listener.listen}. */
export function createListener(options: ListenerOptions): Listener {
  const clock = options.clock ?? Date.now;
  const onError = options.onError;
  const gate = new Gate({
    token: options.token,
    clock,
    monotonic: options.monotonic ?? clock,
    maxNonces: options.maxNonces ?? DEFAULT_MAX_NONCES,
    replayGuard: options.replayGuard,
    onError,
  });
  const log = new RequestLog();
  const streams = new EventStreams({
    clock,
    ...options.events,
    // A stream never outlives its token, nor a license that locked.
    stillAllowed: (key) => gate.isCurrentKey(key) && options.license() !== 'locked',
  });
  const failure = (error: unknown): Outcome => failureOutcome(error, onError);
  const answerOnce = createIdempotentRunner({
    store: options.idempotency ?? memoryIdempotencyStore(),
    atomically: options.atomically,
    failure,
    onError,
  });
  // The WakaTime paths: a door of their own with their own auth and lockout (wakatime/door.ts).
  const door = createWakatimeDoor({
    editorKey: options.wakatime?.editorKey ?? (() => null),
    handlers: options.wakatime?.handlers ?? {},
    license: options.license,
    monotonic: options.monotonic ?? clock,
    atomically: options.atomically,
    onError,
  });
  let boundPort: number | null = null;

  // ---- answering ------------------------------------------------------------------------

  function reply(x: Exchange, status: number, body: string, extra?: Record<string, string>): void {
    x.res.writeHead(status, answerHeaders(x, status, body, extra));
    x.res.end(body);
    record(x, status);
  }

  /** Adds the request to the request list and tells the application. */
  function record(x: Exchange, status: number): void {
    log.add(x.nowMs, x.method, x.path, status);
    if (options.onRequest) {
      try {
        options.onRequest(toRecord({ timeMs: x.nowMs, method: x.method, path: x.path, status }));
      } catch (error) {
        onError?.(error);
      }
    }
  }

  function refuse(x: Exchange, code: ErrorCode, message: string, extra?: Record<string, string>): void {
    const outcome = problemOutcome(code, message);
    reply(x, outcome.status, outcome.body, extra);
  }

  function refuseWith(x: Exchange, refusal: Refusal): void {
    refuse(x, refusal.code, refusal.message, refusal.extra);
  }

  function replyOutcome(x: Exchange, outcome: Outcome): void {
    reply(x, outcome.status, outcome.body);
  }

  function replyWhenDone(x: Exchange, outcome: Outcome | Promise<Outcome>): void | Promise<void> {
    if (outcome instanceof Promise) return outcome.then((done) => replyOutcome(x, done));
    replyOutcome(x, outcome);
  }

  /** A request under `/wakatime/`: the door decides, the answer is written (and listed) here. */
  function answerWakatime(x: Exchange): void | Promise<void> {
    const write = (answer: DoorAnswer | undefined): void => {
      if (answer === undefined) return; // the client went away
      if (answer.closeAfter) x.closeAfter = true;
      reply(x, answer.status, answer.body, answer.extra);
    };
    const answered = door.answer(x.req, x.method, x.path);
    if (answered instanceof Promise) return answered.then(write);
    write(answered);
  }

  // ---- the checks, in order ---------------------------------------------------------------

  /**
   * Steps 1–4, then reads the body if there is one. Synchronous up to the handler when there
   * is no body and the handler answers synchronously: GETs pay no promise round trips.
   */
  function answer(x: Exchange): void | Promise<void> {
    const refused = gate.beforeBody(x.req.headers);
    if (refused !== undefined) return refuseWith(x, refused);
    if (!hasBody(x.req.headers)) return answerWithBody(x, EMPTY);
    return readBody(x.req, LIMITS.maxBodyBytes).then((read) => {
      if (read === ABORTED) return;
      if (read === TOO_LARGE) {
        x.closeAfter = true;
        return refuse(x, 'payload_too_large', TOO_LARGE_MESSAGE);
      }
      return answerWithBody(x, read);
    });
  }

  /** Steps 5–6 (the gate), 7 (license), 8 (route), 9 (input), then the use case. */
  function answerWithBody(x: Exchange, body: Buffer): void | Promise<void> {
    const admitted = gate.authenticate(x.req.headers, x.method, x.target, body, x.nowMs);
    if (isRefusal(admitted)) {
      const signedBy = (admitted as SignedRefusal).signedBy;
      if (signedBy !== undefined) {
        x.key = signedBy.key;
        x.nonce = signedBy.nonce;
      }
      return refuseWith(x, admitted);
    }
    x.key = admitted.key;
    x.nonce = admitted.nonce;

    const route = ROUTES_BY_PATH.get(x.path);
    if (!route?.whileLocked && options.license() === 'locked') return reply(x, 423, LICENSE_LOCKED_BODY);
    if (route === undefined) return refuse(x, 'route_not_found', `there is no endpoint ${x.method} ${x.path}`);
    if (x.method !== route.method) {
      return refuse(x, 'method_not_allowed', `${x.path} accepts ${route.method} only`, { allow: route.method });
    }
    if (route.builtIn === 'health') return reply(x, 200, healthBody());
    if (route.builtIn === 'events') return openStream(x, admitted.key, admitted.nonce);

    if (!route.writes) {
      let input: unknown;
      if (route.readQuery !== null) {
        const q = x.target.indexOf('?');
        const query = route.readQuery(q === -1 ? '' : x.target.slice(q + 1));
        if (!query.ok) return replyOutcome(x, invalidOutcome(query.problems));
        input = query.value;
      }
      return replyWhenDone(x, run(route, input));
    }

    let json: unknown;
    if (body.length > 0) {
      if (!isJsonContentType(x.req.headers['content-type'])) {
        return refuse(x, 'unsupported_media_type', 'a request body must be sent with Content-Type: application/json');
      }
      const parsed = parseJson(body);
      if (!parsed.ok) return refuse(x, 'invalid_json', 'the request body is not valid UTF-8 JSON');
      json = parsed.value;
    }
    let input: unknown = json;
    if (route.readBody !== null) {
      const validated = route.readBody(json, x.nowMs);
      if (!validated.ok) return replyOutcome(x, invalidOutcome(validated.problems));
      input = validated.value;
    }

    const idempotencyKey = idempotencyKeyOf(x.req.headers);
    if (idempotencyKey === MALFORMED_KEY) {
      return replyOutcome(
        x,
        invalidOutcome([{ field: 'Idempotency-Key', message: 'must be 1 to 64 characters of A-Z a-z 0-9 _ -' }]),
      );
    }
    if (idempotencyKey === undefined) return replyWhenDone(x, runWrite(route, input));
    const keyed = { key: idempotencyKey, method: x.method, path: x.path, bodySha256: admitted.bodySha256, nowMs: x.nowMs };
    return answerOnce(keyed, () => run(route, input), (outcome) => replyOutcome(x, outcome));
  }

  /** A use case that writes: in the store's transaction when it offers one (answered once saved). */
  function runWrite(route: Route, input: unknown): Outcome | Promise<Outcome> {
    const atomically = options.atomically;
    if (!atomically) return run(route, input);
    try {
      const outcome = atomically(() => run(route, input));
      return outcome instanceof Promise ? outcome.then((done) => done, failure) : outcome;
    } catch (error) {
      return failure(error);
    }
  }

  /** Steps 10 and 11: call the use case and turn its result or failure into an answer. */
  function run(route: Route, input: unknown): Outcome | Promise<Outcome> {
    let result: unknown;
    try {
      result = route.call(options.handlers, input);
    } catch (error) {
      return failure(error);
    }
    if (result === NOT_WIRED) return problemOutcome('not_wired', `${route.path} is not available in this version of the app`);
    if (isThenable(result)) {
      return Promise.resolve(result).then((value) => ({ status: route.successStatus, body: successBody(value) }), failure);
    }
    return { status: route.successStatus, body: successBody(result) };
  }

  /**
   * `GET /events` (docs/protocol.md "The event stream"): at most 16 streams (429
   * too_many_streams, not a failed authentication); a stream that cannot resume starts with
   * the current status, so `getStatus` must be wired. Listed once, with status 200, when it opens.
   */
  function openStream(x: Exchange, key: HmacKey, nonce: string): void | Promise<void> {
    if (!streams.hasRoom) {
      return refuse(
        x,
        'too_many_streams',
        `at most ${EVENT_LIMITS.maxStreams} event streams may be open at once; close one, then try again`,
      );
    }
    const header = x.req.headers[LAST_EVENT_ID_HEADER];
    const lastEventId = typeof header === 'string' ? header : undefined;
    try {
      options.beforeStreamOpens?.();
    } catch (error) {
      onError?.(error); // the stream opens all the same, with the status read below
    }
    const start = (status: unknown): void => {
      if (x.res.destroyed) return; // the client left while the status was read
      streams.start(x.res, { key, nonce, lastEventId, status: () => status });
      record(x, 200);
    };
    if (streams.canResume(lastEventId)) return start(null);
    const getStatus = options.handlers.getStatus;
    if (!getStatus) return replyOutcome(x, problemOutcome('not_wired', '/events is not available in this version of the app'));
    let status: unknown;
    try {
      status = getStatus.call(options.handlers);
    } catch (error) {
      return replyOutcome(x, failure(error));
    }
    if (!isThenable(status)) return start(status);
    return Promise.resolve(status).then(start, (error: unknown) => replyOutcome(x, failure(error)));
  }

  function healthBody(): string {
    return successBody({ status: 'ok', apiVersion: API_VERSION, appVersion: options.appVersion, license: options.license() });
  }

  // ---- the server -----------------------------------------------------------------------

  const { server } = createLimitedServer(
    {
      maxConnections: options.maxConnections ?? MAX_CONNECTIONS,
      whenFull: 'refuse',
      serverTimeouts: options.serverTimeouts,
      limits: options.connectionLimits,
      http: {
        maxHeaderSize: LIMITS.maxHeaderBytes,
        requireHostHeader: false, // a missing Host is answered 403 forbidden_host, and listed
      },
    },
    (req, res) => {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const x: Exchange = {
        req,
        res,
        nowMs: clock(),
        method: req.method ?? 'GET',
        target,
        path: q === -1 ? target : target.slice(0, q),
        key: null,
        nonce: null,
        closeAfter: false,
      };
      try {
        const pending = x.path.startsWith(WAKATIME_PREFIX) ? answerWakatime(x) : answer(x);
        if (pending !== undefined) pending.catch((error: unknown) => unexpected(x, error));
      } catch (error) {
        unexpected(x, error);
      }
    },
  );

  /** A failure of the listener's own code while answering: a 500 if nothing was sent yet. */
  function unexpected(x: Exchange, error: unknown): void {
    onError?.(error);
    if (!x.res.headersSent) refuse(x, 'internal_error', INTERNAL_ERROR_MESSAGE);
    else x.res.destroy();
  }
  server.on('clientError', answerClientError);
  // Errors while listening (EMFILE, …) must not crash the app; those of listen() reject it.
  server.on('error', (error) => {
    if (server.listening) onError?.(error);
  });

  return {
    listen(port: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const onListenError = (error: NodeJS.ErrnoException): void => {
          server.off('listening', onListening);
          reject(error.code === 'EADDRINUSE' ? portInUse(port) : error);
        };
        const onListening = (): void => {
          server.off('error', onListenError);
          const address = server.address();
          boundPort = typeof address === 'object' && address !== null ? address.port : port;
          gate.bindTo(boundPort);
          door.bindTo(boundPort);
          resolve();
        };
        if (server.listening) {
          reject(new Error(`the listener is already listening on port ${boundPort}; close it first`));
          return;
        }
        server.once('error', onListenError);
        server.once('listening', onListening);
        server.listen({ port, host: '127.0.0.1', exclusive: true });
      });
    },
    close(): Promise<void> {
      gate.rememberCurrentSecond();
      // Open streams would hold server.close() forever; they end with the listener.
      streams.endAll('closed');
      return new Promise((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => {
          boundPort = null;
          gate.bindTo(null);
          door.bindTo(null);
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
    publish: (type, data) => streams.publish(type, data),
    endStreams: () => streams.endAll('closed'),
    get openStreams() {
      return streams.open;
    },
    runId: streams.runId,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
