/**
 * Test helper: builds signed requests with node:crypto (independently of the listener's own
 * code), sends them over real HTTP, and starts listeners on an ephemeral port with an
 * injected clock and stub handlers that record their inputs.
 */

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { TestContext } from 'node:test';
import { Problem, validationProblem, type LicenseState } from '@tock/protocol';
import { createListener, type Listener, type ListenerHandlers, type ListenerOptions } from '../src/index.ts';

export const TOKEN = 'Zm9vYmFyYmF6cXV4LXRlc3QtdG9rZW4tMDEyMzQ1Njc';
/** 2026-11-19T…: a fixed start for the injected clock. */
export const START_MS = 1_795_000_000_000;

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function hmac(token: string, text: string): string {
  return createHmac('sha256', Buffer.from(token, 'utf8')).update(text, 'utf8').digest('hex');
}

let nonceCounter = 0;
/** A fresh nonce per call (random, plus a counter so that two calls never collide). */
export function freshNonce(): string {
  return `${randomBytes(12).toString('base64url')}_${(nonceCounter++).toString(36)}`;
}

export interface SignInput {
  method: string;
  target: string;
  body: string | Uint8Array;
  timestamp: string;
  nonce: string;
  token?: string;
}

/** The three auth headers of docs/protocol.md "Request signing" for a request. */
export function authHeaders(input: SignInput): Record<string, string> {
  const text = ['TOCK-HMAC-SHA256', input.timestamp, input.nonce, input.method.toUpperCase(), input.target, sha256(input.body)].join(
    '\n',
  );
  return {
    'x-tock-timestamp': input.timestamp,
    'x-tock-nonce': input.nonce,
    'x-tock-signature': 'v1=' + hmac(input.token ?? TOKEN, text),
  };
}

/** The response signature a correct server sends (docs/protocol.md "Request signing"). */
export function expectedResponseSignature(nonce: string, status: number, body: string, token = TOKEN): string {
  return 'v1=' + hmac(token, ['TOCK-HMAC-SHA256-RESPONSE', nonce, String(status), sha256(body)].join('\n'));
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed body, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read the fields of the answer they assert on (`answer.json.code`); typing each would restate the schemas
  json: any;
  /** The nonce the request was signed with (undefined when unsigned). */
  nonce: string | undefined;
}

export interface SendOptions {
  method?: string;
  target?: string;
  body?: string | Uint8Array;
  /** Extra or replacing headers; a `null` value removes a header the helper would add. */
  headers?: Record<string, string | string[] | null>;
  /** Unix seconds; default: the harness clock. */
  timestamp?: number | string;
  nonce?: string;
  token?: string;
  /** false: send no auth headers. */
  sign?: boolean;
  /** Write the body in these chunks with Transfer-Encoding: chunked. */
  chunks?: Uint8Array[];
}

/** Sends one HTTP request to 127.0.0.1:port and collects the answer. */
export function sendRaw(
  port: number,
  method: string,
  target: string,
  headers: OutgoingHttpHeaders,
  body?: string | Uint8Array,
  chunks?: Uint8Array[],
): Promise<Omit<Answer, 'nonce'>> {
  if (!chunks && body !== undefined && headers['content-length'] === undefined) {
    // Node sends a GET body without framing unless told its length
    headers = { ...headers, 'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength };
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, headers, setHost: false, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (chunks) {
      for (const chunk of chunks) req.write(chunk);
      req.end();
    } else req.end(body);
  });
}

export interface Harness {
  listener: Listener;
  port: number;
  clock: { now: number };
  license: { state: LicenseState };
  token: { value: string | null };
  /** Inputs each handler received, by handler name. */
  calls: Record<string, unknown[]>;
  send(options?: SendOptions): Promise<Answer>;
  /** Sends a request whose auth headers are well formed but whose signature is wrong. */
  sendBadSignature(options?: SendOptions): Promise<Answer>;
}

export const ACTIVITY = { activityID: '0b7e4c1a-6f1d-4a53-9d2b-3f1e8c0a9b12', activityName: 'Writing' };

/** Stub use cases: they record their inputs and answer fixed results. */
export function stubHandlers(calls: Record<string, unknown[]>): ListenerHandlers {
  const record = (name: string, input?: unknown): void => {
    (calls[name] ??= []).push(input);
  };
  return {
    getCurrent: () => (record('getCurrent'), ACTIVITY),
    getStatus: () => (
      record('getStatus'),
      { isTracking: true, isOnBreak: false, currentActivity: ACTIVITY, todaySeconds: 60, since: '2026-11-19T08:00:00.000Z' }
    ),
    searchActivities: (input) => (record('searchActivities', input), [ACTIVITY]),
    startActivity: async (input) => (
      record('startActivity', input), { ...ACTIVITY, created: false, startedAt: '2026-11-19T08:00:00.000Z' }
    ),
    stopActivity: () => (record('stopActivity'), null),
    logEntry: async (input) => {
      record('logEntry', input);
      return {
        entryID: '7d1f0c2e-1111-4a53-9d2b-3f1e8c0a9b12',
        activity: ACTIVITY,
        created: false,
        startedAt: '2026-11-19T07:00:00.000Z',
        endedAt: '2026-11-19T08:00:00.000Z',
        durationMinutes: input.durationMinutes,
        note: input.note ?? null,
      };
    },
    branchChanged: (input) => (
      record('branchChanged', input),
      {
        promptID: '5c3e9a7b-2222-4a53-9d2b-3f1e8c0a9b12',
        branch: input.branch,
        repo: input.repo ?? null,
        previousBranch: input.previousBranch ?? null,
      }
    ),
    getReport: (input) => {
      record('getReport', input);
      // The range is the use case's to check (it knows today): here, only its order.
      if (input.from !== undefined && input.to !== undefined && input.to < input.from) {
        throw validationProblem([{ field: 'to', message: 'must not be before from' }]);
      }
      return { from: input.from ?? '2026-11-19', to: input.to ?? '2026-11-19', timeZone: 'UTC', totalSeconds: 0, overlapSeconds: 0, rows: [], amounts: [], targetSeconds: null, balanceSeconds: null };
    },
    getSuggestions: (input) => (record('getSuggestions', input), { date: input.date ?? '2026-11-19', suggestions: [] }),
    acceptSuggestion: (input) => {
      record('acceptSuggestion', input);
      if (input.id === 'gone') throw new Problem('suggestion_not_found', 'no suggestion gone');
      return {
        entryID: '7d1f0c2e-1111-4a53-9d2b-3f1e8c0a9b12',
        activity: { ...ACTIVITY, activityName: input.activityName ?? ACTIVITY.activityName },
        created: false,
        startedAt: '2026-11-19T07:00:00.000Z',
        endedAt: '2026-11-19T08:00:00.000Z',
        durationMinutes: 60,
        note: 'from capture',
      };
    },
  };
}

/**
 * Starts a listener on an ephemeral port with an injected clock; closes it after the test.
 * The restart guard starts an hour before the clock unless `options.replayGuard` says otherwise.
 */
export async function startHarness(t: TestContext, options: Partial<ListenerOptions> = {}): Promise<Harness> {
  const clock = { now: START_MS };
  const license = { state: 'trial' as LicenseState };
  const token = { value: TOKEN as string | null };
  const calls: Record<string, unknown[]> = {};
  const listener = createListener({
    token: () => token.value,
    clock: () => clock.now,
    license: () => license.state,
    appVersion: '1.2.3',
    handlers: stubHandlers(calls),
    replayGuard: { startedAtMs: START_MS - 3_600_000 },
    ...options,
  });
  await listener.listen(0);
  const port = listener.port as number;
  t.after(() => listener.close());

  const send = async (o: SendOptions = {}, corrupt = false): Promise<Answer> => {
    const method = o.method ?? 'GET';
    const target = o.target ?? '/status';
    const body = o.body ?? '';
    const bodyBytes = o.chunks ? Buffer.concat(o.chunks) : body;
    const headers: OutgoingHttpHeaders = { host: `127.0.0.1:${port}` };
    if (typeof body === 'string' ? body.length > 0 : body.byteLength > 0) headers['content-type'] = 'application/json';
    let nonce: string | undefined;
    if (o.sign !== false) {
      nonce = o.nonce ?? freshNonce();
      const auth = authHeaders({
        method,
        target,
        body: bodyBytes,
        timestamp: String(o.timestamp ?? Math.floor(clock.now / 1000)),
        nonce,
        token: o.token ?? TOKEN,
      });
      if (corrupt) auth['x-tock-signature'] = 'v1=' + (auth['x-tock-signature'] as string).slice(3).split('').reverse().join('');
      Object.assign(headers, auth);
    }
    for (const [name, value] of Object.entries(o.headers ?? {})) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    const answer = await sendRaw(port, method, target, headers, body, o.chunks);
    return { ...answer, nonce };
  };
  return {
    listener,
    port,
    clock,
    license,
    token,
    calls,
    send: (o) => send(o),
    sendBadSignature: (o) => send(o, true),
  };
}
